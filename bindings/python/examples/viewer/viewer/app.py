# SPDX-License-Identifier: MIT
"""The application factory."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterable

from flask import Flask, abort, render_template, request, send_from_directory, url_for
from flask.json.provider import DefaultJSONProvider
from werkzeug.exceptions import NotFound

from . import api, failures, pages
from .flickr_service import FlickrService
from .guard import Guard
from .recents import Recents
from .state import Viewer, viewer
from .vacations import Vacations

LEAFLET_DIR = Path("/usr/share/javascript/leaflet")  # Debian's libjs-leaflet (and libjs-leaflet.markercluster)
BASEMAP = "basemap/countries-50m.topo.json"  # under static/: how it was made is in its README.md


class StrictJSON(DefaultJSONProvider):
    """JSON as a browser's JSON.parse reads it: no Infinity or NaN (a ValueError, a bug to fix
    where the number came from, rather than a page that cannot be read), UTF-8 unescaped."""

    ensure_ascii = False

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        kwargs.setdefault("allow_nan", False)
        return super().dumps(obj, **kwargs)


def create_app(service: FlickrService, data_dir: Path, *, tile_url: str = "", tile_attribution: str = "",
               leaflet_dir: Path = LEAFLET_DIR, hosts: Iterable[str] = ()) -> Flask:
    """The viewer over `service`, keeping recents and vacations in `data_dir`; it answers for
    the loopback names and `hosts` (the address it was started on, names it is served under)."""
    app = Flask(__name__)
    app.json = StrictJSON(app)
    guard = Guard(hosts)
    app.before_request(lambda: guard.refusal(request))
    app.extensions["viewer"] = Viewer(service=service, recents=Recents(data_dir / "recents.json"),
                                      vacations=Vacations(data_dir / "vacations"), leaflet_dir=leaflet_dir,
                                      tile_url=tile_url, tile_attribution=tile_attribution)
    app.register_blueprint(pages.blueprint)
    app.register_blueprint(api.blueprint, url_prefix="/api")

    @app.context_processor
    def map_settings() -> dict:
        return {"tile_url": viewer().tile_url, "tile_attribution": viewer().tile_attribution,
                "basemap_url": url_for("static", filename=BASEMAP)}

    @app.errorhandler(NotFound)
    def not_found(error: NotFound):
        """An address the viewer does not serve: JSON under /api/, else a page in the app's look
        with the ways on, rather than Flask's bare 404."""
        if request.path.startswith("/api/"):
            return api.answer(failures.of_status(error.description or "No such address.", 404))
        return render_template("not_found.html", tab="", path=request.path), 404

    @app.get("/leaflet/<path:filename>")
    def leaflet(filename: str):
        """Leaflet from the system's package, so that maps work offline."""
        if not viewer().leaflet_dir.is_dir():
            abort(404)
        return send_from_directory(viewer().leaflet_dir, filename, max_age=86400)

    return app
