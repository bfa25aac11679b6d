# SPDX-License-Identifier: MIT
"""scripts/gen-header-tables.py, which writes the copies of the header's status codes and options
(issue 30, "facts written once"). Run on a copy of the files it reads and writes, so the tree is
never touched: a number changed in the header makes --check fail with a diff and the script write
every copy; an enum it cannot read whole is refused, never half-read. (ctest
header_tables_are_current runs --check on the tree itself.)"""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path
from typing import Callable

import pytest

from libtest import REPO

SCRIPT = "scripts/gen-header-tables.py"
#: What the script writes, and all it reads and writes, relative to the repository.
GENERATED = ["Sources/FlickrCore/HeaderTables.swift", "bindings/python/flickr/_header.py", "docs/conventions.md"]
FILES = [SCRIPT, "include/flickr/common.h", "include/flickr/context.h", "include/flickr/client.h",
         "include/flickr/methods.h", *GENERATED]


#: What the generators import, beside them.
SHARED = ["scripts/generated_files.py", "scripts/header_enums.py"]


def copied(tmp_path: Path, names: list[str]) -> Path:
    """A tree of the repository's NAMES (and the generators' shared module) below TMP_PATH."""
    for name in [*names, *SHARED]:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO / name, tmp_path / name)
    return tmp_path


def run_script(tree: Path, script: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(tree / script), *args], capture_output=True, text=True, timeout=60)


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    return copied(tmp_path, FILES)


def run(tree: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return run_script(tree, SCRIPT, *args)


def edit(tree: Path, name: str, old: str, new: str) -> None:
    path = tree / name
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} is not in {name}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_a_changed_number_is_caught_then_written_everywhere(tree):
    assert run(tree, "--check").returncode == 0, "the copy starts current"
    # Numbers no other enumerator has (codes and options are appended after these).
    edit(tree, "include/flickr/common.h", "FLICKR_ENOTFOUND = -15", "FLICKR_ENOTFOUND = -40")
    edit(tree, "include/flickr/context.h", "FLICKR_OPT_CHECK_ARGUMENTS = 113", "FLICKR_OPT_CHECK_ARGUMENTS = 140")
    check = run(tree, "--check")
    print(check.stderr.strip())
    assert check.returncode == 1 and "3 files, 3 stale" in check.stderr
    for line in ("+        case notFound = -40", "+ENOTFOUND: Final = -40", '+    "check_arguments": 140,',
                 "+    case checkArguments = 140", "+| `FLICKR_ENOTFOUND` | -40 |"):
        assert line in check.stdout, f"the diff lacks {line!r}"
    before = {name: (tree / name).read_text() for name in GENERATED}
    assert run(tree).returncode == 0
    assert run(tree, "--check").returncode == 0
    changed = [name for name in GENERATED if (tree / name).read_text() != before[name]]
    assert changed == GENERATED
    assert "ENOTFOUND: Final = -40\n" in (tree / "bindings/python/flickr/_header.py").read_text()


@pytest.mark.parametrize(("header", "old", "new", "message"), [
    ("include/flickr/context.h", "FLICKR_OPT_CHECK_ARGUMENTS = 113", "FLICKR_OPT_CHECK_ARGUMENTS = 100 + 13",
     "cannot read '+ 13"),
    ("include/flickr/common.h", "FLICKR_ESTATE = -14", "FLICKR_ESTATE = -13", "value used twice: -13"),
    ("include/flickr/common.h", '/** "not found": No such', "/** No such",
     "FLICKR_ENOTFOUND: the comment must start with its flickr_strerror() text"),
    ("include/flickr/context.h", "    /** REST endpoint URL (http or https).", "    /* REST endpoint URL.",
     "cannot read"),
])
def test_an_enum_it_cannot_read_whole_is_refused(tree, header, old, new, message):
    edit(tree, header, old, new)
    assert_refused(lambda *args: run(tree, *args), tree, GENERATED, message)


def assert_refused(script: Callable[..., subprocess.CompletedProcess[str]], tree: Path, generated: list[str],
                   message: str) -> None:
    """SCRIPT (run with the arguments given) refuses what it reads, with and without --check: exit
    status 2, one line naming MESSAGE, and none of the GENERATED files below TREE written."""
    before = {name: (tree / name).read_text() for name in generated}
    for args in ((), ("--check",)):
        result = script(*args)
        assert (result.returncode, result.stdout) == (2, ""), result
        assert message in result.stderr and len(result.stderr.splitlines()) == 1, result.stderr
    assert {name: (tree / name).read_text() for name in generated} == before, "what was half-read was written"
    print(result.stderr.strip())


def test_a_changed_verb_or_permission_is_caught_then_written_everywhere(tree):
    """GET/POST/METHOD_VERB (client.py's) and the permissions' names (api.py's, the Swift catalogue's)
    are generated from their enums too: a copy cannot drift from the header."""
    edit(tree, "include/flickr/client.h", "FLICKR_METHOD_VERB = 2", "FLICKR_METHOD_VERB = 7")
    edit(tree, "include/flickr/methods.h", "FLICKR_PERM_WRITE = 2,  /**<", "FLICKR_PERM_EDIT = 2,  /**<")
    check = run(tree, "--check")
    print(check.stderr.strip())
    assert check.returncode == 1 and "3 files, 2 stale" in check.stderr, check.stderr  # the docs hold neither
    for line in ("+METHOD_VERB: Final = 7", '+PERMISSIONS: Final = ("none", "read", "edit", "delete")',
                 "+        case none = 0, read = 1, edit = 2, delete = 3", '+            case .edit: "edit"'):
        assert line in check.stdout, f"the diff lacks {line!r}"
    assert run(tree).returncode == 0 and run(tree, "--check").returncode == 0


@pytest.mark.parametrize(("header", "old", "new", "message"), [
    ("include/flickr/methods.h", "FLICKR_PERM_DELETE = 3", "FLICKR_PERM_DELETE = 4", "values are not 0 to 3"),
    ("include/flickr/client.h", "FLICKR_GET = 0,   /**< The parameters", "FLICKR_GET = 0,   /* The parameters",
     "cannot read"),
    ("include/flickr/client.h", "FLICKR_POST = 1,", "FLICKR_POST = 0,", "value used twice: 0"),
])
def test_a_verb_or_permission_enum_it_cannot_read_whole_is_refused(tree, header, old, new, message):
    test_an_enum_it_cannot_read_whole_is_refused(tree, header, old, new, message)


def test_the_binding_names_the_verbs_and_permissions_only_through_the_generated_table():
    """client.py and api.py import them from _header and write none of their numbers or names."""
    import ast

    from flickr import _header, api, client

    # The verbs are defined where both clients share them (_core); client.py re-exports them.
    for module, names in (("_core", {"GET", "POST", "METHOD_VERB"}), ("api", {"GET", "POST", "PERMISSIONS"})):
        tree = ast.parse((REPO / f"bindings/python/flickr/{module}.py").read_text())
        imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
                    and node.module == "_header" for alias in node.names}
        assigned = {target.id for node in ast.walk(tree) if isinstance(node, ast.Assign)
                    for target in ast.walk(node) if isinstance(target, ast.Name) and isinstance(target.ctx, ast.Store)}
        names_written = {node.value for node in ast.walk(tree) if isinstance(node, ast.Constant)} & {"delete", "write"}
        assert names <= imported and not names & assigned and not names_written, (module, imported, names_written)
    assert (client.GET, client.POST, client.METHOD_VERB) == (_header.GET, _header.POST, _header.METHOD_VERB)
    # What the catalogue reports goes through them: a write method is POST with the write permission.
    info = api.method_info("flickr.photos.delete")
    assert (info.verb, info.permission) == ("POST", "delete"), info
    assert {info.permission for info in api.methods().values()} == set(_header.PERMISSIONS)


CATALOGUE = ["scripts/catalogue.py", "include/flickr/methods.h", "data/flickr-methods.json",
             "Sources/FlickrCore/Catalogue/MethodTable.swift", "sandbox/flickr_sandbox/catalogue.py",
             "bindings/python/flickr/api.pyi"]


def test_the_catalogue_takes_the_permission_numbers_from_the_header(tmp_path):
    """scripts/catalogue.py writes each method's permission as flickr_permission's value, read from
    methods.h: renumbered there, the compiled table is stale (it held its own list once)."""
    tree = copied(tmp_path, CATALOGUE)
    assert run_script(tree, "scripts/catalogue.py", "--check").returncode == 0, "the copy starts current"
    edit(tree, "include/flickr/methods.h", "FLICKR_PERM_READ = 1,   /**<", "FLICKR_PERM_READ = 2,   /**<")
    edit(tree, "include/flickr/methods.h", "FLICKR_PERM_WRITE = 2,  /**<", "FLICKR_PERM_WRITE = 1,  /**<")
    check = run_script(tree, "scripts/catalogue.py", "--check")
    print(check.stderr.strip())
    assert check.returncode == 1 and "stale (run scripts/catalogue.py): Sources/FlickrCore/Catalogue/MethodTable.swift" \
        in check.stderr, check.stderr


def test_a_changed_range_or_default_is_caught_then_written_everywhere(tree):
    """A numeric option's range and default are written once, in its comment ("0 to 10; default 3."):
    the Swift core's `range` and `defaultNumber` and the binding's tables are generated from it."""
    edit(tree, "include/flickr/context.h", "0 to 10; default 3.", "0 to 12; default 4.")
    edit(tree, "include/flickr/context.h", "1024 to 2^40; default 33554432 (32 MiB).",
         "2048 to 2^41; default 16777216 (16 MiB).")
    check = run(tree, "--check")
    print(check.stderr.strip())
    assert check.returncode == 1 and "3 files, 2 stale" in check.stderr, check.stderr  # not the status table
    for line in ("+        case .maxRetries: 0...12", "+        case .maxRetries: 4",
                 "+        case .maxResponseBytes: 2_048...2_199_023_255_552", "+        case .maxResponseBytes: 16_777_216",
                 '+    "max_retries": (0, 12),', '+    "max_retries": 4,', '+    "max_response_bytes": (2048, 2199023255552),'):
        assert line in check.stdout, f"the diff lacks {line!r}"
    assert run(tree).returncode == 0 and run(tree, "--check").returncode == 0


@pytest.mark.parametrize(("old", "new", "message"), [
    ("0 to 10; default 3.", "at most 10; default 3.", "FLICKR_OPT_MAX_RETRIES: a numeric option's comment says its range"),
    ("0 to 10; default 3.", "0 to 10; default 3. 0 to 9; default 2.", "(2 found)"),
    ("0 to 10; default 3.", "0 to 10; default 11.", "FLICKR_OPT_MAX_RETRIES: the default is not within the range"),
    ("1 to 65536; default 256.", "1 to 2^63; default 256.", "FLICKR_OPT_MAX_CONNECTIONS: the default is not within"),
    ("Default \"https://up.flickr.com/services/upload/\".", "0 to 1; default 0.", "a string option has no numeric range"),
    ('Default "https://up.flickr.com/services/upload/".',
     'Default "https://up.flickr.com/services/upload/". Default "https://up.example/".', "and one default at most"),
])
def test_a_range_it_cannot_read_whole_is_refused(tree, old, new, message):
    test_an_enum_it_cannot_read_whole_is_refused(tree, "include/flickr/context.h", old, new, message)


def test_the_library_has_the_ranges_and_defaults_the_header_gives():
    """The compiled library agrees with the binding's tables (both generated from the header): each
    numeric option starts at its default, takes both ends of its range and refuses one step past;
    each endpoint starts at its default URL."""
    from flickr import Flickr, InvalidArgument
    from flickr._header import NUMBER_OPTION_DEFAULTS, NUMBER_OPTION_RANGES, NUMBER_OPTIONS, STRING_OPTION_DEFAULTS

    assert set(NUMBER_OPTION_RANGES) == set(NUMBER_OPTION_DEFAULTS) == set(NUMBER_OPTIONS)
    with Flickr("key", "secret") as api:
        for name, (low, high) in NUMBER_OPTION_RANGES.items():
            assert api.get_option(name) == NUMBER_OPTION_DEFAULTS[name], name
            for value in (low, high):
                api.set_option(name, value)
                assert api.get_option(name) == value, (name, value)
            for value in (low - 1, high + 1):
                with pytest.raises(InvalidArgument, match="must be between"):
                    api.set_option(name, value)
        for name, url in STRING_OPTION_DEFAULTS.items():
            assert api.get_option(name) == url, name
    assert len(STRING_OPTION_DEFAULTS) == 6, STRING_OPTION_DEFAULTS  # the 5 endpoints and the photo host
    print(f"{len(NUMBER_OPTION_RANGES)} numeric options: defaults and ranges as the header says; "
          f"{len(STRING_OPTION_DEFAULTS)} default URLs")


def test_a_changed_default_url_is_caught_then_written_everywhere(tree):
    edit(tree, "include/flickr/context.h", 'Default "https://api.flickr.com/services/rest/".',
         'Default "https://api.flickr.example/services/rest/".')
    check = run(tree, "--check")
    assert check.returncode == 1 and "3 files, 2 stale" in check.stderr, check.stderr
    for line in ('+        case .restEndpoint: "https://api.flickr.example/services/rest/"',
                 '+    "rest_endpoint": "https://api.flickr.example/services/rest/",'):
        assert line in check.stdout, f"the diff lacks {line!r}"


def test_the_swift_core_writes_no_range_or_default_of_its_own():
    """ContextOption.swift and Settings.swift once held the ranges and defaults beside the header's prose."""
    for path in ("Sources/FlickrCore/ContextOption.swift", "Sources/FlickrCore/Settings.swift"):
        source = (REPO / path).read_text()
        assert "case .timeoutMs" not in source and "86_400_000" not in source and "30_000" not in source, path
        assert "https://" not in source, path
    assert "option.defaultNumber" in (REPO / "Sources/FlickrCore/Settings.swift").read_text()
