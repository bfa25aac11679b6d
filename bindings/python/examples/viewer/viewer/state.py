# SPDX-License-Identifier: MIT
"""What the request handlers share, kept in ``app.extensions["viewer"]``."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from flask import current_app

from .flickr_service import FlickrService
from .recents import Recents
from .vacations import Vacations


@dataclass(frozen=True)
class Viewer:
    service: FlickrService
    recents: Recents
    vacations: Vacations
    leaflet_dir: Path
    tile_url: str = ""  # e.g. https://tile.openstreetmap.org/{z}/{x}/{y}.png; "" draws no tiles
    tile_attribution: str = ""


def viewer() -> Viewer:
    return current_app.extensions["viewer"]
