# SPDX-License-Identifier: MIT
"""`flickr.backup`: a whole Flickr account into a directory, restart-safe and incremental.

    import flickr, flickr.backup
    with flickr.Flickr(key, secret, oauth_token=..., oauth_token_secret=...) as api:
        report = flickr.backup.run(api, "photos", progress=print)
        print(report.summary())

`Backup(client, dir, **options).run(progress=callback)` is the same with the object at hand;
`verify(dir)` checks a backup's files against their recorded checksums without any API call.
docs/backup.md gives the layout, the state machine and the events.
"""
from __future__ import annotations

import os
from typing import Any

from .engine import Backup, ProgressCallback, run
from .options import Options
from .lock import BackupLocked
from .report import Report
from .safedir import DiskFull, PlantedLink
from .verify import Verifier


def from_export(directory: str | os.PathLike[str], paths: list[str], progress: ProgressCallback | None = None,
                client: Any = None, **options: Any) -> Report:
    """Flickr's account export (its zips, or the folders they were unpacked into) made into the same
    archive as `run`, with no key and no network; the report's `lacking` lists what it lacks. With
    `client` (a Flickr object with a read login), only what the export lacks is asked for and fetched,
    with the fewest calls (docs/export.md, "Filling with a key")."""
    from .export.engine import ExportBackup

    return ExportBackup(directory, paths, client=client, **options).run(progress)


def verify(directory: str | os.PathLike[str]) -> dict[str, Any]:
    """{"checked", "bytes", "missing": [paths], "changed": [paths], "ok"}: no API call."""
    return Verifier(directory).run()


__all__ = ["Backup", "DiskFull", "Options", "ProgressCallback", "Report", "BackupLocked", "PlantedLink", "Verifier",
           "from_export", "run", "verify"]
