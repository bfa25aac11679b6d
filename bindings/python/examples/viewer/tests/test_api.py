# SPDX-License-Identifier: MIT
"""The JSON endpoints over the sandbox, checked against the sandbox's own database."""
from __future__ import annotations

import http.client
import json
import threading
import urllib.error
import urllib.parse
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

PARIS = "EsIQUYZXU79_kEA"


def get(viewer, path: str):
    try:
        with urllib.request.urlopen(viewer.url + path, timeout=20) as response:
            return response.status, response.headers.get_content_type(), response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers.get_content_type(), error.read()


def send_json(viewer, method: str, path: str, body: dict | None = None, origin: str | None = ""):
    """A change as the viewer's own pages send it: with the viewer's Origin (`origin` another
    one, or None for none)."""
    headers = {"Content-Type": "application/json"}
    if origin is not None:
        headers["Origin"] = origin or viewer.url
    request = urllib.request.Request(viewer.url + path, method=method, data=json.dumps(body).encode()
                                     if body is not None else None, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=20) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


def get_json(viewer, path: str):
    status, kind, body = get(viewer, path)
    assert kind == "application/json", body
    return status, json.loads(body)


def test_top_places_are_localities_alphabetical(viewer, sandbox):
    status, body = get_json(viewer, "/api/places")
    expected = sorted(row["name"] for row in sandbox.store.all(
        "SELECT name FROM places WHERE place_type_id = 7 AND place_id IN "
        "(SELECT place_id FROM photos WHERE ispublic = 1)"))
    assert status == 200
    # Flickr's "San Francisco, California, US, United States" reads without the "US" (places.place_label).
    assert [f"{p['title']}, {p['subtitle']}" for p in body["places"]] == [n.replace(", US,", ",") for n in expected]
    paris = body["places"][0]
    assert (paris["id"], paris["title"], paris["subtitle"], paris["url"]) == \
        (PARIS, "Paris", "Île-de-France, France", f"/places/{PARIS}")
    assert (paris["latitude"], paris["longitude"]) == (48.857, 2.341)


def test_place_photos_newest_fifty_with_titles_rules(viewer, sandbox):
    rows = sandbox.store.all("SELECT id, title, description FROM photos WHERE place_id = ? AND ispublic = 1 "
                             "ORDER BY dateupload DESC, id DESC LIMIT 50", (PARIS,))
    status, body = get_json(viewer, f"/api/places/{PARIS}/photos")
    assert status == 200 and body["heading"] == "Paris" and body["subheading"] == "Île-de-France, France"
    assert [p["id"] for p in body["photos"]] == [str(r["id"]) for r in rows]
    titles = {str(r["id"]): r for r in rows}
    for shown in body["photos"]:
        row = titles[shown["id"]]
        if row["title"]:
            assert shown["title"] == row["title"]
        elif row["description"]:
            assert shown["subtitle"] == "" and shown["title"]
        else:
            assert shown["title"] == "Unknown"
        assert shown["latitude"] is not None and shown["thumbnail"].startswith("/api/images/s/")
        assert shown["thumbnail_2x"] == shown["thumbnail"].replace("/s/", "/q/")
    assert any(p["title"] == "Unknown" for p in body["photos"])


def test_a_place_not_among_the_top_places_is_named_by_flickr_and_an_unknown_one_is_missing(viewer, sandbox):
    region = "KDzSRQpQUL9rRBm8"  # Île-de-France: a region, never in the list of localities
    status, body = get_json(viewer, f"/api/places/{region}/photos")
    assert (status, body["heading"], body["subheading"]) == (200, "Île-de-France", "France")
    assert body["photos"]  # Paris's photos are in Île-de-France
    status, body = get_json(viewer, "/api/places/Nope/photos")
    assert (status, body["heading"], body["transient"]) == (404, "Unknown place", False)


def test_photo_details_and_large_image_through_the_cache(viewer, sandbox):
    row = sandbox.store.one("SELECT p.id, u.path_alias, p.owner FROM photos p JOIN users u ON u.nsid = p.owner "
                            "WHERE p.place_id IS NOT NULL AND p.ispublic = 1 AND p.title != '' LIMIT 1")
    status, photo = get_json(viewer, f"/api/photos/{row['id']}")
    assert status == 200
    assert photo["flickr_url"] == f"https://www.flickr.com/photos/{row['path_alias'] or row['owner']}/{row['id']}/"
    assert photo["place_name"] and photo["vacation"] == "My Vacation" and photo["visited"] is False
    status, kind, image = get(viewer, photo["image"])
    assert (status, kind, image[:3]) == (200, "image/jpeg", b"\xff\xd8\xff")
    [cached] = [p for p in (viewer.data_dir / "photo-cache").glob(f"*{row['id']}*") if p.read_bytes() == image]
    before = cached.stat().st_ino
    assert get(viewer, photo["image"])[2] == image and cached.stat().st_ino == before  # not downloaded again


def test_bad_requests_answer_json_errors(viewer):
    assert get_json(viewer, "/api/photos/12x") == (404, {"error": "No such photo.", "transient": False})
    status, body = get_json(viewer, "/api/photos/1")
    assert status == 404 and body["heading"] == "Photo not found" and body["transient"] is False
    assert body["error"].startswith("Flickr refused the request: Photo not found")
    assert get_json(viewer, "/api/images/o/65535/1_abc.jpg")[0] == 404  # not a size the viewer serves
    status, body = get_json(viewer, "/api/images/b/65535/1_abc.jpg")  # the image host has no such image
    assert status == 404 and "404" in body["error"] and body["transient"] is False
    status, body = get_json(viewer, "/api/no/such/endpoint")
    assert status == 404 and body["transient"] is False  # JSON, for the pages' scripts
    status, body = get_json(viewer, "/api/vacations/Nowhere")
    assert (status, body["heading"], body["transient"]) == (404, "No such vacation", False)


def test_thumbnails_are_cached_jpegs_and_bad_addresses_are_404(viewer, sandbox):
    row = sandbox.store.one("SELECT id, secret, server FROM photos WHERE ispublic = 1 ORDER BY id DESC LIMIT 1")
    good = f"/api/images/s/{row['server']}/{row['id']}_{row['secret']}.jpg"
    with urllib.request.urlopen(viewer.url + good, timeout=20) as response:
        assert (response.status, response.headers.get_content_type()) == (200, "image/jpeg")
        assert response.headers["Cache-Control"] == "public, max-age=3600"
        image = response.read()
    [cached] = (viewer.data_dir / "photo-cache").glob(f"flickr-cache-{row['id']}_{row['secret']}_s.*")
    assert image[:3] == b"\xff\xd8\xff" and cached.read_bytes() == image
    for bad in (f"/api/images/x/{row['server']}/{row['id']}_{row['secret']}.jpg",  # not a size
                f"/api/images/S/{row['server']}/{row['id']}_{row['secret']}.jpg",
                f"/api/images/s/{row['server']}/{row['id']}x_{row['secret']}.jpg",  # not an id
                f"/api/images/s/{row['server']}/{'9' * 21}_{row['secret']}.jpg",
                f"/api/images/s/6%2E5/{row['id']}_{row['secret']}.jpg",  # not a server
                f"/api/images/s/{row['server']}/{row['id']}_{row['secret']}%2F...jpg",  # not a secret
                f"/api/images/s/{row['server']}/{row['id']}_{row['secret']}.png",
                f"/api/images/s/{row['server']}/{row['id']}_0000000000.jpg",  # the image host has none
                f"/api/images/s/{row['server']}/1_{row['secret']}.jpg"):
        status, body = get_json(viewer, bad)
        assert (status, body["transient"]) == (404, False), bad


def test_vacations_are_listed_with_their_counts_and_deleted(start_viewer, tmp_path):
    viewer = start_viewer(tmp_path)
    assert send_json(viewer, "POST", "/api/vacations", {"name": "Rome"}) == (201, {"name": "Rome"})
    assert send_json(viewer, "POST", "/api/vacations", {"name": "Oslo"})[0] == 201
    status, body = get_json(viewer, "/api/vacations")
    assert [(v["name"], v["current"], v["photos"], v["delete"], v["thumbnail"]) for v in body["vacations"]] == [
        ("Oslo", True, 0, "/api/vacations/Oslo", None), ("Rome", False, 0, "/api/vacations/Rome", None)]
    assert send_json(viewer, "DELETE", "/api/vacations/Oslo") == (200, {"deleted": "Oslo", "current": "My Vacation"})
    assert [v["name"] for v in get_json(viewer, "/api/vacations")[1]["vacations"]] == ["Rome"]
    status, body = send_json(viewer, "DELETE", "/api/vacations/Oslo")
    assert (status, body["transient"]) == (404, False)
    assert send_json(viewer, "DELETE", "/api/vacations/.hidden")[0] == 400


def test_leaflet_is_served_by_the_app(viewer):
    status, kind, body = get(viewer, "/leaflet/leaflet.js")
    assert status == 200 and b"Leaflet" in body[:200]
    assert get(viewer, "/leaflet/images/marker-icon.png")[0] == 200


def test_pages_render_at_once_without_calling_flickr(viewer, monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("a page called Flickr")

    monkeypatch.setattr(viewer.service, "_call", refuse)
    for path in ("/places", f"/places/{PARIS}", "/photos/1", "/recents", "/vacations", "/vacations/Anything",
                 "/vacations/Anything/tags"):
        status, kind, body = get(viewer, path)
        assert (status, kind) == (200, "text/html"), path
        assert b'src="/static/viewer.js"' in body


# -- Who may use the viewer (issue 29, item 5) ---------------------------------------------------

def _with_host(viewer, host: str, path: str = "/api/recents") -> tuple[int, bytes]:
    """GET with the Host header a browser sends for `host`: what a DNS-rebound page makes."""
    parts = urllib.parse.urlsplit(viewer.url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=20)
    try:
        conn.request("GET", path, headers={"Host": host})
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


def test_only_the_viewers_own_host_names_are_answered(viewer):
    port = urllib.parse.urlsplit(viewer.url).port
    for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"LOCALHOST:{port}", f"[::1]:{port}"):
        assert _with_host(viewer, host)[0] == 200, host
    refused = [f"evil.example:{port}", "evil.example", f"127.0.0.1:{port + 1}", "127.0.0.1", "",
               f"[::1]x:{port}", f"localhost:{port}:{port}"]
    for host in refused:
        for path in ("/api/recents", "/api/vacations", "/recents"):
            status, body = _with_host(viewer, host, path)
            assert status == 421 and b"Misdirected" in body, (host, path, status, body)
    print(f"{len(refused)} Host headers refused on 3 paths; 4 of the viewer's own answered")


def test_changes_come_only_from_the_viewers_own_pages(start_viewer, tmp_path):
    viewer = start_viewer(tmp_path)
    assert send_json(viewer, "POST", "/api/vacations", {"name": "Rome"})[0] == 201  # same origin
    before = get_json(viewer, "/api/vacations")[1]
    for origin in ("http://evil.example", "null", viewer.url.replace("127.0.0.1", "localhost"), None):
        for method, path, body in (("POST", "/api/vacations", {"name": "Evil"}),
                                   ("PUT", "/api/vacations/current", {"name": "My Vacation"}),
                                   ("DELETE", "/api/vacations/Rome", None),
                                   ("POST", "/api/recents", {"photo_id": "1"})):
            status, answer = send_json(viewer, method, path, body, origin=origin)
            assert status == 403 and "Origin" in answer["error"], (origin, method, path, status, answer)
    assert get_json(viewer, "/api/vacations")[1] == before  # nothing changed
    assert get_json(viewer, "/api/recents")[1]["photos"] == []
    request = urllib.request.Request(viewer.url + "/api/vacations/Rome", method="DELETE",
                                     headers={"Origin": viewer.url, "Sec-Fetch-Site": "cross-site"})
    try:
        urllib.request.urlopen(request, timeout=20)
        raise AssertionError("a cross-site DELETE was answered")
    except urllib.error.HTTPError as error:
        assert error.code == 403
    assert send_json(viewer, "DELETE", "/api/vacations/Rome")[0] == 200  # same origin


class _NonFiniteFlickr(BaseHTTPRequestHandler):
    """A Flickr whose coordinates are not numbers a page can hold: 1e999, nan, -1e999, 91."""

    ANSWERS = {
        "flickr.places.getTopPlacesList": '<places total="2"><place place_id="p1" latitude="1e999" '
        'longitude="2.35">Paris, Ile-de-France, France</place><place place_id="p2" latitude="91" '
        'longitude="2">Nowhere, France</place></places>',
        "flickr.places.getInfo": '<place place_id="p1" name="Paris, Ile-de-France, France" latitude="nan" '
        'longitude="-1e999"/>',
        "flickr.photos.search": '<photos page="1" pages="1" perpage="50" total="1"><photo id="123" owner="1@N00" '
        'secret="abc" server="65535" title="T" latitude="1e999" longitude="2.35" accuracy="16" '
        'description="" tags="" pathalias=""/></photos>',
        "flickr.photos.getInfo": '<photo id="123" secret="abc" server="65535"><owner nsid="1@N00" path_alias=""/>'
        '<title>T</title><description/><location latitude="1e999" longitude="2.35" accuracy="16">'
        '<locality>Paris</locality><country>France</country></location><tags/></photo>',
    }

    def do_GET(self):
        method = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(self.path).query)).get("method", "")
        body = f'<?xml version="1.0" encoding="utf-8" ?>\n<rsp stat="ok">{self.ANSWERS.get(method, "")}</rsp>'.encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/xml; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_POST = do_GET

    def log_message(self, *args):
        pass


def _strict_json(body: bytes):
    """JSON as a browser's JSON.parse reads it: Infinity and NaN are not JSON."""
    def refuse(constant):
        raise ValueError(f"{constant} in the viewer's JSON")
    return json.loads(body, parse_constant=refuse)


def test_non_finite_coordinates_are_null_in_the_json(start_viewer, tmp_path):
    flickr_server = ThreadingHTTPServer(("127.0.0.1", 0), _NonFiniteFlickr)
    threading.Thread(target=flickr_server.serve_forever, daemon=True).start()
    try:
        viewer = start_viewer(tmp_path, rest_endpoint=f"http://127.0.0.1:{flickr_server.server_port}/services/rest/")
        points = []
        for path, find in (("/api/photos/123", lambda j: [j]), ("/api/places", lambda j: j["places"]),
                           ("/api/places/p1/photos", lambda j: j["photos"])):
            status, kind, body = get(viewer, path)
            assert (status, kind) == (200, "application/json"), (path, status, body)
            items = find(_strict_json(body))
            points += [(path, item["latitude"], item["longitude"]) for item in items]
        assert points and all(lat is None and lon is None for _, lat, lon in points), points
        print(f"{len(points)} non-finite or out-of-range points answered as null")
    finally:
        flickr_server.shutdown()
        flickr_server.server_close()
