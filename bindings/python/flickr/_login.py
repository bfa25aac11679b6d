# SPDX-License-Identifier: MIT
"""The complete logins over the OAuth steps: out-of-band (`authenticate_console`) and through a
browser and the loopback server (`authenticate_via_browser`), with the policy of the token store:
a login's token is saved there unless told otherwise, and `use_stored` signs with a saved one.

Private: `flickr.oauth` is the public face. A layer above the steps (`_oauth_steps`), which never
import it; the C library never changes a context's tokens by itself, this layer does once a login
succeeded.
"""
from __future__ import annotations

import os
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
        verifier = _pasted_verifier(_ask(input, "Code shown by Flickr: "), request)
        return self._finish(request, verifier, perms, store)

    def authenticate_via_browser(self, perms: str = "read", *, timeout: float = 300.0,
                                 browser: Union[bool, Callable[[str], object]] = True,
                                 host: str = "127.0.0.1", port: int = 0, output: TextIO | None = None,
                                 store: StoreArg = None, paste: bool = False) -> dict[str, Any]:
        """Loopback login: serves http://HOST:PORT/callback, opens the authorize URL in a browser
        (when one is available; `browser=False` only prints it, a callable is called with it),
        waits up to `timeout` seconds for Flickr's redirect, then finishes like
        `authenticate_console`. Raises flickr.Timeout when nothing arrived in time.

        With `paste=True`, a login that started no browser (none found, it failed to start, or
        `browser=False`) also takes the answer typed on standard input: the code Flickr shows or
        the address the browser was sent to, for a browser on another machine, whose redirect
        cannot reach this one. The first answer wins; the input ending, or an empty line, before
        the callback arrived raises OAuthError. When the callback wins, the thread reading stdin
        stays blocked there and takes the next line typed: for programs that read stdin no more."""
        output = output or sys.stdout
        _check_perms(perms)
        receiver = CallbackReceiver(host, port)
        pasted = None
        try:
            request = self.request_token(receiver.url)
            url = self.authorize_url(request["oauth_token"], perms)
            print(f"Open this URL in a browser and approve the application:\n{url}", file=output, flush=True)
            started = False
            if callable(browser):
                threading.Thread(target=browser, args=(url,), daemon=True).start()
                started = True
            elif browser:
                started = _open_browser(url, output)
            if not paste or started:
                print(f"Waiting for the approval (up to {timeout:g} s)...", file=output, flush=True)
            else:
                print(f"Waiting for the approval (up to {timeout:g} s). With the browser on another machine, "
                      "paste here the code Flickr shows or the address the browser was sent to:",
                      file=output, flush=True)
                pasted = _Pasted()
            callback = receiver.wait(timeout, pasted.ready if pasted else None)
        finally:
            receiver.close()
        if callback is not None:
            token, verifier = parse_callback(callback)
            if token != request["oauth_token"]:
                raise errors.OAuthError(errors.EOAUTH, "the callback is for another request token")
        elif pasted is not None and pasted.ready.is_set():
            verifier = _pasted_verifier(pasted.answer(), request)
        else:
            raise errors.Timeout(errors.ETIMEOUT, f"no authorization arrived within {timeout:g} s")
        return self._finish(request, verifier, perms, store)


class _Pasted:
    """One line of standard input read on a thread of its own (the loopback callback is awaited
    meanwhile); `ready` is set once it is there, or once the input ended."""

    def __init__(self) -> None:
        self.ready = threading.Event()
        self._answer: str | None = None
        self._error: BaseException | None = None
        threading.Thread(target=self._read, daemon=True, name="flickr-login-paste").start()

    def _read(self) -> None:
        try:
            self._answer = _ask(_read_line, "")
        except BaseException as error:  # handed to the waiting thread, which raises it there
            self._error = error
        self.ready.set()

    def answer(self) -> str:
        """The line read; raises what reading it raised (OAuthError when the input ended)."""
        if self._error is not None:
            raise self._error
        return self._answer or ""


def _read_line(_prompt: str) -> str:
    """A line of standard input, read from descriptor 0 a byte at a time: nothing past the line is
    taken from whoever reads stdin next, and no lock of sys.stdin is held while it waits (a daemon
    thread blocked in sys.stdin's reader makes the interpreter abort at exit). EOFError at its
    end, or when there is no descriptor 0."""
    line = bytearray()
    while True:
        try:
            byte = os.read(0, 1)
        except OSError:  # descriptor 0 closed: no input can come
            byte = b""
        if not byte:
            if line:
                break
            raise EOFError
        if byte == b"\n":
            break
        line += byte
    return line.decode("utf-8", "replace")


def _pasted_verifier(answer: str, request: dict[str, Any]) -> str:
    """The verifier in a typed answer: the code itself, or a callback URL's `oauth_verifier` once
    its `oauth_token` is the request's."""
    answer = answer.strip()
    if not answer:
        raise errors.OAuthError(errors.EOAUTH, "no verification code was entered")
    if "://" not in answer:
        return answer
    token, verifier = parse_callback(answer)
    if token != request["oauth_token"]:
        raise errors.OAuthError(errors.EOAUTH, "the pasted URL is for another request token")
    return verifier


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


def _open_browser(url: str, output: TextIO) -> bool:
    """Opens `url` in the user's browser; False when there is none or it did not start."""
    # No display and no BROWSER: a machine reached through ssh, say. webbrowser would fall back
    # on a console browser (lynx, w3m) that takes the terminal the answer is typed in.
    found = None
    if any(os.environ.get(name) for name in ("DISPLAY", "WAYLAND_DISPLAY", "BROWSER")):
        try:
            found = webbrowser.get()
        except webbrowser.Error:
            pass
    if found is None:
        print("(no browser found: open the URL yourself)", file=output, flush=True)
        return False
    try:
        # The user's browser only: webbrowser.open would go on to every other one it knows.
        if found.open(url, new=2):
            return True
    except Exception:  # a broken browser setup must not abort the login
        pass
    print("(could not start the browser: open the URL yourself)", file=output, flush=True)
    return False
