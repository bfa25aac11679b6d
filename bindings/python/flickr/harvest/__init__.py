# SPDX-License-Identifier: MIT
"""Harvests: every result of a search past Flickr's 4,000-result cap (see harvester.py)."""
from .harvester import CAP, MIN_SLICE, PER_PAGE, Harvest
from .report import Report
from .slices import Slice

__all__ = ["CAP", "MIN_SLICE", "PER_PAGE", "Harvest", "Report", "Slice"]
