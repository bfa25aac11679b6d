# SPDX-License-Identifier: MIT
"""What the subcommands share: credentials, endpoints, errors, exit codes."""
from __future__ import annotations

import argparse
import os

EXIT_FAILURE, EXIT_USAGE, EXIT_API, EXIT_NETWORK, EXIT_AUTH = 1, 2, 3, 4, 5


class CLIError(Exception):
    """A failure the CLI reports itself, with its exit code."""

    def __init__(self, message: str, exit_code: int = EXIT_USAGE):
        super().__init__(message)
        self.exit_code = exit_code


def add_credential_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("credentials and endpoints")
    group.add_argument("--api-key", help="API key (default: $FLICKR_API_KEY)")
    group.add_argument("--api-secret", help="API secret (default: $FLICKR_API_SECRET)")
    group.add_argument("--oauth-token", help="OAuth access token (default: $FLICKR_OAUTH_TOKEN)")
    group.add_argument("--oauth-token-secret", help="OAuth access token secret (default: $FLICKR_OAUTH_TOKEN_SECRET)")
    group.add_argument("--endpoint", help="base URL of every service, e.g. http://127.0.0.1:8080 for a sandbox "
                       "(default: $FLICKR_ENDPOINT, else Flickr)")
    group.add_argument("--ca-file", help="PEM file of trusted CA certificates (e.g. a TLS sandbox's)")
    group.add_argument("--user", help="which stored login (flickr auth login) to use: NSID or username "
                       "(default: $FLICKR_USER, else the latest login)")


def endpoint_options(base: str | None) -> dict:
    """Option keywords pointing every service at `base` (a Flickr-compatible server)."""
    if not base:
        return {}
    base = base.rstrip("/")
    return {
        "rest_endpoint": base + "/services/rest/",
        "upload_endpoint": base + "/services/upload/",
        "replace_endpoint": base + "/services/replace/",
        "oauth_endpoint": base + "/services/oauth/",
        "auth_endpoint": base + "/services/auth/",
    }


def credentials(args: argparse.Namespace, use_store: bool = True) -> dict:
    """api_key, secret and OAuth token from flags, then the environment, then (for the token,
    when neither flags nor environment give one) the token store of `flickr auth login`."""
    found = {
        "api_key": args.api_key or os.environ.get("FLICKR_API_KEY"),
        "secret": args.api_secret or os.environ.get("FLICKR_API_SECRET"),
        "oauth_token": args.oauth_token or os.environ.get("FLICKR_OAUTH_TOKEN"),
        "oauth_token_secret": args.oauth_token_secret or os.environ.get("FLICKR_OAUTH_TOKEN_SECRET"),
    }
    if not found["api_key"]:
        raise CLIError("no API key: pass --api-key or set FLICKR_API_KEY")
    if use_store and not found["oauth_token"] and not found["oauth_token_secret"]:
        stored = stored_token(found["api_key"], getattr(args, "user", None) or os.environ.get("FLICKR_USER"))
        if stored is not None:
            found["oauth_token"], found["oauth_token_secret"] = stored.oauth_token, stored.oauth_token_secret
    return found


def stored_token(api_key: str, user: str | None):
    """The token store's entry for api_key and user (the latest when None); None when there is none.
    A named user without a stored login is an error; a damaged store is reported, not fatal."""
    import sys

    from .. import errors
    from ..tokens import TokenStore

    try:
        found = TokenStore().load(api_key, user)
    except errors.FileError as error:
        print(f"flickr: warning: {error.message}", file=sys.stderr)
        return None
    if found is None and user:
        raise CLIError(f"no stored login for user {user!r}: run flickr auth login", EXIT_AUTH)
    return found


def open_api(args: argparse.Namespace, use_store: bool = True):
    """A Flickr object configured from the command line, the environment and the token store."""
    from .. import Flickr

    found = credentials(args, use_store)
    options = endpoint_options(args.endpoint or os.environ.get("FLICKR_ENDPOINT"))
    if args.ca_file:
        options["ca_file"] = args.ca_file
    if found["oauth_token"] and found["oauth_token_secret"]:
        options["oauth_token"] = found["oauth_token"]
        options["oauth_token_secret"] = found["oauth_token_secret"]
    return Flickr(found["api_key"], found["secret"], **options)


def parse_pairs(pairs: list[str]) -> dict:
    """["key=value", ...] -> {key: value}."""
    params = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name:
            raise CLIError(f"expected key=value, got {pair!r}")
        params[name] = value
    return params
