# SPDX-License-Identifier: MIT
"""What a harvest can say about its completeness."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .slices import Slice


@dataclass
class Report:
    """Counts of a harvest so far (a resumed one's include the runs before it).

    ``matched`` sums the ``total`` Flickr gave for each slice paged through; ``items`` counts the
    items given out, each once (``duplicates`` were dropped). ``over_cap`` lists the slices still
    over Flickr's cap at the minimum slice, split by licence too, with their totals: Flickr serves
    only the first `cap` of each. ``calls`` counts the API calls this harvest made.
    """

    items: int = 0
    duplicates: int = 0
    matched: int = 0
    calls: int = 0
    slices_done: int = 0
    slices_pending: int = 0
    over_cap: list[tuple[Slice, int]] = field(default_factory=list)

    @property
    def missing(self) -> int:
        """Items matched but not given out: what Flickr did not serve (or a count that moved)."""
        return max(0, self.matched - self.items)

    @property
    def finished(self) -> bool:
        return self.slices_pending == 0

    @property
    def complete(self) -> bool:
        """Finished, nothing over the cap, and every matched item given out."""
        return self.finished and not self.over_cap and self.missing == 0

    def to_json(self) -> dict[str, Any]:
        return {"items": self.items, "matched": self.matched, "missing": self.missing,
                "duplicates": self.duplicates, "calls": self.calls, "slices_done": self.slices_done,
                "slices_pending": self.slices_pending, "finished": self.finished, "complete": self.complete,
                "over_cap": [dict(piece.describe(), total=total) for piece, total in self.over_cap]}
