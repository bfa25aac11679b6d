# SPDX-License-Identifier: MIT
"""flickr.people.getPhotos over HTTP: a user's photostream with Flickr's arguments, paging and errors."""
import math
import xml.etree.ElementTree as ET

import pytest
from sbclient import Client, fixture_text, png_bytes, structure

from flickr_sandbox import Sandbox
from flickr_sandbox import constants as C

METHOD = "flickr.people.getPhotos"


def _count(sandbox, where, *args):
    return sandbox.store.row(f"SELECT COUNT(*) AS n FROM photos WHERE {where}", args)["n"]


def _ids(reply):
    return [p.get("id") for p in reply.ok().iter("photo")]


def test_shape_paging_and_order(client, sandbox):
    root = client.rest(METHOD, user_id=C.OTHER_NSID, per_page=7).ok()
    assert structure(root) == structure(ET.fromstring(fixture_text("xml/flickr.photos.search.xml")))
    total = _count(sandbox, "owner = ? AND ispublic = 1", C.OTHER_NSID)
    pages = math.ceil(total / 7)
    assert root.find("photos").attrib == {"page": "1", "pages": str(pages), "perpage": "7", "total": str(total)}
    seen = []
    for page in range(1, pages + 2):  # one past the last page: empty, as on Flickr
        seen += _ids(client.rest(METHOD, user_id=C.OTHER_NSID, per_page=7, page=page))
    assert len(seen) == len(set(seen)) == total
    dated = client.rest(METHOD, user_id=C.OTHER_NSID, per_page=500, extras="date_upload").ok()
    dates = [int(p.get("dateupload")) for p in dated.iter("photo")]
    assert len(dates) == total and dates == sorted(dates, reverse=True)  # newest upload first
    assert all(p.get("owner") == C.OTHER_NSID for p in dated.iter("photo"))
    capped = client.rest(METHOD, user_id=C.OTHER_NSID, per_page=1000).ok().find("photos")
    assert capped.get("perpage") == "500"
    assert client.rest(METHOD, user_id=C.OTHER_NSID, per_page="x").ok().find("photos").get("perpage") == "100"


def test_me_is_the_calling_user(client, sandbox):
    everything = _count(sandbox, "owner = ?", C.USER_NSID)
    public = _count(sandbox, "owner = ? AND ispublic = 1", C.USER_NSID)
    assert everything > public
    for auth in ("oauth", "legacy"):
        mine = client.rest(METHOD, auth=auth, user_id="me", per_page=500).ok().find("photos")
        assert mine.get("total") == str(everything) and len(mine) == everything
    # Another caller, or nobody, sees the public photos only.
    assert client.rest(METHOD, user_id=C.USER_NSID).ok().find("photos").get("total") == str(public)
    assert client.rest(METHOD, user_id=C.USER_NAME).ok().find("photos").get("total") == str(public)


def test_errors(client):
    assert client.rest(METHOD).err() == (1, "Required arguments missing")
    assert client.rest(METHOD, user_id="").err() == (1, "Required arguments missing")
    assert client.rest(METHOD, user_id="1@N00").err() == (2, "Unknown user")
    assert client.rest(METHOD, user_id="me").err() == (
        99, "Insufficient permissions. Method requires read privileges; none granted.")
    assert client.rest(METHOD, user_id=C.OTHER_NSID, api_key="0" * 32).err()[0] == 100


def test_upload_dates(client):
    def dates(**criteria):
        reply = client.rest(METHOD, user_id=C.THIRD_NSID, per_page=500, extras="date_upload,date_taken",
                            **criteria).ok()
        return [(int(p.get("dateupload")), p.get("datetaken")) for p in reply.iter("photo")]

    every = dates()
    middle = sorted(d for d, _ in every)[len(every) // 2]
    later = dates(min_upload_date=middle)
    assert later and all(d >= middle for d, _ in later) and len(later) < len(every)
    assert all(t <= "2021-12-31 23:59:59" for _, t in dates(max_taken_date="2021-12-31 23:59:59"))
    assert dates(min_upload_date="not a date") == every  # a value that is no date is ignored


@pytest.fixture(scope="module")
def own():
    """A sandbox of this module's own, with uploads of each privacy, safety and content type."""
    with Sandbox() as sb:
        client = Client(sb)
        uploaded = {}
        for name, fields in {
            "friends": {"is_public": 0, "is_friend": 1},
            "family": {"is_public": 0, "is_family": 1},
            "friends_family": {"is_public": 0, "is_friend": 1, "is_family": 1},
            "private": {"is_public": 0},
            "moderate": {"safety_level": 2},
            "restricted": {"safety_level": 3},
            "screenshot": {"content_type": 2},
            "other": {"content_type": 3},
        }.items():
            uploaded[name] = client.upload(png_bytes(8, 8), title=name, **fields).ok().find("photoid").text
        yield client, uploaded


def test_privacy_filter_applies_to_ones_own_photos(own):
    client, uploaded = own
    for value, name in (("2", "friends"), ("3", "family"), ("4", "friends_family")):
        assert _ids(client.rest(METHOD, auth="oauth", user_id="me", privacy_filter=value)) == [uploaded[name]]
    private = _ids(client.rest(METHOD, auth="oauth", user_id="me", privacy_filter=5, per_page=500))
    assert uploaded["private"] in private and uploaded["friends"] not in private
    public = _ids(client.rest(METHOD, auth="oauth", user_id="me", privacy_filter=1, per_page=500))
    assert uploaded["moderate"] in public and uploaded["private"] not in public
    # On someone else's photostream (or unknown values) the filter does nothing.
    others = client.rest(METHOD, auth="oauth", user_id=C.OTHER_NSID, privacy_filter=5).ok().find("photos")
    assert int(others.get("total")) > 0
    assert client.rest(METHOD, auth="oauth", user_id="me", privacy_filter=9).ok().find("photos").get("total") == \
        client.rest(METHOD, auth="oauth", user_id="me").ok().find("photos").get("total")


def test_safe_search_and_content_types(own):
    client, uploaded = own

    def shown(auth="oauth", **criteria):
        return set(_ids(client.rest(METHOD, auth=auth, user_id=C.USER_NSID, per_page=500, **criteria)))

    everything = shown()
    assert {uploaded["moderate"], uploaded["restricted"]} <= everything
    assert uploaded["moderate"] not in shown(safe_search=1)
    moderate = shown(safe_search=2)
    assert uploaded["moderate"] in moderate and uploaded["restricted"] not in moderate
    assert shown(safe_search=3) == everything
    # Without a login, safe photos only, whatever safe_search says.
    anonymous = shown(auth="none", safe_search=3)
    assert uploaded["moderate"] not in anonymous and uploaded["screenshot"] in anonymous
    assert shown(content_types="1") == {uploaded["screenshot"]}
    assert shown(content_types="1,2") == {uploaded["screenshot"], uploaded["other"]}
    assert uploaded["screenshot"] not in shown(content_types="0")
    assert shown(content_types="3") == set()  # virtual photos: no upload makes one
    assert shown(content_type=5) == {uploaded["screenshot"], uploaded["other"]}  # the deprecated form
    assert shown(content_types="0", content_type=5) == shown(content_types="0")  # content_types wins
