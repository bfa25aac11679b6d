# SPDX-License-Identifier: MIT
"""What a photo carries beside its pixels: photos.getExif (and hidden EXIF), geo.getLocation,
people.getList, licenses.getInfo and getFavorites, over HTTP in XML and JSON."""
import pytest
from social_helpers import as_list, attrs, both, json_error, one

from flickr_sandbox import constants as C


def _photo(sandbox, where, *args):
    return str(one(sandbox, f"SELECT p.id FROM photos p WHERE {where} ORDER BY p.id LIMIT 1", *args))


def test_get_exif(client, sandbox):
    pid = _photo(sandbox, "p.owner=? AND p.ispublic=1 AND p.latitude IS NOT NULL AND EXISTS "
                          "(SELECT 1 FROM exif e WHERE e.photo_id = p.id)", C.OTHER_NSID)
    count = one(sandbox, "SELECT COUNT(*) FROM exif WHERE photo_id=?", pid)
    root, obj = both(client, "flickr.photos.getExif", photo_id=pid)
    photo = root.find("photo")
    # Flickr4Java's recording: <photo id secret server farm camera><exif tagspace tagspaceid tag label>
    assert attrs(photo) == ("id", "secret", "server", "farm", "camera") and photo.get("camera")
    tags = photo.findall("exif")
    assert len(tags) == count and all(attrs(t) == ("tagspace", "tagspaceid", "tag", "label") for t in tags)
    assert {t.get("tagspace") for t in tags} == {"IFD0", "ExifIFD", "GPS"}
    aperture = next(t for t in tags if t.get("tag") == "FNumber")
    assert aperture.findtext("clean") == "f/" + aperture.findtext("raw")
    assert len(obj["photo"]["exif"]) == count and obj["photo"]["exif"][0]["raw"]["_content"]
    print(f"exif: {count} tags on {pid}")


def test_exif_of_a_private_photo_needs_its_owner_or_its_secret(client, sandbox):
    pid = _photo(sandbox, "p.owner=? AND p.ispublic=0", C.USER_NSID)
    secret = one(sandbox, "SELECT secret FROM photos WHERE id=?", pid)
    assert client.rest("flickr.photos.getExif", photo_id=pid).err() == (1, "Photo not found")
    assert client.rest("flickr.photos.getExif", photo_id=pid, secret="0" * 10).err() == (1, "Photo not found")
    client.rest("flickr.photos.getExif", photo_id=pid, secret=secret).ok()
    client.rest("flickr.photos.getExif", photo_id=pid, auth="oauth").ok()
    assert client.rest("flickr.photos.getExif", photo_id="1").err() == (1, "Photo not found")


def test_hidden_exif_is_refused_to_others_only(client, sandbox):
    """Marie hides her EXIF (Flickr's privacy setting): error 2 for others, her own calls see it."""
    pid = _photo(sandbox, "p.owner=? AND p.ispublic=1 AND EXISTS (SELECT 1 FROM exif e WHERE e.photo_id = p.id)",
                 C.THIRD_NSID)
    assert client.rest("flickr.photos.getExif", photo_id=pid).err() == (2, "Permission denied")
    assert client.rest("flickr.photos.getExif", photo_id=pid, auth="oauth").err() == (2, "Permission denied")
    assert json_error(client, "flickr.photos.getExif", photo_id=pid) == (2, "Permission denied")
    token = (C.OAUTH_TOKEN + "-marie", C.OAUTH_TOKEN_SECRET)
    sandbox.store.run("INSERT OR REPLACE INTO tokens(token, secret, kind, nsid, perms, created)"
                      " VALUES (?,?,?,?,?,0)", (token[0], token[1], "access", C.THIRD_NSID, 1))
    assert len(client.rest("flickr.photos.getExif", photo_id=pid, auth="oauth", token=token).ok().find("photo")) > 0


def test_geo_get_location_names_the_places(client, sandbox):
    fine = _photo(sandbox, "p.ispublic=1 AND p.accuracy >= 15 AND p.place_id = 'EsIQUYZXU79_kEA'")
    root, obj = both(client, "flickr.photos.geo.getLocation", photo_id=fine)
    location = root.find("photo/location")
    # Flickr4Java's recording: location attributes, then each place with place_id and woeid.
    assert attrs(location) == ("latitude", "longitude", "accuracy", "context", "place_id", "woeid")
    assert [c.tag for c in location] == ["neighbourhood", "locality", "county", "region", "country"]
    assert all(attrs(c) == ("place_id", "woeid") for c in location)
    assert location.findtext("locality") == "Paris" and location.findtext("country") == "France"
    assert location.get("place_id") == location.find("neighbourhood").get("place_id")
    lat = one(sandbox, "SELECT latitude FROM photos WHERE id=?", fine)
    assert location.get("latitude") == f"{lat:.6f}"
    assert obj["photo"]["location"]["locality"]["_content"] == "Paris"
    coarse = _photo(sandbox, "p.ispublic=1 AND p.accuracy < 15 AND p.place_id = 'MLf5cO1TUb7kPAQ'")
    names = [c.tag for c in client.rest("flickr.photos.geo.getLocation", photo_id=coarse).ok().find("photo/location")]
    assert names == ["locality", "county", "region", "country"]  # no neighbourhood for a coarse geotag
    bare = _photo(sandbox, "p.ispublic=1 AND p.latitude IS NULL")
    assert client.rest("flickr.photos.geo.getLocation", photo_id=bare).err() == (
        2, "Photo has no location information.")
    private = _photo(sandbox, "p.ispublic=0")
    assert client.rest("flickr.photos.geo.getLocation", photo_id=private).err() == (1, "Photo not found.")


def test_people_get_list(client, sandbox):
    pid = str(one(sandbox, "SELECT pp.photo_id FROM photo_people pp JOIN photos p ON p.id = pp.photo_id"
                           " WHERE p.ispublic=1 AND pp.x IS NOT NULL ORDER BY pp.photo_id LIMIT 1"))
    root, obj = both(client, "flickr.photos.people.getList", photo_id=pid)
    people = root.find("people")
    assert attrs(people) == ("total", "photo_width", "photo_height") and people.get("total") == "1"
    assert max(int(people.get("photo_width")), int(people.get("photo_height"))) == 500
    person = people.find("person")
    assert attrs(person) == ("nsid", "username", "iconserver", "iconfarm", "realname", "added_by", "x", "y", "w", "h")
    assert as_list(obj["people"]["person"])[0]["nsid"] == person.get("nsid")
    empty = _photo(sandbox, "p.ispublic=1 AND NOT EXISTS (SELECT 1 FROM photo_people pp WHERE pp.photo_id=p.id)")
    root, obj = both(client, "flickr.photos.people.getList", photo_id=empty)
    assert root.find("people").get("total") == "0" and len(root.find("people")) == 0
    assert client.rest("flickr.photos.people.getList", photo_id="x").err() == (1, "Photo not found")


def test_licenses_get_info(client):
    root, obj = both(client, "flickr.photos.licenses.getInfo")
    licenses = root.find("licenses")
    assert [int(x.get("id")) for x in licenses][:11] == [0, 4, 6, 3, 2, 1, 5, 7, 8, 9, 10]
    assert sorted(int(x.get("id")) for x in licenses) == list(range(17))
    assert all(attrs(x) == ("id", "name", "url") for x in licenses)
    by_id = {x.get("id"): x.get("url") for x in licenses}
    assert by_id["11"] == "https://creativecommons.org/licenses/by/4.0/"
    assert by_id["4"] == "https://creativecommons.org/licenses/by/2.0/"
    assert len(obj["licenses"]["license"]) == 17


def test_get_favorites(client, sandbox):
    pid = str(one(sandbox, "SELECT photo_id FROM faves GROUP BY photo_id HAVING COUNT(*) >= 2 ORDER BY photo_id"))
    total = one(sandbox, "SELECT COUNT(*) FROM faves WHERE photo_id=?", pid)
    root, obj = both(client, "flickr.photos.getFavorites", photo_id=pid, per_page=1)
    photo = root.find("photo")
    assert attrs(photo) == ("id", "secret", "server", "farm", "page", "pages", "perpage", "total")
    assert photo.get("total") == str(total) and photo.get("pages") == str(total) and len(photo) == 1
    assert attrs(photo.find("person")) == ("nsid", "username", "favedate")
    dates = [int(client.rest("flickr.photos.getFavorites", photo_id=pid, per_page=1, page=n).ok()
                 .find("photo/person").get("favedate")) for n in range(1, total + 1)]
    assert dates == sorted(dates, reverse=True)
    assert str(obj["photo"]["total"]) == str(total)
    capped = client.rest("flickr.photos.getFavorites", photo_id=pid, per_page=500).ok().find("photo")
    assert capped.get("perpage") == "50"
    assert client.rest("flickr.photos.getFavorites", photo_id=pid).ok().find("photo").get("perpage") == "10"
    private = _photo(sandbox, "p.ispublic=0")
    assert client.rest("flickr.photos.getFavorites", photo_id=private).err() == (1, "Photo not found")


@pytest.mark.parametrize("method", ["flickr.photos.getExif", "flickr.photos.geo.getLocation",
                                    "flickr.photos.people.getList", "flickr.photos.getFavorites",
                                    "flickr.photos.comments.getList"])
def test_missing_photo_id(client, method):
    code, _ = client.rest(method).err()
    assert code == 1


def test_get_info_shows_the_social_rows(client, sandbox):
    """photos.getInfo counts the comments, lists the notes (layout of Flickr's method page), says
    whether people are marked and whether the caller faved the photo."""
    pid = str(one(sandbox, "SELECT n.photo_id FROM notes n JOIN photos p ON p.id = n.photo_id"
                           " WHERE p.ispublic=1 ORDER BY n.photo_id"))
    photo = client.rest("flickr.photos.getInfo", photo_id=pid).ok().find("photo")
    assert photo.findtext("comments") == str(one(sandbox, "SELECT COUNT(*) FROM comments WHERE photo_id=?", pid))
    notes = photo.find("notes")
    assert len(notes) == one(sandbox, "SELECT COUNT(*) FROM notes WHERE photo_id=?", pid)
    assert attrs(notes[0]) == ("id", "author", "authorname", "x", "y", "w", "h") and notes[0].text
    marked = str(one(sandbox, "SELECT photo_id FROM photo_people pp JOIN photos p ON p.id = pp.photo_id"
                              " WHERE p.ispublic=1 ORDER BY 1"))
    assert client.rest("flickr.photos.getInfo", photo_id=marked).ok().find("photo/people").get("haspeople") == "1"
    faved = str(one(sandbox, "SELECT photo_id FROM faves WHERE nsid=? ORDER BY 1", C.USER_NSID))
    assert client.rest("flickr.photos.getInfo", photo_id=faved, auth="oauth").ok().find("photo").get(
        "isfavorite") == "1"
    assert client.rest("flickr.photos.getInfo", photo_id=faved).ok().find("photo").get("isfavorite") == "0"
