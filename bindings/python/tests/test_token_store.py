# SPDX-License-Identifier: MIT
"""flickr.tokens.TokenStore: location, permissions, several users and API keys, damage."""
import json
import os
import stat
import subprocess
import sys
import threading

import pytest

from flickr import errors
from libtest import cli_env, run_cli
from flickr.tokens import TokenStore, default_path


def token(n, nsid=None, username=None):
    return {"oauth_token": f"72157-{n}", "oauth_token_secret": f"secret{n}", "user_nsid": nsid or f"{n}@N00",
            "username": username or f"user{n}", "fullname": f"User {n}", "perms": "write"}


def test_default_path(monkeypatch, tmp_path):
    monkeypatch.delenv("FLICKR_TOKEN_STORE", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    assert default_path() == tmp_path / "xdg" / "flickr" / "tokens.json"
    monkeypatch.setenv("XDG_CONFIG_HOME", "relative/ignored")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert default_path() == tmp_path / "home" / ".config" / "flickr" / "tokens.json"
    monkeypatch.delenv("XDG_CONFIG_HOME")
    assert default_path() == tmp_path / "home" / ".config" / "flickr" / "tokens.json"
    monkeypatch.setenv("FLICKR_TOKEN_STORE", str(tmp_path / "explicit.json"))
    assert default_path() == tmp_path / "explicit.json"
    assert TokenStore().path == tmp_path / "explicit.json"


def test_permissions(tmp_path):
    store = TokenStore(tmp_path / "conf" / "flickr" / "tokens.json")
    old = os.umask(0)
    try:
        store.save("key", token(1))
    finally:
        os.umask(old)
    assert stat.S_IMODE(store.path.stat().st_mode) == 0o600
    assert stat.S_IMODE(store.path.parent.stat().st_mode) == 0o700
    store.save("key", token(2))  # rewritten: still 0600
    assert stat.S_IMODE(store.path.stat().st_mode) == 0o600
    assert sorted(p.name for p in store.path.parent.iterdir()) == [".tokens.lock", "tokens.json"]  # no temp left


def test_users_and_keys(tmp_path):
    store = TokenStore(tmp_path / "tokens.json")
    assert store.load("key") is None and store.entries() == []
    store.save("key", token(1))
    store.save("key", token(2))
    store.save("other-key", token(3))
    assert store.load("key").oauth_token == "72157-2"  # the latest is the default
    assert store.load("key", "1@N00").oauth_token == "72157-1"  # by NSID
    assert store.load("key", "user1").oauth_token_secret == "secret1"  # by username
    assert store.load("key", "user3") is None  # another key's user
    assert store.load("other-key").user_nsid == "3@N00"
    assert [t.username for t in store.entries("key")] == ["user2", "user1"]
    # Same user again: replaced, not duplicated, and now the default.
    store.save("key", dict(token(1), oauth_token="72157-1b"))
    assert [t.oauth_token for t in store.entries("key")] == ["72157-1b", "72157-2"]
    assert store.select("key", "user2").oauth_token == "72157-2"
    assert store.load("key").username == "user2"
    assert store.select("key", "nobody") is None
    # The secret never shows in a repr.
    assert "secret" not in repr(store.load("key"))


def test_remove(tmp_path):
    store = TokenStore(tmp_path / "tokens.json")
    for n in (1, 2, 3):
        store.save("key", token(n))
    store.save("other", token(4))
    assert [t.username for t in store.remove("key")] == ["user3"]  # the default
    assert [t.username for t in store.remove("key", "1@N00")] == ["user1"]
    assert store.remove("key", "nobody") == []
    store.save("key", token(5))
    assert {t.username for t in store.remove("key", all_users=True)} == {"user2", "user5"}
    assert store.entries("key") == []
    assert store.load("other").username == "user4"


def test_refuses_incomplete_tokens(tmp_path):
    store = TokenStore(tmp_path / "tokens.json")
    with pytest.raises(errors.InvalidArgument):
        store.save("key", {"oauth_token": "t"})
    with pytest.raises(errors.InvalidArgument):
        store.save("", token(1))
    assert not store.path.exists()


@pytest.mark.parametrize("content", ["not json", "[]", '{"format": 99, "tokens": []}', '{"format": 1}'])
def test_damaged_store(tmp_path, content):
    store = TokenStore(tmp_path / "tokens.json")
    store.path.write_text(content)
    with pytest.raises(errors.FileError, match="damaged"):
        store.load("key")
    with pytest.raises(errors.FileError):
        store.save("key", token(1))
    assert store.path.read_text() == content  # not overwritten


def test_file_format(tmp_path):
    store = TokenStore(tmp_path / "tokens.json")
    store.save("key", token(1))
    data = json.loads(store.path.read_text())
    assert data["format"] == 1
    assert data["tokens"][0]["api_key"] == "key"
    assert data["tokens"][0]["oauth_token_secret"] == "secret1"


def test_concurrent_writers(tmp_path):
    store = TokenStore(tmp_path / "tokens.json")
    threads = [threading.Thread(target=store.save, args=("key", token(n))) for n in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(store.entries("key")) == 20


GOOD = {"api_key": "key", "oauth_token": "t", "oauth_token_secret": "s", "user_nsid": "1@N00", "username": "u",
        "fullname": "", "perms": "read", "saved_at": 1.5}


def store_text(**changes) -> str:
    return json.dumps({"format": 1, "tokens": [{**GOOD, **changes}]})


# Valid JSON (or nearly) of every wrong shape: each must read as "damaged", never as a TypeError later.
WRONG_SHAPES = {
    "saved_at a string": store_text(saved_at="yesterday"),
    "saved_at NaN": store_text().replace("1.5", "NaN"),
    "saved_at Infinity": store_text().replace("1.5", "1e999"),
    "saved_at huge": store_text(saved_at=10**30),
    "saved_at 5000 digits": store_text().replace("1.5", "9" * 5000),
    "saved_at true": store_text(saved_at=True),
    "token a list": store_text(oauth_token=["t"]),
    "secret a number": store_text(oauth_token_secret=7),
    "username null": store_text(username=None),
    "api_key a dict": store_text(api_key={"k": 1}),
    "no api_key": json.dumps({"format": 1, "tokens": [{k: v for k, v in GOOD.items() if k != "api_key"}]}),
    # `flickr auth logout` once died on it: "StoredToken.__init__() missing 1 required positional argument".
    "no secret": json.dumps({"format": 1, "tokens": [{k: v for k, v in GOOD.items() if k != "oauth_token_secret"}]}),
    "secret empty": store_text(oauth_token_secret=""),
    "no token": json.dumps({"format": 1, "tokens": [{k: v for k, v in GOOD.items() if k != "oauth_token"}]}),
    "an entry a list": json.dumps({"format": 1, "tokens": [list(GOOD.items())]}),
    "tokens a dict": json.dumps({"format": 1, "tokens": GOOD}),
    "format true": json.dumps({"format": True, "tokens": [GOOD]}),
    "a list at the top": json.dumps([GOOD]),
    "a number at the top": "1",
    "nested 100000 deep": "[" * 100000 + "]" * 100000,
    "not UTF-8": store_text(username="\udcff").replace("\\udcff", "\udcff"),  # a raw byte 0xff
}


@pytest.mark.parametrize("content", WRONG_SHAPES.values(), ids=WRONG_SHAPES.keys())
def test_every_wrong_shape_is_damaged(tmp_path, content):
    store = TokenStore(tmp_path / "tokens.json")
    store.path.write_bytes(content.encode("utf-8", "surrogateescape"))
    for use in (lambda: store.load("key"), lambda: store.entries(), lambda: store.load("key", "u"),
                lambda: store.select("key", "u"), lambda: store.remove("key"), lambda: store.save("key", token(1))):
        with pytest.raises(errors.FileError, match="is damaged; remove it"):
            use()
    assert store.path.read_bytes() == content.encode("utf-8", "surrogateescape")  # kept until asked
    assert store.discard_damaged() and not store.path.exists()


def test_a_good_store_is_not_discarded(tmp_path):
    store = TokenStore(tmp_path / "tokens.json")
    store.path.write_text(store_text())
    assert store.load("key").saved_at == 1.5 and not store.discard_damaged() and store.path.exists()


def test_a_link_at_the_lock_file_is_not_followed(tmp_path):
    store = TokenStore(tmp_path / "conf" / "tokens.json")
    store.path.parent.mkdir()
    (store.path.parent / ".tokens.lock").symlink_to(tmp_path / "created-elsewhere")
    with pytest.raises(errors.FileError, match="cannot lock"):
        store.save("key", token(1))
    assert not (tmp_path / "created-elsewhere").exists() and not store.path.exists()


# What each says is wrong with the store, after "is damaged; remove it (...) and log in again: ".
CLI_SHAPES = {"saved_at a string": "entry 1: saved_at is not a time",
              "token a list": "entry 1: oauth_token is not text",
              "saved_at NaN": "not JSON in UTF-8", "a list at the top": "not a token store of format 1",
              "no secret": "entry 1: oauth_token_secret is missing or empty"}


@pytest.mark.parametrize("shape", CLI_SHAPES)
def test_the_cli_says_damaged_and_logout_removes_it(library_path, sandbox, tmp_path, shape):
    path = tmp_path / "tokens.json"
    path.write_text(WRONG_SHAPES[shape].replace('"key"', json.dumps(sandbox.api_key)))

    def run(*argv):
        return run_cli(sandbox, *argv, token=False, env_extra={"FLICKR_TOKEN_STORE": str(path)})

    damaged = f"the token store {path} is damaged; remove it (flickr auth logout does) and log in again: " \
              f"{CLI_SHAPES[shape]}"
    status = run("auth", "status", "--offline")
    assert (status.returncode, status.stderr) == (1, f"flickr: {damaged}\n")
    call = run("call", "flickr.test.echo")  # goes on without a token, saying why
    assert call.returncode == 0 and call.stderr == f"flickr: warning: {damaged}\n"
    logout = run("auth", "logout")
    assert logout.returncode == 0, logout.stderr
    assert logout.stdout == f"The token store {path} was damaged: removed it. Log in again with flickr auth login.\n"
    assert not path.exists()
    assert run("auth", "status", "--offline").stdout.startswith("Not logged in")


@pytest.mark.parametrize("kind", ["fifo", "device", "link"])
def test_a_fifo_or_a_device_as_the_store_is_refused_not_read(library_path, sandbox, tmp_path, kind):
    # Before: FLICKR_TOKEN_STORE naming a FIFO blocked every command in open(); /dev/zero was read until memory ran
    # out. Now: one line, and the command goes on without a stored token. A link of the user's is still followed.
    store = tmp_path / "tokens.json"
    if kind == "fifo":
        os.mkfifo(store)
    elif kind == "device":
        store = "/dev/zero"
    else:
        TokenStore(tmp_path / "real.json").save(sandbox.api_key, {"oauth_token": "t", "oauth_token_secret": "s",
                                                                   "username": "u"})
        os.symlink(tmp_path / "real.json", store)
    env = {"FLICKR_TOKEN_STORE": str(store)}
    status = subprocess.run([sys.executable, "-m", "flickr", "auth", "status"], capture_output=True, text=True,
                            env=cli_env(sandbox, token=False, env_extra=env), timeout=30)
    print(kind, status.returncode, status.stdout, status.stderr)
    if kind == "link":
        assert status.stdout.startswith("* u ")
        return
    what = "a FIFO" if kind == "fifo" else "a device"
    assert (status.returncode, status.stdout) == (1, "")
    assert status.stderr == f"flickr: cannot read the token store {store}: {what}, not a regular file\n"
    with pytest.raises(errors.FileError, match=f"{what}, not a regular file"):
        TokenStore(store).load(sandbox.api_key)
