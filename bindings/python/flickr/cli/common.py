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


def credentials(args: argparse.Namespace) -> dict:
    """api_key, secret and OAuth token from flags, then the environment."""
    found = {
        "api_key": args.api_key or os.environ.get("FLICKR_API_KEY"),
        "secret": args.api_secret or os.environ.get("FLICKR_API_SECRET"),
        "oauth_token": args.oauth_token or os.environ.get("FLICKR_OAUTH_TOKEN"),
        "oauth_token_secret": args.oauth_token_secret or os.environ.get("FLICKR_OAUTH_TOKEN_SECRET"),
    }
    if not found["api_key"]:
        raise CLIError("no API key: pass --api-key or set FLICKR_API_KEY")
    return found


def open_api(args: argparse.Namespace):
    """A Flickr object configured from the command line and the environment."""
    from .. import Flickr

    found = credentials(args)
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
