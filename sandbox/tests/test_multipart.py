# SPDX-License-Identifier: MIT
"""The streaming multipart parser, fed in pieces of every size."""
import random

import pytest
from sbclient import multipart

from flickr_sandbox.multipart import (MultipartError, MultipartParser, boundary_from_content_type,
                                      parse_disposition)


class Sink:
    def __init__(self, parts, headers):
        self.parts, self.headers, self.data, self.writes = parts, headers, bytearray(), []

    def write(self, data):
        self.writes.append(len(data))
        self.data += data

    def close(self):
        self.parts.append(self)


def parse(body: bytes, boundary: str, sizes):
    parts = []
    parser = MultipartParser(boundary, lambda h: Sink(parts, h))
    pos = 0
    for n in sizes:
        parser.feed(body[pos:pos + n])
        pos += n
        if pos >= len(body):
            break
    parser.feed(body[pos:])
    parser.close()
    return parts


def _body(photo):
    body, ctype = multipart({"title": "Ünïcode ✓", "empty": "", "tags": 'a "b c"'}, photo, "x é.jpg")
    return body, boundary_from_content_type(ctype)


@pytest.mark.parametrize("chunk", [1, 2, 3, 7, 64, 4096, 10 ** 9])
def test_parses_in_any_chunking(chunk):
    # Photo bytes that contain near-boundaries and CRLFs.
    photo = b"\r\n--" + b"\xff\xd8" * 500 + b"\r\n-" + bytes(range(256)) * 20 + b"\r\n"
    body, boundary = _body(photo)
    parts = parse(body, boundary, iter(lambda: chunk, None))
    assert [parse_disposition(p.headers["content-disposition"]).get("name") for p in parts] == \
        ["title", "empty", "tags", "photo"]
    assert parts[0].data.decode() == "Ünïcode ✓" and parts[1].data == b""
    assert bytes(parts[3].data) == photo
    assert parse_disposition(parts[3].headers["content-disposition"])["filename"] == "x é.jpg"


def test_random_chunking():
    rng = random.Random(7)
    photo = rng.randbytes(200_000)
    body, boundary = _body(photo)
    for _ in range(20):
        parts = parse(body, boundary, iter(lambda: rng.randrange(1, 5000), None))
        assert bytes(parts[-1].data) == photo


def test_streams_without_buffering_the_part():
    """A large part reaches the sink piece by piece, never as one block."""
    photo = b"x" * (4 * 1024 * 1024)
    body, boundary = _body(photo)
    parts = parse(body, boundary, iter(lambda: 65536, None))
    assert max(parts[-1].writes) <= 65536 + 100
    assert len(parts[-1].writes) >= 64


def test_preamble_epilogue_and_padding():
    body = (b"preamble\r\n--B  \r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n1\r\n--B--\r\nepilogue")
    parts = parse(body, "B", [5, 5, 5])
    assert [bytes(p.data) for p in parts] == [b"1"]


@pytest.mark.parametrize("body", [
    b"--B\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nnever closed",
    b"--B\r\nno colon here\r\n\r\nx\r\n--B--",
    b"--Bxx\r\n",
])
def test_malformed(body):
    with pytest.raises(MultipartError):
        parse(body, "B", [3])


def test_content_type_boundary():
    assert boundary_from_content_type('multipart/form-data; boundary="a b"') == "a b"
    assert boundary_from_content_type("multipart/form-data; boundary=xyz") == "xyz"
    assert boundary_from_content_type("application/x-www-form-urlencoded") is None
    assert boundary_from_content_type("multipart/form-data") is None
