# SPDX-License-Identifier: MIT
"""Failures show a clear message with a Retry button, and the app keeps working.

Flickr's failures are real ones, through the library: the sandbox's fault injection
(``sandbox_fault``), an unknown photo, a closed port, an image host that answers 404.
"""
from __future__ import annotations

import socket
import uuid

from playwright.sync_api import expect


def test_a_failed_call_offers_retry_which_recovers(page, start_viewer, tmp_path, monkeypatch, shot):
    viewer = start_viewer(tmp_path)
    call = viewer.service._call
    fault = f"malformed;times=1;key={uuid.uuid4().hex}"  # Flickr's next answer is broken XML, once
    monkeypatch.setattr(viewer.service, "_call", lambda method, **params: call(method, sandbox_fault=fault, **params))
    page.goto(viewer.url + "/places")
    alert = page.get_by_role("alert")
    expect(alert).to_contain_text("Flickr's answer could not be read")
    shot(page, "error")
    alert.get_by_role("button", name="Retry").click()
    expect(page.locator("#content .list > li .title")).to_have_text(["Paris", "San Francisco", "Tokyo", "Zürich"])


def test_flickr_refusals_are_explained_and_navigation_still_works(page, viewer):
    page.goto(viewer.url + "/photos/1")
    expect(page.get_by_role("alert")).to_contain_text("Flickr refused the request: Photo not found (error 1).")
    expect(page.get_by_role("button", name="Retry")).to_be_visible()
    page.get_by_role("link", name="Top Places").click()
    expect(page.locator("#content .list > li")).to_have_count(4)


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_an_unreachable_flickr_is_reported_on_every_retry(page, start_viewer, tmp_path, shot):
    viewer = start_viewer(tmp_path, rest_endpoint=f"http://127.0.0.1:{closed_port()}/services/rest/",
                          max_retries=0)
    page.goto(viewer.url + "/places")
    alert = page.get_by_role("alert")
    expect(alert).to_contain_text("Flickr could not be reached")
    shot(page, "unreachable")
    alert.get_by_role("button", name="Retry").click()
    expect(page.get_by_role("alert")).to_contain_text("Flickr could not be reached")
    page.get_by_role("link", name="Vacations").click()  # pages that need no Flickr still work
    expect(page.locator("#content")).to_contain_text("No vacation yet")


def test_a_failed_image_download_offers_retry(page, start_viewer, sandbox, tmp_path, shot):
    viewer = start_viewer(tmp_path, photo_endpoint=sandbox.url + "/nowhere")  # the image host answers 404
    row = sandbox.store.one("SELECT id, title FROM photos WHERE ispublic = 1 AND title != '' LIMIT 1")
    page.goto(f"{viewer.url}/photos/{row['id']}")
    expect(page.locator("#photo-title")).to_have_text(row["title"])  # the details came
    alert = page.get_by_role("alert")
    expect(alert).to_contain_text("The request to Flickr failed")
    expect(alert).to_contain_text("404")
    shot(page, "image-error")
    viewer.service.api.set_option("photo_endpoint", sandbox.url + "/photos")  # the host is back
    alert.get_by_role("button", name="Retry").click()
    expect(page.locator("#photo-image")).to_be_visible()  # shown once decoded
    assert page.locator("#photo-image").evaluate("e => Math.max(e.naturalWidth, e.naturalHeight)") == 1024


def test_a_browser_side_network_failure_offers_retry(page, viewer, sandbox):
    row = sandbox.store.one("SELECT id FROM photos WHERE ispublic = 1 ORDER BY id DESC LIMIT 1")
    page.route("**/api/images/**", lambda route: route.abort())
    page.goto(f"{viewer.url}/photos/{row['id']}")
    alert = page.get_by_role("alert")
    expect(alert).to_contain_text("The viewer could not be reached")
    page.unroute("**/api/images/**")
    alert.get_by_role("button", name="Retry").click()
    expect(page.locator("#photo-image")).to_be_visible()
