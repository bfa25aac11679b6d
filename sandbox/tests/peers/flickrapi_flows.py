# SPDX-License-Identifier: MIT
"""python-flickrapi's flows against a sandbox, as far as they go without a browser.

    python flickrapi_flows.py SANDBOX_URL TOKEN_CACHE_DIR

Runs in the peers' venv (build/peers-venv: flickrapi and lxml pinned; flickrapi's walkers call
``Element.getchildren()``, which the standard library's ElementTree lost in Python 3.9, so they
need lxml). flickrapi is retargeted by its endpoint constants only. Prints one JSON object with
what each flow saw; test_peers.py compares it with the sandbox's own answers.
"""

from __future__ import annotations

import json
import re
import sys
from typing import Any

import flickrapi
import requests
from flickrapi import auth as fauth
from flickrapi import core

# The sandbox's fixed consumer and pre-authorised token (sandbox/flickr_sandbox/constants.py);
# this script runs outside the project's venv and imports nothing of the sandbox.
API_KEY = "5f3ab1cd2e4f6a7b8c9d0e1f2a3b4c5d"
API_SECRET = "9c8b7a6f5e4d3c2b"
OAUTH_TOKEN = "72157600000000001-5a1d6b0c0f1e2d3c"
OAUTH_TOKEN_SECRET = "0a1b2c3d4e5f6a7b"
TIMEOUT = 30


def retarget(base: str) -> None:
    services = base.rstrip("/") + "/services"
    fauth.OAuthFlickrInterface.REQUEST_TOKEN_URL = services + "/oauth/request_token"
    fauth.OAuthFlickrInterface.AUTHORIZE_URL = services + "/oauth/authorize"
    fauth.OAuthFlickrInterface.ACCESS_TOKEN_URL = services + "/oauth/access_token"
    core.FlickrAPI.REST_URL = services + "/rest/"
    core.FlickrAPI.UPLOAD_URL = services + "/upload/"
    core.FlickrAPI.REPLACE_URL = services + "/replace/"


def new_token(cache_dir: str) -> dict[str, Any]:
    """The out-of-band flow: the sandbox's authorize page approves at once and shows the verifier."""
    api = flickrapi.FlickrAPI(API_KEY, API_SECRET, format="etree", token_cache_location=cache_dir + "/oob")
    api.get_request_token(oauth_callback="oob")
    page = requests.get(api.auth_url(perms="read"), timeout=TIMEOUT).text
    found = re.search(r"\d{3}-\d{3}-\d{3}", page)
    if found is None:
        return {"verifier": None}
    api.get_access_token(found.group(0))
    token = api.token_cache.token
    return {"verifier": True, "nsid": token.user_nsid, "username": token.username,
            "valid_read": api.token_valid(perms="read"),
            # A read token is not good for writing: flickrapi drops it from its cache.
            "valid_write": api.token_valid(perms="write"), "kept": api.token_cache.token is not None}


def stored_token(cache_dir: str) -> flickrapi.FlickrAPI:
    """A token saved earlier, as an application keeps it: flickrapi's own token cache."""
    api = flickrapi.FlickrAPI(API_KEY, API_SECRET, format="etree", token_cache_location=cache_dir + "/stored")
    api.token_cache.token = fauth.FlickrAccessToken(OAUTH_TOKEN, OAUTH_TOKEN_SECRET, "delete")
    return api


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: flickrapi_flows.py SANDBOX_URL TOKEN_CACHE_DIR", file=sys.stderr)
        return 2
    base, cache_dir = argv
    retarget(base)
    report: dict[str, Any] = {"new_token": new_token(cache_dir)}
    api = stored_token(cache_dir)
    report["stored_valid_delete"] = api.token_valid(perms="delete")
    login = api.test.login()
    report["login"] = login.find("user").get("id")
    # The walkers page through etree answers with small pages: several pages each.
    report["walk_user"] = [p.get("id") for p in api.walk_user(user_id="me", per_page=7)]
    sets = list(api.walk_photosets(per_page=1))
    report["sets"] = {s.get("id"): [p.get("id") for p in api.walk_set(s.get("id"), per_page=3)] for s in sets}
    report["walk_search"] = [p.get("id") for p in api.walk(user_id="me", tags="beach", per_page=5)]
    # Signed calls in parsed JSON.
    as_json = flickrapi.FlickrAPI(API_KEY, API_SECRET, format="parsed-json", token_cache_location=cache_dir + "/json")
    as_json.token_cache.token = api.token_cache.token
    photos = as_json.people.getPhotos(user_id="me", per_page=500)["photos"]
    report["json_total"] = photos["total"]
    report["json_first"] = as_json.photos.getInfo(photo_id=photos["photo"][0]["id"])["photo"]["title"]["_content"]
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
