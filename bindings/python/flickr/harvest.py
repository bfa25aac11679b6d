# SPDX-License-Identifier: MIT
"""Harvests: every result of a search past Flickr's 4,000-result cap (docs/harvest.md). The types
``Flickr.harvest`` (`Harvest`) and ``AsyncFlickr.harvest`` (`AsyncHarvest`) return, and their
``report`` (`HarvestReport`), for a program's annotations; they are made only by those methods."""
from ._harvest import AsyncHarvest, Harvest, HarvestReport

__all__ = ["AsyncHarvest", "Harvest", "HarvestReport"]
