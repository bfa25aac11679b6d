# SPDX-License-Identifier: MIT
"""`flickr.backup`: a whole Flickr account into a directory, restart-safe and incremental.

    import flickr, flickr.backup
    with flickr.Flickr(key, secret, oauth_token=..., oauth_token_secret=...) as api:
        report = flickr.backup.run(api, "photos", progress=print)
        print(report.summary())

The backup is an application (flickr_apps.backup, the flickr-apps distribution); this module
forwards its documented names (docs/backup.md), so that `flickr.backup` keeps working. Without
flickr-apps, importing it fails with one line saying what to install.
"""
from __future__ import annotations

from ._apps import needed

with needed("flickr.backup"):
    from flickr_apps.backup import (Backup as Backup, BackupLocked as BackupLocked, DiskFull as DiskFull,
                                    Options as Options, PlantedLink as PlantedLink,
                                    ProgressCallback as ProgressCallback, Report as Report, Verifier as Verifier,
                                    from_export as from_export, run as run, verify as verify)

__all__ = ["Backup", "DiskFull", "Options", "ProgressCallback", "Report", "BackupLocked", "PlantedLink", "Verifier",
           "from_export", "run", "verify"]
