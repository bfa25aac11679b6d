# SPDX-License-Identifier: MIT
"""flickr.text: the text of a mapped value, on hand-made values and on the sandbox's answers; the
other answer-value helpers of flickr.values (as_list, number), the one copy the applications and
the examples use."""
import re

import pytest

import flickr
from flickr import values
from libtest import REPO, endpoints


@pytest.mark.parametrize("value, expected", [
    ("an attribute", "an attribute"),
    ("", ""),
    ({"_text": "an element"}, "an element"),
    ({"lang": "fr", "_text": "avec attribut"}, "avec attribut"),
    ({"_text": "  kept verbatim\n"}, "  kept verbatim\n"),
    ({}, ""),  # <title/>
    ({"lang": "fr"}, ""),  # an element with attributes but no text
    ({"_text": {}, "@_text": "renamed"}, ""),  # <_text/> took the key: like flickr_value_string, no text
    (None, ""),
])
def test_text_of_each_shape(value, expected):
    assert flickr.text(value) == expected


@pytest.mark.parametrize("value", [[{"_text": "a"}, {"_text": "b"}], [], 3, 1.5, True, b"bytes"])
def test_text_refuses_what_a_field_is_not(value):
    with pytest.raises(TypeError, match=type(value).__name__):
        flickr.text(value)


def test_text_is_exported():
    assert "text" in flickr.__all__ and flickr.text is flickr.values.text


def test_text_reads_titles_whatever_the_method(library_path, sandbox):
    options = dict(oauth_token=sandbox.oauth_token, oauth_token_secret=sandbox.oauth_token_secret, **endpoints(sandbox))
    with flickr.Flickr(sandbox.api_key, sandbox.api_secret, **options) as api:
        jpeg = b"\xff\xd8\xff\xe0" + bytes(500)
        titled = api.upload(jpeg, filename="a.jpg", title="Sunset <über>", tags="texttest")["photoid"]["_text"]
        untitled = api.upload(jpeg, filename="b.jpg", tags="texttest")["photoid"]["_text"]
        # getInfo: title and description are elements; without a title, <title /> maps to {}.
        info = api.call("flickr.photos.getInfo", photo_id=titled)["photo"]
        assert info["title"] == {"_text": "Sunset <über>"} and flickr.text(info["title"]) == "Sunset <über>"
        bare = api.call("flickr.photos.getInfo", photo_id=untitled)["photo"]
        assert bare["title"] == {} and flickr.text(bare["title"]) == "" and flickr.text(bare["description"]) == ""
        # A photo list: title is an attribute, a plain string.
        listed = {p["id"]: p for p in api.walk("flickr.photos.search", tags="texttest")}
        assert listed[titled]["title"] == "Sunset <über>" and flickr.text(listed[titled]["title"]) == "Sunset <über>"
        assert flickr.text(listed[untitled].get("title")) == ""
        assert flickr.text(listed[untitled].get("no such field")) == ""


@pytest.mark.parametrize("value, expected", [
    (None, []), ({"id": "1"}, [{"id": "1"}]), ([{"id": "1"}, {"id": "2"}], [{"id": "1"}, {"id": "2"}]),
    ([], []), ("text", ["text"]), ({}, [{}]),
])
def test_as_list_of_each_shape(value, expected):
    """One element is mapped as a dict, several as a list, none as absent."""
    assert values.as_list(value) == expected
    if isinstance(value, list):
        assert values.as_list(value) is value  # the list itself, not a copy


@pytest.mark.parametrize("value, expected", [
    ("42", 42), (" 42\n", 42), (42, 42), ("-3", -3), (None, 7), ("", 7), ("n/a", 7), ("1.5", 7), (1.5, 7),
    ([1], 7), (True, 7),
])
def test_number_from_text_or_json_number(value, expected):
    assert values.number(value, default=7) == expected
    assert values.number(None) == 0


def test_as_list_and_number_are_written_once():
    """The binding's copy is the one: no module of the package, its applications or its examples
    defines its own (the media helpers and the viewer example each had one)."""
    pattern = re.compile(r"^\s*def (as_list|number)\(", re.M)
    roots = [REPO / "bindings", REPO / "apps"]  # the binding, its examples, the applications
    found = sorted(str(path.relative_to(REPO)) for root in roots for path in root.rglob("*.py")
                   if "tests" not in path.parts and pattern.search(path.read_text(encoding="utf-8")))
    print(f"definitions of as_list/number: {found}")
    assert found == ["bindings/python/flickr/values.py"], found
