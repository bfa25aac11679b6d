# SPDX-License-Identifier: MIT
"""Sandbox-only methods (not part of Flickr's API): test introspection."""

from __future__ import annotations

from ..envelope import Node
from ..errors import ApiError
from .registry import Call, method, photo_not_found


@method("flickr.sandbox.getFileInfo")
def get_file_info(call: Call) -> list[Node]:
    """Size and SHA-256 of the file stored for an uploaded photo, and the file name its upload
    sent (bytes that were not UTF-8 as \\xNN): ``<file size sha256 name />``."""
    photo = call.store.photo(call.arg("photo_id"))
    if photo is None:
        raise photo_not_found()
    if photo["file_path"] is None:
        raise ApiError(2, "Photo has no uploaded file")
    return [Node("file", {"size": photo["file_size"], "sha256": photo["file_sha256"],
                          "originalformat": photo["originalformat"], "width": photo["width"],
                          "height": photo["height"], "name": photo["file_name"] or ""})]
