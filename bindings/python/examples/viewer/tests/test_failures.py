# SPDX-License-Identifier: MIT
"""Failures show a clear message, and the app keeps working: a transient failure offers Retry, a
permanent one (a refusal, something that is not there) a way back instead.

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


def test_an_unknown_photo_is_explained_with_a_way_back_and_no_retry(page, viewer, shot):
    page.goto(viewer.url + "/photos/1")
    alert = page.get_by_role("alert")
    expect(alert).to_contain_text("Flickr refused the request: Photo not found (error 1).")
    expect(page.get_by_role("heading", level=1)).to_have_text("Photo not found")
    expect(page).to_have_title("Photo not found · Flickr Viewer")
    expect(alert.get_by_role("button", name="Retry")).to_have_count(0)  # it would answer the same
    expect(alert.get_by_role("button", name="Go back")).to_have_count(0)  # nothing of the viewer's before
    shot(page, "not-found")
    alert.get_by_role("link", name="Back to Top Places").click()
    expect(page.locator("#content .list > li")).to_have_count(4)


def test_an_unknown_photo_reached_from_the_viewer_offers_go_back(page, viewer):
    page.goto(viewer.url + "/recents")
    page.evaluate("location.assign('/photos/1')")  # as a link of the viewer's would
    page.get_by_role("alert").get_by_role("button", name="Go back").click()
    expect(page).to_have_url(viewer.url + "/recents")


def test_an_unknown_place_says_so_with_a_way_back(page, viewer, shot):
    page.goto(viewer.url + "/places/Nope")
    alert = page.get_by_role("alert")
    expect(alert).to_contain_text("Flickr knows no place with the id “Nope”")
    expect(page.get_by_role("heading", level=1)).to_have_text("Unknown place")
    expect(page.get_by_text("No photos.")).to_have_count(0)  # not an empty place
    expect(alert.get_by_role("button", name="Retry")).to_have_count(0)
    expect(page.get_by_role("button", name="Map")).to_be_hidden()
    shot(page, "unknown-place")
    alert.get_by_role("link", name="Back to Top Places").click()
    expect(page.locator("#content .list > li")).to_have_count(4)


def test_an_unknown_vacation_offers_a_way_back_and_no_tabs(page, viewer, shot):
    page.goto(viewer.url + "/vacations/Nope")
    alert = page.get_by_role("alert")
    expect(alert).to_contain_text("There is no vacation named “Nope”")
    expect(page.get_by_role("heading", level=1)).to_have_text("No such vacation")
    expect(alert.get_by_role("button", name="Retry")).to_have_count(0)
    expect(page.get_by_role("tab")).to_have_count(0)  # nothing to browse: no Itinerary/Tags toggles
    expect(page.get_by_role("button", name="Map")).to_be_hidden()
    shot(page, "no-such-vacation")
    alert.get_by_role("link", name="Back to Vacations").click()
    expect(page).to_have_url(viewer.url + "/vacations")


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


def test_an_image_the_host_does_not_have_offers_a_way_back(page, start_viewer, sandbox, tmp_path, shot):
    viewer = start_viewer(tmp_path, photo_endpoint=sandbox.url + "/nowhere")  # the image host answers 404
    row = sandbox.store.one("SELECT id, title FROM photos WHERE ispublic = 1 AND title != '' LIMIT 1")
    page.goto(f"{viewer.url}/photos/{row['id']}")
    expect(page.locator("#photo-title")).to_have_text(row["title"])  # the details came
    alert = page.get_by_role("alert")
    expect(alert).to_contain_text("The request to Flickr failed")
    expect(alert).to_contain_text("404")
    expect(alert.get_by_role("button", name="Retry")).to_have_count(0)
    expect(alert.get_by_role("link", name="Back to Top Places")).to_be_visible()
    shot(page, "image-error")


def test_an_unreachable_image_host_offers_retry(page, start_viewer, sandbox, tmp_path, shot):
    viewer = start_viewer(tmp_path, photo_endpoint=f"http://127.0.0.1:{closed_port()}/photos", max_retries=0)
    row = sandbox.store.one("SELECT id, title FROM photos WHERE ispublic = 1 AND title != '' LIMIT 1")
    page.goto(f"{viewer.url}/photos/{row['id']}")
    expect(page.locator("#photo-title")).to_have_text(row["title"])
    alert = page.get_by_role("alert")
    expect(alert).to_contain_text("Flickr could not be reached")
    shot(page, "image-unreachable")
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
