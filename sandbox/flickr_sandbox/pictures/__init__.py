# SPDX-License-Identifier: MIT
"""The sandbox's photo files: drawn scenes (``scenes``, on a ``raster``), a JPEG encoder
(``jpeg``), a PNG codec (``png``), and the JPEGs kept on disk (``cache``).

Nothing here knows HTTP or the API: the rest of the sandbox asks ``cache`` for a size's file.
"""
from __future__ import annotations

from .cache import forget, picture_path

__all__ = ["forget", "picture_path"]
