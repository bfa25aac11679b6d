# SPDX-License-Identifier: MIT
"""Who is calling: OAuth 1.0a, legacy ``api_sig``/``auth_token``, or just an API key.

Verification is real: the base string is rebuilt from the URL the server
received and every parameter sent, and compared with HMAC-SHA1 under the
consumer secret and the token's secret.  Failures answer the way Flickr does
(see docs/protocol.md §3.2).
"""

from __future__ import annotations

import re
import secrets
import sqlite3
import time
from dataclasses import dataclass

from . import constants as C
from .errors import ApiError, OAuthProblem
from .limits import ACCESS_TOKENS, NONCES, OAUTH_VALUE_CHARS, REQUEST_TOKENS
from .oauth import base_string, enc, hmac_sha1, legacy_api_sig, signatures_match
from .params import parse_int
from .store import Store

_REQUIRED_OAUTH = ("oauth_consumer_key", "oauth_nonce", "oauth_signature",
                   "oauth_signature_method", "oauth_timestamp")
_KEY_FORMAT = re.compile(r"^[0-9a-f]{32}$")
# A consumer-only OAuth call (no token) to a method that needs a user: HTTP 400 with this body.
TOKEN_ABSENT = "oauth_problem=parameter_absent&oauth_parameters_absent=oauth_token"


@dataclass
class Caller:
    """The authenticated party of one request."""

    scheme: str  # "none", "oauth" or "legacy"
    nsid: str | None = None
    perms: int = 0
    token: str | None = None
    signature: str | None = None

    def require_user(self) -> str:
        """The logged-in user's NSID; error 99 when the call carries no user.

        rest.py refuses methods that need read permission or more before they run, so there
        this only narrows the type; for "me" in a method open to all it is the real check.
        """
        if self.nsid is None:
            raise insufficient(C.PERMS["read"], self.perms)
        return self.nsid


def check_api_key(key: str | None) -> None:
    if not key or not _KEY_FORMAT.match(key):
        raise ApiError(100, "Invalid API Key (Key has invalid format)")
    if key != C.API_KEY:
        raise ApiError(100, "Invalid API Key (Key not found)")


def is_oauth(pairs: list[tuple[str, str]], header_pairs: list[tuple[str, str]] | None) -> bool:
    return header_pairs is not None or any(
        k in ("oauth_signature", "oauth_consumer_key") for k, _ in pairs)


def verify_oauth(store: Store, http_method: str, url: str, pairs: list[tuple[str, str]],
                 token_kind: str | None, record_nonce: bool = True) -> tuple[dict[str, str], sqlite3.Row | None]:
    """Check an OAuth-signed request; return its oauth values and token row.

    ``token_kind`` names the token table kind whose secret completes the key
    ("access" for API calls, "request" at access_token); None ignores any
    token, as request_token does. ``record_nonce=False`` checks that the nonce is unused
    without using it up (an upload's check before it stores the photo; the full one follows).
    """
    values = dict(pairs)
    missing = [n for n in _REQUIRED_OAUTH if not values.get(n)]
    if missing:
        raise OAuthProblem(400, "oauth_problem=parameter_absent&oauth_parameters_absent="
                           + enc("&".join(missing)))
    if values["oauth_consumer_key"] != C.API_KEY:
        raise OAuthProblem(401, "oauth_problem=consumer_key_unknown")
    too_long = [n for n in ("oauth_nonce", "oauth_callback") if len(values.get(n, "")) > OAUTH_VALUE_CHARS]
    if too_long:  # kept (a nonce, a request token's callback): bounded, limits.py
        raise OAuthProblem(400, "oauth_problem=parameter_rejected&oauth_parameters_rejected="
                           + enc("&".join(too_long)))
    if values["oauth_signature_method"] != "HMAC-SHA1":
        raise OAuthProblem(400, "oauth_problem=signature_method_rejected")
    if values.get("oauth_version", "1.0") != "1.0":
        raise OAuthProblem(400, "oauth_problem=version_rejected")
    now = int(time.time())
    stamp = parse_int(values["oauth_timestamp"])
    if stamp is None:
        stamp = -1
    if abs(now - stamp) > C.TIMESTAMP_WINDOW:
        raise OAuthProblem(401, "oauth_problem=timestamp_refused&oauth_acceptable_timestamps="
                           f"{now - C.TIMESTAMP_WINDOW}-{now + C.TIMESTAMP_WINDOW}")
    token_row = None
    token_secret = ""
    if token_kind and values.get("oauth_token"):
        token_row = store.one("SELECT * FROM tokens WHERE token=? AND kind=?",
                              (values["oauth_token"], token_kind))
        expired = token_row is not None and token_kind == "request" and \
            token_row["created"] + C.REQUEST_TOKEN_TTL < time.time()
        if token_row is None or token_row["used"] or token_row["denied"] or expired:
            raise OAuthProblem(401, "oauth_problem=token_rejected")
        token_secret = token_row["secret"]
    sbs = base_string(http_method, url, pairs)
    if not signatures_match(hmac_sha1(sbs, C.API_SECRET, token_secret), values["oauth_signature"]):
        raise OAuthProblem(401, "oauth_problem=signature_invalid&debug_sbs=" + sbs)
    # Replay protection, recorded only for correctly signed requests.
    if not record_nonce:
        if store.one("SELECT 1 FROM nonces WHERE consumer=? AND nonce=? AND timestamp=?",
                     (C.API_KEY, values["oauth_nonce"], stamp)) is not None:
            raise OAuthProblem(401, "oauth_problem=nonce_used")
        return values, token_row
    store.run("DELETE FROM nonces WHERE timestamp < ?", (now - 2 * C.TIMESTAMP_WINDOW,))
    # A flood within the window: the earliest recorded go, found by rowid (no sort per request).
    store.run("DELETE FROM nonces WHERE rowid <= (SELECT MAX(rowid) FROM nonces) - ?", (NONCES - 1,))
    if store.run("INSERT OR IGNORE INTO nonces VALUES (?,?,?)",
                 (C.API_KEY, values["oauth_nonce"], stamp)).rowcount == 0:
        raise OAuthProblem(401, "oauth_problem=nonce_used")
    return values, token_row


def authenticate(store: Store, http_method: str, url: str, pairs: list[tuple[str, str]],
                 header_pairs: list[tuple[str, str]] | None,
                 unsigned: tuple[str, ...] = (), record_nonce: bool = True) -> Caller:
    """Authenticate an API (REST, upload, replace) request.

    ``pairs`` are the request's parameters (query, form or multipart fields);
    ``header_pairs`` the ``Authorization: OAuth`` parameters, None without
    such a header.  Names in ``unsigned`` (upload's ``photo``) are never signed.
    """
    if is_oauth(pairs, header_pairs):
        values, token = verify_oauth(store, http_method, url, pairs + (header_pairs or []), "access",
                                     record_nonce)
        if token is None:
            return Caller("oauth", signature=values["oauth_signature"])
        return Caller("oauth", token["nsid"], token["perms"], token["token"], values["oauth_signature"])
    params = dict(pairs)
    check_api_key(params.get("api_key"))
    if "api_sig" in params:
        signed = {k: v for k, v in params.items() if k != "api_sig" and k not in unsigned}
        if not signatures_match(legacy_api_sig(C.API_SECRET, signed), params["api_sig"].lower()):
            raise ApiError(96, "Invalid signature")
        if not params.get("auth_token"):
            return Caller("legacy", signature=params["api_sig"])
        row = store.one("SELECT * FROM tokens WHERE token=? AND kind='legacy'", (params["auth_token"],))
        if row is None:
            raise ApiError(98, "Invalid auth token")
        return Caller("legacy", row["nsid"], row["perms"], row["token"], params["api_sig"])
    if params.get("auth_token"):
        raise ApiError(97, "Missing signature")
    return Caller("none")


def insufficient(required: int, granted: int) -> ApiError:
    """Flickr's wording for error 99 (as observed in client bug reports)."""
    return ApiError(99, f"Insufficient permissions. Method requires {C.PERM_NAMES[required]} "
                        f"privileges; {C.PERM_NAMES[granted]} granted.")


def issue_token(store: Store, kind: str, nsid: str | None, perms: int, callback: str | None = None) -> tuple[str, str]:
    """A new token of ``kind`` ("request", "access", "legacy") stored; past limits.py's bounds
    the spent request tokens, then the oldest of the kind, go (never the fixed ones, seed.py)."""
    now = time.time()
    if kind == "request":
        store.run("DELETE FROM tokens WHERE kind='request' AND (used=1 OR denied=1 OR created < ?)",
                  (now - C.REQUEST_TOKEN_TTL,))
        store.trim("tokens", "kind='request'", (), REQUEST_TOKENS - 1, "created")
    else:
        store.trim("tokens", "kind=? AND token NOT IN (?,?)", (kind, C.OAUTH_TOKEN, C.AUTH_TOKEN),
                   ACCESS_TOKENS - 1, "created")
    token, secret = new_token()
    store.run("INSERT INTO tokens(token, secret, kind, nsid, perms, callback, created) VALUES (?,?,?,?,?,?,?)",
              (token, "" if kind == "legacy" else secret, kind, nsid, perms, callback, now))
    return token, secret


def new_token() -> tuple[str, str]:
    """A fresh (token, secret) shaped like Flickr's: ``72157...-16hex`` and 16 hex."""
    return (f"72157{secrets.randbelow(10 ** 12):012d}-{secrets.token_hex(8)}",
            secrets.token_hex(8))
