# SPDX-License-Identifier: MIT
"""REST methods: a registry (``registry.py``) and the modules that fill it.

Each module registers its methods with :func:`~.registry.method`; a method receives a
:class:`Call` and returns the payload (a list of envelope Nodes) or raises
:class:`~flickr_sandbox.errors.ApiError`.  Importing this package imports every module, so
``METHODS`` is complete.
"""

from __future__ import annotations

# Imported for their registrations.
from . import auth, people, photos, photosets, places, reflection, sandbox, test, upload, video  # noqa: F401
from . import (collection_tree, comments, contexts, exif, favorites, galleries, geo, groups,  # noqa: F401
               licenses, lookup, notes, ownlists, photopeople, taglists, upload_status)
from .registry import METHODS, Call, Method, MethodFunc, method, photo_not_found

__all__ = ["METHODS", "Call", "Method", "MethodFunc", "method", "photo_not_found"]
