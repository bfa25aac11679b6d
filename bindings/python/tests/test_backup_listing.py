# SPDX-License-Identifier: MIT
"""The backup's listing against lying servers (issue 40): page 1 repeated under pages=10^12 ends
the run with a clear error and exit 1 after two listing calls; a listing shorter than its total
(page 2 empty while page 1 says more) marks nothing deleted, so --prune removes nothing."""
import flickr
import flickr.backup
from backuptest import client, media_files, small_account
from libtest import run_cli
from lyingproxy import attributes, lying, repeating_page1, without

import pytest

LISTING = "flickr.people.getPhotos"


@pytest.fixture
def server(module_sandbox, library_path):
    return module_sandbox


@pytest.fixture
def backed_up(server, tmp_path):
    """A backup of three small items, made from the honest sandbox: {id: path}."""
    with client(server) as api:
        items = small_account(api, 3)
        report = flickr.backup.Backup(api, tmp_path / "b").run()
    assert report.ok and report.done == 3
    files = media_files(tmp_path / "b")
    assert set(files) == set(items)
    return tmp_path / "b", files


def test_page_one_repeated_under_a_trillion_pages_ends_the_backup(server, backed_up):
    root, files = backed_up
    with lying(server.url, LISTING, repeating_page1(pages=10**12, total=10**12)) as proxy:
        run = run_cli(server, "backup", str(root), "--prune", "--progress", "none",
                      env_extra={"FLICKR_ENDPOINT": proxy.url})
    calls = proxy.calls[LISTING]
    print(f"exit {run.returncode} after {calls} listing calls: {run.stderr.strip()[-300:]}")
    assert run.returncode == 1, run.stderr
    assert f"{LISTING} page 2 repeats page 1" in run.stderr
    assert "Traceback" not in run.stderr
    assert calls == 2
    assert all(path.exists() for path in files.values())  # nothing pruned
    with client(server) as api:  # nothing marked deleted: the next honest run has all, none gone
        report = flickr.backup.Backup(api, root).run()
    assert report.listed == 3 and report.deleted == [] and report.ok


def test_a_listing_shorter_than_its_total_prunes_nothing(server, backed_up):
    root, files = backed_up
    dropped = sorted(files)[0]

    def rewrite(page: int, body: bytes) -> bytes:
        if page == 1:  # one item missing from page 1, which says 510 items on 2 pages
            return attributes(without(body, "photo", dropped), "photos", total=510, pages=2)
        return attributes(without(body, "photo"), "photos", total=510, pages=2)  # page 2: empty
    settings = server.settings
    with lying(server.url, LISTING, rewrite) as proxy, \
            flickr.Flickr(settings.api_key, settings.api_secret, base_url=proxy.url, oauth_token=settings.oauth_token,
                          oauth_token_secret=settings.oauth_token_secret) as api:
        report = flickr.backup.Backup(api, root, prune=True).run()
    print(f"listed {report.listed}, deleted {report.deleted}, pruned {report.pruned}, notes {report.notes}")
    assert proxy.calls[LISTING] == 2
    assert report.listed == 2 and report.deleted == [] and report.pruned == []
    assert any("gave 2 of the 510 items" in note for note in report.notes)
    assert all(path.exists() for path in files.values())


class _ScriptedWalk:
    """A walk that plays `steps`: (page answered, item or None for the end), or an exception."""

    def __init__(self, steps):
        self.steps, self.page, self.total = list(steps), 0, 3

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        pass

    def __iter__(self):
        return self

    def __next__(self):
        step = self.steps.pop(0)
        if isinstance(step, BaseException):
            raise step
        self.page, item = step
        if item is None:
            raise StopIteration
        return item


def test_the_listing_waits_for_the_budget_and_counts_each_page(monkeypatch):
    """The backup's listing on the library's walk keeps its budget wait (then the same page is asked
    again) and its count of calls per method (one per page answered)."""
    from flickr_apps.backup.calls import Calls

    over = flickr.errors.OverBudget(flickr.errors.EBUDGET, "no slot")
    over.retry_after_ms = 2500
    walk = _ScriptedWalk([(1, {"id": "1"}), (1, {"id": "2"}), over, (2, {"id": "3"}), (2, None)])
    asked = []

    class Client:
        def walk(self, method, **params):
            asked.append((method, params))
            return walk

    sleeps, waits = [], []
    monkeypatch.setattr("flickr_apps.backup.calls.time.sleep", sleeps.append)
    calls = Calls(Client(), on_wait=lambda resume, why: waits.append(resume))  # type: ignore[arg-type]
    pages = []
    items = list(calls.pages(LISTING, "photos", "photo", lambda page, of: pages.append((page, of)), user_id="me"))
    print(f"items {items}, waits {waits}, sleeps {sleeps}, calls {dict(calls.by_method)}, pages {pages}")
    assert [item["id"] for item in items] == ["1", "2", "3"]
    assert sleeps == [2.5] and len(waits) == 1 and calls.waited == 2.5
    assert calls.by_method[LISTING] == 2 and calls.totals[LISTING] == 3 and pages == [(1, 1), (2, 2)]
    assert asked == [(LISTING, {"item_path": "photos.photo", "per_page": 500, "user_id": "me"})]
