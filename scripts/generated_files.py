# SPDX-License-Identifier: MIT
"""What the generators (gen-header-tables.py, gen-sizes.py) share: compare each generated file
with the text it should hold, then rewrite the stale ones or, with --check, show their diffs.
Standard library only."""
from __future__ import annotations

import difflib
import os
import sys
import tempfile
from pathlib import Path


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
