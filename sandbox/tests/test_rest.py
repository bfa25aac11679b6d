# SPDX-License-Identifier: MIT
"""REST envelope, error codes, method shapes (against recorded fixtures) and paging."""
import json
import math
import xml.etree.ElementTree as ET

import pytest
from sbclient import POST_METHODS, fixture_text, oauth_flow, structure

from flickr_sandbox import constants as C


def fixture_xml(name):
    return ET.fromstring(fixture_text(name))


def attrs_of(root, path):
    return list(root.find(path).attrib)


# -- envelope and errors -------------------------------------------------------

def test_echo_unsigned_get_and_post(client):
    for verb in ("GET", "POST"):
        reply = client.rest("flickr.test.echo", http_method=verb, foo="bär & <x>")
        assert reply.status == 200
        assert reply.headers["Content-Type"] == "text/xml; charset=utf-8"
        assert reply.text.startswith('<?xml version="1.0" encoding="utf-8" ?>\n<rsp stat="ok">\n')
        root = reply.ok()
        assert [(e.tag, e.text) for e in root] == [
            ("method", "flickr.test.echo"), ("foo", "bär & <x>"), ("api_key", C.API_KEY)]


def test_rest_path_without_trailing_slash(client):
    assert client.rest("flickr.test.echo", path="/services/rest").ok() is not None


def test_method_not_found_matches_recording(client):
    reply = client.rest("flickr.fakeMethod")
    assert reply.text == fixture_text("xml/error.112.method-not-found.xml")
    j = client.rest("flickr.fakeMethod", format="json", nojsoncallback=1)
    assert json.loads(j.body) == json.loads(fixture_text("json/error.112.method-not-found.json"))


@pytest.mark.parametrize("key,msg", [
    (None, "Invalid API Key (Key has invalid format)"),
    ("nothex", "Invalid API Key (Key has invalid format)"),
    ("0" * 32, "Invalid API Key (Key not found)"),
])
def test_invalid_api_key(client, key, msg):
    params = {"method": "flickr.test.echo"}
    if key:
        params["api_key"] = key
    reply = client._send("GET", "/services/rest/", params, {})
    assert reply.err() == (100, msg)
    if key is None:
        assert reply.text == fixture_text("xml/error.100.invalid-api-key.xml")
        params.update(format="json", nojsoncallback="1")
        as_json = client._send("GET", "/services/rest/", params, {})
        assert json.loads(as_json.body) == json.loads(fixture_text("json/error.100.invalid-api-key.json"))


def test_json_format(client):
    reply = client.rest("flickr.test.echo", format="json", nojsoncallback=1, foo="x")
    obj = json.loads(reply.body)
    assert obj["stat"] == "ok" and obj["foo"] == {"_content": "x"}
    wrapped = client.rest("flickr.test.echo", format="json").text
    assert wrapped.startswith("jsonFlickrApi({") and wrapped.endswith("})")
    assert client.rest("flickr.test.echo", format="json", jsoncallback="cb").text.startswith("cb(")
    fail = json.loads(client.rest("flickr.test.login", format="json", nojsoncallback=1).body)
    assert fail == {"stat": "fail", "code": 99, "message":
                    "Insufficient permissions. Method requires read privileges; none granted."}


def test_unknown_format(client):
    assert client.rest("flickr.test.echo", format="php_serial").err() == (111, 'Format "php_serial" not found')


def test_login_required(client):
    assert client.rest("flickr.test.login").err() == (
        99, "Insufficient permissions. Method requires read privileges; none granted.")
    assert client.rest("flickr.test.null").err()[0] == 99


def test_oauth_without_token_where_needed_is_400(client):
    reply = client.oauth_request("GET", "/services/rest/", {"method": "flickr.test.login"}, None)
    assert reply.status == 400
    assert reply.text == fixture_text("oauth/rest.400.parameter_absent.txt")
    # Methods without login accept consumer-only (2-legged) OAuth.
    assert client.oauth_request("GET", "/services/rest/", {"method": "flickr.test.echo"}, None).ok() is not None


def test_keep_alive_reuses_connection(client):
    conn = client.connection()
    try:
        client.rest("flickr.test.echo", conn=conn).ok()
        sock = conn.sock
        for _ in range(3):
            client.rest("flickr.photos.getRecent", per_page=2, conn=conn).ok()
            client.rest("flickr.test.echo", http_method="POST", conn=conn).ok()
            assert conn.sock is sock
    finally:
        conn.close()


# -- shapes against fixtures ---------------------------------------------------

def test_test_login_shape(client):
    root = client.rest("flickr.test.login", auth="oauth").ok()
    assert structure(root) == structure(fixture_xml("xml/flickr.test.login.xml"))
    assert root.find("user").attrib == {"id": C.USER_NSID, "path_alias": "sandbox"}
    assert root.find("user/username").text == "sandbox"


def test_echo_under_oauth_like_fixture(client):
    # Flickr4Java sends api_key alongside oauth_consumer_key, as in the recording.
    reply = client.rest("flickr.test.echo", auth="oauth", test="test", api_key=C.API_KEY)
    root = reply.ok()
    tags = [e.tag for e in root]
    assert tags[-3:] == ["api_auth_is_oauth", "api_sig", "auth_token"]
    assert set(tags) == {e.tag for e in fixture_xml("xml/flickr.test.echo.xml")}
    values = {e.tag: e.text for e in root}
    assert values["api_sig"] == values["oauth_signature"]
    assert values["auth_token"] == values["oauth_token"] == C.OAUTH_TOKEN
    assert values["api_auth_is_oauth"] == "1"


def _a_photo(client, geotagged=True, owner=None):
    root = client.rest("flickr.photos.search", has_geo=1 if geotagged else 0,
                       user_id=owner or C.OTHER_NSID, extras="geo", per_page=50).ok()
    for p in root.iter("photo"):
        if (p.get("latitude") != "0") == geotagged:
            return p.get("id")
    raise AssertionError("no such seeded photo")


def test_get_info_shape(client):
    # The recording is its owner's view: <permissions> is shown to the owner only.
    photo_id = _a_photo(client, geotagged=True, owner=C.USER_NSID)
    root = client.rest("flickr.photos.getInfo", photo_id=photo_id, auth="oauth").ok()
    assert structure(root) == structure(fixture_xml("xml/flickr.photos.getInfo.xml"))
    page = root.find("photo/urls/url").text
    assert page.startswith(client.url + "/photos/sandbox/") and page.endswith(f"/{photo_id}/")


def test_get_info_errors_and_privacy(client, sandbox):
    assert client.rest("flickr.photos.getInfo", photo_id="123").err() == (1, "Photo not found")
    assert client.rest("flickr.photos.getInfo").err() == (1, "Photo not found")
    private = sandbox.store.one("SELECT id FROM photos WHERE ispublic=0 AND owner=?", (C.USER_NSID,))["id"]
    assert client.rest("flickr.photos.getInfo", photo_id=private).err()[0] == 1
    root = client.rest("flickr.photos.getInfo", photo_id=private, auth="oauth").ok()
    assert root.find("photo/visibility").get("ispublic") == "0"
    assert root.find("photo/editability").get("canaddmeta") == "1"


def test_people_get_info_shape(client):
    root = client.rest("flickr.people.getInfo", user_id=C.USER_NSID).ok()
    assert structure(root) == structure(fixture_xml("xml/flickr.people.getInfo.xml"))
    assert root.find("person/realname").text == "Sandbox User"
    assert client.rest("flickr.people.getInfo", user_id="otheruser").ok().find("person").get("nsid") == \
        C.OTHER_NSID
    assert client.rest("flickr.people.getInfo", user_id="1@N00").err() == (1, "User not found")


def test_get_sizes_shape_and_limits(client, sandbox):
    photo_id = _a_photo(client)
    root = client.rest("flickr.photos.getSizes", photo_id=photo_id).ok()
    fixture = fixture_xml("xml/flickr.photos.getSizes.xml")
    assert structure(root) == structure(fixture)
    labels = [s.get("label") for s in root.iter("size")]
    # Seeded originals are 4000x3000 (or 3000x4000): up to X-Large 3K, plus Original.
    assert labels == [s.get("label") for s in fixture.iter("size")][:-1] + [
        "Large 2048", "X-Large 3K", "Original"]
    sizes = {s.get("label"): s for s in root.iter("size")}
    photo = sandbox.store.photo(photo_id)
    w, h = photo["width"], photo["height"]
    assert (sizes["Original"].get("width"), sizes["Original"].get("height")) == (str(w), str(h))
    assert max(int(sizes["Medium"].get("width")), int(sizes["Medium"].get("height"))) == 500
    assert sizes["Original"].get("source").endswith(f"_{photo['originalsecret']}_o.jpg")
    assert sizes["Medium"].get("source") == f"{client.url}/photos/65535/{photo_id}_{photo['secret']}.jpg"
    assert photo["secret"] not in sizes["Large 1600"].get("source")


def test_photo_files_served(client):
    root = client.rest("flickr.photos.getSizes", photo_id=_a_photo(client)).ok()
    for size in root.iter("size"):
        path = size.get("source")[len(client.url):]
        reply = client.raw("GET", path)
        assert reply.status == 200 and reply.body[:3] == b"\xff\xd8\xff"
        assert reply.headers["Content-Type"] == "image/jpeg"
    src = root.find("sizes/size").get("source")[len(client.url):]
    assert client.raw("GET", src.replace("_s.jpg", "_x.jpg")).status == 404
    assert client.raw("GET", src.replace("65535", "1")).status == 404
    assert client.raw("GET", "/photos/65535/1_abc.jpg").status == 404
    assert client.raw("GET", "/nope").status == 404


def test_search_extras_match_interestingness_fixture(client):
    fixture = fixture_xml("xml/flickr.interestingness.getList.xml")
    extras = ("description,license,date_upload,date_taken,owner_name,icon_server,original_format,"
              "last_update,geo,tags,machine_tags,o_dims,views,media,path_alias,url_sq,url_t,url_s,"
              "url_q,url_m,url_n,url_z,url_c,url_l,url_o")
    root = client.rest("flickr.photos.search", user_id=C.OTHER_NSID, has_geo=1, extras=extras,
                       per_page=5).ok()
    ours = list(root.iter("photo"))
    assert ours
    fixture_names = set().union(*(p.attrib for p in fixture.iter("photo")))
    our_names = set().union(*(p.attrib for p in ours))
    new_urls = {f"{k}_{s}" for k in ("url", "width", "height") for s in ("q", "n", "z", "c")}
    assert our_names - new_urls == fixture_names
    for theirs in fixture.iter("photo"):
        for mine in ours:
            common = [a for a in theirs.attrib if a in mine.attrib]
            assert [a for a in mine.attrib if a in theirs.attrib] == common
    assert all(p.find("description") is not None for p in ours)
    plain = client.rest("flickr.photos.search", user_id=C.OTHER_NSID).ok()
    assert structure(plain) == structure(fixture_xml("xml/flickr.photos.search.xml"))


def test_get_recent_shape_and_paging(client, sandbox):
    root = client.rest("flickr.photos.getRecent").ok()
    assert structure(root) == structure(fixture_xml("xml/flickr.photos.getRecent.xml"))
    public = sandbox.store.one("SELECT COUNT(*) AS n FROM photos WHERE ispublic=1")["n"]
    photos = root.find("photos")
    assert photos.attrib == {"page": "1", "pages": str(math.ceil(public / 100)), "perpage": "100",
                             "total": str(public)}
    assert len(photos) == 100
    dates = [int(p.get("dateupload")) for p in
             client.rest("flickr.photos.getRecent", extras="date_upload").ok().iter("photo")]
    assert dates == sorted(dates, reverse=True)


def test_search_pagination_math(client):
    first = client.rest("flickr.photos.search", user_id=C.OTHER_NSID, per_page=7).ok().find("photos")
    total = int(first.get("total"))
    assert total == 120
    pages = math.ceil(total / 7)
    assert first.attrib == {"page": "1", "pages": str(pages), "perpage": "7", "total": str(total)}
    last = client.rest("flickr.photos.search", user_id=C.OTHER_NSID, per_page=7, page=pages).ok()
    assert len(last.find("photos")) == total - 7 * (pages - 1)
    assert last.find("photos").get("page") == str(pages)
    beyond = client.rest("flickr.photos.search", user_id=C.OTHER_NSID, per_page=7, page=pages + 1).ok()
    assert len(beyond.find("photos")) == 0
    seen = []
    for page in range(1, pages + 1):
        seen += [p.get("id") for p in client.rest("flickr.photos.search", user_id=C.OTHER_NSID,
                                                  per_page=7, page=page).ok().iter("photo")]
    assert len(seen) == len(set(seen)) == total
    capped = client.rest("flickr.photos.getRecent", per_page=1000).ok().find("photos")
    assert capped.get("perpage") == "500" and len(capped) == min(500, int(capped.get("total")))
    for bad in ("0", "-5", "abc"):
        assert client.rest("flickr.photos.getRecent", per_page=bad).ok().find("photos").get("perpage") == "100"


def test_parameterless_search(client):
    assert client.rest("flickr.photos.search").err() == (3, "Parameterless searches have been disabled. "
                                                            "Please use flickr.photos.getRecent instead.")
    assert client.rest("flickr.photos.search", extras="tags", per_page=3).err()[0] == 3


def test_search_filters(client, sandbox):
    def ids(**kw):
        return [p.get("id") for p in client.rest("flickr.photos.search", per_page=500, **kw).ok().iter("photo")]

    # text: case-insensitive and non-ASCII, over titles, descriptions and tags
    cafe = ids(text="CAFÉ")
    assert cafe and all("café" in (client.rest("flickr.photos.getInfo", photo_id=i).text.lower())
                        for i in cafe[:5])
    assert ids(text="東京の夜")
    any_ids, all_ids = set(ids(tags="cat,beach")), set(ids(tags="cat,beach", tag_mode="all"))
    assert all_ids and all_ids < any_ids
    assert set(ids(tags="cat")) | set(ids(tags="beach")) == any_ids
    # user_id "me" needs a login, and then includes the caller's private photos
    assert client.rest("flickr.photos.search", user_id="me").err()[0] == 99
    # (The session sandbox may hold other tests' uploads: count from its database.)
    count = "SELECT COUNT(*) AS n FROM photos WHERE owner=? AND ispublic IN ({})"
    everything = sandbox.store.one(count.format("0, 1"), (C.USER_NSID,))["n"]
    public = sandbox.store.one(count.format("1"), (C.USER_NSID,))["n"]
    assert everything > public >= 90
    mine = client.rest("flickr.photos.search", user_id="me", auth="oauth", per_page=500).ok()
    assert mine.find("photos").get("total") == str(everything)
    assert client.rest("flickr.photos.search", user_id=C.USER_NSID).ok().find("photos").get("total") == str(public)
    assert client.rest("flickr.photos.search", user_id="nobody").err() == (2, "Unknown user")
    # place_id: a country contains its regions' and localities' photos
    paris = set(ids(place_id="EsIQUYZXU79_kEA"))
    france = set(ids(place_id="lbWye9tTUb6GOcp80w"))
    assert paris and paris <= france
    # dates and sort
    asc = client.rest("flickr.photos.search", user_id=C.THIRD_NSID, sort="date-posted-asc",
                      extras="date_upload", min_upload_date=1600000000, max_upload_date="2023-01-01").ok()
    dates = [int(p.get("dateupload")) for p in asc.iter("photo")]
    assert dates == sorted(dates) and dates[0] >= 1600000000 and dates[-1] <= 1672531200


def test_places_top_list_shape(client):
    root = client.rest("flickr.places.getTopPlacesList", place_type_id=12).ok()
    assert structure(root) == structure(fixture_xml("xml/flickr.places.getTopPlacesList.xml"))
    counts = [int(p.get("photo_count")) for p in root.iter("place")]
    assert counts == sorted(counts, reverse=True) and root.find("places").get("total") == str(len(counts))
    assert client.rest("flickr.places.getTopPlacesList", place_type="locality", date="2024-04-01").ok()
    assert client.rest("flickr.places.getTopPlacesList").err()[0] == 1
    assert client.rest("flickr.places.getTopPlacesList", place_type_id=99).err()[0] == 2


def test_places_get_info(client):
    root = client.rest("flickr.places.getInfo", place_id="7.MJR8tTVrIO1EgB").ok()
    place = root.find("place")
    assert (place.get("name"), place.get("woe_name"), place.get("place_type"), place.get("woeid")) == (
        "San Francisco, California, US, United States", "San Francisco", "locality", "2487956")
    assert [(e.tag, e.text, e.get("place_url")) for e in place] == [
        ("locality", "San Francisco", "/United+States/California/San+Francisco"),
        ("region", "California", "/United+States/California"), ("country", "United States", "/United+States")]
    by_woeid = client.rest("flickr.places.getInfo", woe_id="7153319").ok().find("place")
    assert by_woeid.get("place_id") == "KDzSRQpQUL9rRBm8" and [e.tag for e in by_woeid] == ["region", "country"]
    assert client.rest("flickr.places.getInfo").err()[0] == 1
    assert client.rest("flickr.places.getInfo", place_id="no/such place").err()[0] == 2
    assert client.rest("flickr.places.getInfo", woe_id="12ab").err()[0] == 2
    assert client.rest("flickr.places.getInfo", place_id="Nope").err() == (3, "Place not found")
    assert client.rest("flickr.places.getInfo", woe_id="1").err()[0] == 3


def test_check_token_shape(client):
    root = client.rest("flickr.auth.oauth.checkToken", auth="oauth", oauth_token=C.OAUTH_TOKEN).ok()
    doc = ET.fromstring(fixture_text("xml/doc-examples/flickr.auth.oauth.checkToken.xml"))
    assert structure(root.find("oauth")) == structure(doc)
    assert root.find("oauth/perms").text == "delete"
    assert root.find("oauth/user").attrib == {"nsid": C.USER_NSID, "username": "sandbox",
                                              "fullname": "Sandbox User"}


# -- writes and permissions ----------------------------------------------------

@pytest.fixture(scope="module")
def tokens(client):
    return {perms: oauth_flow(client, perms=perms)[:2] for perms in ("read", "write")}


def _my_public_photo(client):
    return client.rest("flickr.photos.search", user_id=C.USER_NSID, per_page=1).ok().find("photos/photo").get("id")


def test_perms_enforced(client, tokens):
    photo_id = _my_public_photo(client)
    read = tokens["read"]
    assert client.rest("flickr.test.login", auth="oauth", token=read).ok() is not None
    assert client.rest("flickr.photos.addTags", auth="oauth", token=read, http_method="POST",
                       photo_id=photo_id, tags="x").err() == (
        99, "Insufficient permissions. Method requires write privileges; read granted.")
    assert client.rest("flickr.photos.delete", auth="oauth", token=tokens["write"], http_method="POST",
                       photo_id=photo_id).err() == (
        99, "Insufficient permissions. Method requires delete privileges; write granted.")
    assert client.rest("flickr.photos.setMeta", photo_id=photo_id, title="x").err()[0] == 99


def test_set_meta_and_add_tags(client, tokens):
    photo_id = _my_public_photo(client)
    w = tokens["write"]
    client.rest("flickr.photos.setMeta", auth="oauth", token=w, http_method="POST", photo_id=photo_id,
                title="Neuer Titel — ünïcödé", description="d & <e>").ok()
    client.rest("flickr.photos.addTags", auth="oauth", token=w, http_method="POST", photo_id=photo_id,
                tags='zebra "New York" camera:make=leica').ok()
    info = client.rest("flickr.photos.getInfo", photo_id=photo_id).ok()
    assert info.find("photo/title").text == "Neuer Titel — ünïcödé"
    assert info.find("photo/description").text == "d & <e>"
    tags = {t.text: t for t in info.iter("tag")}
    assert {"zebra", "newyork", "camera:make=leica"} <= set(tags)
    assert tags["newyork"].get("raw") == "New York" and tags["camera:make=leica"].get("machine_tag") == "1"
    other = client.rest("flickr.photos.search", user_id=C.OTHER_NSID, per_page=1).ok().find("photos/photo")
    assert client.rest("flickr.photos.setMeta", auth="oauth", token=w, http_method="POST",
                       photo_id=other.get("id"), title="x").err() == (1, "Photo not found")


def test_delete(fresh_sandbox):
    from sbclient import Client
    c = Client(fresh_sandbox)
    photo_id = _my_public_photo(c)
    c.rest("flickr.photos.delete", auth="oauth", http_method="POST", photo_id=photo_id).ok()
    assert c.rest("flickr.photos.getInfo", photo_id=photo_id).err()[0] == 1
    assert c.rest("flickr.photos.delete", auth="oauth", http_method="POST", photo_id=photo_id).err()[0] == 1


def test_photosets(client, tokens):
    w = tokens["write"]
    root = client.rest("flickr.photosets.getList", user_id=C.USER_NSID).ok()
    assert structure(root) == structure(fixture_xml("xml/flickr.photosets.getList.xml"))
    before = int(root.find("photosets").get("total"))
    mine = [p.get("id") for p in client.rest("flickr.photos.search", user_id=C.USER_NSID, per_page=3).ok()
            .iter("photo")]
    created = client.rest("flickr.photosets.create", auth="oauth", token=w, http_method="POST",
                          title="Set ✓", description="new", primary_photo_id=mine[0]).ok()
    set_id = created.find("photoset").get("id")
    assert created.find("photoset").get("url").endswith(f"/sets/{set_id}/")
    client.rest("flickr.photosets.addPhoto", auth="oauth", token=w, http_method="POST",
                photoset_id=set_id, photo_id=mine[1]).ok()
    assert client.rest("flickr.photosets.addPhoto", auth="oauth", token=w, http_method="POST",
                       photoset_id=set_id, photo_id=mine[1]).err()[0] == 3
    assert client.rest("flickr.photosets.addPhoto", auth="oauth", token=w, http_method="POST",
                       photoset_id="1", photo_id=mine[1]).err() == (1, "Photoset not found")
    listing = client.rest("flickr.photosets.getList", auth="oauth", token=w).ok().find("photosets")
    assert int(listing.get("total")) == before + 1 and listing.get("cancreate") == "1"
    photos = client.rest("flickr.photosets.getPhotos", photoset_id=set_id, extras="url_sq").ok()
    doc = ET.fromstring(fixture_text("xml/doc-examples/flickr.photosets.getPhotos.xml"))
    node = photos.find("photoset")
    assert set(doc.attrib) <= set(node.attrib)
    assert [p.get("id") for p in node] == mine[:2]
    assert [p.get("isprimary") for p in node] == ["1", "0"]
    assert all(set(doc.find("photo").attrib) <= set(p.attrib) for p in node)
    assert client.rest("flickr.photosets.create", auth="oauth", token=w, http_method="POST",
                       title="", primary_photo_id=mine[0]).err()[0] == 1


def test_concurrent_requests(client):
    """Many threads at once, reads and signed writes mixed: every answer is complete and ok."""
    from concurrent.futures import ThreadPoolExecutor
    photo_id = _my_public_photo(client)

    def work(i):
        if i % 3 == 0:
            return client.rest("flickr.photos.addTags", auth="oauth", http_method="POST",
                               photo_id=photo_id, tags=f"concurrent{i}").ok()
        if i % 3 == 1:
            return client.rest("flickr.photos.search", tags="cat", extras="tags,geo", per_page=50).ok()
        return client.rest("flickr.test.login", auth="legacy").ok()

    with ThreadPoolExecutor(8) as pool:
        assert all(r.get("stat") == "ok" for r in pool.map(work, range(48)))
    tags = {t.text for t in client.rest("flickr.photos.getInfo", photo_id=photo_id).ok().iter("tag")}
    assert {f"concurrent{i}" for i in range(0, 48, 3)} <= tags


@pytest.mark.parametrize("where", ["query", "header"])
def test_write_methods_over_get_answer_flickrs_error_and_change_nothing(client, where):
    """Flickr requires POST for write and delete methods: a signed GET answers error 116 and
    changes nothing (a signed GET of setMeta used to change the title); the same call by POST works."""
    photo_id = _my_public_photo(client)
    title = client.rest("flickr.photos.getInfo", photo_id=photo_id).ok().find("photo/title").text
    arguments = {"photo_id": photo_id, "title": "set over GET", "tags": "overget", "photoset_id": "1",
                 "primary_photo_id": photo_id}
    # setMeta first: the one that changed a title over GET.
    refused = sorted(POST_METHODS, key=lambda name: (name != "flickr.photos.setMeta", name))
    for name in refused:
        reply = client.rest(name, auth="oauth", http_method="GET", where=where, **arguments)
        assert reply.err() == (116, "The POST method is now required for all setters"), name
    info = client.rest("flickr.photos.getInfo", photo_id=photo_id).ok()
    assert info.find("photo/title").text == title and "overget" not in {t.text for t in info.iter("tag")}
    print(f"{len(refused)} write and delete methods refused over GET")
    client.rest("flickr.photos.setMeta", auth="oauth", photo_id=photo_id, title="set over POST").ok()
    assert client.rest("flickr.photos.getInfo", photo_id=photo_id).ok().find("photo/title").text == "set over POST"
    client.rest("flickr.photos.setMeta", auth="oauth", photo_id=photo_id, title=title or "").ok()
