# SPDX-License-Identifier: MIT
"""Flickr's web pages, as far as API clients read them: ``/photos/`` with the site's API key.

Every page of flickr.com carries the public key its own web app calls the API with
(``root.YUI_config.flickr.api.site_key = "...";``). gallery-dl reads it from
``https://www.flickr.com/photos/`` at every start, even when a key of its own is configured,
and stops if the page is missing. The sandbox's page gives the sandbox's one key.
"""

from __future__ import annotations

from . import constants as C
from . import response as R
from .request import Prepared, Request

SITE_PAGE = f"""<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>Flickr sandbox</title>
<script>
var root = this;
root.YUI_config = {{flickr: {{api: {{}}}}}};
root.YUI_config.flickr.api.site_key = "{C.API_KEY}";
</script></head>
<body><h1>Flickr sandbox</h1>
<p>A local Flickr-compatible API server: its REST endpoint is /services/rest/.</p></body></html>
""".encode("utf-8")


def prepare(req: Request) -> Prepared:
    req.read_form()  # consume any body so the connection stays usable
    return Prepared(req.query_pairs, lambda: R.Response(200, SITE_PAGE, "text/html; charset=utf-8"))
