# SPDX-License-Identifier: MIT
"""Integers taken from requests, bounded to what SQLite can store.

SQLite's INTEGER is signed 64-bit; Python's int is unbounded, and binding a
larger one raises OverflowError.  Every number read from a request goes
through here, so none reaches a query (or ``time``/``sleep``) out of range.
Counts and dates (``page``, ``min_upload_date``) saturate at the 64-bit bounds,
as PHP's ``intval()`` does (assumed of Flickr, not observed); an id out of
range is simply unknown (error 1 "... not found", as for any id naming nothing).
"""

from __future__ import annotations

import re

INT64_MIN = -2 ** 63
INT64_MAX = 2 ** 63 - 1

# ASCII only: str.isdigit() also accepts "²", which int() then refuses.
_INTEGER = re.compile(r"([+-]?)0*([0-9]+)")
_INT64_DIGITS = len(str(INT64_MAX))


def parse_int(text: str, lo: int = INT64_MIN, hi: int = INT64_MAX, *, saturate: bool = False) -> int | None:
    """The decimal integer ``text`` holds, or None when it holds none.

    Outside ``[lo, hi]`` it is None, or the nearer bound with ``saturate``.
    """
    match = _INTEGER.fullmatch(text)
    if match is None:
        return None
    sign, digits = match.groups()
    if len(digits) > _INT64_DIGITS:
        # Out of range whatever the digits. Skipping int() also spares its cost on long
        # strings and its ValueError past 4300 digits.
        value = INT64_MIN - 1 if sign == "-" else INT64_MAX + 1
    else:
        value = int(sign + digits)
    if lo <= value <= hi:
        return value
    return min(max(value, lo), hi) if saturate else None


def parse_unsigned(text: str | int) -> int | None:
    """Unsigned digits (ids, flags) within SQLite's range, else None: no id is that large.

    An int is taken as its decimal text: ids also come from database rows, not only requests.
    """
    text = str(text)
    if text[:1] in ("+", "-"):
        return None
    return parse_int(text, 0)
