# SPDX-License-Identifier: MIT
"""The archive's viewer opened from disk (file://) in Debian's firefox-esr, driven through WebDriver
BiDi (firefoxtest.py): test_backup_viewer.py runs it in Chromium; these are its main paths again in
Firefox, on the same sandbox-made backup (its `archive` fixture): search by a word of a
description, the album, the large view's licence and comments, the map's marker, a hostile title
as text, and a Lifeboat `flickr lifeboat` made of that archive.

One Firefox for the module, killed at its end whatever happens. Every page fails its test on a
script or console error and on a request to anything but file://. Every wait polls a condition of
the page with a deadline (Firefox.wait_for), never a sleep."""
import json

import pytest

import firefoxtest
from test_backup_viewer import HOSTILE, archive  # noqa: F401 (the fixture, shared)
from test_lifeboat import run_cli_lifeboat


@pytest.fixture(scope="module")
def firefox():
    with firefoxtest.launch() as browser:
        yield browser


def js(value: str) -> str:
    return json.dumps(value)


def text(selector: str) -> str:
    """The text of every element `selector` matches, as a list."""
    return f"[...document.querySelectorAll({js(selector)})].map(e => e.textContent)"


def search(page: firefoxtest.Firefox, words: str) -> None:
    page.evaluate(f"(q => {{ q.value = {js(words)}; q.dispatchEvent(new Event('input', {{bubbles: true}})); }})"
                  "(document.getElementById('q'))")


def click(page: firefoxtest.Firefox, selector: str) -> None:
    page.wait_for(f"!!document.querySelector({js(selector)})")
    page.evaluate(f"document.querySelector({js(selector)}).click()")


def ready(page: firefoxtest.Firefox) -> None:
    page.wait_for("document.documentElement.dataset.ready", "true")


def test_find_by_description_open_its_album_see_it_large(archive, firefox):  # noqa: F811
    folder, ids = archive
    with firefox.page((folder / "index.html").as_uri()) as page:
        ready(page)
        page.wait_for("document.getElementById('status').textContent", "5 items")
        page.wait_for("document.querySelectorAll('#grid .cell').length", 5)
        search(page, "lighthouse")
        page.wait_for("document.getElementById('status').textContent", "1 of 5 items match")
        page.wait_for(text("#grid .cell .caption"), ["Harbour at dusk"])
        click(page, "#grid .cell")
        page.wait_for("!document.getElementById('large').hidden && "
                      "getComputedStyle(document.getElementById('large')).display !== 'none'")
        page.wait_for("document.getElementById('large-title').textContent", "Harbour at dusk")
        page.wait_for(text("#large a.licence"), ["Attribution License"])
        assert page.evaluate("document.querySelector('#large a.licence').href") == \
            "https://creativecommons.org/licenses/by/2.0/"
        page.wait_for(text("#large .comments li p"), ["Lovely light."])
        page.wait_for("document.querySelector('#large .large-media img')?.naturalWidth", 160)  # decoded
        click(page, "#large a.album-link")
        page.wait_for("document.querySelector('#heading h2')?.textContent", "Sea ☕ 2024")
        page.wait_for(text("#heading .crumbs a"), ["Coasts"])
        page.wait_for(text("#grid .cell .caption"), ["Harbour at dusk", "Market"])
    print(f"Firefox: found {ids['harbour']} by its description, its large view, its album of 2")


def test_map_shows_the_geotagged_item(archive, firefox):  # noqa: F811
    folder, _ = archive
    with firefox.page((folder / "index.html").as_uri() + "#/map") as page:
        ready(page)
        page.wait_for("document.getElementById('map')?.dataset.pins", "1")
        page.wait_for("document.getElementById('status').textContent", "1 of 5 items have a place")
        page.wait_for("document.querySelectorAll('#map path.coast').length", 1)  # the offline outline
        page.wait_for("document.querySelectorAll('#map path.pin').length", 1)


def test_a_hostile_title_is_text(archive, firefox):  # noqa: F811
    folder, ids = archive
    with firefox.page((folder / "index.html").as_uri()) as page:
        ready(page)
        caption = f"#grid .cell[data-id={js(ids['hostile'])}] .caption"
        page.wait_for(f"document.querySelector({js(caption)})?.textContent", HOSTILE)
        click(page, f"#grid .cell[data-id={js(ids['hostile'])}]")
        page.wait_for("document.getElementById('large-title').textContent", HOSTILE)
        page.wait_for("document.querySelector('#large .description')?.textContent", "window.pwned=2")
        assert page.evaluate("document.querySelectorAll('img[src=x]').length") == 0
        assert page.evaluate("typeof window.pwned") == "undefined"


def test_a_lifeboat_made_of_the_archive_opens(archive, firefox, tmp_path):  # noqa: F811
    folder, _ = archive
    out = tmp_path / "HARBOUR_BOAT"
    done = run_cli_lifeboat(folder, out, "--name", "Harbour boat")
    assert done.returncode == 0, done.stderr
    with firefox.page((out / "viewer" / "index.html").as_uri()) as page:
        ready(page)
        page.wait_for("document.getElementById('title').textContent", "Harbour boat")
        shown = page.wait_for("document.querySelectorAll('#grid .cell').length > 0")
        captions = page.evaluate(text("#grid .cell .caption"))
        print(f"Lifeboat in Firefox: {len(captions)} items shown ({shown})")
        assert "Harbour at dusk" in captions, captions
        search(page, "lighthouse")
        page.wait_for(text("#grid .cell .caption"), ["Harbour at dusk"])
        click(page, "#grid .cell")
        page.wait_for("document.getElementById('large-title').textContent", "Harbour at dusk")
        page.wait_for(text("#large a.licence"), ["Attribution License"])
        page.wait_for("document.querySelectorAll('#large .comments li').length", 1)
