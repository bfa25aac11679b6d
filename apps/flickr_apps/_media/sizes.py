# SPDX-License-Identifier: MIT
"""`Sizes`: which file of an item to fetch, best first, and the fallbacks after it.

A photo list's url_* extras carry every size the caller may download (Flickr leaves url_o out
where it refuses the original: the owner's download setting, or a free account since May 2025),
so a photo costs no call for this. A video's files are only in flickr.photos.getSizes (its
sizes with media="video"): one call per video.

`flickr backup` takes the largest file offered; `flickr download --size X` takes X or, when the
item has no X, the largest below it (`up_to`), or X alone with --exact-size (`exactly`).
"""
from __future__ import annotations

import re
from typing import Any, NamedTuple

# Flickr's sizes, smallest first: generated from data/flickr-sizes.json (scripts/gen-sizes.py).
from .size_table import LADDER as LADDER, Size as Size
# The binding's public answer-value helpers, once (issue 41 §3); re-exported for the apps' modules.
from flickr.values import as_list as as_list, number as number


CODES = tuple(size.code for size in LADDER)
_RANK = {size.label: rank for rank, size in enumerate(LADDER)}
_BY_CODE = {size.code: size for size in LADDER}
# The url_* extras, largest first, with getSizes' label for each.
URL_EXTRAS = [(size.extra, size.label) for size in reversed(LADDER)]
EXTRAS = ",".join(f"url_{key}" for key, _ in URL_EXTRAS)
ORIGINALS = ("Original", "Video Original")
NOT_OFFERED = ("Flickr offers no original of it to this account (the owner's download setting, or the "
               "2025 rule for free accounts)")
# getSizes' video entries that are not a file (a player page).
_NOT_FILES = {"Video Player", "Site MP4 Player"}


class Candidate(NamedTuple):
    label: str  # getSizes' label: what the report and the sidecar call the size
    url: str
    edge: int = 0  # a video file's longest side (getSizes' width and height); 0 when not known


class Sizes:
    @staticmethod
    def size(code: str) -> Size:
        return _BY_CODE[code]

    @staticmethod
    def extras_up_to(code: str) -> str:
        """The url_* extras of the sizes at or below `code`, and the original's (it may be smaller),
        for a listing that `up_to` then reads."""
        top = CODES.index(code)
        return ",".join([f"url_{size.extra}" for size in LADDER[:top + 1]] + (["url_o"] if code != "o" else []))

    @staticmethod
    def from_listing(photo: dict[str, Any]) -> list[Candidate]:
        """The sizes the listing's url_* extras offer, largest first."""
        return [Candidate(label, str(photo[f"url_{key}"]),
                          max(number(photo.get(f"width_{key}")), number(photo.get(f"height_{key}"))))
                for key, label in URL_EXTRAS if isinstance(photo.get(f"url_{key}"), str) and photo[f"url_{key}"]]

    @staticmethod
    def from_get_sizes(answer: dict[str, Any], video: bool) -> list[Candidate]:
        """getSizes' files, largest first: for a video its video files (the original first), for a
        photo its images (the original first)."""
        sizes = answer.get("sizes", {})
        found = []
        for entry in as_list(sizes.get("size") if isinstance(sizes, dict) else None):
            if not isinstance(entry, dict) or not isinstance(entry.get("source"), str):
                continue
            label = str(entry.get("label", ""))
            is_video = entry.get("media") == "video" or "MP4" in label or label.startswith(("Video", "HD ", "1080p",
                                                                                          "720p", "360p"))
            if is_video != video or label in _NOT_FILES:
                continue
            width, height = number(entry.get("width")), number(entry.get("height"))
            first = label in ORIGINALS
            found.append((first, width * height, Candidate(label, entry["source"], max(width, height))))
        found.sort(key=lambda row: (row[0], row[1]), reverse=True)
        return [row[2] for row in found]

    @staticmethod
    def up_to(candidates: list[Candidate], code: str, video: bool) -> list[Candidate]:
        """The candidates at or below the size `code`, largest first: what to try, in order.

        A photo's sizes are Flickr's ladder (LADDER). A video's files are not photo sizes: its
        original counts as o, each other file by its longest side against the size's (o: any);
        a video with no file that small still gets its smallest one rather than nothing. An
        original no larger than the size (a 300 px photo asked for at b, 1024 px) is the largest
        file below it."""
        if not video:
            top = CODES.index(code)
            ranked = sorted((c for c in candidates if c.label in _RANK and _RANK[c.label] <= top),
                            key=lambda c: _RANK[c.label], reverse=True)
            small = [c for c in candidates if c.label == "Original" and 0 < c.edge <= _BY_CODE[code].edge]
            return small[:1] + ranked if code != "o" else ranked
        files = [c for c in candidates if c.label not in ORIGINALS]
        files.sort(key=lambda c: c.edge, reverse=True)
        originals = [c for c in candidates if c.label in ORIGINALS]
        if code == "o":
            return originals + files
        edge = _BY_CODE[code].edge
        fitting = [c for c in files if c.edge <= edge]
        return fitting or files[-1:]

    @staticmethod
    def exactly(candidates: list[Candidate], code: str, video: bool) -> list[Candidate]:
        """The candidate of the size `code` itself (none when the item has no such size): a photo's
        by its label, a video's original for o, else a video file whose longest side is the size's."""
        if code == "o":
            return [c for c in candidates if c.label in ORIGINALS][:1]
        if not video:
            return [c for c in candidates if c.label == _BY_CODE[code].label][:1]
        return [c for c in candidates if c.label not in ORIGINALS and c.edge == _BY_CODE[code].edge][:1]

    @staticmethod
    def code_of(candidate: Candidate) -> str:
        """The short name of a candidate's size, for a file name: the ladder's code ("o" for a
        video's original too), else (a video file) its label in lower case, dashes for the rest."""
        if candidate.label in ORIGINALS:
            return "o"
        if candidate.label in _RANK:
            return LADDER[_RANK[candidate.label]].code
        return re.sub(r"[^a-z0-9]+", "-", candidate.label.lower()).strip("-")[:20] or "video"

    @staticmethod
    def why_not_original(photo: dict[str, Any], chosen: str) -> str:
        if chosen in ORIGINALS:
            return ""
        if not photo.get("url_o"):
            return NOT_OFFERED
        return "the original was refused when fetched; the largest size that was not is kept"
