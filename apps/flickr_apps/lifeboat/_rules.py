# SPDX-License-Identifier: MIT
"""Whose photos go in a Lifeboat (docs/lifeboat.md, "Licences: whose photos go in").

The Foundation asks another member's permission; libflickr cannot, so a licence is the standing
permission: the creator's own photos always go in; another member's only when public, with a
licence that allows copying and passing on (Flickr's ids 1 to 16), and downloads not disabled.
"""
from __future__ import annotations

from typing import Any, Optional

# Flickr's licence ids that allow a copy to be passed on: CC 2.0 (1-6), no known copyright
# restrictions (7), US Government Work (8), CC0 (9), Public Domain Mark (10), CC 4.0 (11-16).
PASSING_ON_ALLOWED = frozenset(str(n) for n in range(1, 17))


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def why_left_out(sidecar: dict[str, Any], creator: str) -> Optional[str]:
    """None when the item goes in; otherwise why it is left out (one phrase)."""
    owner = str(_dict(sidecar.get("owner")).get("nsid") or "")
    if owner and owner == creator:
        return None  # the creator's own: always
    licence = _dict(sidecar.get("license"))
    licence_id = str(licence.get("id") or "")
    if licence_id == "0":
        return "another member's photo, All Rights Reserved: no permission to pass it on"
    if licence_id not in PASSING_ON_ALLOWED:
        return f"another member's photo under a licence Flickr does not name ({licence_id or 'none'}): nothing guessed"
    if not _dict(sidecar.get("visibility")).get("public"):
        return "another member's photo that is not public"
    info = _dict(_dict(sidecar.get("flickr")).get("getInfo"))  # only with the backup's --info
    if str(_dict(info.get("usage")).get("candownload", "1")) == "0":
        return "another member's photo whose owner disabled downloads"
    return None
