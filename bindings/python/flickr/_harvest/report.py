# SPDX-License-Identifier: MIT
"""What a harvest can say about its completeness (flickr_harvest_report's JSON)."""
from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

from .. import errors

# The field annotations' names (strings, with postponed annotations) -> the JSON type each must hold.
_KINDS: dict[str, tuple[type, str]] = {"int": (int, "a whole number"), "bool": (bool, "true or false")}


@dataclass(frozen=True)
class Report:
    """Counts of a harvest so far (a resumed one's include the runs before), read from the C
    library's flickr_harvest_report (docs/harvest.md's table).

    ``matched`` sums the ``total`` Flickr gave for each slice paged through; ``items`` counts the
    items given out, each once (``duplicates`` were dropped); ``missing`` is what they did not
    give. ``over_cap`` lists the slices still over Flickr's cap at the minimum slice, split by
    licence (``{"min", "max", "from", "to", "license", "total"}``): Flickr serves only the first
    4,000 of each. ``calls`` counts the API calls made.

    No field has a default: each is read from the library's JSON, checked for its type, and one
    missing or of another type is refused (`ParseError`) rather than shown as a 0 that did not happen.
    """

    items: int
    matched: int
    missing: int
    duplicates: int
    calls: int
    slices_done: int
    slices_pending: int
    finished: bool
    complete: bool
    over_cap: list[dict[str, Any]]

    @classmethod
    def from_json(cls, value: Any) -> Report:
        """The report in VALUE (the library's JSON, parsed): every field present with its type."""
        if not isinstance(value, dict):
            raise errors.ParseError(errors.EPARSE, "the harvest report is not a JSON object")
        read: dict[str, Any] = {}
        for known in fields(cls):
            kind, words = _KINDS.get(str(known.type), (list, "a list"))
            found = value.get(known.name)
            # bool is an int in Python: true is not a count of 1.
            if not isinstance(found, kind) or (kind is int and isinstance(found, bool)):
                raise errors.ParseError(errors.EPARSE, f"the harvest report's {known.name!r} is missing or not {words}")
            read[known.name] = found
        return cls(**read)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)
