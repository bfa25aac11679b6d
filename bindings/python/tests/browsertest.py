# SPDX-License-Identifier: MIT
"""Debian's Chromium through Playwright, for pages opened from disk: the archive viewer's tests
(test_backup_viewer.py) and its bench (bench/viewer.py). Playwright's own browser downloads are
never used (`executable_path`); scripts/install-deps.sh installs chromium."""
import contextlib
import os
import pathlib
from typing import Iterator

CHROMIUM = os.environ.get("VIEWER_CHROMIUM", "/usr/bin/chromium")


def launch(playwright):
    """A headless Chromium; AssertionError naming the package when it is missing (no skip)."""
    assert pathlib.Path(CHROMIUM).exists(), f"{CHROMIUM} is missing: install Debian's chromium (scripts/install-deps.sh)"
    return playwright.chromium.launch(executable_path=CHROMIUM, args=["--disable-gpu"])


@contextlib.contextmanager
def offline_page(browser, timeout_ms: int = 10_000, width: int = 1200, height: int = 800) -> Iterator:
    """A page whose every request other than a file:// one is refused and fails the caller, as does
    any script error or console error, when the block ends."""
    context = browser.new_context(viewport={"width": width, "height": height})
    context.set_default_timeout(timeout_ms)
    outside: list[str] = []

    def route(found):
        if found.request.url.startswith("file://"):
            found.continue_()
        else:
            outside.append(found.request.url)
            found.abort()

    context.route("**/*", route)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    try:
        yield page
    finally:
        context.close()
    assert not outside, f"requests outside the archive: {outside}"
    assert not errors, f"errors in the page: {errors}"
