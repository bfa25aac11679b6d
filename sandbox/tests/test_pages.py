# SPDX-License-Identifier: MIT
"""The web page /photos/: the site key that gallery-dl reads before any API call."""

from flickr_sandbox import constants as C

# How gallery-dl 1.32 reads it (gallery_dl/extractor/flickr.py, FlickrAPI._extract_apikey).
MARKER = '.flickr.api.site_key = "'


def site_key(page: str) -> str:
    start = page.index(MARKER) + len(MARKER)
    return page[start:page.index('"', start)]


def test_site_key_page(client):
    for path in ("/photos/", "/photos"):
        reply = client.raw("GET", path)
        assert reply.status == 200 and reply.headers["Content-Type"] == "text/html; charset=utf-8"
        assert site_key(reply.text) == C.API_KEY
    # The key it gives is one the REST endpoint takes.
    key = site_key(client.raw("GET", "/photos/").text)
    assert client.rest("flickr.test.echo", api_key=key, text="ok").ok().findtext("text") == "ok"
    # Only that page: a user's page or an unknown file is still no page of the sandbox.
    assert client.raw("GET", "/photos/sandbox/").status == 404
    assert client.raw("GET", "/photos/65535/1_abc.jpg").status == 404
