# SPDX-License-Identifier: MIT
"""Envelope writer: Flickr's exact XML layout, escaping and JSON mapping."""
import json
from decimal import Decimal

from sbclient import fixture_text

from flickr_sandbox.envelope import Node, escape, json_bytes, json_ok, xml_fail, xml_ok


def test_error_envelope_matches_recorded_bytes():
    assert xml_fail(112, 'Method "flickr.fakeMethod" not found').decode() == \
        fixture_text("xml/error.112.method-not-found.xml")
    assert xml_fail(2, "No photo specified").decode() == fixture_text("xml/upload.error.2.no-photo.xml")


def test_ok_layout_tabs_and_self_closing():
    photos = Node("photos", {"page": 1, "total": 2})
    photos.add("photo", {"id": "1", "title": "a & b"})
    p2 = photos.add("photo", {"id": "2"})
    p2.add("description", text="x<y")
    assert xml_ok([photos]).decode() == (
        '<?xml version="1.0" encoding="utf-8" ?>\n<rsp stat="ok">\n'
        '<photos page="1" total="2">\n\t<photo id="1" title="a &amp; b" />\n'
        '\t<photo id="2">\n\t\t<description>x&lt;y</description>\n\t</photo>\n</photos>\n</rsp>\n')


def test_escape_like_php_htmlspecialchars():
    assert escape("<a href=\"x\">'&'</a>") == "&lt;a href=&quot;x&quot;&gt;&#039;&amp;&#039;&lt;/a&gt;"
    assert escape("bad\x00\x08ctl") == "badctl"


def test_json_mapping_lists_and_content():
    photos = Node("photos", {"page": 1})
    photos.add("photo", {"id": "1"}).add("description", text="")
    user = Node("user", {"id": "u"})
    user.add("username", text="name")
    obj = json_ok([photos, user])
    assert obj == {"photos": {"page": 1, "photo": [{"id": "1", "description": {"_content": ""}}]},
                   "user": {"id": "u", "username": {"_content": "name"}}, "stat": "ok"}


def test_types_keep_to_json_and_are_text_in_xml():
    """An int is a JSON number, a str a JSON string, a Decimal a number keeping its digits in XML."""
    place = Node("location", {"latitude": Decimal("23.340000"), "accuracy": 13, "woeid": "846766",
                              "ok": True})
    place.add("count", text=35)
    assert json_ok([place])["location"] == {"latitude": 23.34, "accuracy": 13, "woeid": "846766", "ok": 1,
                                            "count": {"_content": 35}}
    assert '<location latitude="23.340000" accuracy="13" woeid="846766" ok="1">' in xml_ok([place]).decode()
    assert "\t<count>35</count>" in xml_ok([place]).decode()


def test_empty_list_containers_stay_lists():
    """``list_of``: Flickr's ``"notes":{"note":[]}`` and ``"photo":[]``, never ``{"_content":""}``."""
    photo = Node("photo", {"id": "1"})
    photo.add("notes", list_of="note")
    tags = photo.add("tags", list_of="tag")
    photos = Node("photos", {"page": 1, "total": 0}, list_of="photo")
    obj = json_ok([photo, photos])
    assert obj["photo"] == {"id": "1", "notes": {"note": []}, "tags": {"tag": []}}
    assert obj["photos"] == {"page": 1, "total": 0, "photo": []}
    tags.add("tag", {"raw": "A b"}, text="ab")  # one child: still a list
    assert json_ok([photo])["photo"]["tags"] == {"tag": [{"raw": "A b", "_content": "ab"}]}
    assert "\t<notes />\n" in xml_ok([photo]).decode()


def test_json_bytes_escaped_as_flickr_writes_them():
    """PHP's json_encode, as Flickr's answers show: ``"https:\\/\\/..."`` and ``"\\u98a8"``."""
    node = Node("url", {"type": "photopage"}, text="https://x/p/\u98a8 \\/ \U0001f600")
    text = json_bytes(json_ok([node]), None).decode("ascii")
    assert text == ('{"url":{"type":"photopage","_content":"https:\\/\\/x\\/p\\/\\u98a8 \\\\\\/ '
                    '\\ud83d\\ude00"},"stat":"ok"}')
    assert json.loads(text)["url"]["_content"] == "https://x/p/\u98a8 \\/ \U0001f600"
