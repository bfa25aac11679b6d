# SPDX-License-Identifier: MIT
"""The REST endpoint: ``/services/rest/`` (GET query or POST form)."""

from __future__ import annotations

from . import response as R
from .auth import TOKEN_ABSENT, authenticate, insufficient
from .catalogue import METHODS as CATALOGUE
from .envelope import Node
from .errors import ApiError, OAuthProblem
from .faults import FAULT_PARAM
from .methods import METHODS, Call, Method
from .request import Prepared, Request

# A method Flickr has (the catalogue) but the sandbox does not implement: an error code Flickr
# never uses, so that no client mistakes it for one of Flickr's answers.
NOT_IMPLEMENTED = 2000
PERMISSIONS = ("none", "read", "write", "delete")
# Flickr's answer to a write or delete method called over GET (observed since 2013, e.g. by
# uploadr.py and digiKam; the code later documented as "Bad URL found").
POST_REQUIRED = ApiError(116, "The POST method is now required for all setters")
# Methods Flickr requires POST for: the catalogue's verb (POST for write and delete permission).
_POST_ONLY = frozenset(row[0] for row in CATALOGUE if row[1] == "POST")


def prepare(req: Request) -> Prepared:
    params = req.read_form()
    return Prepared(params, lambda: handle(req, params))


def handle(req: Request, params: list[tuple[str, str]]) -> R.Response:
    args = dict(params)
    fmt = args.get("format", "rest")
    as_json = fmt == "json"
    callback = None if args.get("nojsoncallback") == "1" else (args.get("jsoncallback") or "jsonFlickrApi")
    if fmt not in ("rest", "json"):
        return R.api_error(ApiError(111, f'Format "{fmt}" not found'))
    store = req.site.store
    header = req.header_oauth()
    if req.site.budget is not None:
        key = args.get("api_key") or args.get("oauth_consumer_key") or dict(header or []).get("oauth_consumer_key")
        wait = req.site.budget.admit(key or "")
        if wait is not None:
            return R.too_many_requests(wait)
    try:
        caller = authenticate(store, req.method, req.signing_url(), params, header)
        name = args.get("method", "")
        method = METHODS.get(name) or unimplemented(name)
        if method is None:
            raise ApiError(112, f'Method "{name}" not found')
        if req.method != "POST" and (name in _POST_ONLY or method.perms >= PERMISSIONS.index("write")):
            raise POST_REQUIRED
        if method.perms > caller.perms:
            if caller.scheme == "oauth" and caller.token is None:
                return R.text(400, TOKEN_ABSENT)
            raise insufficient(method.perms, caller.perms)
        if method.signed and caller.scheme == "none":
            raise ApiError(97, "Missing signature")
        # Authorization-header OAuth parameters are request parameters like query or form ones
        # (RFC 5849 §3.5): methods see them wherever they were sent (checkToken's oauth_token).
        visible = [(k, v) for k, v in params + (header or []) if k != FAULT_PARAM]
        payload = method.func(Call(store, visible, dict(visible), caller, req.site.url))
    except OAuthProblem as problem:
        return R.text(problem.status, problem.body)
    except ApiError as err:
        return R.api_error(err, callback, as_json)
    return R.json_ok(payload, callback) if as_json else R.xml_ok(payload)


def unimplemented(name: str) -> Method | None:
    """A catalogue method the sandbox lacks: Flickr's permission and argument checks, then a
    clear refusal naming it (an unknown name stays Flickr's error 112)."""
    known = next((row for row in CATALOGUE if row[0] == name), None)
    if known is None:
        return None
    _, _, perms, required, _ = known

    def refuse(call: Call) -> list[Node]:
        for argument in required:
            if argument not in call.args and argument != "auth_token" and not argument.startswith("oauth_"):
                raise ApiError(NOT_IMPLEMENTED, f'Sandbox: {name} lacks its required argument "{argument}" '
                                                "(and the sandbox does not implement it)")
        raise ApiError(NOT_IMPLEMENTED, f"Sandbox: {name} is a Flickr method the sandbox does not implement")

    return Method(refuse, PERMISSIONS.index(perms), signed=False)
