# SPDX-License-Identifier: MIT
"""`flickr auth login [--perms P] [--oob] | status | logout`: OAuth logins kept in the token store."""
from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from flickr import errors
from flickr.values import text
from flickr.tokens import TokenStore
from .common import (EXIT_AUTH, CLIError, add_credential_options, add_global_options, credentials, open_api,
                     error_text, terminal_safe)

if TYPE_CHECKING:
    from .common import Subparsers


def add_parser(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "auth", help="log in with OAuth, show or forget stored logins",
        description="Log in with OAuth (the token is kept in the token store: $FLICKR_TOKEN_STORE, else "
        "$XDG_CONFIG_HOME/flickr/tokens.json or ~/.config/flickr/tokens.json); other commands then use it.")
    actions = parser.add_subparsers(dest="auth_command", metavar="ACTION")
    actions.required = True

    login = actions.add_parser("login", help="authorize this application for a Flickr account")
    login.add_argument("--perms", choices=["read", "write", "delete"], default="read",
                       help="permission to ask for (default: read)")
    login.add_argument("--oob", action="store_true",
                       help="out of band: type the code Flickr shows instead of a loopback callback")
    login.add_argument("--no-browser", action="store_true",
                       help="print the URL but do not open a browser; then, as when no browser is found, "
                       "the code Flickr shows or the address the browser was sent to can be pasted "
                       "(the input ending first: exit 5)")
    login.add_argument("--timeout", type=float, default=300.0, metavar="SECONDS",
                       help="how long to wait for the browser's callback (default: 300); here the time "
                       "limit of each request is the --timeout given before the command")
    login.add_argument("--port", type=int, default=0, help="loopback callback port (default: any free one)")
    add_credential_options(login)
    add_global_options(login, timeout=False)  # its --timeout is the wait for the browser, as before
    login.set_defaults(handler=run_login)

    status = actions.add_parser("status", help="list stored logins and check the default (or --user) one")
    status.add_argument("--offline", action="store_true", help="do not check the token with Flickr")
    add_credential_options(status)
    add_global_options(status)
    status.set_defaults(handler=run_status)

    logout = actions.add_parser("logout", help="forget the default (or --user) stored login; "
                                 "a damaged token store is removed")
    logout.add_argument("--all", action="store_true", help="forget every stored login of this API key")
    add_credential_options(logout)
    add_global_options(logout)
    logout.set_defaults(handler=run_logout)


def _api_key(args: argparse.Namespace) -> str:
    key: str = credentials(args, use_store=False)["api_key"]
    return key


def run_login(args: argparse.Namespace) -> int:
    found = credentials(args, use_store=False)
    if not found["secret"]:
        raise CLIError("logging in needs the API secret: pass --api-secret or set FLICKR_API_SECRET")
    with open_api(args, use_store=False) as api:
        api.set_option("oauth_token", None)
        api.set_option("oauth_token_secret", None)
        if args.oob:
            token = api.authenticate_console(args.perms)
        else:
            # Without a browser here, the answer can be pasted (a browser on another machine).
            token = api.authenticate_via_browser(args.perms, timeout=args.timeout, port=args.port,
                                                 browser=not args.no_browser, paste=True)
        login = api.call("flickr.test.login")["user"]
    name = token.get("username") or text(login.get("username"))
    # Names come from the server (or a store it filled): printed with control characters escaped.
    print(terminal_safe(f"Logged in as {name} ({token.get('user_nsid') or login.get('id')}) with {args.perms} "
                        f"permission; token saved in {TokenStore().path}"))
    return 0


def run_status(args: argparse.Namespace) -> int:
    api_key = _api_key(args)
    store = TokenStore()
    entries = store.entries(api_key)
    if not entries:
        print(terminal_safe(f"Not logged in (no stored token for this API key in {store.path})."))
        return EXIT_AUTH
    selected = store.load(api_key, getattr(args, "user", None))
    if selected is None:
        raise CLIError(f"no stored login for user {args.user!r}", EXIT_AUTH)
    for entry in entries:
        mark = "*" if entry is selected or entry.oauth_token == selected.oauth_token else " "
        print(terminal_safe(f"{mark} {entry.username or '?'} ({entry.user_nsid or '?'}) perms={entry.perms or '?'}"))
    if args.offline:
        return 0
    with open_api(args, use_store=False) as api:
        try:
            checked = api.oauth.check_token(selected.oauth_token, selected.oauth_token_secret)
        except errors.ServiceError as error:
            print(terminal_safe(f"The stored token of {selected.username or selected.user_nsid} is no longer valid: "
                                f"{error_text(error)}"))
            return EXIT_AUTH
    print(terminal_safe(f"Token valid: {checked['username']} ({checked['user_nsid']}), perms {checked['perms']}"))
    return 0


def run_logout(args: argparse.Namespace) -> int:
    api_key = _api_key(args)
    store = TokenStore()
    try:
        gone = store.remove(api_key, getattr(args, "user", None), all_users=args.all)
    except errors.FileError:
        if not store.discard_damaged():  # unreadable, or not damaged after all: its own message
            raise
        # Nobody can log out of a store nothing can read; removing it lets a new login start afresh.
        print(terminal_safe(f"The token store {store.path} was damaged: removed it. Log in again with "
                            "flickr auth login."))
        return 0
    if not gone:
        print("No stored login to forget.")
        return EXIT_AUTH if getattr(args, "user", None) else 0
    for entry in gone:
        print(terminal_safe(f"Forgot the login of {entry.username or '?'} ({entry.user_nsid or '?'})."))
    return 0
