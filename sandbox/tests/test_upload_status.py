# SPDX-License-Identifier: MIT
"""flickr.people.getUploadStatus counts what the caller holds, and needs a login with read."""
from __future__ import annotations

import xml.etree.ElementTree as ET

from sbclient import Client

from flickr_sandbox import Sandbox
from flickr_sandbox import constants as C
from flickr_sandbox.pictures.jpeg import placeholder_jpeg


def _status(client: Client) -> ET.Element:
    user = client.rest("flickr.people.getUploadStatus", auth="oauth").ok().find("user")
    assert user is not None
    return user


def test_counts_follow_uploads_and_albums() -> None:
    with Sandbox() as sb:
        client = Client(sb)
        before = _status(client)
        assert before.get("id") == C.USER_NSID and before.get("upload_limit_status") == "below_limit"
        assert before.findtext("username") == sb.store.owner(C.USER_NSID)["username"]
        items = int(before.get("upload_count"))
        assert items == sb.store.row("SELECT COUNT(*) AS n FROM photos WHERE owner = ?", (C.USER_NSID,))["n"] > 0
        albums = int(before.find("sets").get("created"))
        photo_id = client.upload(placeholder_jpeg(8, 8), title="counted").ok().findtext("photoid")
        client.rest("flickr.photosets.create", auth="oauth", http_method="POST", title="counted",
                    primary_photo_id=photo_id).ok()
        after = _status(client)
        assert int(after.get("upload_count")) == items + 1
        assert int(after.find("sets").get("created")) == albums + 1
        assert after.find("filesize").get("maxbytes") == "209715200"
        assert after.find("videosize").get("maxmb") == "1024"
        print(f"items {items} -> {after.get('upload_count')}, albums {albums} -> {after.find('sets').get('created')}")


def test_needs_a_login() -> None:
    with Sandbox() as sb:
        code, message = Client(sb).rest("flickr.people.getUploadStatus").err()
        print(f"without a login: {code} {message}")
        assert code == 99
