# SPDX-License-Identifier: MIT
"""Fixtures: an in-process sandbox, viewer apps served on threads, and a headless Chromium.

Browser tests use Playwright's auto-waiting ``expect`` with bounded timeouts, never sleeps.
Screenshots go to $VIEWER_SCREENSHOTS (default build/viewer-screenshots in the repository).
"""
from __future__ import annotations

import os
import sys
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

VIEWER_DIR = Path(__file__).resolve().parents[1]
REPO = Path(__file__).resolve().parents[5]
sys.path.insert(0, str(VIEWER_DIR))
if str(REPO / "sandbox") not in sys.path:  # the sandbox from this checkout, as the client tests find it
    sys.path.append(str(REPO / "sandbox"))

import flickr_sandbox  # noqa: E402
from playwright.sync_api import expect, sync_playwright  # noqa: E402
from viewer import create_app  # noqa: E402
from viewer.flickr_service import FlickrService, connect  # noqa: E402
from werkzeug.serving import BaseWSGIServer, make_server  # noqa: E402

SCREENSHOTS = Path(os.environ.get("VIEWER_SCREENSHOTS", REPO / "build" / "viewer-screenshots"))
CHROMIUM = os.environ.get("VIEWER_CHROMIUM", "/usr/bin/chromium")
TIMEOUT_MS = 10_000  # the longest any expectation waits


@dataclass
class RunningViewer:
    url: str
    data_dir: Path
    service: FlickrService
    _server: BaseWSGIServer = field(repr=False)
    _thread: threading.Thread = field(repr=False)

    def stop(self) -> None:
        self._server.shutdown()
        self._thread.join(timeout=10)
        self._server.server_close()
        self.service.api.close()


@pytest.fixture(scope="session")
def sandbox() -> Iterator[flickr_sandbox.Sandbox]:
    if not os.environ.get("FLICKR_LIBRARY") and not (REPO / "build" / "libflickr.so.0").exists():
        pytest.fail("libflickr is not built: run scripts/build.sh or set FLICKR_LIBRARY")
    os.environ.setdefault("FLICKR_LIBRARY", str(REPO / "build" / "libflickr.so.0"))
    with flickr_sandbox.Sandbox() as sb:
        yield sb


@pytest.fixture(scope="session")
def start_viewer(sandbox) -> Iterator[Callable[..., RunningViewer]]:
    """Starts a viewer on the sandbox: ``start_viewer(data_dir, cache_max_bytes=..., app_options={...},
    **options)``: `app_options` go to create_app (tile_url...), `options` to the connection."""
    running: list[RunningViewer] = []

    def start(data_dir: Path, cache_max_bytes: int = 10_000_000, app_options: dict | None = None,
              **options: Any) -> RunningViewer:
        options.setdefault("rest_endpoint", sandbox.url + "/services/rest/")
        options.setdefault("photo_endpoint", sandbox.url + "/photos")
        api = connect(sandbox.api_key, sandbox.api_secret, cache_dir=data_dir / "photo-cache",
                      cache_max_bytes=cache_max_bytes, **options)
        service = FlickrService(api)
        server = make_server("127.0.0.1", 0, create_app(service, data_dir, **(app_options or {})),
                             threaded=True)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        viewer = RunningViewer(f"http://127.0.0.1:{server.port}", data_dir, service, server, thread)
        running.append(viewer)
        return viewer

    yield start
    for viewer in running:
        if viewer._thread.is_alive():
            viewer.stop()


@pytest.fixture(scope="session")
def viewer(start_viewer, tmp_path_factory) -> RunningViewer:
    """A viewer shared by the tests that only read."""
    return start_viewer(tmp_path_factory.mktemp("viewer"))


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium (scripts/install-deps.sh)")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--disable-gpu"])
        yield browser
        browser.close()


@pytest.fixture
def page(browser):
    expect.set_options(timeout=TIMEOUT_MS)
    context = browser.new_context(viewport={"width": 1200, "height": 860})
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert not errors, f"JavaScript errors: {errors}"


@pytest.fixture
def shot(request) -> Callable[..., Path]:
    """``shot(page, "name")`` saves a screenshot as build/viewer-screenshots/<test>-<name>.png."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)

    def take(page, name: str) -> Path:
        path = SCREENSHOTS / f"{request.node.name}-{name}.png"
        page.screenshot(path=str(path))
        return path

    return take
