# SPDX-License-Identifier: MIT
"""Flickr's JSON types, method by method: the reference sandbox/tests/test_shapes.py holds the
sandbox's JSON answers to (and docs/sandbox.md, "JSON types", prints).

Flickr's JSON is typed field by field and has changed over the years (``"total":"65000"`` in
2015, ``"total":112301`` in 2024; ``"width_m":"500"`` in 2014, ``"width_m":500`` in 2019,
``"width_o":1500`` beside ``"o_width":"1500"`` in 2022); where recordings of different years
disagree the newest wins. Sources (recorded answers of
``format=json``, quoted in public repositories): jeremybrooks/jinx
``src/test/resources/response/**`` (2014-2015, every method family), Flickr answers quoted in
the tests and comments of apps from 2016 to 2024 (photos.search 2024 with numbers for all four
paging fields, photos.getInfo 2019 with ``"notes":{"note":[]}`` and ``"tags":{"tag":[]}``), and
what gallery-dl 1.32 and python-flickr-api 0.7.8 read (``params["page"] >= data["pages"]`` needs a
number; ``LICENSES.get(photo["license"])`` a string; ``photo["tags"]["tag"]`` a list).

A table maps the JSON path of an object (payload element names joined by ".") to its members:
``s`` a string, ``n`` a number, ``*`` either (where Flickr itself sends both for one field, as
EXIF values: ``"_content":72`` beside ``"_content":"Canon"``), ``{}`` an object (one element),
``[]`` an array (a list container's children, present even when empty). ``_content`` is an
element's text.
"""

from __future__ import annotations

Table = dict[str, dict[str, str]]

TEXT = {"_content": "s"}
SIZE_KEYS = ("sq", "q", "t", "s", "n", "w", "m", "z", "c", "l", "h", "k", "3k", "4k", "5k", "6k", "o")

# A photo of a standard photo list (photos.search, getRecent, people.getPhotos...) with every extra.
LIST_PHOTO: dict[str, str] = {
    "id": "s", "owner": "s", "secret": "s", "server": "s", "farm": "n", "title": "s",
    "ispublic": "n", "isfriend": "n", "isfamily": "n", "license": "s", "description": "{}",
    "o_width": "s", "o_height": "s", "dateupload": "s", "lastupdate": "s", "datetaken": "s",
    "datetakengranularity": "s", "datetakenunknown": "s", "ownername": "s", "iconserver": "s",
    "iconfarm": "n", "views": "s", "count_faves": "s", "count_comments": "s", "tags": "s",
    "machine_tags": "s", "originalsecret": "s", "originalformat": "s", "latitude": "n",
    "longitude": "n", "accuracy": "n", "context": "n", "place_id": "s", "woeid": "s",
    "geo_is_public": "n", "geo_is_contact": "n", "geo_is_friend": "n", "geo_is_family": "n",
    "media": "s", "media_status": "s", "pathalias": "s",
    **{f"url_{k}": "s" for k in SIZE_KEYS}, **{f"width_{k}": "n" for k in SIZE_KEYS},
    **{f"height_{k}": "n" for k in SIZE_KEYS},
}
PAGING = {"page": "n", "pages": "n", "perpage": "n", "total": "n"}


def photo_list(root: str = "photos") -> Table:
    return {root: {**PAGING, "photo": "[]"}, f"{root}.photo": LIST_PHOTO,
            f"{root}.photo.description": TEXT}


PLACE = {"place_id": "s", "woeid": "s", "latitude": "n", "longitude": "n", "place_url": "s"}
AUTH_USER = {"nsid": "s", "username": "s", "fullname": "s"}

TYPES: dict[str, Table] = {
    "flickr.photos.getInfo": {
        "photo": {"id": "s", "secret": "s", "server": "s", "farm": "n", "dateuploaded": "s",
                  "isfavorite": "n", "license": "s", "safety_level": "s", "rotation": "n",
                  "originalsecret": "s", "originalformat": "s", "views": "s", "media": "s",
                  "owner": "{}", "title": "{}", "description": "{}", "visibility": "{}", "dates": "{}",
                  "permissions": "{}", "editability": "{}", "publiceditability": "{}", "usage": "{}",
                  "comments": "{}", "notes": "{}", "people": "{}", "tags": "{}", "location": "{}",
                  "geoperms": "{}", "urls": "{}"},
        "photo.owner": {"nsid": "s", "username": "s", "realname": "s", "location": "s",
                        "iconserver": "s", "iconfarm": "n", "path_alias": "s"},
        "photo.title": TEXT, "photo.description": TEXT, "photo.comments": TEXT,
        "photo.visibility": {"ispublic": "n", "isfriend": "n", "isfamily": "n"},
        "photo.dates": {"posted": "s", "taken": "s", "takengranularity": "s", "takenunknown": "s",
                        "lastupdate": "s"},
        "photo.permissions": {"permcomment": "n", "permaddmeta": "n"},
        "photo.editability": {"cancomment": "n", "canaddmeta": "n"},
        "photo.publiceditability": {"cancomment": "n", "canaddmeta": "n"},
        "photo.usage": {"candownload": "n", "canblog": "n", "canprint": "n", "canshare": "n"},
        "photo.notes": {"note": "[]"},
        "photo.notes.note": {"id": "s", "author": "s", "authorname": "s", "x": "s", "y": "s", "w": "s",
                             "h": "s", "_content": "s"},
        "photo.people": {"haspeople": "n"},
        "photo.tags": {"tag": "[]"},
        "photo.tags.tag": {"id": "s", "author": "s", "authorname": "s", "raw": "s", "machine_tag": "n",
                           "_content": "s"},
        "photo.location": {"latitude": "n", "longitude": "n", "accuracy": "n", "context": "n",
                           "place_id": "s", "woeid": "s", "locality": "{}", "neighbourhood": "{}",
                           "county": "{}", "region": "{}", "country": "{}"},
        **{f"photo.location.{kind}": {"_content": "s", "place_id": "s", "woeid": "s"}
           for kind in ("locality", "neighbourhood", "county", "region", "country")},
        "photo.geoperms": {"ispublic": "n", "iscontact": "n", "isfriend": "n", "isfamily": "n"},
        "photo.urls": {"url": "[]"},
        "photo.urls.url": {"type": "s", "_content": "s"},
    },
    "flickr.photos.getSizes": {
        "sizes": {"canblog": "n", "canprint": "n", "candownload": "n", "size": "[]"},
        "sizes.size": {"label": "s", "width": "n", "height": "n", "source": "s", "url": "s", "media": "s"},
    },
    "flickr.photos.search": photo_list(),
    "flickr.photos.getRecent": photo_list(),
    "flickr.people.getPhotos": photo_list(),
    "flickr.people.getInfo": {
        "person": {"id": "s", "nsid": "s", "ispro": "n", "is_deleted": "n", "iconserver": "s",
                   "iconfarm": "n", "path_alias": "s", "has_stats": "n", "upload_count": "n",
                   "upload_limit": "n", "upload_limit_status": "s", "is_cognito_user": "n",
                   "all_rights_reserved_photos_count": "n", "has_adfree": "n",
                   "has_free_standard_shipping": "n", "has_free_educational_resources": "n",
                   "username": "{}", "realname": "{}", "mbox_sha1sum": "{}", "location": "{}",
                   "timezone": "{}", "description": "{}", "photosurl": "{}", "profileurl": "{}",
                   "mobileurl": "{}", "photos": "{}"},
        **{f"person.{name}": TEXT for name in ("username", "realname", "mbox_sha1sum", "location",
                                                "description", "photosurl", "profileurl", "mobileurl")},
        "person.timezone": {"label": "s", "offset": "s", "timezone_id": "s", "timezone": "s"},
        "person.photos": {"firstdatetaken": "{}", "firstdate": "{}", "count": "{}", "views": "{}"},
        "person.photos.firstdatetaken": TEXT, "person.photos.firstdate": TEXT,
        "person.photos.count": {"_content": "n"}, "person.photos.views": {"_content": "n"},
    },
    "flickr.urls.lookupUser": {"user": {"id": "s", "username": "{}"}, "user.username": TEXT},
    "flickr.photosets.getList": {
        "photosets": {"cancreate": "n", **PAGING, "photoset": "[]"},
        "photosets.photoset": {
            "id": "s", "owner": "s", "username": "s", "primary": "s", "secret": "s", "server": "s",
            "farm": "n", "count_views": "s", "count_comments": "s", "count_photos": "n",
            "count_videos": "n", "can_comment": "n", "date_create": "s", "date_update": "s",
            "photos": "n", "videos": "n", "visibility_can_see_set": "n", "needs_interstitial": "n",
            "title": "{}", "description": "{}", "primary_photo_extras": "{}"},
        "photosets.photoset.title": TEXT, "photosets.photoset.description": TEXT,
        "photosets.photoset.primary_photo_extras": {"lastupdate": "s", "ownername": "s"},
    },
    "flickr.photosets.getInfo": {
        "photoset": {"id": "s", "owner": "s", "username": "s", "primary": "s", "secret": "s",
                     "server": "s", "farm": "n", "photos": "n", "count_views": "s",
                     "count_comments": "s", "count_photos": "n", "count_videos": "n",
                     "can_comment": "n", "date_create": "s", "date_update": "s",
                     "coverphoto_server": "n", "coverphoto_farm": "n", "title": "{}", "description": "{}"},
        "photoset.title": TEXT, "photoset.description": TEXT,
    },
    "flickr.photosets.getPhotos": {
        "photoset": {"id": "s", "primary": "s", "owner": "s", "ownername": "s", "page": "n",
                     "per_page": "n", "perpage": "n", "pages": "n", "title": "s", "total": "n",
                     "photo": "[]"},
        "photoset.photo": {**{k: v for k, v in LIST_PHOTO.items() if k != "owner"}, "isprimary": "s"},
        "photoset.photo.description": TEXT,
    },
    "flickr.photosets.create": {"photoset": {"id": "s", "url": "s"}},
    "flickr.places.getTopPlacesList": {
        "places": {"total": "n", "date_start": "n", "date_stop": "n", "place": "[]"},
        "places.place": {**PLACE, "place_type": "s", "place_type_id": "n", "woe_name": "s",
                         "photo_count": "s", "_content": "s"},
    },
    "flickr.places.getInfo": {
        "place": {**PLACE, "place_type": "s", "place_type_id": "n", "name": "s", "woe_name": "s",
                  "has_shapedata": "n", "locality": "{}", "region": "{}", "country": "{}"},
        **{f"place.{kind}": {**PLACE, "_content": "s"} for kind in ("locality", "region", "country")},
    },
    "flickr.test.login": {"user": {"id": "s", "path_alias": "s", "username": "{}"}, "user.username": TEXT},
    "flickr.auth.oauth.checkToken": {
        "oauth": {"token": "{}", "perms": "{}", "user": "{}"}, "oauth.token": TEXT, "oauth.perms": TEXT,
        "oauth.user": AUTH_USER,
    },
    "flickr.auth.oauth.getAccessToken": {
        "auth": {"access_token": "{}"},
        "auth.access_token": {"oauth_token": "s", "oauth_token_secret": "s"},
    },
    "flickr.photos.upload.checkTickets": {
        "uploader": {"ticket": "[]"},
        "uploader.ticket": {"id": "s", "complete": "n", "photoid": "s", "invalid": "n"},
    },
    "flickr.reflection.getMethodInfo": {
        "method": {"name": "s", "needslogin": "n", "needssigning": "n", "requiredperms": "n",
                   "description": "{}"},
        "method.description": TEXT,
        "arguments": {"argument": "[]"},
        "arguments.argument": {"name": "s", "optional": "n", "_content": "s"},
        "errors": {"error": "[]"},
        "errors.error": {"code": "n", "message": "s", "_content": "s"},
    },
    "flickr.reflection.getMethods": {"methods": {"method": "[]"}, "methods.method": TEXT},
    # Answered by other parts of the sandbox (issue 31, section 2); jinx's recordings.
    "flickr.photos.comments.getList": {
        "comments": {"photo_id": "s", "comment": "[]"},
        "comments.comment": {"id": "s", "author": "s", "author_is_deleted": "n", "authorname": "s",
                             "iconserver": "s", "iconfarm": "n", "datecreate": "s", "permalink": "s",
                             "path_alias": "s", "realname": "s", "_content": "s"},
    },
    "flickr.photos.getExif": {
        "photo": {"id": "s", "secret": "s", "server": "s", "farm": "n", "camera": "s", "exif": "[]"},
        "photo.exif": {"tagspace": "s", "tagspaceid": "n", "tag": "s", "label": "s", "raw": "{}",
                       "clean": "{}"},
        "photo.exif.raw": {"_content": "*"}, "photo.exif.clean": {"_content": "*"},
    },
    "flickr.photos.licenses.getInfo": {
        "licenses": {"license": "[]"}, "licenses.license": {"id": "n", "name": "s", "url": "s"},
    },
    "flickr.favorites.getList": {**photo_list(), "photos.photo": {**LIST_PHOTO, "date_faved": "s"}},
    "flickr.people.getUploadStatus": {
        "user": {"id": "s", "ispro": "n", "upload_count": "n", "upload_limit": "n",
                 "upload_limit_status": "s", "username": "{}", "bandwidth": "{}", "filesize": "{}",
                 "sets": "{}", "videosize": "{}", "videos": "{}"},
        "user.username": TEXT,
        "user.bandwidth": {"max": "s", "used": "n", "maxbytes": "s", "usedbytes": "n", "remainingbytes": "s",
                           "maxkb": "s", "usedkb": "n", "remainingkb": "s", "unlimited": "n"},
        "user.filesize": {"max": "s", "maxbytes": "s", "maxkb": "s", "maxmb": "s"},
        "user.sets": {"created": "n", "remaining": "s"},
        "user.videosize": {"maxbytes": "s", "maxkb": "s", "maxmb": "s"},
        "user.videos": {"uploaded": "n", "remaining": "s"},
    },
}


def _kinds(members: dict[str, str]) -> str:
    names = {"s": "strings", "n": "numbers", "*": "strings or numbers", "[]": "arrays (even when empty)"}
    sized = {f"{kind}_{k}" for kind in ("url", "width", "height") for k in SIZE_KEYS}
    condensed = {"url_{size}": "s", "width_{size}": "n", "height_{size}": "n"} if sized <= set(members) else {}
    members = {k: c for k, c in members.items() if k not in sized} | condensed
    return "; ".join(f"{names[code]} {', '.join(k for k, c in members.items() if c == code)}"
                     for code in ("n", "s", "*", "[]") if code in members.values())


def render_markdown() -> str:
    """The tables above as docs/sandbox.md prints them ("JSON types"), one line per object.

    Text objects ({"_content": string}) are left out; a photo of a list is written once."""
    lines = [f"- a photo of a photo list (`photos.photo`, `photoset.photo`), with every extra: "
             f"{_kinds(LIST_PHOTO)}; an album's photo has no `owner` and adds `isprimary`, a string; "
             f"a favourite adds `date_faved`, a string"]
    for method, table in TYPES.items():
        described = [(path, members) for path, members in table.items()
                     if members != TEXT and set(members.values()) - {"{}"} and not path.endswith(".photo")]
        lines.append(f"- `{method}`:" + ("" if described else " text objects only"))
        lines.extend(f"  - `{path}`: {_kinds(members)}" for path, members in described)
    return "\n".join(lines) + "\n"
