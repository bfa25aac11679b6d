# SPDX-License-Identifier: MIT
"""A set of photo ids in about 8 bytes each: a harvest of millions of items remembers every id it
gave out (a Python set of ints costs ~70 bytes an id)."""
from __future__ import annotations

import bisect
from array import array

_BUFFER = 65536  # new ids kept in a plain set until this many, then merged into the sorted array

U64_MAX = 2**64 - 1


class IdSet:
    """Ids (0..2**64-1): a sorted ``array('Q')`` and a small buffer of recent ones."""

    def __init__(self) -> None:
        self._sorted = array("Q")
        self._recent: set[int] = set()

    def __len__(self) -> int:
        return len(self._sorted) + len(self._recent)

    def __contains__(self, value: int) -> bool:
        if value in self._recent:
            return True
        index = bisect.bisect_left(self._sorted, value)
        return index < len(self._sorted) and self._sorted[index] == value

    def add(self, value: int) -> bool:
        """Adds `value`; True if it was not there yet."""
        if value in self:
            return False
        self._recent.add(value)
        if len(self._recent) >= _BUFFER:
            merged = sorted(self._sorted.tolist() + list(self._recent))
            self._sorted = array("Q", merged)
            self._recent.clear()
        return True
