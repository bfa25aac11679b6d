# SPDX-License-Identifier: MIT
"""`RunContext`: what an item's job, the album folders and the indexes use of the run (the Backup
object), as a protocol: they depend on this, not on the engine that drives them."""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any, Protocol

from .calls import Calls
from .._media.fetcher import Fetcher
from .licences import Licences
from .options import Options
from .report import Report
from .safedir import SafeDir
from .state import State


class RunContext(Protocol):
    state: State
    root: SafeDir
    report: Report
    licences: Licences
    options: Options
    calls: Calls
    fetcher: Fetcher
    files: ThreadPoolExecutor
    account: dict[str, Any]  # flickr.people.getInfo's person: the owner's names in the sidecars

    def albums_of(self, item_id: str) -> list[dict[str, str]]: ...
