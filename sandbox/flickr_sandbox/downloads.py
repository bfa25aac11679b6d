# SPDX-License-Identifier: MIT
"""Who may download a photo's large sizes and original: Flickr's two rules.

1. The owner's download setting (Flickr's "Who can download your stuff": only you, your friends
   and family, your contacts, any Flickr member, anyone), stored as ``users.download``
   (``ONLY_YOU`` .. ``ANYONE``).  It restricts the sizes Flickr's URL documentation marks
   "photo owner can restrict": Large 1600 and up and the original.  The owner is never refused
   by it.  The sandbox has no contacts, so a setting of friends and family or contacts lets only
   the owner download.
2. Flickr's rule for free accounts, from 15 May 2025 ("Flickr will restrict downloads of original
   and large-size images (larger than 1024px) owned by free accounts ... this update applies to
   both your own content and to content shared by other free members"; "Creative
   Commons-licensed photos will remain available to download in all sizes—unless they're set to
   private"): a photo of a free (``ispro = 0``) owner, All Rights Reserved or not public, loses
   the same sizes, for everybody, its owner included.

What is withheld is withheld everywhere: ``candownload="0"`` (getInfo's usage, getSizes),
no such sizes in getSizes or the ``url_*`` extras, no ``originalsecret``/``originalformat``
(Flickr returns them "only when the caller has permission to view the original size").  The
image host cannot know the caller, so it refuses only what rule 2 withholds, whoever asks:
403 (what Flickr's static host answers is not documented; a refusal, not a missing file).
"""

from __future__ import annotations

import sqlite3

from .store import Store

ONLY_YOU, FRIENDS_FAMILY, CONTACTS, MEMBERS, ANYONE = 0, 1, 2, 3, 4
# The sizes both rules restrict ("larger than 1024px", and the original).
RESTRICTED = frozenset({"h", "k", "3k", "4k", "5k", "6k", "o"})
ALL_RIGHTS_RESERVED = 0


def free_account_rule(owner: sqlite3.Row, photo: sqlite3.Row) -> bool:
    """True if Flickr's 2025 rule for free accounts withholds this photo's large sizes."""
    open_licence = photo["license"] != ALL_RIGHTS_RESERVED and bool(photo["ispublic"])
    return not owner["ispro"] and not open_licence


def may_download(store: Store, photo: sqlite3.Row, viewer: str | None) -> bool:
    """May ``viewer`` (an NSID, None when not logged in) have the photo's large sizes?"""
    owner = store.owner(photo["owner"])
    if free_account_rule(owner, photo):
        return False
    if viewer == photo["owner"]:
        return True
    setting = owner["download"]
    return bool(setting >= ANYONE or (setting >= MEMBERS and viewer is not None))


def host_refuses(store: Store, photo: sqlite3.Row, suffix: str) -> bool:
    """Does the image host refuse this size's file (whoever asks)?"""
    return suffix in RESTRICTED and free_account_rule(store.owner(photo["owner"]), photo)
