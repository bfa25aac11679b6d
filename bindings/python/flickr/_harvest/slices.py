# SPDX-License-Identifier: MIT
"""A harvest's unit of work: a closed range of dates (unix seconds, both ends included, as Flickr's
min_/max_ date arguments are), with or without one licence id."""
from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

#: Which dates a harvest slices: the method's argument names for each.
DATE_ARGUMENTS = {"upload": ("min_upload_date", "max_upload_date"),
                  "taken": ("min_taken_date", "max_taken_date")}
# Taken dates are given to Flickr as MySQL datetimes, which reach before 1970 (scanned prints).
_EPOCH = datetime.datetime(1970, 1, 1)
EARLIEST = {"upload": 1072915200,  # 2004-01-01: before Flickr opened
            "taken": int((datetime.datetime(1800, 1, 1) - _EPOCH).total_seconds())}
LATEST = int((datetime.datetime(9999, 12, 31, 23, 59, 59) - _EPOCH).total_seconds())


@dataclass(frozen=True)
class Slice:
    lo: int
    hi: int
    license: int | None = None

    @property
    def seconds(self) -> int:
        return self.hi - self.lo + 1

    def arguments(self, dates: str) -> dict[str, str]:
        low, high = DATE_ARGUMENTS[dates]
        args = {low: date_text(self.lo, dates), high: date_text(self.hi, dates)}
        if self.license is not None:
            args["license"] = str(self.license)
        return args

    def to_json(self) -> list[int | None]:
        return [self.lo, self.hi, self.license]

    @classmethod
    def from_json(cls, value: Any) -> Slice:
        """A slice as a checkpoint holds it; ValueError for anything else."""
        if not (isinstance(value, list) and len(value) == 3 and all(is_int(v) for v in value[:2])
                and (value[2] is None or (is_int(value[2]) and value[2] >= 0))):
            raise ValueError(f"not a slice: {value!r}")
        lo, hi, license = value
        if not (-LATEST <= lo <= hi <= LATEST):
            raise ValueError(f"not a slice: {value!r}")
        return cls(lo, hi, license)

    def describe(self) -> dict[str, Any]:
        """For reports: the range as UTC times too."""
        return {"min": self.lo, "max": self.hi, "from": utc(self.lo), "to": utc(self.hi),
                "license": self.license}


def is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def utc(stamp: int) -> str:
    return (_EPOCH + datetime.timedelta(seconds=stamp)).strftime("%Y-%m-%d %H:%M:%S")


def date_text(stamp: int, dates: str) -> str:
    """Upload dates as unix seconds; taken dates as MySQL datetimes (Flickr takes either)."""
    return str(stamp) if dates == "upload" else utc(stamp)


def parts(lo: int, hi: int, count: int) -> list[Slice]:
    """[lo, hi] cut into `count` slices of (nearly) equal length, fewer if it has fewer seconds."""
    count = max(1, min(count, hi - lo + 1))
    bounds = [lo + (hi - lo + 1) * i // count for i in range(count + 1)]
    return [Slice(bounds[i], bounds[i + 1] - 1) for i in range(count)]
