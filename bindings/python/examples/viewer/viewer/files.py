# SPDX-License-Identifier: MIT
"""Writing the viewer's small files (recents, the current vacation's name) whole, never through a link."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path


def write_atomically(path: Path, text: str) -> None:
    """Replaces the file at `path` with `text`. The text goes to a new file beside it first
    (mkstemp: O_CREAT|O_EXCL|O_NOFOLLOW, 0600, so neither an existing file nor a link planted at
    that name is opened), reaches the disk, then is renamed over `path`: a crash leaves the old
    file or the new one, never half of one, and a link at `path` is replaced, its target untouched."""
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
