# SPDX-License-Identifier: MIT
"""How members organise and share: collections.getTree/getInfo, galleries.getList/getPhotos,
groups.pools.getPhotos and favorites.getList/getPublicList, over HTTP in XML and JSON."""
from social_helpers import as_list, attrs, both, one

from flickr_sandbox import constants as C

# Flickr4Java's recording of galleries.getList: a gallery's attributes in order.
GALLERY_ATTRS = ("id", "gallery_id", "url", "owner", "username", "iconserver", "iconfarm", "primary_photo_id",
                 "date_create", "date_update", "count_photos", "count_videos", "count_views", "count_comments",
                 "sort_group", "primary_photo_server", "primary_photo_farm", "primary_photo_secret")


def test_collections_tree_and_info(client, sandbox):
    root, obj = both(client, "flickr.collections.getTree", user_id=C.USER_NSID)
    top = root.find("collections/collection")
    assert attrs(top) == ("id", "title", "description", "iconlarge", "iconsmall")
    leaf = top.find("collection")
    sets = [s.get("id") for s in root.iter("set")]
    assert sets == ["72157700000000001", "72157700000000002"]
    assert attrs(leaf.find("set")) == ("id", "title", "description")
    assert as_list(as_list(obj["collections"]["collection"])[0]["collection"])[0]["id"] == leaf.get("id")
    sub = client.rest("flickr.collections.getTree", user_id=C.USER_NSID, collection_id=leaf.get("id")).ok()
    assert [c.get("id") for c in sub.find("collections")] == [leaf.get("id")]
    assert client.rest("flickr.collections.getTree", auth="oauth").ok().find("collections/collection").get(
        "id") == top.get("id")
    assert len(client.rest("flickr.collections.getTree", user_id=C.OTHER_NSID).ok().find("collections")) == 0
    assert client.rest("flickr.collections.getTree", user_id="1@N00").err() == (1, "User not found")
    assert client.rest("flickr.collections.getTree", user_id=C.USER_NSID, collection_id="9-9").err() == (
        2, "Collection not found")
    info, _ = both(client, "flickr.collections.getInfo", auth="oauth", collection_id=top.get("id"))
    collection = info.find("collection")
    assert attrs(collection) == ("id", "child_count", "datecreate", "iconlarge", "iconsmall", "server", "secret")
    assert collection.get("child_count") == "1" and collection.findtext("title") == top.get("title")
    assert [p.get("id") for p in collection.find("iconphotos")] == [
        str(one(sandbox, "SELECT primary_photo FROM photosets WHERE id=?", int(s))) for s in sets]
    assert client.rest("flickr.collections.getInfo", collection_id=top.get("id")).err()[0] == 99
    assert client.rest("flickr.collections.getInfo", auth="oauth", collection_id="x").err() == (
        1, "Collection not found")


def test_galleries(client, sandbox):
    root, obj = both(client, "flickr.galleries.getList", user_id="sandbox")
    galleries = root.find("galleries")
    assert attrs(galleries) == ("total", "per_page", "user_id", "page", "pages") and galleries.get("total") == "2"
    first = galleries.find("gallery")
    assert attrs(first) == GALLERY_ATTRS and [c.tag for c in first] == ["title", "description"]
    dates = [int(g.get("date_create")) for g in galleries]
    assert dates == sorted(dates, reverse=True)
    assert len(obj["galleries"]["gallery"]) == 2
    count = one(sandbox, "SELECT COUNT(*) FROM gallery_photos WHERE gallery_id=?", first.get("gallery_id"))
    for ident in (first.get("gallery_id"), first.get("id")):
        photos = client.rest("flickr.galleries.getPhotos", gallery_id=ident, per_page=500).ok().find("photos")
        assert photos.get("total") == str(count) == first.get("count_photos")
    assert photos[0].get("is_primary") == "1" and photos[0].get("id") == first.get("primary_photo_id")
    commented = [p for p in photos if p.get("has_comment") == "1"]
    assert all(p.findtext("comment") for p in commented)
    assert all(p.get("owner") != C.USER_NSID for p in photos)  # others' photos, as galleries hold
    extras = client.rest("flickr.galleries.getPhotos", gallery_id=first.get("gallery_id"),
                         extras="url_s,media").ok().find("photos/photo")
    names = attrs(extras)
    assert names.index("has_comment") < names.index("media") < names.index("url_s")
    assert client.rest("flickr.galleries.getPhotos", gallery_id="1").err() == (1, "Gallery not found")
    assert client.rest("flickr.galleries.getList", user_id="1@N00").err() == (1, "User not found")
    print(f"galleries: 2, first holds {count}")


def test_group_pool(client, sandbox):
    group = "34427465497@N01"
    total = one(sandbox, "SELECT COUNT(*) FROM group_photos WHERE group_id=?", group)
    root, obj = both(client, "flickr.groups.pools.getPhotos", group_id=group, per_page=500)
    photos = root.find("photos")
    assert photos.get("total") == str(total) and len(photos) == total > 0
    assert attrs(photos[0])[-2:] == ("ownername", "dateadded")
    added = [int(p.get("dateadded")) for p in photos]
    assert added == sorted(added, reverse=True)
    assert str(obj["photos"]["total"]) == str(total)
    by_alias = client.rest("flickr.groups.pools.getPhotos", group_id="sandboxphotographers").ok()
    assert by_alias.find("photos").get("total") == str(total)
    mine = client.rest("flickr.groups.pools.getPhotos", group_id=group, user_id=C.USER_NSID, per_page=500).ok()
    assert all(p.get("owner") == C.USER_NSID for p in mine.find("photos"))
    tag = one(sandbox, "SELECT t.tag FROM tags t JOIN group_photos gp ON gp.photo_id = t.photo_id"
                       " WHERE gp.group_id=? AND t.machine_tag=0 ORDER BY t.tag", group)
    tagged = client.rest("flickr.groups.pools.getPhotos", group_id=group, tags=tag, per_page=500).ok()
    assert 0 < len(tagged.find("photos")) < total
    assert client.rest("flickr.groups.pools.getPhotos", group_id="1@N00").err() == (1, "Group not found")
    assert client.rest("flickr.groups.pools.getPhotos", group_id=group, user_id="1@N00").err() == (3, "Unknown user")


def test_favorites_lists(client, sandbox):
    visible = one(sandbox, "SELECT COUNT(*) FROM faves f JOIN photos p ON p.id = f.photo_id"
                           " WHERE f.nsid=? AND p.ispublic=1", C.OTHER_NSID)
    for method in ("flickr.favorites.getList", "flickr.favorites.getPublicList"):
        root, obj = both(client, method, user_id=C.OTHER_NSID, per_page=500, extras="geo,media,url_sq")
        photos = root.find("photos")
        assert photos.get("total") == str(visible) and len(photos) == visible > 0
        names = attrs(photos[0])
        # flickr.favorites.getList.xml (recorded): date_faved after the owner's attributes, before geo.
        assert names.index("isfamily") < names.index("date_faved") < names.index("media")
        faved = [int(p.get("date_faved")) for p in photos]
        assert faved == sorted(faved, reverse=True)
        assert str(obj["photos"]["total"]) == str(visible)
        cut = faved[len(faved) // 2]
        later = client.rest(method, user_id=C.OTHER_NSID, min_fave_date=cut, per_page=500).ok().find("photos")
        assert all(int(p.get("date_faved")) >= cut for p in later) and len(later) < visible
    mine = client.rest("flickr.favorites.getList", auth="oauth").ok().find("photos")
    assert mine.get("total") == str(one(sandbox, "SELECT COUNT(*) FROM faves WHERE nsid=?", C.USER_NSID))
    assert client.rest("flickr.favorites.getList").err() == (1, "User not found")
    assert client.rest("flickr.favorites.getPublicList").err() == (1, "User not found")
    assert client.rest("flickr.favorites.getPublicList", user_id="1@N00").err() == (1, "User not found")
