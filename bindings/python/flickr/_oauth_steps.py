# SPDX-License-Identifier: MIT
"""The OAuth 1.0a steps on one client's context, each one library call: request_token,
authorize_url, parse_callback, access_token, check_token, the legacy token exchange and frob steps,
and `use` (sign with a token).

Private: `flickr.oauth` is the public face. The steps know the client only as `Client` (what they
use of it), never as `flickr.client.Flickr`: client.py reaches them through `Flickr.oauth`, so an
import the other way would close a cycle. The logins built on them are in `_login`.
"""
from __future__ import annotations

import ctypes
from typing import Any, Callable, Protocol, Union

from . import _ffi, _response
from .tokens import StoredToken, as_dict


class Client(Protocol):
    """What the steps use of a `Flickr` object: its context, its options, its API key."""

    api_key: str

    def _live(self) -> Any: ...

    def set_option(self, name: str, value: Any) -> None: ...


def _text(value: Any) -> str:
    """A value of a mapped answer: a string, or an element's _text."""
    if isinstance(value, dict):
        text: str = value.get("_text", "")  # the library renders an element's text as a string
        return text
    return value if isinstance(value, str) else ""


def parse_callback(url: str) -> tuple[str, str]:
    """(oauth_token, oauth_verifier) of a callback URL, URL-decoded.

    Raises InvalidArgument for a malformed URL and OAuthError when either value
    is missing (e.g. the user declined).
    """
    lib = _ffi.lib()
    token, verifier = ctypes.c_void_p(), ctypes.c_void_p()
    lib.flickr_oauth_parse_callback(_ffi.encode(url, "url"), ctypes.byref(token), ctypes.byref(verifier))
    return _ffi.take_text(token.value), _ffi.take_text(verifier.value)


class OAuthSteps:
    """The OAuth steps on one `Flickr` object. None changes its tokens except `use`."""

    def __init__(self, client: Client):
        self._client = client

    def _answer(self, function: Callable[..., Any], *args: Any) -> dict[str, Any]:
        """`function` (an OAuth step's C function) on the client's context, its answer as a dict."""
        answer: dict[str, Any] = _response.call(function, self._client._live(), *args)  # as_dict's
        return answer

    # -- the steps --------------------------------------------------------

    def request_token(self, callback: str = "oob") -> dict[str, Any]:
        """Step 1: ``{"oauth_token", "oauth_token_secret", "oauth_callback_confirmed"}``.

        `callback` is a URL (any scheme) or "oob". Signed with the consumer secret
        alone, whatever token the object holds.
        """
        return self._answer(_ffi.lib().flickr_oauth_request_token, _ffi.encode(callback, "callback"))

    def authorize_url(self, token: str, perms: str | None = "read") -> str:
        """Step 2: the page where the user approves `token` for `perms` (read, write or delete)."""
        url = _ffi.lib().flickr_oauth_authorize_url(self._client._live(), _ffi.encode(token, "token"),
                                                    _ffi.encode(perms, "perms"))
        return _ffi.take_text(url)

    parse_callback = staticmethod(parse_callback)

    def access_token(self, token: str, token_secret: str, verifier: str) -> dict[str, Any]:
        """Step 3: ``{"oauth_token", "oauth_token_secret", "user_nsid", "username", "fullname"}``."""
        return self._answer(_ffi.lib().flickr_oauth_access_token, _ffi.encode(token, "token"),
                            _ffi.encode(token_secret, "token_secret"), _ffi.encode(verifier, "verifier"))

    def check_token(self, token: str | None = None, token_secret: str | None = None) -> dict[str, Any]:
        """flickr.auth.oauth.checkToken of `token` (the object's own when None):
        ``{"token", "perms", "user_nsid", "username", "fullname"}``."""
        answer = self._answer(_ffi.lib().flickr_oauth_check_token, _ffi.encode(token, "token"),
                              _ffi.encode(token_secret, "token_secret"))
        oauth = answer.get("oauth", {})
        user = oauth.get("user", {})
        return {"token": _text(oauth.get("token")), "perms": _text(oauth.get("perms")),
                "user_nsid": user.get("nsid", ""), "username": user.get("username", ""),
                "fullname": user.get("fullname", "")}

    def exchange_legacy_token(self, auth_token: str | None = None) -> dict[str, Any]:
        """flickr.auth.oauth.getAccessToken: an OAuth token for a legacy auth token (the object's
        own when None), which Flickr then retires. ``{"oauth_token", "oauth_token_secret"}``."""
        answer = self._answer(_ffi.lib().flickr_oauth_exchange_legacy_token, _ffi.encode(auth_token, "auth_token"))
        access = answer.get("auth", {}).get("access_token", {})
        return {"oauth_token": access.get("oauth_token", ""), "oauth_token_secret": access.get("oauth_token_secret", "")}

    # -- legacy (deprecated) frob flow ------------------------------------

    def legacy_frob(self) -> str:
        """Deprecated legacy login step 1: flickr.auth.getFrob."""
        frob = ctypes.c_void_p()
        _ffi.lib().flickr_auth_get_frob(ctypes.byref(frob), self._client._live())
        return _ffi.take_text(frob.value)

    def legacy_login_url(self, frob: str, perms: str = "read") -> str:
        """Deprecated legacy login step 2: the approval page for `frob`."""
        url = _ffi.lib().flickr_auth_login_url(self._client._live(), _ffi.encode(frob, "frob"),
                                               _ffi.encode(perms, "perms"))
        return _ffi.take_text(url)

    def legacy_token(self, frob: str) -> dict[str, Any]:
        """Deprecated legacy login step 3: flickr.auth.getToken:
        ``{"auth_token", "perms", "user_nsid", "username", "fullname"}``."""
        answer = self._answer(_ffi.lib().flickr_auth_get_token, _ffi.encode(frob, "frob"))
        auth = answer.get("auth", {})
        user = auth.get("user", {})
        return {"auth_token": _text(auth.get("token")), "perms": _text(auth.get("perms")),
                "user_nsid": user.get("nsid", ""), "username": user.get("username", ""),
                "fullname": user.get("fullname", "")}

    # -- using tokens -----------------------------------------------------

    def use(self, token: Union[dict[str, Any], StoredToken]) -> None:
        """Signs the object's later calls with this access token."""
        if isinstance(token, StoredToken):
            token = as_dict(token)
        self._client.set_option("oauth_token", token["oauth_token"])
        self._client.set_option("oauth_token_secret", token["oauth_token_secret"])
