# SPDX-License-Identifier: MIT
"""Finding members and their lists: people.findByUsername/findByEmail, urls.getUserPhotos,
people.getPublicPhotos and tags.getListUser, over HTTP in XML and JSON."""
from social_helpers import attrs, both, json_error, one

from flickr_sandbox import constants as C


def test_find_by_username_and_email(client):
    for method, params in (("flickr.people.findByUsername", {"username": "SandBox"}),
                           ("flickr.people.findByEmail", {"find_email": "Sandbox@SANDBOX.invalid"})):
        root, obj = both(client, method, **params)
        user = root.find("user")
        # Flickr4Java's recordings: <user id nsid><username>…</username></user>
        assert attrs(user) == ("id", "nsid") and user.get("nsid") == C.USER_NSID
        assert user.findtext("username") == C.USER_NAME
        assert obj["user"]["nsid"] == C.USER_NSID and obj["user"]["username"]["_content"] == C.USER_NAME
    assert client.rest("flickr.people.findByUsername", username="nobody").err() == (1, "User not found")
    assert client.rest("flickr.people.findByUsername", username="").err() == (1, "User not found")
    assert client.rest("flickr.people.findByEmail", find_email="sandbox@example.com").err() == (1, "User not found")
    assert json_error(client, "flickr.people.findByEmail", find_email="x") == (1, "User not found")
    print("find: 2 methods, 4 errors")


def test_get_user_photos(client, sandbox):
    root, obj = both(client, "flickr.urls.getUserPhotos", user_id=C.OTHER_NSID)
    assert attrs(root.find("user")) == ("nsid", "url")
    assert root.find("user").get("url") == f"{sandbox.url}/photos/otheruser/"
    assert obj["user"]["url"] == f"{sandbox.url}/photos/otheruser/"
    mine = client.rest("flickr.urls.getUserPhotos", auth="oauth").ok().find("user")
    assert mine.get("nsid") == C.USER_NSID and mine.get("url").endswith("/photos/sandbox/")
    assert client.rest("flickr.urls.getUserPhotos").err() == (1, "User not found")  # nobody to default to
    assert client.rest("flickr.urls.getUserPhotos", user_id="1@N00").err() == (1, "User not found")


def test_get_public_photos_hides_private_ones_even_from_the_owner(client, sandbox):
    public = one(sandbox, "SELECT COUNT(*) FROM photos WHERE owner=? AND ispublic=1", C.USER_NSID)
    everything = one(sandbox, "SELECT COUNT(*) FROM photos WHERE owner=?", C.USER_NSID)
    assert everything > public
    for auth in ("none", "oauth"):
        root, obj = both(client, "flickr.people.getPublicPhotos", auth=auth, user_id=C.USER_NSID, per_page=500,
                         extras="date_upload")
        photos = root.find("photos")
        assert photos.get("total") == str(public) and len(photos) == public
        assert all(p.get("ispublic") == "1" for p in photos)
        dates = [int(p.get("dateupload")) for p in photos]
        assert dates == sorted(dates, reverse=True)
        assert str(obj["photos"]["total"]) == str(public) and len(obj["photos"]["photo"]) == public
    assert client.rest("flickr.people.getPublicPhotos", user_id="1@N00").err() == (1, "User not found")
    assert client.rest("flickr.people.getPublicPhotos").err() == (1, "User not found")
    print(f"getPublicPhotos: {public} of {everything}")


def test_tags_get_list_user(client, sandbox):
    expected = sorted({row[0] for row in sandbox.store.all(
        "SELECT t.tag FROM tags t JOIN photos p ON p.id = t.photo_id WHERE p.owner=? AND p.ispublic=1",
        (C.USER_NSID,))})
    root, obj = both(client, "flickr.tags.getListUser", user_id=C.USER_NSID)
    assert root.find("who").get("id") == C.USER_NSID
    tags = [t.text for t in root.find("who/tags")]
    assert tags == expected and any(":" in t for t in tags)  # machine tags included, as Flickr does
    assert [t["_content"] for t in obj["who"]["tags"]["tag"]] == expected
    # The owner also sees the tags of their private photos.
    own = [t.text for t in client.rest("flickr.tags.getListUser", auth="oauth").ok().find("who/tags")]
    assert set(expected) <= set(own)
    assert client.rest("flickr.tags.getListUser").err() == (1, "User not found")
    print(f"tags: {len(tags)} public, {len(own)} own")
