# SPDX-License-Identifier: MIT
"""Flickr.walk against the sandbox's seeded photos."""
import itertools

import pytest

import flickr
from libtest import endpoints


@pytest.fixture
def public(library_path, sandbox):
    with flickr.Flickr(sandbox.api_key, sandbox.api_secret, **endpoints(sandbox)) as api:
        yield api


def test_walk_yields_every_item_once(public):
    total = int(public.call("flickr.photos.getRecent", per_page=1)["photos"]["total"])
    items = list(public.walk("flickr.photos.getRecent", per_page=40))
    assert len(items) == total
    assert len({item["id"] for item in items}) == total
    assert all(set(item) >= {"id", "owner", "secret", "server", "title"} for item in items)


def test_walk_is_lazy(public, caplog):
    import logging

    with caplog.at_level(logging.DEBUG, logger="flickr"):
        first_three = list(itertools.islice(public.walk("flickr.photos.getRecent", per_page=10), 3))
    assert len(first_three) == 3
    assert len([r for r in caplog.records if "flickr.photos.getRecent" in r.getMessage()]) == 1  # one page only


def test_walk_search_with_extras_and_item_path(public):
    items = list(public.walk("flickr.photos.search", text="a", extras="url_m,description", per_page=20,
                             item_path="photos.photo"))
    assert items and all("url_m" in item and "description" in item for item in items)


def test_walk_of_nothing_and_errors(public):
    assert list(public.walk("flickr.photos.search", text="no-such-photo-zzzz")) == []
    with pytest.raises(flickr.APIError) as caught:
        list(public.walk("flickr.photos.search"))
    assert caught.value.api_code == 3
    with pytest.raises(flickr.ParseError):
        list(public.walk("flickr.test.echo"))
    with pytest.raises(flickr.InvalidArgument):
        list(public.walk("flickr.photos.getRecent", item_path="photos"))


def test_walk_the_callers_photostream(library_path, sandbox):
    """user_id=me: every photo of the calling user, private ones included, each once."""
    with flickr.Flickr(sandbox.api_key, sandbox.api_secret, oauth_token=sandbox.oauth_token,
                       oauth_token_secret=sandbox.oauth_token_secret, **endpoints(sandbox)) as api:
        me = api.call("flickr.test.login")["user"]["id"]
        total = int(api.call("flickr.people.getPhotos", user_id="me", per_page=1)["photos"]["total"])
        items = list(api.walk("flickr.people.getPhotos", user_id="me", per_page=30))
    assert len(items) == len({item["id"] for item in items}) == total
    assert {item["owner"] for item in items} == {me}
    assert any(item["ispublic"] == "0" for item in items)


def test_walk_of_me_needs_a_login(public):
    with pytest.raises(flickr.APIError) as caught:
        list(public.walk("flickr.people.getPhotos", user_id="me"))
    assert caught.value.api_code == 99
