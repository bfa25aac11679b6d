# SPDX-License-Identifier: MIT
"""What the generators (gen-header-tables.py, gen-sizes.py, gen-limits.py) share: compare each
generated file with the text it should hold, then rewrite the stale ones or, with --check, show
their diffs. Standard library only."""
from __future__ import annotations

import argparse
import difflib
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any, Callable


class DataError(Exception):
    """A data file is not in the form its generator reads; the message says where."""


def read_rows(root: Path, data: str, key: str, fields: tuple[str, ...]) -> list[tuple[str, dict[str, Any]]]:
    """The rows of DATA's list KEY (its \"count\" saying how many), each with exactly FIELDS, beside
    the words that name it in a message (\"data/x.json: row 3\"). Anything else is refused, never skipped."""
    try:
        document = json.loads((root / data).read_text(encoding="utf-8"))
    except ValueError as error:
        raise DataError(f"{data}: not JSON: {error}") from None
    rows = document.get(key) if isinstance(document, dict) else None
    if not isinstance(rows, list) or not rows or document.get("count") != len(rows):
        raise DataError(f'{data}: "{key}" is not a non-empty list of "count" {key}')
    read = []
    for number, row in enumerate(rows, 1):
        where = f"{data}: {key.removesuffix('s')} {number}"
        if not isinstance(row, dict) or sorted(row) != sorted(fields):
            raise DataError(f"{where}: has not exactly the fields {', '.join(fields)}")
        read.append((where, row))
    return read


def write_atomically(path: Path, text: str) -> None:
    """Replaces PATH at once: written under an exclusive temporary name, then renamed."""
    mode = path.stat().st_mode & 0o777 if path.exists() else 0o644
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            file.write(text)
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise


def sync(files: dict[str, str], root: Path, check: bool, tool: str, source: str) -> int:
    """Each of FILES (path below ROOT -> its text) made current, or with CHECK only compared:
    exit status 1 and a diff for each stale one. TOOL names the script, SOURCE what it reads."""
    stale = []
    for relative, text in files.items():
        path = root / relative
        current = path.read_text(encoding="utf-8") if path.exists() else ""
        if current == text:
            continue
        stale.append(relative)
        if check:
            diff = difflib.unified_diff(current.splitlines(keepends=True), text.splitlines(keepends=True),
                                        f"{relative} (as it is)", f"{relative} (from {source})")
            sys.stdout.writelines(diff)
        else:
            write_atomically(path, text)
    if check:
        print(f"{tool}: {len(files)} files, {len(stale)} stale"
              + (f" ({', '.join(stale)}): run scripts/{tool}.py" if stale else ""),
              file=sys.stderr if stale else sys.stdout)
        return 1 if stale else 0
    print(f"{tool}: {len(files)} files, {len(stale)} rewritten" + (f": {', '.join(stale)}" if stale else ""))
    return 0


def main(doc: str, root: Path, expected: Callable[[Path], dict[str, str]], tool: str, source: str,
         refused: tuple[type[Exception], ...]) -> int:
    """The command line of a generator that reads one data file: DOC's first paragraph is its
    description; EXPECTED gives each file's text from a tree (ROOT, or --root); an error of REFUSED
    (the data cannot be read whole) is one line and exit status 2, and nothing is written."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 with a diff if a file is stale")
    parser.add_argument("--root", type=Path, default=root, help="the tree to read and write (default: this one)")
    args = parser.parse_args()
    caught: tuple[type[Exception], ...] = (*refused, OSError)
    try:
        files = expected(args.root)
    except caught as error:
        print(f"{tool}: {error}", file=sys.stderr)
        return 2
    return sync(files, args.root, args.check, tool, source)
