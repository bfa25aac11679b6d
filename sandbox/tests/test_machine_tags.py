# SPDX-License-Identifier: MIT
"""flickr.photos.search by machine_tags, in each of Flickr's query forms, over HTTP."""
import uuid

from sbclient import Client

from flickr_sandbox import constants as C

METHOD = "flickr.photos.search"


def _tagged(client: Client, sandbox, count: int, tags: list[str]) -> list[str]:
    """`count` of the caller's photos, the i-th given the i-th tag of `tags` (a string of them)."""
    rows = sandbox.store.all("SELECT id FROM photos WHERE owner = ? ORDER BY id LIMIT ?", (C.USER_NSID, count))
    ids = [str(row["id"]) for row in rows]
    for photo_id, tag in zip(ids, tags):
        client.rest("flickr.photos.addTags", auth="oauth", photo_id=photo_id, tags=tag).ok()
    return ids


def _found(client: Client, **params) -> set[str]:
    root = client.rest(METHOD, auth="oauth", user_id="me", per_page=500, **params).ok()
    return {photo.get("id") for photo in root.iter("photo")}


def test_each_query_form(client, sandbox):
    ns = "ns" + uuid.uuid4().hex[:8]  # a namespace of this test's own: the sandbox is shared
    a, b, c, d = _tagged(client, sandbox, 4, [f"{ns}:sha256=ab12 plain", f"{ns}:sha256=CD34",
                                              f'{ns}:title="mr camera"', f"{ns}x:sha256=ab12"])
    forms = {
        f"{ns}:sha256=ab12": {a},  # exact
        f"{ns}:SHA256=ab12": {a},  # case does not matter, as on Flickr
        f"{ns}:sha256=cd34": {b},
        f"{ns}:sha256=": {a, b},  # any value of ns:pred
        f"{ns}:": {a, b, c},  # anything in the namespace
        f'{ns}:title="mr camera"': {c},  # a quoted value
        f"{ns}:*=ab12": {a},
        "*:sha256=ab12": {a, d},
        f"{ns}:sha256=ffff": set(),
        f"{ns}:sha256=ab12,{ns}:title=": {a, c},  # a list: any of them by default
    }
    for query, expected in forms.items():
        found = _found(client, machine_tags=query)
        print(f"{query!r}: {len(found)} photos")
        assert found == expected, query
    assert _found(client, machine_tags=f"{ns}:sha256=ab12,{ns}:", machine_tag_mode="all") == {a}
    assert _found(client, machine_tags=f"{ns}:sha256=ab12,{ns}:title=", machine_tag_mode="all") == set()
    assert _found(client, machine_tags=f"{ns}:sha256=ab12,{ns}:title=", machine_tag_mode="any") == {a, c}
    # The extra lists a photo's machine tags in their clean form, plain tags apart.
    root = client.rest(METHOD, auth="oauth", user_id="me", machine_tags=f"{ns}:sha256=",
                       extras="machine_tags").ok()
    listed = {photo.get("id"): photo.get("machine_tags") for photo in root.iter("photo")}
    assert f"{ns}:sha256=ab12" in listed[a].split() and f"{ns}:sha256=cd34" in listed[b].split()
    assert "plain" not in listed[a].split()


def test_machine_tags_alone_make_a_search_and_see_only_what_the_caller_may(client, sandbox):
    ns = "ns" + uuid.uuid4().hex[:8]
    (mine,) = _tagged(client, sandbox, 1, [f"{ns}:k=v"])
    private = sandbox.store.row("SELECT ispublic FROM photos WHERE id = ?", (int(mine),))["ispublic"] == 0
    anonymous = client.rest(METHOD, machine_tags=f"{ns}:k=v").ok()
    assert {p.get("id") for p in anonymous.iter("photo")} == (set() if private else {mine})
    assert _found(client, machine_tags=f"{ns}:k=v") == {mine}
    assert client.rest(METHOD, auth="oauth", user_id=C.OTHER_NSID, machine_tags=f"{ns}:k=v").ok().find(
        "photos").get("total") == "0"


def test_a_machine_tag_value_is_cleaned_as_a_plain_tag(client, sandbox):
    """Flickr's clean form of `taxonomy:binomial="Felis catus"` holds no space or quote (its
    recorded answers: `film:name=ilforddelta100`), so the `tags` extra splits on spaces into whole
    tags, as gallery-dl reads it; the raw tag keeps the value as typed, and search finds it."""
    ns = "ns" + uuid.uuid4().hex[:8]
    (photo,) = _tagged(client, sandbox, 1, [f'"{ns}:binomial=""Felis catus"""'])
    raw = sandbox.store.row("SELECT raw, tag FROM tags WHERE photo_id = ? AND raw LIKE ?",
                            (int(photo), f"{ns}:%"))
    print(f"raw {raw['raw']!r} clean {raw['tag']!r}")
    assert raw["tag"] == f"{ns}:binomial=feliscatus"
    info = client.rest("flickr.photos.getInfo", auth="oauth", photo_id=photo).ok()
    assert f"{ns}:binomial=feliscatus" in [t.text for t in info.iter("tag")]
    root = client.rest(METHOD, auth="oauth", user_id="me", machine_tags=f'{ns}:binomial="felis catus"',
                       extras="tags,machine_tags").ok()
    (listed,) = list(root.iter("photo"))
    assert f"{ns}:binomial=feliscatus" in listed.get("tags").split(" ")
    assert f"{ns}:binomial=feliscatus" in listed.get("machine_tags").split(" ")
    assert not [t for t in listed.get("tags").split(" ") if t.startswith(f"{ns}:") and t.count("=") != 1]
