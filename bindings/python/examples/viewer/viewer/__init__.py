# SPDX-License-Identifier: MIT
"""Flickr Viewer: top places, their photos, recents, maps and virtual vacations, on libflickr.

An example application of the ``flickr`` Python binding; ``create_app`` builds it.
"""

from .app import create_app

__all__ = ["create_app"]
