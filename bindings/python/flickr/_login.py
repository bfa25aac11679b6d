# SPDX-License-Identifier: MIT
"""The complete logins over the OAuth steps: out-of-band (`authenticate_console`) and through a
browser and the loopback server (`authenticate_via_browser`), with the policy of the token store:
a login's token is saved there unless told otherwise, and `use_stored` signs with a saved one.

Private: `flickr.oauth` is the public face. A layer above the steps (`_oauth_steps`), which never
import it; the C library never changes a context's tokens by itself, this layer does once a login
succeeded.
"""
from __future__ import annotations

import sys
import threading
import webbrowser
from typing import Any, Callable, TextIO, Union

from . import errors
from ._loopback import CallbackReceiver
from ._oauth_steps import OAuthSteps, parse_callback
from .tokens import StoredToken, TokenStore

PERMS = ("read", "write", "delete")

#: What `store=` accepts: a TokenStore, None for the default one, False for none.
StoreArg = Union[TokenStore, None, bool]


class OAuth(OAuthSteps):
    """The OAuth steps on one `Flickr` object (``api.oauth``), the token store, and two complete
    logins. None changes its tokens except `use`, `use_stored` and a login that succeeded."""

    def use_stored(self, user: str | None = None, store: TokenStore | None = None) -> StoredToken | None:
        """Signs with the stored token of `user` (the default one when None) if there is one."""
        found = (store or TokenStore()).load(self._client.api_key, user)
        if found is not None:
            self.use(found)
        return found

    def _finish(self, request: dict[str, Any], verifier: str, perms: str, store: StoreArg) -> dict[str, Any]:
        token = self.access_token(request["oauth_token"], request["oauth_token_secret"], verifier)
        token["perms"] = perms
        self.use(token)
        if store is not False:
            (store if isinstance(store, TokenStore) else TokenStore()).save(self._client.api_key, token)
        return token

    # -- complete logins --------------------------------------------------

    def authenticate_console(self, perms: str = "read", *, input: Callable[[str], str] = input,
                             output: TextIO | None = None, store: StoreArg = None) -> dict[str, Any]:
        """Out-of-band login: prints the authorize URL, reads the code Flickr shows (or a pasted
        callback URL), gets the access token, signs with it and stores it. Returns the token dict."""
        output = output or sys.stdout
        _check_perms(perms)
        request = self.request_token("oob")
        url = self.authorize_url(request["oauth_token"], perms)
        print(f"Open this URL in a browser and approve the application:\n{url}", file=output, flush=True)
        answer = _ask(input, "Code shown by Flickr: ").strip()
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
                                 store: StoreArg = None) -> dict[str, Any]:
        """Loopback login: serves http://HOST:PORT/callback, opens the authorize URL in a browser
        (when one is available; `browser=False` only prints it, a callable is called with it),
        waits up to `timeout` seconds for Flickr's redirect, then finishes like
        `authenticate_console`. Raises flickr.Timeout when nothing arrived in time."""
        output = output or sys.stdout
        _check_perms(perms)
        receiver = CallbackReceiver(host, port)
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
            raise errors.Timeout(errors.ETIMEOUT, f"no authorization arrived within {timeout:g} s")
        token, verifier = parse_callback(callback)
        if token != request["oauth_token"]:
            raise errors.OAuthError(errors.EOAUTH, "the callback is for another request token")
        return self._finish(request, verifier, perms, store)


def _ask(input: Callable[[str], str], prompt: str) -> str:
    """The code typed at the prompt; OAuthError when none can come: the input ended (Ctrl-D, an
    empty stdin) or there is none (descriptor 0 closed: input() finds no sys.stdin)."""
    try:
        return input(prompt)
    except EOFError:
        pass
    except RuntimeError:
        if sys.stdin is not None:
            raise
    raise errors.OAuthError(errors.EOAUTH, "no verification code was entered (the input ended)")


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
