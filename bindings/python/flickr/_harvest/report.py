# SPDX-License-Identifier: MIT
"""What a harvest can say about its completeness (flickr_harvest_report's JSON)."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass(frozen=True)
class Report:
    """Counts of a harvest so far (a resumed one's include the runs before).

    ``matched`` sums the ``total`` Flickr gave for each slice paged through; ``items`` counts the
    items given out, each once (``duplicates`` were dropped); ``missing`` is what they did not
    give. ``over_cap`` lists the slices still over Flickr's cap at the minimum slice, split by
    licence (``{"min", "max", "from", "to", "license", "total"}``): Flickr serves only the first
    4,000 of each. ``calls`` counts the API calls made.
    """

    items: int = 0
    matched: int = 0
    missing: int = 0
    duplicates: int = 0
    calls: int = 0
    slices_done: int = 0
    slices_pending: int = 0
    finished: bool = False
    complete: bool = False
    over_cap: list[dict[str, Any]] = field(default_factory=list)

    @classmethod
    def from_json(cls, value: Any) -> Report:
        known = {name: value[name] for name in cls.__dataclass_fields__ if isinstance(value, dict) and name in value}
        return cls(**known)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)
