# SPDX-License-Identifier: MIT
"""Run flickr-download or gallery-dl, as installed from PyPI, against a sandbox.

    python run_peer.py flickr-download REST_URL ARGS...
    python run_peer.py gallery-dl REST_URL ARGS...

Each tool is retargeted by its REST endpoint constant and nothing else, then its own ``main``
runs with ARGS: keys and tokens reach it through its usual options and config files, and the
photo files are fetched from wherever the sandbox's answers say they are. Runs in the peers'
venv (build/peers-venv), never in the project's: this file imports the tools, the tests don't.
"""

from __future__ import annotations

import sys
from typing import Callable


def flickr_download(rest_url: str, argv: list[str]) -> int:
    from flickr_api import method_call
    from flickr_download import flick_download

    # python-flickr-api reads REST_URL once, as call_api's default argument, when it is imported:
    # the constant is retargeted in both places it lives.
    old = method_call.REST_URL
    method_call.REST_URL = rest_url
    defaults = method_call.call_api.__defaults__ or ()
    method_call.call_api.__defaults__ = tuple(rest_url if d == old else d for d in defaults)
    if rest_url not in method_call.call_api.__defaults__:
        raise SystemExit("run_peer: flickr_api.method_call.call_api has no REST_URL default to retarget")
    sys.argv = ["flickr_download", *argv]
    return int(flick_download.main())


def gallery_dl(rest_url: str, argv: list[str]) -> int:
    import gallery_dl as gdl
    from gallery_dl.extractor import flickr

    flickr.FlickrAPI.API_URL = rest_url
    # gallery-dl reads Flickr's public site key off www.flickr.com/photos/ on every run, even with
    # an api-key configured (FlickrAPI.API_KEY is the default argument of that config lookup):
    # the site's root is its second endpoint constant.
    flickr.FlickrExtractor.root = rest_url.split("/services/", 1)[0]
    sys.argv = ["gallery-dl", *argv]
    return int(gdl.main())


TOOLS: dict[str, Callable[[str, list[str]], int]] = {"flickr-download": flickr_download, "gallery-dl": gallery_dl}


def main(argv: list[str]) -> int:
    if len(argv) < 2 or argv[0] not in TOOLS:
        print(f"usage: run_peer.py {{{'|'.join(TOOLS)}}} REST_URL ARGS...", file=sys.stderr)
        return 2
    return TOOLS[argv[0]](argv[1], argv[2:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
