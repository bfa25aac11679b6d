# SPDX-License-Identifier: MIT
"""What the social-method tests share: a call in XML and in JSON, and seeded rows to test on."""
from __future__ import annotations

import json


def both(client, method, **params):
    """The method's XML root (asserted ok) and its JSON answer (asserted ok) for the same call."""
    root = client.rest(method, **params).ok()
    reply = client.rest(method, format="json", nojsoncallback=1, **params)
    obj = json.loads(reply.text)
    assert reply.status == 200 and obj["stat"] == "ok", reply.text
    return root, obj


def json_error(client, method, **params):
    obj = json.loads(client.rest(method, format="json", nojsoncallback=1, **params).text)
    assert obj["stat"] == "fail", obj
    return int(obj["code"]), obj["message"]


def one(sandbox, sql, *args):
    """The first column of the first row of a query on the seeded database."""
    row = sandbox.store.one(sql, args)
    assert row is not None, sql
    return row[0]


def attrs(elem):
    """An element's attribute names in order: the layout Flickr's answers fix."""
    return tuple(elem.attrib)


def as_list(value):
    """A JSON member Flickr always sends as an array. The envelope writes a lone child as an
    object unless its parent's name is its plural (photos/photo): people/person, photo/exif and
    collection/set are not, so one item comes as an object until the envelope knows them."""
    return value if isinstance(value, list) else [value]
