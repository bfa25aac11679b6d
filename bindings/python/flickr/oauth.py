# SPDX-License-Identifier: MIT
"""OAuth 1.0a for a `Flickr` object: each step (`Flickr.oauth`), and two complete logins.

The C library never changes a context's tokens by itself; the login layer does, once a login
succeeded, and keeps the token in a `TokenStore`.

This module is the public face; the code is in private modules of one concern each, layered so
that none imports a module above it: `_oauth_steps` (one library call a step, `parse_callback`),
`_login` (the logins, the browser, the token store: `OAuth`) and `_loopback` (the callback server).
"""
from __future__ import annotations

from ._login import PERMS, OAuth, StoreArg
from ._oauth_steps import parse_callback

__all__ = ["OAuth", "PERMS", "StoreArg", "parse_callback"]
