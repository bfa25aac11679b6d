# SPDX-License-Identifier: MIT
"""Harvests: every result of a search past Flickr's 4,000-result cap (see harvester.py); what
``Flickr.harvest`` and ``AsyncFlickr.harvest`` return."""
from .async_harvest import AsyncHarvest
from .harvester import CAP, MIN_SLICE, PER_PAGE, Harvest
from .report import Report as HarvestReport
from .slices import Slice

__all__ = ["CAP", "MIN_SLICE", "PER_PAGE", "AsyncHarvest", "Harvest", "HarvestReport", "Slice"]
