# SPDX-License-Identifier: MIT
"""The backup writes and removes only its own files, and nothing planted in DIR holds it up (issue 40).

- A media file's extension is its media type's, read from its bytes: an image host whose URLs end
  in `.json` or `.html` (a proxy in front of the sandbox) names no file like a sidecar or a page.
- A killed run's temporaries are removed by their exact names; a user's `.notes.part` is kept.
- The state folder holds no link: a link or a hard link at the database, its -wal or -shm, or the
  lock, stops the run before SQLite or the lock touches the file it names.
- A FIFO at a name the backup reads or rewrites (albums/index.json, a media file, index.html, a
  sidecar) never blocks a run or --verify: each command ends (a subprocess timeout would fail).
- A full disk stops the run with one line and exit code 7; the next run, with space, completes.
"""
import contextlib
import http.client
import http.server
import json
import os
import re
import sqlite3
import subprocess
import threading
import urllib.parse

import pytest

import flickr
import flickr.backup
from backuptest import (client, empty_account, jpeg, media_files, partial_files, run_cli, sidecar, small_account,
                        upload)
from flickr_apps.cli.common import EXIT_FAILURE, EXIT_NO_SPACE
from libtest import running_sandbox

# A command that a FIFO would block ends well within this; blocked, it fails the test by timing out.
ENDS_WITHIN = 60


@pytest.fixture(scope="module")
def server(library_path):
    with running_sandbox() as server:
        yield server


# -- the media file's extension ------------------------------------------------------------------

@contextlib.contextmanager
def hostile_image_host(sandbox, extensions: dict[str, str], bodies: dict[str, bytes]):
    """A proxy on 127.0.0.1 in front of `sandbox`: its answers' image URLs of photo `id` end in
    `.{extensions[id]}` (and point at the proxy), and such a URL serves the sandbox's image, or
    `bodies[id]`. Everything else is passed through as it is (the Host header too: OAuth signatures
    hold). Its URL."""
    target = urllib.parse.urlsplit(sandbox.url)
    photo_url = re.compile(re.escape(sandbox.url).replace("/", r"\\?/") + r"(\\?/photos\\?/\w+\\?/)(\d+)(_[0-9a-f]+(?:_\w+)?)\.(\w+)")

    class Proxy(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self):
            self._forward()

        def do_POST(self):
            self._forward()

        def _forward(self):
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            path = self.path
            image = re.match(r"/photos/\w+/(\d+)_[0-9a-f]+(?:_\w+)?\.(\w+)$", path)
            if image and image.group(1) in bodies:
                return self._answer(200, "image/jpeg", bodies[image.group(1)])
            if image:
                path = path[:path.rindex(".")] + ".jpg"
            connection = http.client.HTTPConnection(target.hostname, target.port, timeout=30)
            headers = {k: v for k, v in self.headers.items() if k.lower() not in ("content-length", "connection")}
            connection.request(self.command, path, body=body, headers=headers)
            answer = connection.getresponse()
            data = answer.read()
            connection.close()
            if not image:
                data = photo_url.sub(self._rewrite, data.decode("utf-8")).encode("utf-8")
            self._answer(answer.status, answer.getheader("Content-Type") or "text/plain", data)

        def _rewrite(self, found):
            where, photo_id, rest, ext = found.groups()
            return f"{proxy_url}{where}{photo_id}{rest}.{extensions.get(photo_id, ext)}"

        def _answer(self, status, kind, data):
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args):
            pass

    proxy = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Proxy)
    proxy_url = f"http://127.0.0.1:{proxy.server_address[1]}"
    threading.Thread(target=proxy.serve_forever, daemon=True).start()
    try:
        yield proxy_url
    finally:
        proxy.shutdown()
        proxy.server_close()


def test_the_media_extension_comes_from_the_bytes_never_from_the_url(server, tmp_path):
    with client(server) as api:
        empty_account(api)
        as_json, as_html, unknown = (upload(api, jpeg(n), title=f"photo {n}") for n in range(3))
    odd_iso = b"\x00\x00\x00\x14ftypzzzz\x00\x00\x00\x00zzzz" + b"\x00" * 3000  # a brand nobody knows
    with hostile_image_host(server, {as_json: "json", as_html: "html", unknown: "mp4"}, {unknown: odd_iso}) as url, \
            flickr.Flickr(server.settings.api_key, server.settings.api_secret, base_url=url,
                          oauth_token=server.settings.oauth_token,
                          oauth_token_secret=server.settings.oauth_token_secret) as api:
        listed = api.call("flickr.people.getPhotos", user_id="me", extras="url_o")["photos"]["photo"]
        print([p["url_o"] for p in listed])
        assert sorted(p["url_o"].rsplit(".", 1)[1] for p in listed) == ["html", "json", "mp4"]
        first = flickr.backup.run(api, tmp_path)
        second = flickr.backup.run(api, tmp_path)
    files = media_files(tmp_path)
    names = sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*") if p.is_file()
                   and ".flickr-backup" not in p.parts)
    print(names, first.failed, second.as_dict()["fetched"])
    assert files[as_json].suffix == ".jpg" and files[as_json].read_bytes() == jpeg(0)
    assert files[as_html].suffix == ".jpg" and files[as_html].read_bytes() == jpeg(1)
    assert sidecar(files[as_json])["id"] == as_json  # the sidecar is a sidecar, not the photo
    assert [n for n in names if n.endswith(".html")] == ["index.html"]
    # The unknown type: refused, nothing saved, retried by the next run (and refused again).
    assert unknown not in files
    assert [f["id"] for f in first.failed] == [unknown] and "no image or video" in first.failed[0]["error"]
    assert [f["id"] for f in second.failed] == [unknown]
    assert second.fetched == 0  # the two photos were not fetched again
    assert flickr.backup.verify(tmp_path)["ok"]
    assert partial_files(tmp_path) == []


def test_every_media_type_is_known_by_its_signature():
    from flickr_apps._media.types import TYPES, sniff

    def iso(major, *compatible):
        brands = major + b"\0\0\0\0" + b"".join(compatible)
        return (8 + len(brands)).to_bytes(4, "big") + b"ftyp" + brands

    heads = {"jpg": b"\xff\xd8\xff\xe0", "png": b"\x89PNG\r\n\x1a\n", "gif": b"GIF89a", "webp": b"RIFF\0\0\0\0WEBPVP8 ",
             "tif": b"II*\x00", "heic": iso(b"mif1", b"mif1", b"heic"), "avif": iso(b"avif", b"mif1"),
             "mp4": iso(b"XAVC", b"isom"), "mov": iso(b"qt  "), "m4v": iso(b"M4V ", b"isom"), "3gp": iso(b"3gp5")}
    found = {ext: sniff(head) for ext, head in heads.items()}
    print({ext: media and media.mime for ext, media in found.items()})
    assert {ext: media.extension for ext, media in found.items() if media} == {ext: ext for ext in heads}
    assert sorted(heads) == sorted(media.extension for media in TYPES.values())
    for refused in (iso(b"zzzz", b"yyyy"), b"<html><script>", b"{\"id\": 1}", b"", b"\0\0\0\x08ftyp"):
        assert sniff(refused) is None, refused


def test_flickr_download_names_the_file_by_its_bytes_too(server, tmp_path):
    with client(server) as api:
        empty_account(api)
        photo_id = upload(api, jpeg(7), title="download")
    with hostile_image_host(server, {photo_id: "html"}, {}) as url:
        result = run_cli(server, "download", photo_id, "--size", "o", "--dest", str(tmp_path / "out"),
                         env_extra={"FLICKR_ENDPOINT": url})
    print(result.stderr)
    assert result.returncode == 0, result.stderr
    assert os.listdir(tmp_path / "out") == [f"{photo_id}_o.jpg"]


# -- temporary files -----------------------------------------------------------------------------

USERS_FILES = [".notes.part", ".x.part", ".2023.part", ".index.json.part", ".index.json.0123.part",
               ".index.json.0123456789abcdeg.part", ".holiday.jpg.0123456789abcdef.part",
               ".flickr-cache-x.part", "keep.part"]


def test_only_the_backups_own_temporaries_are_removed(server, tmp_path):
    with client(server) as api:
        small_account(api, 2)
        flickr.backup.run(api, tmp_path)
        photo = next(iter(media_files(tmp_path).values()))
        month, year = photo.parent, photo.parent.parent
        album = next((tmp_path / "albums").iterdir(), None)
        folders = [tmp_path, year, month, tmp_path / "albums"] + ([album] if album else [])
        for folder in folders:
            for name in USERS_FILES:
                (folder / name).write_text("the user's")
        ours = [tmp_path / ".index.html.0123456789abcdef.part", month / f".{photo.name}.fedcba9876543210.part",
                tmp_path / "albums" / ".index.json.00112233445566ff.part"]
        for path in ours:
            path.write_bytes(b"left by a killed run")
        cache = tmp_path / ".flickr-backup" / "cache"
        library_left = cache / ".flickr-cache-52_abc_o.jpg.4242.1z.part"
        library_left.write_bytes(b"a download cut short")
        (cache / "notes.part").write_text("the user's")
        flickr.backup.run(api, tmp_path)
    kept = [folder / name for folder in folders for name in USERS_FILES]
    print(f"{len(kept)} of the user's files, {len(ours) + 1} leftovers")
    assert [p for p in kept if not p.exists()] == []
    assert [p for p in ours + [library_left] if p.exists()] == []
    assert (cache / "notes.part").exists()


# -- the viewer's names ---------------------------------------------------------------------------

def _two_runs_keep(server, root, users, said):
    """Two runs over a DIR holding the user's files `users` ({path: bytes}) at the backup's names:
    each exits 0, backs up both items of a small account, leaves every file byte for byte and says
    once why (a line holding `said`), which it returns."""
    with client(server) as api:
        items = small_account(api, 2)
    for run in (1, 2):
        done = run_cli(server, "backup", str(root), timeout=ENDS_WITHIN)
        notes = [line for line in done.stderr.splitlines() if said in line]
        print(f"run {run}: exit {done.returncode}; {notes}")
        assert done.returncode == 0 and len(notes) == 1, done.stderr
        assert {path: path.read_bytes() for path in users} == users
        assert sorted(media_files(root)) == sorted(items)
    return notes[0]


def test_a_users_viewer_folder_and_index_html_are_never_overwritten(server, tmp_path):
    """A DIR holding the user's own index.html, viewer/app.js and viewer/data/my.js before the first
    run: two runs leave them byte for byte, exit 0, back up every item, and say once each why the
    viewer was not installed. (Before: both runs replaced index.html and viewer/app.js.) Moved
    away, the next run installs the viewer; viewer/data/my.js stays."""
    users = {tmp_path / "index.html": b"<h1>my own page</h1>\n", tmp_path / "viewer" / "app.js": b"// my app\n",
             tmp_path / "viewer" / "data" / "my.js": b"const mine = 1;\n"}
    for path, data in users.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    note = _two_runs_keep(server, tmp_path, users, "viewer was not installed")
    assert "index.html" in note and "viewer/app.js" in note, note
    assert sorted(p.name for p in (tmp_path / "viewer").iterdir()) == ["app.js", "data"]
    (tmp_path / "index.html").rename(tmp_path / "my-index.html")
    (tmp_path / "viewer" / "app.js").rename(tmp_path / "my-app.js")
    done = run_cli(server, "backup", str(tmp_path), timeout=ENDS_WITHIN)
    assert done.returncode == 0 and "viewer was not installed" not in done.stderr, done.stderr
    assert 'src="viewer/app.js"' in (tmp_path / "index.html").read_text()
    assert (tmp_path / "viewer" / "data" / "my.js").read_bytes() == users[tmp_path / "viewer" / "data" / "my.js"]
    assert (tmp_path / "viewer" / "data" / "index.js").is_file()


def test_a_users_index_json_is_never_overwritten(server, tmp_path):
    """The user's own index.json in DIR before the first run: two runs leave it byte for byte, exit
    0, and say why it was not written; moved away, the next run writes the backup's, and later runs
    rewrite that one (recorded), saying nothing. (Before: every run replaced it.)"""
    mine = b'{"my": "own index"}\n'
    (tmp_path / "index.json").write_bytes(mine)
    _two_runs_keep(server, tmp_path, {tmp_path / "index.json": mine}, "index.json was not written")
    (tmp_path / "index.json").rename(tmp_path / "my-index.json")
    for run in (3, 4):
        done = run_cli(server, "backup", str(tmp_path), timeout=ENDS_WITHIN)
        assert done.returncode == 0 and "index.json was not written" not in done.stderr, done.stderr
        written = json.loads((tmp_path / "index.json").read_text())
        assert written["format"].startswith("flickr-backup index") and len(written["items"]) == 2
    assert (tmp_path / "my-index.json").read_bytes() == mine


# -- the state folder ----------------------------------------------------------------------------

def _other_database(path):
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE precious (x)")
    db.execute("INSERT INTO precious VALUES ('keep')")
    db.commit()
    db.close()


def _tables_and_mode(path):
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return (sorted(r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")),
                db.execute("PRAGMA journal_mode").fetchone()[0])
    finally:
        db.close()


@pytest.mark.parametrize("planted", ["state.sqlite3", "state.sqlite3-wal", "state.sqlite3-shm", "lock"])
@pytest.mark.parametrize("how", ["symlink", "hardlink"])
def test_a_link_in_the_state_folder_is_never_used(server, tmp_path, planted, how):
    victim_dir = tmp_path / "victim"
    victim_dir.mkdir()
    victim = victim_dir / "other.sqlite3"
    _other_database(victim)
    before = victim.read_bytes()
    root = tmp_path / "backup"
    (root / ".flickr-backup").mkdir(parents=True)
    if planted == "state.sqlite3" or how == "symlink":
        target = victim
    else:  # a -wal, -shm or lock hard-linked to a file of the user's
        target = victim_dir / "notes.txt"
        target.write_text("the user's notes")
    link = root / ".flickr-backup" / planted
    os.symlink(target, link) if how == "symlink" else os.link(target, link)
    saved = target.read_bytes()
    with client(server) as api:
        small_account(api, 1)
        with pytest.raises(flickr.backup.PlantedLink) as raised:
            flickr.backup.run(api, root)
    print(raised.value)
    assert "move it away" in str(raised.value)
    assert target.read_bytes() == saved and victim.read_bytes() == before
    assert _tables_and_mode(victim) == (["precious"], "delete")
    assert sorted(os.listdir(victim_dir)) == sorted({"other.sqlite3", target.name})
    assert media_files(root) == {}


@pytest.mark.parametrize("planted", ["state.sqlite3", "state.sqlite3-wal", "state.sqlite3-shm", "lock"])
def test_a_fifo_in_the_state_folder_is_refused(server, tmp_path, planted):
    (tmp_path / ".flickr-backup").mkdir()
    os.mkfifo(tmp_path / ".flickr-backup" / planted)
    with client(server) as api:
        small_account(api, 1)
    result = run_cli(server, "backup", str(tmp_path), timeout=ENDS_WITHIN)
    print(result.returncode, result.stderr)
    assert result.returncode == EXIT_FAILURE and len(result.stderr.strip().splitlines()) == 1
    assert "a FIFO stands where" in result.stderr and "move it away" in result.stderr
    assert (tmp_path / ".flickr-backup" / planted).is_fifo() and media_files(tmp_path) == {}


# -- FIFOs ---------------------------------------------------------------------------------------

def _fifo_at(path):
    path.unlink()
    os.mkfifo(path)


def test_a_fifo_never_blocks_a_run_or_verify(server, tmp_path):
    with client(server) as api:
        items = small_account(api, 2)
        api.call("flickr.photosets.create", title="album", primary_photo_id=sorted(items)[0])
    first = run_cli(server, "backup", str(tmp_path), timeout=ENDS_WITHIN)
    assert first.returncode == 0, first.stderr
    files = media_files(tmp_path)
    photo, other = files[sorted(items)[0]], files[sorted(items)[1]]
    json_sidecar = other.with_name(other.name.rsplit(".", 1)[0] + ".json")
    fifos = [tmp_path / "albums" / "index.json", photo, tmp_path / "index.html", json_sidecar]
    for path in fifos:
        _fifo_at(path)

    # --verify first: it reads the media file (the FIFO) and says it changed.
    verified = run_cli(server, "backup", "--verify", str(tmp_path), timeout=ENDS_WITHIN)
    print(verified.stderr)
    assert verified.returncode == EXIT_FAILURE
    relative = str(photo.relative_to(tmp_path))
    assert f"changed: {relative}" in verified.stderr and f"changed: {json_sidecar.relative_to(tmp_path)}" \
        in verified.stderr

    # A run: every FIFO is reported and replaced by the backup's file, none is waited on.
    second = run_cli(server, "backup", str(tmp_path), timeout=ENDS_WITHIN)
    print(second.stderr)
    assert second.returncode == 0, second.stderr
    for path in fifos:
        assert path.is_file() and not path.is_fifo(), path
    assert photo.read_bytes() == items[sorted(items)[0]]
    assert relative in second.stderr and "albums/index.json was not a file" in second.stderr
    assert "index.html was not a file" in second.stderr
    assert json.loads((tmp_path / "albums" / "index.json").read_text())["albums"]
    assert run_cli(server, "backup", "--verify", str(tmp_path), timeout=ENDS_WITHIN).returncode == 0


def test_a_fifo_as_harvest_output_is_a_clear_error(server, tmp_path):
    """`flickr harvest -o FILE` cuts FILE back to what its checkpoint says: a FIFO there is refused
    with one line (before: an unexpected error, "Illegal seek")."""
    fifo = tmp_path / "out.jsonl"
    os.mkfifo(fifo)
    result = run_cli(server, "harvest", "flickr.photos.search", "user_id=me", "min_upload_date=1199145600",
                     "max_upload_date=1230768000", "-o", str(fifo), timeout=ENDS_WITHIN)
    print(result.returncode, result.stderr)
    assert result.returncode == EXIT_FAILURE
    assert result.stderr.strip() == f"flickr: cannot write {fifo}: a FIFO, not a regular file"


# -- a full disk ---------------------------------------------------------------------------------

@contextlib.contextmanager
def small_disk(path, size):
    """A tmpfs of `size` at `path` (the tests run as root, as CI does): a mount that fails fails the test."""
    path.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(path)],
                             capture_output=True, text=True)
    assert mounted.returncode == 0, f"cannot mount a tmpfs for the full-disk test: {mounted.stderr}"
    try:
        yield lambda new_size: subprocess.run(["mount", "-o", f"remount,size={new_size}", str(path)], check=True)
    finally:
        subprocess.run(["umount", "-l", str(path)], check=True)


def _check_full(result):
    print(result.returncode, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert result.returncode == EXIT_NO_SPACE, result.stderr
    assert "Traceback" not in result.stderr and "unexpected error" not in result.stderr
    assert len(lines) == 1 and "is full" in lines[0] and "nothing was lost" in lines[0]


def test_a_full_disk_stops_with_one_line_and_the_next_run_completes(server, tmp_path):
    with client(server) as api:
        items = {}
        empty_account(api)
        for n in range(6):
            data = jpeg(n, 200_000)
            items[upload(api, data, title=f"big {n}")] = data
    disk = tmp_path / "disk"
    with small_disk(disk, "600k") as resize:
        # Mid-run: some files fit, then the disk is full (a download, a rename, the state).
        root = disk / "backup"
        _check_full(run_cli(server, "backup", str(root), "--progress", "none", timeout=ENDS_WITHIN))
        kept = media_files(root)
        print(f"{len(kept)} of {len(items)} files fitted")
        assert all(path.read_bytes() == items[i] for i, path in kept.items())
        # Full before the state database is made: SQLite's "database or disk is full".
        other = disk / "other"
        filler = disk / "filler"
        free = os.statvfs(disk).f_bavail * os.statvfs(disk).f_frsize
        filler.write_bytes(b"\0" * max(free - 4096, 0))
        _check_full(run_cli(server, "backup", str(other), "--progress", "none", timeout=ENDS_WITHIN))
        filler.unlink()

        resize("64m")
        for where in (root, other):
            result = run_cli(server, "backup", str(where), "--progress", "none", timeout=ENDS_WITHIN)
            assert result.returncode == 0, result.stderr
            found = media_files(where)
            assert {i: p.read_bytes() for i, p in found.items()} == items
            assert flickr.backup.verify(where)["ok"] and partial_files(where) == []
