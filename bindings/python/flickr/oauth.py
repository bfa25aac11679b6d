# SPDX-License-Identifier: MIT
"""OAuth 1.0a for a `Flickr` object: each step (`Flickr.oauth`), and two complete logins.

The C library never changes a context's tokens by itself; this convenience
layer does, once a login succeeded, and keeps the token in a `TokenStore`.
"""
from __future__ import annotations

import ctypes
import http.server
import sys
import threading
import time
import urllib.parse
import webbrowser
from typing import TYPE_CHECKING, Callable, TextIO, Union

from . import _ffi, _response, errors
from .tokens import StoredToken, TokenStore, as_dict

if TYPE_CHECKING:
    from .client import Flickr

PERMS = ("read", "write", "delete")

#: What `store=` accepts: a TokenStore, None for the default one, False for none.
StoreArg = Union[TokenStore, None, bool]


def _text(value) -> str:
    """A value of a mapped answer: a string, or an element's _text."""
    if isinstance(value, dict):
        return value.get("_text", "")
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


class OAuth:
    """The OAuth steps on one `Flickr` object (``api.oauth``). None changes its tokens except `use`."""

    def __init__(self, client: "Flickr"):
        self._client = client

    # -- the steps --------------------------------------------------------

    def _answer(self, function, *args) -> dict:
        """`function` (an OAuth step's C function) on the client's context, its answer as a dict."""
        return _response.call(function, self._client._live(), *args)

    def request_token(self, callback: str = "oob") -> dict:
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

    def access_token(self, token: str, token_secret: str, verifier: str) -> dict:
        """Step 3: ``{"oauth_token", "oauth_token_secret", "user_nsid", "username", "fullname"}``."""
        return self._answer(_ffi.lib().flickr_oauth_access_token, _ffi.encode(token, "token"),
                              _ffi.encode(token_secret, "token_secret"), _ffi.encode(verifier, "verifier"))

    def check_token(self, token: str | None = None, token_secret: str | None = None) -> dict:
        """flickr.auth.oauth.checkToken of `token` (the object's own when None):
        ``{"token", "perms", "user_nsid", "username", "fullname"}``."""
        answer = self._answer(_ffi.lib().flickr_oauth_check_token, _ffi.encode(token, "token"),
                                _ffi.encode(token_secret, "token_secret"))
        oauth = answer.get("oauth", {})
        user = oauth.get("user", {})
        return {"token": _text(oauth.get("token")), "perms": _text(oauth.get("perms")),
                "user_nsid": user.get("nsid", ""), "username": user.get("username", ""),
                "fullname": user.get("fullname", "")}

    def exchange_legacy_token(self, auth_token: str | None = None) -> dict:
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

    def legacy_token(self, frob: str) -> dict:
        """Deprecated legacy login step 3: flickr.auth.getToken:
        ``{"auth_token", "perms", "user_nsid", "username", "fullname"}``."""
        answer = self._answer(_ffi.lib().flickr_auth_get_token, _ffi.encode(frob, "frob"))
        auth = answer.get("auth", {})
        user = auth.get("user", {})
        return {"auth_token": _text(auth.get("token")), "perms": _text(auth.get("perms")),
                "user_nsid": user.get("nsid", ""), "username": user.get("username", ""),
                "fullname": user.get("fullname", "")}

    # -- using tokens -----------------------------------------------------

    def use(self, token: Union[dict, StoredToken]) -> None:
        """Signs the object's later calls with this access token."""
        if isinstance(token, StoredToken):
            token = as_dict(token)
        self._client.set_option("oauth_token", token["oauth_token"])
        self._client.set_option("oauth_token_secret", token["oauth_token_secret"])

    def use_stored(self, user: str | None = None, store: TokenStore | None = None) -> StoredToken | None:
        """Signs with the stored token of `user` (the default one when None) if there is one."""
        found = (store or TokenStore()).load(self._client.api_key, user)
        if found is not None:
            self.use(found)
        return found

    def _finish(self, request: dict, verifier: str, perms: str, store: StoreArg) -> dict:
        token = self.access_token(request["oauth_token"], request["oauth_token_secret"], verifier)
        token["perms"] = perms
        self.use(token)
        if store is not False:
            (store if isinstance(store, TokenStore) else TokenStore()).save(self._client.api_key, token)
        return token

    # -- complete logins --------------------------------------------------

    def authenticate_console(self, perms: str = "read", *, input: Callable[[str], str] = input,
                             output: TextIO | None = None, store: StoreArg = None) -> dict:
        """Out-of-band login: prints the authorize URL, reads the code Flickr shows (or a pasted
        callback URL), gets the access token, signs with it and stores it. Returns the token dict."""
        output = output or sys.stdout
        _check_perms(perms)
        request = self.request_token("oob")
        url = self.authorize_url(request["oauth_token"], perms)
        print(f"Open this URL in a browser and approve the application:\n{url}", file=output, flush=True)
        answer = input("Code shown by Flickr: ").strip()
        if not answer:
            raise errors.OAuthError(errors.EOAUTH, "no verification code was entered")
        verifier = answer
        if "://" in answer:
            token, verifier = parse_callback(answer)
            if token != request["oauth_token"]:
                raise errors.OAuthError(errors.EOAUTH, "the pasted URL is for another request token")
        return self._finish(request, verifier, perms, store)

    def authenticate_via_browser(self, perms: str = "read", *, timeout: float = 300.0,
                                 browser: Union[bool, Callable[[str], object]] = True,
                                 host: str = "127.0.0.1", port: int = 0, output: TextIO | None = None,
                                 store: StoreArg = None) -> dict:
        """Loopback login: serves http://HOST:PORT/callback, opens the authorize URL in a browser
        (when one is available; `browser=False` only prints it, a callable is called with it),
        waits up to `timeout` seconds for Flickr's redirect, then finishes like
        `authenticate_console`. Raises flickr.TimeoutError when nothing arrived in time."""
        output = output or sys.stdout
        _check_perms(perms)
        receiver = _CallbackReceiver(host, port)
        try:
            request = self.request_token(receiver.url)
            url = self.authorize_url(request["oauth_token"], perms)
            print(f"Open this URL in a browser and approve the application:\n{url}", file=output, flush=True)
            if callable(browser):
                threading.Thread(target=browser, args=(url,), daemon=True).start()
            elif browser:
                _open_browser(url, output)
            print(f"Waiting for the approval (up to {timeout:g} s)...", file=output, flush=True)
            callback = receiver.wait(timeout)
        finally:
            receiver.close()
        if callback is None:
            raise errors.TimeoutError(errors.ETIMEOUT, f"no authorization arrived within {timeout:g} s")
        token, verifier = parse_callback(callback)
        if token != request["oauth_token"]:
            raise errors.OAuthError(errors.EOAUTH, "the callback is for another request token")
        return self._finish(request, verifier, perms, store)


def _check_perms(perms: str) -> None:
    if perms not in PERMS:
        raise errors.InvalidArgument(errors.EINVAL, f'perms must be "read", "write" or "delete", not {perms!r}')


def _open_browser(url: str, output: TextIO) -> None:
    try:
        webbrowser.get()
    except webbrowser.Error:
        print("(no browser found: open the URL yourself)", file=output, flush=True)
        return
    try:
        webbrowser.open(url, new=2)
    except Exception:  # a broken browser setup must not abort the login
        print("(could not start the browser: open the URL yourself)", file=output, flush=True)


class _CallbackReceiver:
    """A one-shot loopback HTTP server that waits for GET /callback?..."""

    def __init__(self, host: str, port: int):
        self._arrived = threading.Event()
        self._callback: str | None = None
        receiver = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):  # noqa: N802 (http.server's naming)
                path = urllib.parse.urlsplit(self.path)
                if path.path != "/callback" or receiver._arrived.is_set():
                    self.send_error(404)
                    return
                receiver._callback = receiver.base + self.path
                query = urllib.parse.parse_qs(path.query)
                ok = bool(query.get("oauth_verifier"))
                body = ("<html><body><h1>" + ("Approved" if ok else "Not approved") +
                        "</h1><p>You can close this window and return to the application.</p></body></html>")
                data = body.encode("utf-8")
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(data)))
                self.send_header("Connection", "close")
                self.end_headers()
                self.wfile.write(data)
                receiver._arrived.set()

            def log_message(self, *args):  # keep the console quiet
                pass

        self._server = http.server.ThreadingHTTPServer((host, port), Handler)
        self._server.daemon_threads = True
        bound_host, bound_port = self._server.server_address[:2]
        bound_host = bound_host.decode() if isinstance(bound_host, bytes) else str(bound_host)
        shown = f"[{bound_host}]" if ":" in bound_host else bound_host
        self.base = f"http://{shown}:{bound_port}"
        self.url = self.base + "/callback"
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.1},
                                        daemon=True)
        self._thread.start()

    def wait(self, timeout: float) -> str | None:
        deadline = time.monotonic() + max(0.0, timeout)
        while not self._arrived.wait(0.1):
            if time.monotonic() >= deadline:
                return None
        return self._callback

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)
