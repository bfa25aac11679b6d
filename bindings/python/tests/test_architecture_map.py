# SPDX-License-Identifier: MIT
"""docs/architecture.md's map names every room (issue 41 §4: it had no row for Budget/ and placed
the sandbox where it was not): every folder of Sources/, every file of Sources/Flickr/ and every
Python package of the binding, the applications and the sandbox is named there in backquotes,
by its path from the checkout's root (a folder with or without its final "/"; a file of
Sources/Flickr/ by its name). A room added without a row fails here."""
from __future__ import annotations

import pathlib
import re

from libtest import REPO

MAP = REPO / "docs" / "architecture.md"
PYTHON_TREES = ("bindings/python/flickr", "apps/flickr_apps", "sandbox/flickr_sandbox")


def rooms(root: pathlib.Path) -> tuple[list[str], list[str]]:
    """(folders, files) the map must name, under the checkout at `root`."""
    folders = [path for path in (root / "Sources").rglob("*") if path.is_dir() and path.name != "include"]
    for tree in PYTHON_TREES:
        folders += [init.parent for init in (root / tree).rglob("__init__.py")]
    files = [path.name for path in sorted((root / "Sources" / "Flickr").glob("*.swift"))]
    return sorted(str(folder.relative_to(root)) for folder in folders if "__pycache__" not in folder.parts), files


def unnamed(root: pathlib.Path, text: str) -> list[str]:
    """The rooms under `root` that `text` (the map) does not name."""
    named = set(re.findall(r"`([^`\n]+)`", text))
    folders, files = rooms(root)
    return ([folder for folder in folders if folder not in named and folder + "/" not in named]
            + [name for name in files if name not in named])


def test_the_map_names_every_room():
    folders, files = rooms(REPO)
    missing = unnamed(REPO, MAP.read_text(encoding="utf-8"))
    print(f"{len(folders)} folders and packages, {len(files)} files of Sources/Flickr: {len(missing)} without a row")
    assert len(folders) > 25 and len(files) > 15, (folders, files)
    assert not missing, f"docs/architecture.md names no row for: {missing}"


def skeleton(root: pathlib.Path) -> None:
    """The checkout's rooms under `root`, empty: Sources/'s folders, Sources/Flickr/'s files, the
    Python packages' __init__.py."""
    for path in (REPO / "Sources").rglob("*"):
        if path.is_dir():
            (root / path.relative_to(REPO)).mkdir(parents=True, exist_ok=True)
    for path in (REPO / "Sources" / "Flickr").glob("*.swift"):
        (root / path.relative_to(REPO)).touch()
    for tree in PYTHON_TREES:
        for init in (REPO / tree).rglob("__init__.py"):
            (root / init.relative_to(REPO)).parent.mkdir(parents=True, exist_ok=True)
            (root / init.relative_to(REPO)).touch()


def test_a_room_added_without_a_row_fails(tmp_path):
    """The check sees a new Swift folder, a new boundary file and a new Python package."""
    text = MAP.read_text(encoding="utf-8")
    for planted in ("Sources/FlickrCore/Clock", "Sources/Flickr/ClockAPI.swift", "apps/flickr_apps/viewer/__init__.py"):
        root = tmp_path / planted.replace("/", "_")
        skeleton(root)
        assert unnamed(root, text) == []  # the tree as it is: every room named
        target = root / planted
        if target.suffix:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.touch()
        else:
            target.mkdir(parents=True)
        found = unnamed(root, text)
        print(f"planted {planted}: {found}")
        assert found == [planted.rpartition("/")[2] if planted.endswith(".swift")
                         else planted.removesuffix("/__init__.py")]


def test_the_docs_index_and_the_readme_layout_name_every_page_and_core_folder():
    """docs/README.md links every page of docs/ (it once skipped sandbox-peers.md); README.md's
    layout names every folder of Sources/FlickrCore (it once lacked Harvest/ and Budget/) and
    every page of docs/."""
    pages = sorted(path.name for path in (REPO / "docs").glob("*.md") if path.name != "README.md")
    index = (REPO / "docs" / "README.md").read_text(encoding="utf-8")
    assert [page for page in pages if f"]({page})" not in index] == []
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    layout = readme.split("\n## Layout\n", 1)[1].split("\n## ", 1)[0]
    words = set(re.findall(r"[\w-]+/?", layout))
    core = sorted(path.name for path in (REPO / "Sources" / "FlickrCore").rglob("*") if path.is_dir())
    missing = [f"{name}/" for name in core if f"{name}/" not in words] + \
              [page for page in pages if page.removesuffix(".md") not in words]
    print(f"{len(pages)} pages, {len(core)} folders of Sources/FlickrCore: {missing or 'all named'}")
    assert not missing, f"README.md's layout does not name: {missing}"


def test_added_in_notes_name_a_minor_version():
    """CONTRIBUTING.md asks "Added in X.Y" (the minor release); 13 notes once said "0.5.0"."""
    headers = sorted((REPO / "include").rglob("*.h"))
    notes = [(path.name, found) for path in headers
             for found in re.findall(r"Added in ([\d.]+\d)", path.read_text(encoding="utf-8"))]
    wrong = [(name, version) for name, version in notes if not re.fullmatch(r"\d+\.\d+", version)]
    print(f"{len(notes)} notes in {len(headers)} headers, {len(wrong)} not X.Y")
    assert len(notes) > 90 and not wrong, wrong
