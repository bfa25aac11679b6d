# SPDX-License-Identifier: MIT
"""`Options`: what a backup run is asked to do (`Backup(client, dir, **options)`, docs/backup.md)."""
from __future__ import annotations

import dataclasses
from typing import Optional

from flickr.limits import CALLS_PER_HOUR


@dataclasses.dataclass
class Options:
    user: Optional[str] = None  # another account's public items (NSID, username or URL)
    concurrency: int = 8
    info: bool = False  # per item: getInfo, getAllContexts, people (3 calls)
    comments: bool = False  # per item: comments.getList (1 call)
    exif: bool = False  # per item: getExif (1 call)
    albums: bool = True
    prune: bool = False  # remove what was deleted on Flickr
    quick: bool = False  # recentlyUpdated only: no full listing, deletions not seen
    recheck: bool = False  # fetch again every item whose last_update moved (a replace beside an edit)
    embedded: bool = False  # a copy of each JPEG with its XMP inside, in DIR/embedded (embed.py)
    # The key's calls an hour (budget_per_hour) when the client sets none; 0: leave the client as it is.
    budget: int = CALLS_PER_HOUR
