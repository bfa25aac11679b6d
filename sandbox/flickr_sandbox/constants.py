# SPDX-License-Identifier: MIT
"""Fixed, documented identities of the sandbox.

These values are public on purpose: tests, demos and benchmarks hard-code them,
and ``python -m flickr_sandbox`` prints them.  They grant nothing outside the
sandbox.
"""

API_KEY = "5f3ab1cd2e4f6a7b8c9d0e1f2a3b4c5d"
API_SECRET = "9c8b7a6f5e4d3c2b"

USER_NSID = "12037949@N00"
USER_NAME = "sandbox"
USER_REALNAME = "Sandbox User"
USER_PATH_ALIAS = "sandbox"

OTHER_NSID = "35034346050@N01"
OTHER_NAME = "otheruser"

THIRD_NSID = "48600090482@N01"
THIRD_NAME = "marie"

# Pre-authorised OAuth access token of the seeded user (perms delete).
OAUTH_TOKEN = "72157600000000001-5a1d6b0c0f1e2d3c"
OAUTH_TOKEN_SECRET = "0a1b2c3d4e5f6a7b"
# Legacy (pre-OAuth) auth token of the seeded user (perms delete).
AUTH_TOKEN = "72157600000000002-aa11bb22cc33dd44"

PERMS = {"none": 0, "read": 1, "write": 2, "delete": 3}
PERM_NAMES = {v: k for k, v in PERMS.items()}

# Flickr's photo hosts answer with these today (see docs/protocol.md §8).
SERVER = "65535"
FARM = "66"

# OAuth freshness window: timestamps further off than this are refused.
TIMESTAMP_WINDOW = 600
# Lifetime of an unused OAuth request token or legacy frob.
REQUEST_TOKEN_TTL = 3600
