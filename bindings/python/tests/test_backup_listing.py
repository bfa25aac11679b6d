# SPDX-License-Identifier: MIT
"""The backup's listing against lying servers (issue 40): page 1 repeated under pages=10^12 ends
the run with a clear error and exit 1 after two listing calls; a listing shorter than its total
(page 2 empty while page 1 says more) marks nothing deleted, so --prune removes nothing."""
import flickr
import flickr.backup
from backuptest import client, media_files, small_account
from libtest import run_cli, running_sandbox
from lyingproxy import attributes, lying, repeating_page1, without

import pytest

LISTING = "flickr.people.getPhotos"


@pytest.fixture(scope="module")
def server(library_path):
    with running_sandbox() as server:
        yield server


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
