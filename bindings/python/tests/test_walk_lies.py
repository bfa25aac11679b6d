# SPDX-License-Identifier: MIT
"""Flickr.walk against lying listings (issue 40): a page 1 repeated under pages=10^12, more pages
announced than items. The walk ends with a ParseError naming the method, the page and why, after
the fewest calls, where it used to walk to page 10,000."""
import pytest

import flickr
from lyingproxy import attributes, lying, repeating_page1


def _walk(sandbox, proxy, **params):
    with flickr.Flickr(sandbox.api_key, sandbox.api_secret, base_url=proxy.url) as api:
        walk = api.walk("flickr.photos.getRecent", per_page=10, **params)
        items = []
        with pytest.raises(flickr.errors.ParseError) as caught:
            for item in walk:
                items.append(item)
        return walk, items, str(caught.value)


def test_page_one_repeated_under_a_trillion_pages_ends_at_page_two(library_path, sandbox):
    rewrite = repeating_page1(pages=10**12, total=10**12)
    with lying(sandbox.url, "flickr.photos.getRecent", rewrite) as proxy:
        walk, items, message = _walk(sandbox, proxy)
    calls = proxy.calls["flickr.photos.getRecent"]
    print(f"{calls} listing calls, {len(items)} items, then: {message}")
    assert "flickr.photos.getRecent page 2 repeats page 1" in message
    assert calls == 2 and len(items) == 10 and walk.page == 2 and walk.total == 10**12
    with pytest.raises(flickr.errors.ParseError):  # the verdict stays: no further call
        next(walk)
    assert proxy.calls["flickr.photos.getRecent"] == 2


def test_more_pages_than_items_fails_on_the_first_page(library_path, sandbox):
    rewrite = lambda page, body: attributes(body, "photos", pages=10**12)  # noqa: E731
    with lying(sandbox.url, "flickr.photos.getRecent", rewrite) as proxy:
        walk, items, message = _walk(sandbox, proxy)
    print(f"{proxy.calls['flickr.photos.getRecent']} listing call: {message}")
    assert "page 1 announces 1000000000000 pages for" in message and "items" in message
    assert proxy.calls["flickr.photos.getRecent"] == 1 and items == []


def test_a_page_of_ids_given_already_ends_the_walk(library_path, sandbox):
    # Page 3 serves page 1's items again (after a new page 2): no new id.
    pages: dict[int, bytes] = {}

    def rewrite(page: int, body: bytes) -> bytes:
        pages[page] = body
        return attributes(pages[1], "photos", page=3) if page == 3 else body
    with lying(sandbox.url, "flickr.photos.getRecent", rewrite) as proxy:
        walk, items, message = _walk(sandbox, proxy)
    assert "flickr.photos.getRecent page 3 brings no new id" in message, message
    assert proxy.calls["flickr.photos.getRecent"] == 3 and len(items) == 20
