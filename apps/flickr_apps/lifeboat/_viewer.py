# SPDX-License-Identifier: MIT
"""The Lifeboat's viewer/ folder: the one seam where the viewer is put in (`write_viewer`).

For now a small viewer of this package's own (viewer/: a page listing every photo with its
thumbnail, title, owner and licence, with a search, and a page for one photo); the archive's
offline viewer (issue 43 §1) takes this place when it reads Lifeboat metadata.
"""
from __future__ import annotations

from importlib import resources

from ..backup.safedir import SafeDir

FILES = ("index.html", "photo.html", "viewer.js", "viewer.css")


def write_viewer(viewer_dir: SafeDir) -> None:
    """Fills the Lifeboat's viewer/ folder (opened, never through a link) with the viewer's files."""
    package = resources.files(__package__).joinpath("viewer")
    for name in FILES:
        viewer_dir.write_if_changed(name, package.joinpath(name).read_bytes())
