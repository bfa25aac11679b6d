# SPDX-License-Identifier: MIT
"""The Lifeboat's viewer/ folder: the one seam where the viewer is put in (`write_viewer`).

The viewer is the archive's own (flickr_apps/backup/viewer/, docs/backup.md "Browsing the
archive"), in its Lifeboat form: viewer/index.html reading ../metadata/*.js and ../media/.
"""
from __future__ import annotations

from ..backup.safedir import SafeDir
from ..backup.viewer import write_viewer_folder


def write_viewer(viewer_dir: SafeDir) -> None:
    """Fills the Lifeboat's viewer/ folder (opened, never through a link) with the viewer's files,
    each through a temporary renamed into place, left alone when unchanged."""
    write_viewer_folder(viewer_dir, "lifeboat")
