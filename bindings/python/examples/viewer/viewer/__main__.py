# SPDX-License-Identifier: MIT
"""python -m viewer: serve the viewer on the sandbox, or on Flickr with API keys.

Which Flickr: --sandbox, a sandbox started in this process; --endpoint URL, a running
sandbox (or any Flickr-compatible server); else Flickr itself when FLICKR_API_KEY and
FLICKR_API_SECRET are set; else a sandbox, as with --sandbox. The first line printed is
the viewer's URL.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
from contextlib import ExitStack
from pathlib import Path

from werkzeug.serving import make_server

from .app import LEAFLET_DIR, create_app
from .flickr_service import FlickrService, connect


def _data_home() -> Path:
    return Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share") / "flickr-viewer"


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    env = os.environ.get
    parser = argparse.ArgumentParser(prog="python -m viewer", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--host", default="127.0.0.1", help="address to serve on (default 127.0.0.1)")
    parser.add_argument("--allow-host", action="append", default=[], metavar="NAME",
                        help="another name the viewer is reached by (it answers only for 127.0.0.1, "
                             "localhost, [::1] and --host: a page elsewhere cannot use it by DNS rebinding)")
    parser.add_argument("--port", type=int, default=int(env("VIEWER_PORT", "5000")),
                        help="port (default $VIEWER_PORT or 5000; 0 picks a free one)")
    parser.add_argument("--sandbox", action="store_true",
                        help="use a sandbox started in this process, even with API keys set")
    parser.add_argument("--endpoint", default=env("FLICKR_ENDPOINT"),
                        help="base URL of a Flickr-compatible server, e.g. a sandbox's (default $FLICKR_ENDPOINT)")
    parser.add_argument("--data-dir", type=Path, default=env("VIEWER_DATA_DIR"),
                        help="recents, vacations and the photo cache (default $VIEWER_DATA_DIR, else "
                             "$XDG_DATA_HOME/flickr-viewer/{sandbox,flickr})")
    parser.add_argument("--cache-max-bytes", type=int, default=int(env("VIEWER_CACHE_MAX_BYTES", "10000000")),
                        help="bound of the photo cache (default $VIEWER_CACHE_MAX_BYTES or 10000000)")
    parser.add_argument("--tile-url", default=env("VIEWER_TILE_URL", ""),
                        help="map tiles, e.g. https://tile.openstreetmap.org/{z}/{x}/{y}.png "
                             "(default $VIEWER_TILE_URL; none: maps draw the offline basemap only; tiles "
                             "are drawn over it)")
    parser.add_argument("--tile-attribution", default=env("VIEWER_TILE_ATTRIBUTION", ""),
                        help="the tiles' attribution text (default $VIEWER_TILE_ATTRIBUTION)")
    parser.add_argument("--leaflet-dir", type=Path, default=LEAFLET_DIR,
                        help=f"Leaflet's files (default {LEAFLET_DIR}, Debian's libjs-leaflet, with "
                             "libjs-leaflet.markercluster's beside them)")
    return parser.parse_args(argv)


def choose_flickr(args: argparse.Namespace, stack: ExitStack) -> tuple[str, str, dict[str, str], Path, str]:
    """(API key, secret, endpoint options, data dir, description) of the Flickr to use."""
    key, secret = os.environ.get("FLICKR_API_KEY"), os.environ.get("FLICKR_API_SECRET")
    if key and secret and not (args.sandbox or args.endpoint):
        return key, secret, {}, args.data_dir or _data_home() / "flickr", "Flickr"
    import flickr_sandbox as sandbox

    data_dir = args.data_dir or _data_home() / "sandbox"
    if args.endpoint and not args.sandbox:
        base = args.endpoint.rstrip("/")
        key, secret = key or sandbox.API_KEY, secret or sandbox.API_SECRET
    else:
        # The sandbox keeps its state beside the viewer's, so that recents and vacations stay valid.
        (data_dir / "sandbox").mkdir(parents=True, exist_ok=True)
        settings = stack.enter_context(sandbox.Sandbox(data_dir=str(data_dir / "sandbox"))).settings
        base, key, secret = settings.url, settings.api_key, settings.api_secret
    endpoints = {"base_url": base}  # every endpoint, photo files included
    return key, secret, endpoints, data_dir, f"the sandbox at {base}"


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    with ExitStack() as stack:
        key, secret, endpoints, data_dir, where = choose_flickr(args, stack)
        api = stack.enter_context(connect(key, secret, cache_dir=data_dir / "photo-cache",
                                          cache_max_bytes=args.cache_max_bytes, **endpoints))
        app = create_app(FlickrService(api), data_dir, tile_url=args.tile_url,
                         tile_attribution=args.tile_attribution, leaflet_dir=args.leaflet_dir,
                         hosts=[args.host, *args.allow_host])
        server = make_server(args.host, args.port, app, threaded=True)
        print(f"http://{args.host}:{server.port}/", flush=True)
        print(f"Flickr Viewer on {where}; data in {data_dir}. Ctrl-C stops it.", file=sys.stderr, flush=True)
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))  # unwinds the stack: closes the sandbox too
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass
        finally:
            server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
