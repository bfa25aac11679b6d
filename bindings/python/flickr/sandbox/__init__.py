# SPDX-License-Identifier: MIT
"""A local Flickr-compatible HTTP server for tests, demos and offline development.

Run it with ``python -m flickr.sandbox --port 0`` or in-process::

    from flickr.sandbox import Sandbox
    with Sandbox() as sb:
        ...  # sb.url, sb.api_key, sb.api_secret, sb.oauth_token, ...

See README.md beside this file for the protocol coverage and fault injection.
"""

from .constants import API_KEY, API_SECRET, AUTH_TOKEN, OAUTH_TOKEN, OAUTH_TOKEN_SECRET, USER_NSID
from .server import Sandbox

__all__ = ["Sandbox", "API_KEY", "API_SECRET", "OAUTH_TOKEN", "OAUTH_TOKEN_SECRET", "AUTH_TOKEN",
           "USER_NSID"]
