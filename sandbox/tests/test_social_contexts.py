# SPDX-License-Identifier: MIT
"""Where a photo sits and the caller's own lists: photos.getContext, photosets.getContext,
photos.getAllContexts, photos.getNotInSet and photos.recentlyUpdated, over HTTP."""
import json

import pytest
from social_helpers import attrs, both, one

from flickr_sandbox import constants as C

# Flickr4Java's recordings of getContext and photosets.getContext: a neighbour's attributes.
NEIGHBOUR_ATTRS = ("id", "owner", "secret", "server", "farm", "title", "url", "thumb", "license", "media",
                   "is_faved")


def _stream(sandbox, owner, public_only):
    where = "owner=?" + (" AND ispublic=1" if public_only else "")
    return [str(r[0]) for r in sandbox.store.all(f"SELECT id FROM photos WHERE {where} ORDER BY dateupload, id",
                                                 (owner,))]


def test_get_context_walks_the_photostream(client, sandbox):
    stream = _stream(sandbox, C.USER_NSID, public_only=True)
    middle = stream[len(stream) // 2]
    root, obj = both(client, "flickr.photos.getContext", photo_id=middle)
    assert root.findtext("count") == str(len(stream))
    prev, nxt = root.find("prevphoto"), root.find("nextphoto")
    assert attrs(prev) == NEIGHBOUR_ATTRS and attrs(nxt) == NEIGHBOUR_ATTRS
    at = stream.index(middle)
    assert (prev.get("id"), nxt.get("id")) == (stream[at - 1], stream[at + 1])  # older, newer
    assert prev.get("url") == f"/photos/sandbox/{stream[at - 1]}/in/photostream/"
    assert prev.get("thumb").startswith(sandbox.url) and prev.get("thumb").endswith("_s.jpg")
    assert str(obj["count"]["_content"]) == str(len(stream)) and obj["nextphoto"]["id"] == stream[at + 1]
    assert client.rest("flickr.photos.getContext", photo_id=stream[0]).ok().find("prevphoto").attrib == {"id": "0"}
    assert client.rest("flickr.photos.getContext", photo_id=stream[-1]).ok().find("nextphoto").attrib == {"id": "0"}
    # The owner's stream holds the private photos too.
    own = _stream(sandbox, C.USER_NSID, public_only=False)
    assert client.rest("flickr.photos.getContext", auth="oauth", photo_id=middle).ok().findtext("count") == str(len(own))
    private = next(p for p in own if p not in stream)
    assert client.rest("flickr.photos.getContext", photo_id=private).err() == (1, "Photo not found")
    print(f"getContext: stream of {len(stream)} public, {len(own)} own")


def test_photoset_context(client, sandbox):
    set_id = "72157700000000001"
    members = [str(r[0]) for r in sandbox.store.all(
        "SELECT sp.photo_id FROM photoset_photos sp JOIN photos p ON p.id = sp.photo_id"
        " WHERE sp.set_id=? AND p.ispublic=1 ORDER BY sp.position", (int(set_id),))]
    root, _ = both(client, "flickr.photosets.getContext", photo_id=members[1], photoset_id=set_id)
    assert root.findtext("count") == str(len(members))
    assert root.find("prevphoto").get("id") == members[0] and root.find("nextphoto").get("id") == members[2]
    assert root.find("nextphoto").get("url") == f"/photos/sandbox/{members[2]}/in/set-{set_id}/"
    assert attrs(root.find("nextphoto")) == NEIGHBOUR_ATTRS
    outside = str(one(sandbox, "SELECT id FROM photos p WHERE ispublic=1 AND NOT EXISTS (SELECT 1 FROM"
                               " photoset_photos sp WHERE sp.photo_id=p.id) ORDER BY id"))
    assert client.rest("flickr.photosets.getContext", photo_id=outside, photoset_id=set_id).err() == (
        2, "Photo not in set")
    assert client.rest("flickr.photosets.getContext", photo_id=members[0], photoset_id="1").err() == (
        2, "Photo not in set")
    assert client.rest("flickr.photosets.getContext", photo_id="1", photoset_id=set_id).err() == (
        1, "Photo not found")


def test_get_all_contexts(client, sandbox):
    pid = str(one(sandbox, "SELECT sp.photo_id FROM photoset_photos sp JOIN group_photos gp ON gp.photo_id ="
                           " sp.photo_id JOIN photos p ON p.id = sp.photo_id WHERE p.ispublic=1 ORDER BY 1"))
    root = client.rest("flickr.photos.getAllContexts", photo_id=pid).ok()
    sets, pools = root.findall("set"), root.findall("pool")
    assert sets and pools
    # Flickr's answer of today (a recorded JSON one): these attributes, in this order.
    assert attrs(sets[0]) == ("title", "id", "primary", "secret", "server", "farm", "view_count",
                              "comment_count", "count_photo", "count_video")
    assert attrs(pools[0]) == ("title", "url", "id", "iconserver", "iconfarm", "members", "pool_count")
    assert pools[0].get("url").startswith("/groups/") and pools[0].get("url").endswith("/pool/")
    bare = str(one(sandbox, "SELECT id FROM photos p WHERE ispublic=1 AND NOT EXISTS (SELECT 1 FROM"
                            " photoset_photos sp WHERE sp.photo_id=p.id) AND NOT EXISTS (SELECT 1 FROM"
                            " group_photos gp WHERE gp.photo_id=p.id) ORDER BY id"))
    assert len(client.rest("flickr.photos.getAllContexts", photo_id=bare).ok()) == 0
    assert client.rest("flickr.photos.getAllContexts", photo_id="1").err() == (1, "Photo not found")


def test_get_all_contexts_json_arrays(client, sandbox):
    pid = str(one(sandbox, "SELECT photo_id FROM group_photos gp JOIN photos p ON p.id = gp.photo_id"
                           " WHERE p.ispublic=1 ORDER BY 1"))
    obj = json.loads(client.rest("flickr.photos.getAllContexts", photo_id=pid, format="json",
                                 nojsoncallback=1).text)
    pools = sandbox.store.row("SELECT COUNT(*) AS n FROM group_photos WHERE photo_id=?", (int(pid),))["n"]
    assert isinstance(obj["pool"], list) and len(obj["pool"]) == pools  # an array even for one pool
    one_set = next(r[0] for r in sandbox.store.all(
        "SELECT photo_id FROM photoset_photos GROUP BY photo_id HAVING COUNT(*) = 1 ORDER BY 1"))
    alone = json.loads(client.rest("flickr.photos.getAllContexts", photo_id=str(one_set), auth="oauth",
                                   format="json", nojsoncallback=1).text)
    assert isinstance(alone["set"], list) and len(alone["set"]) == 1  # an array even for one album


def test_get_not_in_set(client, sandbox):
    expected = [str(r[0]) for r in sandbox.store.all(
        "SELECT id FROM photos p WHERE owner=? AND NOT EXISTS (SELECT 1 FROM photoset_photos sp WHERE"
        " sp.photo_id=p.id) ORDER BY dateupload, id", (C.USER_NSID,))]
    root, obj = both(client, "flickr.photos.getNotInSet", auth="oauth", per_page=500)
    assert [p.get("id") for p in root.find("photos")] == expected  # oldest first, private ones too
    assert str(obj["photos"]["total"]) == str(len(expected))
    public = client.rest("flickr.photos.getNotInSet", auth="oauth", privacy_filter=1, per_page=500).ok()
    assert 0 < len(public.find("photos")) < len(expected)
    assert all(p.get("ispublic") == "1" for p in public.find("photos"))
    assert client.rest("flickr.photos.getNotInSet", auth="oauth", media="videos").ok().find("photos").get(
        "total") == "0"
    assert client.rest("flickr.photos.getNotInSet").err()[0] == 99
    print(f"getNotInSet: {len(expected)}")


def test_recently_updated(client, sandbox):
    since = one(sandbox, "SELECT lastupdate FROM photos WHERE owner=? ORDER BY lastupdate DESC LIMIT 1 OFFSET 9",
                C.USER_NSID)
    root, obj = both(client, "flickr.photos.recentlyUpdated", auth="oauth", min_date=since, extras="last_update")
    photos = root.find("photos")
    assert photos.get("total") == "10"
    stamps = [int(p.get("lastupdate")) for p in photos]
    assert stamps == sorted(stamps, reverse=True) and min(stamps) >= since
    assert "lastupdate" in attrs(photos[0])
    plain = client.rest("flickr.photos.recentlyUpdated", auth="oauth", min_date=since).ok().find("photos")
    assert attrs(plain[0])[-1] == "lastupdate"  # given without being asked, as Flickr's example shows
    assert client.rest("flickr.photos.recentlyUpdated", auth="oauth").err() == (1, "Required argument missing.")
    assert client.rest("flickr.photos.recentlyUpdated", auth="oauth", min_date="soon").err() == (
        2, "Not a valid date")
    assert client.rest("flickr.photos.recentlyUpdated", min_date=since).err()[0] == 99
