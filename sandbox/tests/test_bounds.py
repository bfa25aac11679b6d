# SPDX-License-Identifier: MIT
"""What any client can make the sandbox keep is bounded (limits.py, docs/sandbox.md "Bounds").

Floods from 127.0.0.1 with the sandbox's public credentials, or none: the fault keys and the
comments against a sandbox in a child process whose memory (VmRSS, VmHWM) is read before and
after; every other store in-process, filled by SQL to its bound, then one request past it."""
from __future__ import annotations

import time
import urllib.parse

import pytest
from sbclient import Client, oauth_flow

from flickr_sandbox import Sandbox, SandboxProcess
from flickr_sandbox import constants as C
from flickr_sandbox import limits as L
from flickr_sandbox.budget import Budget
from flickr_sandbox.faults import FaultInjector, FaultSyntaxError

MIB = 1024 * 1024


def _memory(pid: int) -> dict[str, int]:
    """The child's resident set now and at its peak, in bytes (Linux /proc)."""
    fields = {}
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        for line in status:
            name, _, value = line.partition(":")
            if name in ("VmRSS", "VmHWM"):
                fields[name] = int(value.split()[0]) * 1024
    return fields


class _Child:
    """A sandbox in a child process, its pid and a client of it."""

    def __init__(self, proc: SandboxProcess):
        self.pid = proc.process.pid
        self.client = Client(proc.settings)


@pytest.fixture
def child():
    with SandboxProcess() as proc:
        yield _Child(proc)


@pytest.fixture(scope="module")
def own():
    with Sandbox() as sb:
        yield Client(sb), sb


def _count(sandbox, sql: str, *args) -> int:
    return int(sandbox.store.row(sql, args)[0])


def _fill(sandbox, sql: str, rows) -> None:
    """Rows straight into the store, in one transaction (one commit, not one a row)."""
    with sandbox.store.transaction():
        sandbox.store.many(sql, rows)


def _photo(sandbox, n: int) -> int:
    """The sandbox user's n-th public photo, by id: each test writes on a photo of its own."""
    return int(sandbox.store.row("SELECT id FROM photos WHERE owner=? AND ispublic=1 ORDER BY id"
                                 " LIMIT 1 OFFSET ?", (C.USER_NSID, n))[0])


# -- faults: no credentials at all --------------------------------------------------------------

def test_fault_key_flood_keeps_the_sandbox_small(child):
    """40 requests, each naming a new 2 MiB key (issue 40 §6: 8 MiB keys took the sandbox from 27
    to 393 MiB; 2 MiB keep the test short): each is refused, and the memory stays where it was."""
    conn = child.client.connection()
    body_size = 2 * MIB
    statuses = []
    before = _memory(child.pid)
    for n in range(40):
        spec = f"http503;times=1;key={n:03d}" + "k" * body_size
        reply = child.client.raw("POST", "/services/rest/", conn=conn,
                                 body=urllib.parse.urlencode({"method": "flickr.test.echo", "sandbox_fault": spec}),
                                 headers={"Content-Type": "application/x-www-form-urlencoded"})
        statuses.append(reply.status)
    after = _memory(child.pid)
    conn.close()
    grown = (after["VmRSS"] - before["VmRSS"]) / MIB
    print(f"fault-key flood: RSS {before['VmRSS'] / MIB:.0f} -> {after['VmRSS'] / MIB:.0f} MiB "
          f"(peak {after['VmHWM'] / MIB:.0f} MiB), statuses {sorted(set(statuses))}")
    assert statuses == [400] * 40, statuses
    assert grown < 32, f"the sandbox grew by {grown:.0f} MiB over 40 refused fault keys"


def test_fault_spec_longer_than_the_bound_is_refused(own):
    client, _ = own
    ok = client.rest("flickr.test.echo", sandbox_fault="latency=0;times=1;key=" + "k" * 900)
    long = client.rest("flickr.test.echo", http_method="POST",
                       sandbox_fault="latency=0;times=1;key=" + "k" * L.FAULT_SPEC_CHARS)
    print(f"spec of {L.FAULT_SPEC_CHARS + 28} characters: HTTP {long.status} {long.text!r}")
    assert ok.status == 200
    assert long.status == 400 and f"at most {L.FAULT_SPEC_CHARS} characters" in long.text


def test_fault_keys_are_counted_up_to_the_bound():
    """Keys the injector counts (``times=N``) stop at FAULT_KEYS; a known key still counts."""
    injector = FaultInjector()
    for n in range(L.FAULT_KEYS):
        injector.activate(f"http503;times=1;key=k{n}")
    with pytest.raises(FaultSyntaxError, match="fault keys"):
        injector.activate("http503;times=1;key=one-more")
    assert injector.activate("http503;times=1;key=k0") is None  # k0 used its one time
    assert injector.activate("http503") is not None  # no times=: nothing kept


def test_budget_keys_past_the_bound_share_one_count():
    """--budget-per-hour counts by whatever key a request names, before any check."""
    budget = Budget(per_hour=2, clock=lambda: 0.0)
    for n in range(L.BUDGET_KEYS * 2):
        budget.admit(f"key{n}")
    long_key = "x" * (L.BUDGET_KEY_CHARS + 1)
    budget.admit(long_key)
    print(f"{L.BUDGET_KEYS * 2 + 1} keys: {len(budget._calls)} counts kept")
    assert len(budget._calls) == L.BUDGET_KEYS + 1
    assert long_key not in budget._calls
    assert budget.admit("key0") is None and budget.admit("key0") is not None  # a counted key: its own 2


# -- comments ---------------------------------------------------------------------------------

def test_comment_flood_keeps_the_sandbox_small(child):
    """12 comments of 2 MiB each (issue 40 §6: 12 of 15 MiB kept, getList then peaked at 1.1 GB):
    each is cut to COMMENT_CHARS, and reading them back costs next to nothing."""
    client = child.client
    pid = client.rest("flickr.people.getPhotos", auth="oauth", user_id="me", per_page=1).ok()[0][0].get("id")
    text = "c" * (2 * MIB)
    before = _memory(child.pid)
    replies = [client.rest("flickr.photos.comments.addComment", auth="oauth", where="header",
                           photo_id=pid, comment_text=text) for _ in range(12)]
    listed = client.rest("flickr.photos.comments.getList", photo_id=pid, format="json", nojsoncallback=1)
    after = _memory(child.pid)
    print(f"comment flood: RSS {before['VmRSS'] / MIB:.0f} -> {after['VmRSS'] / MIB:.0f} MiB, peak "
          f"{before['VmHWM'] / MIB:.0f} -> {after['VmHWM'] / MIB:.0f} MiB; getList {len(listed.body)} bytes")
    for reply in replies:
        reply.ok()
    assert listed.status == 200 and len(listed.body) < 12 * (L.COMMENT_CHARS + 1000) + 100_000
    peak = (after["VmHWM"] - before["VmHWM"]) / MIB
    assert peak < 48, f"the sandbox's peak grew by {peak:.0f} MiB"


def test_comment_is_cut_to_its_bound(own):
    client, sandbox = own
    text = "é" * (L.COMMENT_CHARS + 10)
    photo = _photo(sandbox, 2)
    client.rest("flickr.photos.comments.addComment", auth="oauth", where="header",
                photo_id=photo, comment_text=text).ok()
    kept = client.rest("flickr.photos.comments.getList", photo_id=photo).ok().find("comments")[-1].text
    print(f"a comment of {len(text)} characters kept as {len(kept)}")
    assert kept == text[:L.COMMENT_CHARS]


def test_comments_per_photo_and_per_author_are_bounded(own):
    client, sandbox = own
    photo = _photo(sandbox, 3)
    have = _count(sandbox, "SELECT COUNT(*) FROM comments WHERE photo_id=?", photo)
    _fill(sandbox, "INSERT INTO comments VALUES (?,?,?,?,?)",
                       ((f"fill-{photo}-{n}", photo, C.OTHER_NSID, 0, "x")
                        for n in range(L.COMMENTS_PER_PHOTO - have)))
    full = client.rest("flickr.photos.comments.addComment", auth="oauth", photo_id=str(photo), comment_text="one more")
    assert full.err() == (9, "User is posting comments too fast.")
    # Per author, across photos: the sandbox user's comments filled to the bound.
    mine = _count(sandbox, "SELECT COUNT(*) FROM comments WHERE author=?", C.USER_NSID)
    other = _photo(sandbox, 4)
    _fill(sandbox, "INSERT INTO comments VALUES (?,?,?,?,?)",
                       ((f"mine-{n}", other, C.USER_NSID, 0, "x") for n in range(L.COMMENTS_PER_AUTHOR - mine)))
    again = client.rest("flickr.photos.comments.addComment", auth="oauth", photo_id=_photo(sandbox, 5), comment_text="more")
    print(f"past {L.COMMENTS_PER_PHOTO} on a photo and {L.COMMENTS_PER_AUTHOR} by an author: {again.err()}")
    assert again.err()[0] == 9
    assert _count(sandbox, "SELECT COUNT(*) FROM comments WHERE photo_id=?", photo) == L.COMMENTS_PER_PHOTO


# -- what an owner writes on their photos -------------------------------------------------------

def test_title_description_and_tags_are_cut_to_their_bounds(own):
    client, sandbox = own
    photo = _photo(sandbox, 6)
    client.rest("flickr.photos.setMeta", auth="oauth", photo_id=photo, title="t" * (L.TITLE_CHARS + 5),
                description="d" * (L.DESCRIPTION_CHARS + 5)).ok()
    row = sandbox.store.row("SELECT title, description FROM photos WHERE id=?", (photo,))
    long_tag = "g" * (L.TAG_CHARS + 5)
    client.rest("flickr.photos.addTags", auth="oauth", photo_id=photo, tags=long_tag).ok()
    raws = [t["raw"] for t in sandbox.store.tags(photo)]
    print(f"title {len(row['title'])}, description {len(row['description'])}, longest tag "
          f"{max(map(len, raws))} characters")
    assert len(row["title"]) == L.TITLE_CHARS and len(row["description"]) == L.DESCRIPTION_CHARS
    assert long_tag[:L.TAG_CHARS] in raws and long_tag not in raws


def test_upload_keeps_its_bounds(own):
    """An upload's title, description and tags as setMeta's and addTags' (tags past 75 dropped)."""
    client, sandbox = own
    tags = " ".join(f"tag{n}" for n in range(L.TAGS_PER_PHOTO + 20))
    root = client.upload(b"\xff\xd8\xff\xe0" + b"\0" * 64, title="t" * (L.TITLE_CHARS + 1),
                         description="d" * (L.DESCRIPTION_CHARS + 1), tags=tags).ok()
    photo_id = int(root.find("photoid").text)
    row = sandbox.store.row("SELECT title, description FROM photos WHERE id=?", (photo_id,))
    kept = len(sandbox.store.tags(photo_id))
    print(f"upload: title {len(row['title'])}, description {len(row['description'])}, {kept} tags")
    assert (len(row["title"]), len(row["description"]), kept) == \
        (L.TITLE_CHARS, L.DESCRIPTION_CHARS, L.TAGS_PER_PHOTO)


def test_uploads_per_user_and_bytes_kept_are_bounded(fresh_sandbox):
    sandbox = fresh_sandbox
    client = Client(sandbox)
    jpeg = b"\xff\xd8\xff\xe0" + b"\0" * 64
    client.upload(jpeg).ok()
    # Every upload's bytes together: one kept file now stands for the whole bound.
    sandbox.store.run("UPDATE photos SET file_size=? WHERE file_path IS NOT NULL", (L.UPLOAD_BYTES_KEPT,))
    over = client.upload(jpeg)
    assert over.err() == (6, "Upload limit reached. For more info, visit flickr.com/pro")
    sandbox.store.run("UPDATE photos SET file_size=1 WHERE file_path IS NOT NULL")
    have = _count(sandbox, "SELECT COUNT(*) FROM photos WHERE owner=? AND file_path IS NOT NULL", C.USER_NSID)
    _fill(sandbox, "INSERT INTO photos(id, owner, secret, originalsecret, server, farm, dateupload, lastupdate,"
                       " datetaken, width, height, file_path, file_size)"
                       " VALUES (?,?,'s','o','1','1',0,0,'2020-01-01 00:00:00',1,1,'/nonexistent',0)",
                       ((90_000_000_000 + n, C.USER_NSID) for n in range(L.UPLOADS_PER_USER - have)))
    print(f"{L.UPLOADS_PER_USER} uploads kept: {client.upload(jpeg).err()}")
    assert client.upload(jpeg).err()[0] == 6


def test_notes_are_bounded(own):
    client, sandbox = own
    box = {"note_x": 1, "note_y": 1, "note_w": 10, "note_h": 10}
    photo = _photo(sandbox, 7)
    client.rest("flickr.photos.notes.add", auth="oauth", photo_id=photo,
                note_text="n" * (L.NOTE_CHARS + 3), **box).ok()
    longest = _count(sandbox, "SELECT MAX(LENGTH(text)) FROM notes WHERE photo_id=?", photo)
    mine = _count(sandbox, "SELECT COUNT(*) FROM notes WHERE author=?", C.USER_NSID)
    first = 9_000_000_000  # far past the ids notes.add gives
    # Spread over many photos, none of them at its own bound of NOTES_PER_PHOTO.
    photos = [r[0] for r in sandbox.store.all("SELECT id FROM photos WHERE owner=? AND id NOT IN"
                                              " (SELECT photo_id FROM notes) LIMIT 200", (C.USER_NSID,))]
    _fill(sandbox, "INSERT INTO notes VALUES (?,?,?,1,1,1,1,'x')",
                       ((first + n, photos[n % (len(photos) - 1)], C.USER_NSID)
                        for n in range(L.NOTES_PER_AUTHOR - mine)))
    over = client.rest("flickr.photos.notes.add", auth="oauth", photo_id=str(photos[-1]), note_text="x", **box)
    print(f"note of {L.NOTE_CHARS + 3} characters kept as {longest}; past {L.NOTES_PER_AUTHOR}: {over.err()}")
    assert longest == L.NOTE_CHARS
    assert over.err() == (6, "User is posting notes too fast.")


def test_photosets_per_user_are_bounded(own):
    client, sandbox = own
    have = _count(sandbox, "SELECT COUNT(*) FROM photosets WHERE owner=?", C.USER_NSID)
    photo = _photo(sandbox, 8)
    made = client.rest("flickr.photosets.create", auth="oauth", title="s" * (L.TITLE_CHARS + 1),
                       description="d" * (L.DESCRIPTION_CHARS + 1), primary_photo_id=photo).ok()
    set_id = int(made.find("photoset").get("id"))
    row = sandbox.store.row("SELECT title, description FROM photosets WHERE id=?", (set_id,))
    _fill(sandbox, "INSERT INTO photosets VALUES (?,?,'x','',?,0,0)",
                       ((80_000_000_000 + n, C.USER_NSID, photo) for n in range(L.PHOTOSETS_PER_USER - have - 1)))
    over = client.rest("flickr.photosets.create", auth="oauth", title="one more", primary_photo_id=photo)
    print(f"set title {len(row['title'])}, description {len(row['description'])}; past "
          f"{L.PHOTOSETS_PER_USER}: {over.err()}")
    assert (len(row["title"]), len(row["description"])) == (L.TITLE_CHARS, L.DESCRIPTION_CHARS)
    assert over.err() == (3, "Can't create any more sets")


# -- OAuth and legacy auth ------------------------------------------------------------------------

def test_request_tokens_frobs_and_access_tokens_are_bounded(fresh_sandbox):
    sandbox = fresh_sandbox
    client = Client(sandbox)
    now = time.time()
    _fill(sandbox, "INSERT INTO tokens(token, secret, kind, callback, created) VALUES (?,'s','request','oob',?)",
                       ((f"req-{n}", now) for n in range(L.REQUEST_TOKENS)))
    _fill(sandbox, "INSERT INTO tokens(token, secret, kind, nsid, perms, created) VALUES (?,'s','access',?,1,?)",
                       ((f"acc-{n}", C.USER_NSID, now) for n in range(L.ACCESS_TOKENS)))
    _fill(sandbox, "INSERT INTO frobs(frob, created) VALUES (?,?)",
                       ((f"frob-{n}", now) for n in range(L.REQUEST_TOKENS)))
    oauth_flow(client)  # one request token and one access token more
    client.rest("flickr.auth.getFrob", auth="legacy").ok()
    counts = {kind: _count(sandbox, "SELECT COUNT(*) FROM tokens WHERE kind=? AND token != ?", kind, C.OAUTH_TOKEN)
              for kind in ("request", "access")}
    frobs = _count(sandbox, "SELECT COUNT(*) FROM frobs")
    print(f"kept: {counts}, {frobs} frobs")
    assert counts == {"request": L.REQUEST_TOKENS, "access": L.ACCESS_TOKENS}
    assert frobs == L.REQUEST_TOKENS
    client.rest("flickr.test.login", auth="oauth").ok()  # the fixed token is never among those that go


def test_long_oauth_values_are_refused_and_nonces_bounded(fresh_sandbox):
    sandbox = fresh_sandbox
    client = Client(sandbox)
    stamp = int(time.time())
    _fill(sandbox, "INSERT INTO nonces VALUES (?,?,?)",
                       ((C.API_KEY, f"n{n}", stamp) for n in range(L.NONCES)))
    client.rest("flickr.test.login", auth="oauth").ok()
    nonces = _count(sandbox, "SELECT COUNT(*) FROM nonces")
    long_nonce = client.oauth_request("GET", "/services/rest/", {"method": "flickr.test.login"},
                                      (sandbox.oauth_token, sandbox.oauth_token_secret),
                                      nonce="n" * (L.OAUTH_VALUE_CHARS + 1))
    long_callback = client.oauth_request("GET", "/services/oauth/request_token", {}, None,
                                         callback_uri="http://localhost/" + "c" * L.OAUTH_VALUE_CHARS)
    print(f"{nonces} nonces kept; long nonce: {long_nonce.status} {long_nonce.text}; "
          f"long callback: {long_callback.status} {long_callback.text}")
    assert nonces == L.NONCES
    assert (long_nonce.status, long_nonce.text) == \
        (400, "oauth_problem=parameter_rejected&oauth_parameters_rejected=oauth_nonce")
    assert (long_callback.status, long_callback.text) == \
        (400, "oauth_problem=parameter_rejected&oauth_parameters_rejected=oauth_callback")


def test_async_tickets_are_bounded(fresh_sandbox):
    sandbox = fresh_sandbox
    client = Client(sandbox)
    _fill(sandbox, "INSERT INTO tickets VALUES (?,NULL,?,1)", ((f"t{n}", float(n)) for n in range(L.TICKETS)))
    client.upload(b"", **{"async": 1}).ok()  # a failed upload's ticket too
    kept = _count(sandbox, "SELECT COUNT(*) FROM tickets")
    print(f"{kept} tickets kept")
    assert kept == L.TICKETS and _count(sandbox, "SELECT COUNT(*) FROM tickets WHERE id='t0'") == 0
