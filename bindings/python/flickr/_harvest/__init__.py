# SPDX-License-Identifier: MIT
"""Harvests: every result of a search past Flickr's 4,000-result cap (the library's
flickr_harvest_*); what ``Flickr.harvest`` and ``AsyncFlickr.harvest`` return."""
from .async_harvest import AsyncHarvest
from .harvester import Harvest
from .report import Report as HarvestReport

__all__ = ["AsyncHarvest", "Harvest", "HarvestReport"]
