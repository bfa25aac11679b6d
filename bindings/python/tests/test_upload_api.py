# SPDX-License-Identifier: MIT
"""Flickr.upload / replace / wait_ticket against the sandbox over real sockets."""
import hashlib
import io
import os
import pathlib
import time

import pytest

import flickr
from libtest import endpoints

JPEG_MAGIC = b"\xff\xd8\xff\xe0"


def photo_bytes(size: int, seed: int = 1) -> bytes:
    pattern = bytes((i * 31 + seed) & 0xFF for i in range(256))
    body = (pattern * (size // 256 + 1))[: size - 4]
    return JPEG_MAGIC + body


@pytest.fixture
def api(library_path, sandbox):
    with flickr.Flickr(sandbox.api_key, sandbox.api_secret, oauth_token=sandbox.oauth_token,
                       oauth_token_secret=sandbox.oauth_token_secret, **endpoints(sandbox)) as api:
        yield api


def stored(api, photo_id) -> dict:
    return api.call("flickr.sandbox.getFileInfo", photo_id=photo_id)["file"]


@pytest.mark.parametrize("kind", ["path", "bytes", "bytearray", "memoryview", "fileobj", "bytesio"])
def test_every_source_kind(api, tmp_path, kind):
    data = photo_bytes(300_000 + len(kind))
    path = tmp_path / "photo.jpg"
    path.write_bytes(data)
    if kind == "path":
        source = str(path)
    elif kind == "bytes":
        source = data
    elif kind == "bytearray":
        source = bytearray(data)
    elif kind == "memoryview":
        source = memoryview(data)
    elif kind == "fileobj":
        source = open(path, "rb")
    else:
        source = io.BytesIO(data)
    try:
        answer = api.upload(source, title=f"from {kind}", tags="a b")
    finally:
        if hasattr(source, "close"):
            source.close()
    photo_id = answer["photoid"]["_text"]
    assert answer["photoid"]["secret"] and answer["photoid"]["originalsecret"]
    file = stored(api, photo_id)
    assert int(file["size"]) == len(data)
    assert file["sha256"] == hashlib.sha256(data).hexdigest()
    info = api.call("flickr.photos.getInfo", photo_id=photo_id)["photo"]
    assert info["title"]["_text"] == f"from {kind}"


def test_arguments_and_unicode(api, tmp_path):
    path = tmp_path / "çà 日本.jpg"
    path.write_bytes(photo_bytes(5000))
    answer = api.upload(path, title="Crème brûlée 🍮", description="<b>&amp;</b>", is_public=False,
                        is_friend=True, tags="one two")
    info = api.call("flickr.photos.getInfo", photo_id=answer["photoid"]["_text"])["photo"]
    assert info["title"]["_text"] == "Crème brûlée 🍮"
    assert info["description"]["_text"] == "<b>&amp;</b>"
    assert info["visibility"]["ispublic"] == "0"
    assert info["visibility"]["isfriend"] == "1"
    assert [t["_text"] for t in info["tags"]["tag"]] == ["one", "two"]


def test_progress_is_monotonic_paced_and_final(api):
    data = photo_bytes(8 * 1024 * 1024)
    calls = []
    api.upload(data, progress=lambda sent, total: calls.append((sent, total)), filename="big.jpg")
    sents = [s for s, _ in calls]
    assert sents == sorted(sents)
    assert calls[-1][0] == calls[-1][1] > len(data)
    assert 1 <= len(calls) < len(data) // 16384


class _Trickle(io.RawIOBase):
    """A file object that gives its bytes slowly: the upload is still going when progress is reported."""

    def __init__(self, data: bytes):
        self.data, self.offset = data, 0

    def readable(self):
        return True

    def readinto(self, buffer):
        time.sleep(0.01)
        n = min(len(buffer), 64 * 1024, len(self.data) - self.offset)
        buffer[:n] = self.data[self.offset:self.offset + n]
        self.offset += n
        return n


class Stop(Exception):
    pass


def stop_after_100k(sent, total):
    """A progress callback that raises once 100 kB went out."""
    if sent > 100_000:
        raise Stop("user pressed cancel")


def test_progress_exception_aborts_and_is_reraised(api):
    data = photo_bytes(4 * 1024 * 1024)
    before = api.call("flickr.photos.search", user_id="me")["photos"]["total"]
    with pytest.raises(Stop, match="user pressed cancel") as raised:
        api.upload(_Trickle(data), length=len(data), progress=stop_after_100k)
    assert not hasattr(raised.value, "flickr_response")
    with pytest.raises(flickr.Aborted):
        api.upload(_Trickle(data), length=len(data), progress=lambda s, t: s < 100_000)
    assert api.call("flickr.photos.search", user_id="me")["photos"]["total"] == before  # aborted: no photo


def test_an_exception_after_the_last_byte_keeps_the_photo(api):
    """Issue 19, fault 6: raising at sent == total used to abort while Flickr stored the photo."""
    class Late(Exception):
        pass

    def progress(sent, total):
        if sent == total:
            raise Late("too late")

    with pytest.raises(Late) as raised:
        api.upload(photo_bytes(300_000), progress=progress)
    photo_id = raised.value.flickr_response["photoid"]["_text"]
    assert api.call("flickr.photos.getInfo", photo_id=photo_id)["photo"]["id"] == photo_id
    # Returning False at the end is the same request in C terms: the answer is returned.
    answer = api.upload(photo_bytes(300_000), progress=lambda sent, total: sent < total)
    assert answer["photoid"]["_text"]


def test_read_exception_is_reraised(api):
    class Broken(io.RawIOBase):
        def __init__(self):
            self.sent = 0

        def readable(self):
            return True

        def read(self, n=-1):
            if self.sent > 50_000:
                raise OSError("disk went away")
            self.sent += 10_000
            return JPEG_MAGIC + bytes(9_996)

    with pytest.raises(OSError, match="disk went away"):
        api.upload(Broken(), length=1_000_000)
    with pytest.raises(flickr.InvalidArgument, match="length"):
        api.upload(Broken())


def test_async_ticket_and_replace(api):
    data = photo_bytes(100_000, 5)
    answer = api.upload(data, **{"async": 1})
    ticket = answer["ticketid"]["_text"]
    photo_id = api.wait_ticket(ticket, timeout_ms=20_000)
    assert stored(api, photo_id)["sha256"] == hashlib.sha256(data).hexdigest()
    new = photo_bytes(120_000, 6)
    replaced = api.replace(new, photo_id)
    assert replaced["photoid"]["_text"] == photo_id
    assert stored(api, photo_id)["sha256"] == hashlib.sha256(new).hexdigest()
    with pytest.raises(flickr.APIError) as caught:
        api.replace(new, "1")
    assert caught.value.api_code == 1


def test_upload_errors(api, library_path, sandbox, tmp_path):
    with pytest.raises(flickr.APIError) as caught:
        api.upload(b"", filename="empty.jpg")
    assert caught.value.api_code == 4
    with pytest.raises(flickr.APIError) as caught:
        api.upload(b"plain text, no image", filename="notes.txt")
    assert caught.value.api_code == 5
    with pytest.raises(flickr.FileError):
        api.upload(tmp_path / "missing.jpg")
    with pytest.raises(flickr.InvalidArgument):
        api.upload(photo_bytes(10), photo="x")
    with pytest.raises(TypeError):
        api.upload(12345)
    with flickr.Flickr(sandbox.api_key, sandbox.api_secret, **endpoints(sandbox)) as anonymous:
        with pytest.raises(flickr.StateError, match="need a user"):
            anonymous.upload(photo_bytes(10))


def test_paths_are_bytes_as_the_os_takes_them(api, tmp_path):
    """Issue 29, 4d: a file name that is not UTF-8 uploads, given as os.listdir spells it (a str
    with surrogate escapes), as a bytes-based PathLike (os.DirEntry of a bytes scandir) or as a
    pathlib.Path; the file name Flickr gets is UTF-8, the byte it could not read as U+FFFD. Before,
    the str went to the library as UTF-8 of its escapes and failed: "path is not valid UTF-8"."""
    data = photo_bytes(5000)
    (tmp_path / "d").mkdir()
    raw = bytes(tmp_path / "d") + b"/caf\xe9.jpg"
    with open(raw, "wb") as file:
        file.write(data)
    listed = os.path.join(str(tmp_path / "d"), os.listdir(tmp_path / "d")[0])
    assert "\udce9" in listed
    entry = next(iter(os.scandir(bytes(tmp_path / "d"))))
    sources = {"str": listed, "DirEntry of bytes": entry, "pathlib": pathlib.Path(listed)}
    for kind, source in sources.items():
        answer = api.upload(source)
        file = stored(api, answer["photoid"]["_text"])
        assert file["sha256"] == hashlib.sha256(data).hexdigest(), kind
        assert file["name"] == "caf\ufffd.jpg", kind
    print(f"{len(sources)} uploads of a file name that is not UTF-8")
    replaced = api.replace(listed, answer["photoid"]["_text"])
    assert replaced["photoid"]["_text"] == answer["photoid"]["_text"]


def test_a_path_with_nul_is_refused_not_cut_short(api, tmp_path):
    (tmp_path / "a.jpg").write_bytes(photo_bytes(1000))
    with pytest.raises(flickr.InvalidArgument, match="NUL"):
        api.upload(str(tmp_path / "a.jpg") + "\0ignored")  # ctypes would have sent .../a.jpg
