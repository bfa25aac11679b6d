# SPDX-License-Identifier: MIT
"""A harvest as an asynchronous iterator (AsyncFlickr.harvest)."""
from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from .._threaded_iter import in_executor
from .harvester import Harvest
from .report import Report


class AsyncHarvest:
    """``async for item in harvest``; ``report`` and ``save`` are the blocking harvest's (while a
    step runs on the executor they raise ``ValueError``, as the blocking harvest's do on another
    thread)."""

    def __init__(self, harvest: Harvest) -> None:
        self.harvest = harvest

    @property
    def report(self) -> Report:
        return self.harvest.report

    def __aiter__(self) -> AsyncIterator[dict[str, Any]]:
        return in_executor(self.harvest)
