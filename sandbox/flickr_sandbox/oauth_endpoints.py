# SPDX-License-Identifier: MIT
"""OAuth 1.0a endpoints (request_token, authorize, access_token) and the legacy
``/services/auth/`` frob approval page.

The browser steps approve at once for the seeded user: there is nobody to
click.  Test-only query flags on the browser pages: ``sandbox_deny=1`` makes
the user refuse, ``sandbox_user=NSID|username`` picks who approves.
"""

from __future__ import annotations

import secrets
import time
from html import escape as html_escape
from typing import Callable
from urllib.parse import urlsplit, urlunsplit

from . import constants as C
from . import response as R
from .auth import TOKEN_ABSENT, check_api_key, issue_token, verify_oauth
from .errors import ApiError, OAuthProblem
from .oauth import enc, legacy_api_sig, signatures_match
from .request import Prepared, Request


# An endpoint: the request and its parameters (query, form, Authorization header) to an answer.
Endpoint = Callable[[Request, list[tuple[str, str]]], R.Response]


def _guard(func: Endpoint) -> Endpoint:
    """Turn OAuthProblem into Flickr's plain-text 4xx answers."""
    def run(req: Request, params: list[tuple[str, str]]) -> R.Response:
        try:
            return func(req, params)
        except OAuthProblem as problem:
            return R.text(problem.status, problem.body)
    return run


def prepare(handler: Endpoint) -> Callable[[Request], Prepared]:
    def _prepare(req: Request) -> Prepared:
        params = req.read_form()
        return Prepared(params, lambda: handler(req, params))
    return _prepare


def _signed_pairs(req: Request, params: list[tuple[str, str]]) -> list[tuple[str, str]]:
    return params + (req.header_oauth() or [])


@_guard
def request_token(req: Request, params: list[tuple[str, str]]) -> R.Response:
    store = req.site.store
    values, _ = verify_oauth(store, req.method, req.signing_url(), _signed_pairs(req, params), None)
    callback = values.get("oauth_callback")
    if not callback:
        raise OAuthProblem(400, "oauth_problem=parameter_absent&oauth_parameters_absent=oauth_callback")
    with store.transaction():
        token, secret = issue_token(store, "request", None, 0, callback)
    return R.text(200, f"oauth_callback_confirmed=true&oauth_token={token}&oauth_token_secret={secret}")


def _oops(message: str) -> R.Response:
    return R.html(400, "Flickr: Oops!", html_escape(message))


def authorize(req: Request, params: list[tuple[str, str]]) -> R.Response:
    store = req.site.store
    args = dict(params)
    token = args.get("oauth_token", "")
    row = store.one("SELECT * FROM tokens WHERE token=? AND kind='request'", (token,))
    if row is None or row["used"] or row["created"] + C.REQUEST_TOKEN_TTL < time.time():
        return _oops(f'Oops! Flickr doesn\'t recognise the "oauth_token" this application is trying to use.')
    perms = args.get("perms", "read")
    if perms not in ("read", "write", "delete"):
        return _oops("Oops! Flickr doesn't recognise the permission set.")
    user = store.find_user(args.get("sandbox_user") or C.USER_NSID)
    if user is None:
        return _oops("Oops! sandbox_user names no seeded user.")
    if args.get("sandbox_deny") == "1":
        store.run("UPDATE tokens SET denied=1 WHERE token=?", (token,))
        return R.html(200, "Flickr: Access denied", "The user declined to authorize this application.")
    callback = row["callback"]
    if callback == "oob":
        n = secrets.randbelow(10 ** 9)
        verifier = f"{n // 10 ** 6:03d}-{n // 1000 % 1000:03d}-{n % 1000:03d}"
    else:
        verifier = secrets.token_hex(8)
    store.run("UPDATE tokens SET nsid=?, perms=?, verifier=? WHERE token=?",
              (user["nsid"], C.PERMS[perms], verifier, token))
    if callback == "oob":
        return R.html(200, "Flickr: Authorization complete",
                      "You have successfully authorized the application. Type this code into it:"
                      f'<br><span id="verifier" class="verifier">{verifier}</span>')
    return R.redirect(_append_query(callback, f"oauth_token={enc(token)}&oauth_verifier={verifier}"))


def _append_query(url: str, extra: str) -> str:
    """Add parameters to a callback URL, keeping its own query (``/`` for an empty path)."""
    parts = urlsplit(url)
    query = f"{parts.query}&{extra}" if parts.query else extra
    return urlunsplit((parts.scheme, parts.netloc, parts.path or "/", query, parts.fragment))


@_guard
def access_token(req: Request, params: list[tuple[str, str]]) -> R.Response:
    store = req.site.store
    values, row = verify_oauth(store, req.method, req.signing_url(), _signed_pairs(req, params), "request")
    if row is None:
        raise OAuthProblem(400, TOKEN_ABSENT)
    verifier = values.get("oauth_verifier", "")
    if not row["verifier"] or not signatures_match(row["verifier"], verifier):
        raise OAuthProblem(401, "oauth_problem=verifier_invalid")
    with store.transaction():
        # Request tokens are single use.
        if store.run("UPDATE tokens SET used=1 WHERE token=? AND used=0", (row["token"],)).rowcount != 1:
            raise OAuthProblem(401, "oauth_problem=token_rejected")
        token, secret = issue_token(store, "access", row["nsid"], row["perms"])
    user = store.owner(row["nsid"])
    return R.text(200, f"fullname={enc(user['realname'])}&oauth_token={token}"
                       f"&oauth_token_secret={secret}&user_nsid={enc(user['nsid'])}"
                       f"&username={enc(user['username'])}")


def legacy_auth(req: Request, params: list[tuple[str, str]]) -> R.Response:
    """``/services/auth/?api_key&perms&frob&api_sig``: approve a frob at once."""
    store = req.site.store
    args = dict(params)
    try:
        check_api_key(args.get("api_key"))
    except ApiError as err:
        return _oops(f"Oops! {err.message}")
    signed = {k: v for k, v in args.items() if k != "api_sig"}
    if not signatures_match(legacy_api_sig(C.API_SECRET, signed), args.get("api_sig", "").lower()):
        return _oops("Oops! Invalid API signature.")
    perms = args.get("perms", "")
    if perms not in ("read", "write", "delete"):
        return _oops("Oops! Flickr doesn't recognise the permission set.")
    frob = store.one("SELECT * FROM frobs WHERE frob=?", (args.get("frob", ""),))
    if frob is None:
        return _oops("Oops! Invalid frob.")
    user = store.find_user(args.get("sandbox_user") or C.USER_NSID)
    if args.get("sandbox_deny") == "1" or user is None:
        return R.html(200, "Flickr: Access denied", "The user declined to authorize this application.")
    store.run("UPDATE frobs SET nsid=?, perms=? WHERE frob=?", (user["nsid"], C.PERMS[perms], frob["frob"]))
    return R.html(200, "Flickr: Authorization complete",
                  "You have successfully authorized the application. You can close this window.")
