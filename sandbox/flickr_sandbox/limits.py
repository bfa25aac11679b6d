# SPDX-License-Identifier: MIT
"""How much any client can make the sandbox keep (docs/sandbox.md, "Bounds").

Every store a request can add to is bounded in the length of what it keeps and in how many it
keeps, so that a flood from one client (no credentials needed for the faults, the sandbox's own
public credentials for the rest) cannot grow the sandbox's memory or disk without end. Flickr's
own number where it is public; otherwise the sandbox's choice, marked so.
"""

from __future__ import annotations

# Faults (faults.py): a spec, key included, and the distinct keys ``times=N`` counts. Ours.
FAULT_SPEC_CHARS = 1024
FAULT_KEYS = 10_000

# Free text a method keeps, cut to this many characters (Flickr documents no lengths). Ours.
TITLE_CHARS = 255
DESCRIPTION_CHARS = 16_384
TAG_CHARS = 128
NOTE_CHARS = 4_096
COMMENT_CHARS = 4_096

# Counts. TAGS_PER_PHOTO is Flickr's (its 2007 announcement); the others are ours, refused with
# the error Flickr documents for the method ("posting too fast", "maximum number reached").
TAGS_PER_PHOTO = 75
NOTES_PER_PHOTO = 100
COMMENTS_PER_PHOTO = 1_000
COMMENTS_PER_AUTHOR = 10_000
NOTES_PER_AUTHOR = 10_000
PHOTOSETS_PER_USER = 1_000
UPLOADS_PER_USER = 5_000
UPLOAD_BYTES_KEPT = 8 * 1024 ** 3  # every upload's file on disk, together

# OAuth and legacy auth: the oldest go first past these (ours).
OAUTH_VALUE_CHARS = 2_048  # a callback, a nonce
REQUEST_TOKENS = 1_000  # request tokens and frobs, each
ACCESS_TOKENS = 1_000  # issued access and legacy tokens (the fixed ones never go)
NONCES = 100_000
TICKETS = 10_000  # async upload tickets (a failed upload's too)

# --budget-per-hour: the keys counted apart; a longer or further key shares one count (ours).
BUDGET_KEY_CHARS = 256
BUDGET_KEYS = 1_024


def clip(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, as a bounded column keeps it."""
    return text[:limit]
