# SPDX-License-Identifier: MIT
"""flickr.urls and Flickr.photo_url: URLs built and read by the library, against the sandbox."""
import urllib.request

import pytest

import flickr
from flickr import urls
from libtest import endpoints


@pytest.fixture
def api(library_path, sandbox):
    with flickr.Flickr(sandbox.api_key, sandbox.api_secret, oauth_token=sandbox.oauth_token,
                       oauth_token_secret=sandbox.oauth_token_secret, **endpoints(sandbox)) as api:
        yield api


PHOTO = {"id": "2341623661", "secret": "abcdef1234", "server": "65535", "owner": "12037949754@N01",
         "originalsecret": "0123abcd", "originalformat": "png", "url_k": "https://live.staticflickr.com/65535/2341623661_kk_k.jpg"}


def test_build_then_parse_every_size(library_path):
    for size in ["s", "q", "t", "m", "n", "w", "", "z", "c", "b", "k", "o"]:
        url = urls.source(PHOTO, size)
        parsed = urls.parse(url)
        assert parsed.kind == "image" and parsed.photo_id == PHOTO["id"] and parsed.server == "65535", url
        assert parsed.size == size or (size == "" and parsed.size == "")
    assert urls.page(PHOTO) == "https://www.flickr.com/photos/12037949754@N01/2341623661/"
    assert urls.parse(urls.page(PHOTO)).nsid == "12037949754@N01"
    assert urls.parse(urls.short(PHOTO["id"])) == flickr.urls.FlickrURL(kind="photo", photo_id=PHOTO["id"])
    assert urls.short(52984597523) == "https://flic.kr/p/2oJ4UTv"


@pytest.mark.parametrize("url, expected", [
    ("https://www.flickr.com/photos/bees/2341623661/in/album-72157/", {"kind": "photo", "photo_id": "2341623661",
                                                                      "path_alias": "bees", "context": "album-72157"}),
    ("flickr.com/photos/bees/albums/72157594162136485", {"kind": "album", "album_id": "72157594162136485"}),
    ("https://www.flickr.com/photos/bees/sets/72157594162136485/", {"kind": "album", "album_id": "72157594162136485"}),
    ("https://www.flickr.com/photos/bees/galleries/72157/", {"kind": "gallery", "gallery_id": "72157"}),
    ("https://www.flickr.com/groups/flickrapi/", {"kind": "group", "group": "flickrapi"}),
    ("https://www.flickr.com/groups/34427469792@N01/discuss/72157/", {"group_id": "34427469792@N01", "topic_id": "72157"}),
    ("https://www.flickr.com/people/12037949754@N01/", {"kind": "user", "nsid": "12037949754@N01"}),
    ("https://farm3.staticflickr.com/2/1418878_1e92283336_m.jpg", {"kind": "image", "farm": "3", "size": "m"}),
    ("https://flic.kr/s/aHsjyTz6pR", {"kind": "album"}),
    # A pasted line keeps its line end: "\r\n" is one Swift Character, so it once escaped the trim.
    ("\r\nhttps://flic.kr/p/2oJ4UTv\r\n", {"kind": "photo", "photo_id": "52984597523"}),
    ("https://www.flickr.com/photos/bees/2341623661/\r\n", {"kind": "photo", "photo_id": "2341623661"}),
])
def test_parse_forms(library_path, url, expected):
    parsed = urls.parse(url)
    for name, value in expected.items():
        assert parsed.fields[name] == value


# One of every form, with each optional part: every field the library can return comes back in one.
EVERY_FORM = [
    "https://www.flickr.com/photos/tags/cats", "https://www.flickr.com/photos/bees/2341623661/in/album-72157/",
    "https://www.flickr.com/photos/bees/2341623661/sizes/l/", "https://farm3.staticflickr.com/2/1418878_1e92283336_o.png",
    "https://live.staticflickr.com/65535/2341623661_abcdef1234_z.jpg", "https://flic.kr/p/2oJ4UTv",
    "https://flic.kr/s/aHsjyTz6pR", "https://www.flickr.com/photos/bees/albums/72157594162136485",
    "https://www.flickr.com/photos/bees/galleries/72157/", "https://www.flickr.com/photos/bees/favorites/",
    "https://www.flickr.com/groups/34427469792@N01/discuss/72157/", "https://www.flickr.com/people/12037949754@N01/",
]


def test_parse_shows_every_field(library_path):
    """A tag URL once printed FlickrURL(kind='tag'), its tag only in .fields (which the repr left
    out); so did an album context, the farm and an original's secret and format. Each field the
    library returns is an attribute now, and the repr shows every one set."""
    seen: set[str] = set()
    for url in EVERY_FORM:
        parsed = urls.parse(url)
        shown = repr(parsed)
        for name, value in parsed.fields.items():
            assert getattr(parsed, name, None) == value, f"{url}: {name} is no attribute of {shown}"
            assert f"{name}={value!r}" in shown, f"{url}: {shown} hides {name}={value!r}"
        seen.update(parsed.fields)
    print(f"{len(EVERY_FORM)} URLs, {len(seen)} distinct fields, each shown: {sorted(seen)}")
    assert {"tag", "context", "farm", "originalsecret", "originalformat", "format", "group_id"} <= seen


@pytest.mark.parametrize("url", ["", "https://example.com/photos/a/1", "https://www.flickr.com/", "not a url at all",
                                 "https://flic.kr/p/0OIl", "https://www.flickr.com/photos/a%zz/1", "x" * 10000,
                                 "https://notstaticflickr.com/2/1418878_1e92283336_m.jpg",
                                 # "/" then a combining mark is one Character: still the end of the host.
                                 "https://www.flickr.com/\u0301/photos/bees/2341623661/"])
def test_parse_refuses_other_text(library_path, url):
    with pytest.raises(flickr.InvalidArgument):
        urls.parse(url)


def test_missing_fields_are_named(library_path):
    with pytest.raises(flickr.InvalidArgument, match='"secret" is missing'):
        urls.source({"id": "1", "server": "2"}, "b")
    with pytest.raises(flickr.InvalidArgument, match="url_h"):
        urls.source(PHOTO, "h")
    with pytest.raises(TypeError):
        urls.source(["not", "a", "dict"], "b")


def test_photo_url_honours_the_photo_endpoint(api, sandbox):
    photo = api.photos.search(user_id="me", per_page=1)["photos"]["photo"][0]
    url = api.photo_url(photo, "q")
    assert url.startswith(sandbox.url + "/photos/")
    with urllib.request.urlopen(url, timeout=10) as answer:  # reachable: the sandbox serves it
        assert answer.status == 200 and answer.read(3)
    assert urls.source(photo, "q").startswith("https://live.staticflickr.com/")
    assert urls.parse(urls.source(photo, "q")).photo_id == photo["id"]
    # getInfo's nested owner works for page URLs too.
    info = api.photos.getInfo(photo_id=photo["id"])["photo"]
    assert urls.parse(urls.page(info)).photo_id == photo["id"]
