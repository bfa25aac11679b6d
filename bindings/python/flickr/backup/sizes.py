# SPDX-License-Identifier: MIT
"""`Sizes`: which file of an item to fetch, best first, and the fallbacks after it.

A photo list's url_* extras carry every size the caller may download (Flickr leaves url_o out
where it refuses the original: the owner's download setting, or a free account since May 2025),
so a photo costs no call for this. A video's files are only in flickr.photos.getSizes (its
sizes with media="video"): one call per video.
"""
from __future__ import annotations

from typing import Any, NamedTuple

from .calls import as_list, number

# The url_* extras, largest first, with getSizes' label for each.
URL_EXTRAS = [("o", "Original"), ("6k", "X-Large 6K"), ("5k", "X-Large 5K"), ("4k", "X-Large 4K"),
              ("3k", "X-Large 3K"), ("k", "Large 2048"), ("h", "Large 1600"), ("l", "Large"),
              ("c", "Medium 800"), ("z", "Medium 640"), ("m", "Medium"), ("w", "Small 400"),
              ("n", "Small 320"), ("s", "Small"), ("t", "Thumbnail"), ("q", "Large Square"), ("sq", "Square")]
EXTRAS = ",".join(f"url_{key}" for key, _ in URL_EXTRAS)
NOT_OFFERED = ("Flickr offers no original of it to this account (the owner's download setting, or the "
               "2025 rule for free accounts)")
# getSizes' video entries that are not a file (a player page).
_NOT_FILES = {"Video Player", "Site MP4 Player"}


class Candidate(NamedTuple):
    label: str  # getSizes' label: what the report and the sidecar call the size
    url: str


class Sizes:
    @staticmethod
    def from_listing(photo: dict[str, Any]) -> list[Candidate]:
        """The sizes the listing's url_* extras offer, largest first."""
        return [Candidate(label, str(photo[f"url_{key}"])) for key, label in URL_EXTRAS
                if isinstance(photo.get(f"url_{key}"), str) and photo[f"url_{key}"]]

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
            area = number(entry.get("width")) * number(entry.get("height"))
            first = label in ("Original", "Video Original")
            found.append((first, area, Candidate(label, entry["source"])))
        found.sort(key=lambda row: (row[0], row[1]), reverse=True)
        return [row[2] for row in found]

    @staticmethod
    def why_not_original(photo: dict[str, Any], chosen: str) -> str:
        if chosen in ("Original", "Video Original"):
            return ""
        if not photo.get("url_o"):
            return NOT_OFFERED
        return "the original was refused when fetched; the largest size that was not is kept"
