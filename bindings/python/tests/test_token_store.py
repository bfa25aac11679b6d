# SPDX-License-Identifier: MIT
"""flickr.tokens.TokenStore: location, permissions, several users and API keys, damage."""
import json
import os
import stat
import threading

import pytest

from flickr import errors
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
    assert [p.name for p in store.path.parent.iterdir() if p.name.startswith(".tokens-")] == []  # no temp left


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
