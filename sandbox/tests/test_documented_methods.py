# SPDX-License-Identifier: MIT
"""Every Flickr method the READMEs, docs/, the examples and the viewer name is one the sandbox
serves: what they show works against it (`flickr walk flickr.people.getPhotos user_id=me` once
met error 112, method not found)."""
import json
import pathlib
import re

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
PLACES = ["README.md", "bindings/python/README.md", "sandbox/README.md", "docs", "bindings/c/examples", "bindings/python/examples",
          "scripts/demo.sh"]
SUFFIXES = {".md", ".c", ".h", ".py", ".sh", ".html", ".js"}
# A method name: flickr.<group>[.<group>...].<lowerCamelCase>, a whole word (not module paths such
# as flickr.tokens.TokenStore, nor glued text such as a signature base string's "getRecentper_page1").
METHOD_NAME = re.compile(r"\bflickr\.(?:[a-z]+\.)+[a-z][a-zA-Z]*\b")


# Flickr's namespaces (flickr.photos, flickr.urls...), from the recorded catalogue: a name in
# another (flickr.backup.run, the client's own Python) is no Flickr method; a misspelt method in
# one of these still fails below.
NAMESPACES = {m["name"].split(".")[1] for m in json.loads((REPO / "data" / "flickr-methods.json").read_text("utf-8"))["methods"]}


def documented_methods() -> set[str]:
    files = []
    for place in PLACES:
        path = REPO / place
        files += [path] if path.is_file() else [p for p in path.rglob("*") if p.suffix in SUFFIXES]
    found = {name for f in files for name in METHOD_NAME.findall(f.read_text(encoding="utf-8", errors="replace"))}
    return {name for name in found if name.split(".")[1] in NAMESPACES}


DOCUMENTED = sorted(documented_methods())


def test_the_documents_name_methods():
    assert {"flickr.people.getPhotos", "flickr.photos.search", "flickr.test.login"} <= set(DOCUMENTED)


@pytest.mark.parametrize("name", DOCUMENTED)
def test_documented_method_is_served(client, name):
    reply = client.rest(name)
    if reply.xml.get("stat") == "fail":
        code, message = reply.err()
        assert code != 112, message
