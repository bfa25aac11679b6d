# SPDX-License-Identifier: MIT
"""A local Flickr-compatible HTTP server for tests, demos and offline development.

Run it with ``python -m flickr_sandbox --port 0``, in-process::

    from flickr_sandbox import Sandbox
    with Sandbox() as sb:
        ...  # sb.url, sb.api_key, sb.api_secret, sb.oauth_token, ... (sb.settings)

or in a child process whose settings are handed over (what tests and scripts use)::

    from flickr_sandbox import SandboxProcess
    with SandboxProcess() as sb:
        ...  # the same attributes; sb.settings.client_environment() for a program's environment

See the distribution's README.md (sandbox/README.md in a checkout) for the protocol coverage and
fault injection.
"""

from .constants import API_KEY, API_SECRET, AUTH_TOKEN, OAUTH_TOKEN, OAUTH_TOKEN_SECRET, USER_NSID
from .launch import SandboxProcess, SandboxStartError
from .server import Sandbox
from .settings import Settings

__all__ = ["Sandbox", "SandboxProcess", "SandboxStartError", "Settings", "API_KEY", "API_SECRET", "OAUTH_TOKEN",
           "OAUTH_TOKEN_SECRET", "AUTH_TOKEN", "USER_NSID"]
