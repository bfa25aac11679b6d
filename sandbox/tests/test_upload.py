# SPDX-License-Identifier: MIT
"""Upload and replace: shapes, each error code, auth, async tickets, serving, streaming."""
import hashlib
import http.client
import os
import select
import socket
import subprocess
import sys
import threading
import time
import urllib.parse
import xml.etree.ElementTree as ET

import pytest
from sbclient import Client, fixture_text, multipart, oauth_flow, png_bytes, structure

from flickr_sandbox import Sandbox, SandboxProcess
from flickr_sandbox import request as request_module
from flickr_sandbox import constants as C
from flickr_sandbox.images import header_dimensions
from flickr_sandbox.pictures.jpeg import placeholder_jpeg
from flickr_sandbox.request import MAX_FORM_BYTES


@pytest.fixture(scope="module")
def up():
    with Sandbox() as sb:
        yield Client(sb)


def _sha(data):
    return hashlib.sha256(data).hexdigest()


def test_sync_upload_shape_metadata_and_file(up):
    photo = png_bytes(640, 480)
    reply = up.upload(photo, title="Upload ✓ & co", description="desc", tags='one "two words"',
                      is_public=0, safety_level=2, filename="café.png")
    root = reply.ok()
    assert reply.headers["Content-Type"] == "text/xml; charset=utf-8"
    assert structure(root) == structure(ET.fromstring(fixture_text("xml/upload.xml")))
    node = root.find("photoid")
    photo_id = node.text
    info = up.rest("flickr.photos.getInfo", auth="oauth", photo_id=photo_id).ok().find("photo")
    assert info.get("secret") == node.get("secret") and info.get("originalsecret") == node.get("originalsecret")
    assert info.get("originalformat") == "png" and info.get("safety_level") == "2"
    assert info.find("title").text == "Upload ✓ & co" and info.find("visibility").get("ispublic") == "0"
    assert [t.text for t in info.iter("tag")] == ["one", "twowords"]
    file_info = up.rest("flickr.sandbox.getFileInfo", photo_id=photo_id).ok().find("file")
    assert file_info.get("size") == str(len(photo)) and file_info.get("sha256") == _sha(photo)
    # Sizes follow the real dimensions; the original URL serves the uploaded bytes, the others
    # JPEGs of the size's dimensions (the PNG scaled: sandbox/tests/test_pictures.py).
    sizes = up.rest("flickr.photos.getSizes", auth="oauth", photo_id=photo_id).ok()
    labels = [s.get("label") for s in sizes.iter("size")]
    assert labels == ["Square", "Large Square", "Thumbnail", "Small", "Small 320", "Small 400", "Medium",
                      "Original"]  # 640 px wide: no size as large as the original
    original = [s for s in sizes.iter("size") if s.get("label") == "Original"][0]
    assert (original.get("width"), original.get("height")) == ("640", "480")
    assert original.get("source").endswith(f"_{node.get('originalsecret')}_o.png")
    for s in sizes.iter("size"):
        got = up.raw("GET", s.get("source")[len(up.url):])
        if s is original:
            assert got.status == 200 and got.body == photo and got.headers["Content-Type"] == "image/png"
        else:
            assert got.status == 200 and got.headers["Content-Type"] == "image/jpeg"
            assert header_dimensions(got.body) == (int(s.get("width")), int(s.get("height")))
    # Private: other users do not see it.
    assert up.rest("flickr.photos.getInfo", photo_id=photo_id).err()[0] == 1


def test_upload_paths_and_legacy_auth(up):
    jpeg = placeholder_jpeg(123, 45)
    for path in ("/services/upload", "/services/upload/"):
        assert up.upload(jpeg, path=path, title="t").ok().find("photoid").text
    photo_id = up.upload(jpeg, auth="legacy", title="legacy").ok().find("photoid").text
    info = up.rest("flickr.sandbox.getFileInfo", photo_id=photo_id).ok().find("file")
    assert (info.get("width"), info.get("height"), info.get("originalformat")) == ("123", "45", "jpg")


@pytest.mark.parametrize("data,code,msg", [
    (None, 2, "No photo specified"),
    (b"", 4, "Filesize was zero"),
    (b"this is not an image at all", 5, "Filetype was not recognised"),
])
def test_upload_errors(up, data, code, msg):
    reply = up.upload(data, title="x")
    assert reply.status == 200 and reply.err() == (code, msg)
    if code == 2:
        assert reply.text == fixture_text("xml/upload.error.2.no-photo.xml")


@pytest.mark.parametrize("magic,fmt", [(b"GIF89a\x01\x00\x01\x00", "gif"), (b"II*\x00\x08\x00", "tiff"),
                                       (b"\x00\x00\x00\x18ftypheic", "heic"),
                                       (b"\x00\x00\x00\x18ftypisom", "mp4")])
def test_sniffed_types(up, magic, fmt):
    photo_id = up.upload(magic + b"\x00" * 64).ok().find("photoid").text
    assert up.rest("flickr.sandbox.getFileInfo", photo_id=photo_id).ok().find("file").get("originalformat") == fmt


def test_upload_auth_errors(up):
    jpeg = placeholder_jpeg(8, 8)
    assert up.upload(jpeg, auth="none").err() == (
        99, "Insufficient permissions. Method requires write privileges; none granted.")
    read = oauth_flow(up, perms="read")[:2]
    assert up.upload(jpeg, token=read).err() == (
        99, "Insufficient permissions. Method requires write privileges; read granted.")
    bad = up.upload(jpeg, token=(C.OAUTH_TOKEN, "ffffffffffffffff"))
    assert bad.status == 401 and bad.text.startswith("oauth_problem=signature_invalid&debug_sbs=POST&")
    assert "photo" not in urllib.parse.unquote(bad.text.split("debug_sbs=")[1]).split("&")[2:]
    # A tampered field (signed "a", sent "b") fails the signature.
    body, ctype = multipart({"title": "b"}, jpeg)
    client = up.oauth_client((C.OAUTH_TOKEN, C.OAUTH_TOKEN_SECRET), signature_type="AUTH_HEADER")
    _, hdrs, _ = client.sign(up.url + "/services/upload/", "POST", body="title=a",
                             headers={"Content-Type": "application/x-www-form-urlencoded"})
    tampered = up.raw("POST", "/services/upload/", body=body,
                      headers={"Content-Type": ctype, "Authorization": hdrs["Authorization"]})
    assert tampered.status == 401 and "title%3Db" in tampered.text
    assert up.upload(jpeg, auth="legacy", token="72157000000000000-0000000000000000").err()[0] == 98
    garbage = up.raw("POST", "/services/upload/", body=iter([b"x"]),
                     headers={"Content-Type": "multipart/form-data; boundary=x"})
    assert garbage.status == 200 and garbage.err()[0] == 100


def test_chunked_upload(up):
    """Transfer-Encoding: chunked bodies (no Content-Length) are streamed too."""
    jpeg = placeholder_jpeg(64, 64)
    body, ctype = multipart({"title": "chunked"}, jpeg)
    client = up.oauth_client((C.OAUTH_TOKEN, C.OAUTH_TOKEN_SECRET), signature_type="AUTH_HEADER")
    _, hdrs, _ = client.sign(up.url + "/services/upload/", "POST", body="title=chunked",
                             headers={"Content-Type": "application/x-www-form-urlencoded"})
    pieces = iter([body[i:i + 100] for i in range(0, len(body), 100)])
    reply = up.raw("POST", "/services/upload/", body=pieces,
                   headers={"Content-Type": ctype, "Authorization": hdrs["Authorization"]})
    photo_id = reply.ok().find("photoid").text
    assert up.rest("flickr.sandbox.getFileInfo", photo_id=photo_id).ok().find("file").get("sha256") == _sha(jpeg)


def test_async_upload_and_check_tickets(up):
    reply = up.upload(placeholder_jpeg(16, 16), title="async", **{"async": 1})
    root = reply.ok()
    assert structure(root) == structure(ET.fromstring(fixture_text("xml/upload.async.xml")))
    ticket = root.find("ticketid").text
    assert "-" in ticket
    first = up.rest("flickr.photos.upload.checkTickets", tickets=f"{ticket},999-1").ok()
    tickets = first.findall("uploader/ticket")
    assert tickets[0].attrib == {"id": ticket, "complete": "0"}
    assert tickets[1].attrib == {"id": "999-1", "invalid": "1"}
    doc = ET.fromstring(fixture_text("xml/doc-examples/flickr.photos.upload.checkTickets.xml"))
    assert structure(first.find("uploader"))[0:2] == structure(doc)[0:2]
    deadline = time.time() + 3
    while time.time() < deadline:
        t = up.rest("flickr.photos.upload.checkTickets", tickets=ticket).ok().find("uploader/ticket")
        if t.get("complete") == "1":
            break
        time.sleep(0.1)
    assert t.get("complete") == "1" and t.get("photoid").isdigit()
    assert up.rest("flickr.photos.getInfo", auth="oauth", photo_id=t.get("photoid")).ok()


def test_async_upload_of_bad_file_fails_its_ticket(up):
    ticket = up.upload(b"not an image", **{"async": 1}).ok().find("ticketid").text
    t = up.rest("flickr.photos.upload.checkTickets", tickets=ticket).ok().find("uploader/ticket")
    assert t.attrib == {"id": ticket, "complete": "0"}
    time.sleep(0.6)
    t = up.rest("flickr.photos.upload.checkTickets", tickets=ticket).ok().find("uploader/ticket")
    assert t.attrib == {"id": ticket, "complete": "2"}
    assert up.upload(None, **{"async": 1}).err()[0] == 2  # no photo at all is still refused at once


def test_replace(up):
    first = png_bytes(20, 10)
    node = up.upload(first).ok().find("photoid")
    photo_id = node.text
    uploaded = up.rest("flickr.photos.getInfo", photo_id=photo_id).ok().find("photo/dates").get("lastupdate")
    second = placeholder_jpeg(300, 200)
    reply = up.upload(second, path="/services/replace/", photo_id=photo_id)
    root = reply.ok()
    assert structure(root) == structure(ET.fromstring(fixture_text("xml/replace.xml")))
    assert root.find("photoid").text == photo_id
    # lastupdate moves on, even within the upload's second (clients key their caches on it).
    replaced = up.rest("flickr.photos.getInfo", photo_id=photo_id).ok().find("photo/dates").get("lastupdate")
    assert int(replaced) > int(uploaded)
    listed = up.rest("flickr.photos.getRecent", extras="last_update", per_page=50).ok().findall("photos/photo")
    assert [p.get("lastupdate") for p in listed if p.get("id") == photo_id] == [replaced]
    info = up.rest("flickr.sandbox.getFileInfo", photo_id=photo_id).ok().find("file")
    assert info.get("sha256") == _sha(second) and info.get("originalformat") == "jpg"
    assert (info.get("width"), info.get("height")) == ("300", "200")
    orig = up.rest("flickr.photos.getSizes", photo_id=photo_id, auth="oauth").ok().findall("sizes/size")[-1]
    assert up.raw("GET", orig.get("source")[len(up.url):]).body == second
    ticket = up.upload(first, path="/services/replace", photo_id=photo_id, **{"async": 1}).ok()
    assert ticket.find("ticketid") is not None
    seeded_other = up.rest("flickr.photos.search", user_id=C.OTHER_NSID, per_page=1).ok().find("photos/photo")
    assert up.upload(second, path="/services/replace/", photo_id=seeded_other.get("id")).err() == \
        (1, "Photo not found")
    assert up.upload(second, path="/services/replace/", photo_id="1").err()[0] == 1
    assert up.upload(None, path="/services/replace/", photo_id=photo_id).err()[0] == 2


def _rss_peak_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    raise AssertionError("no VmHWM")


def test_large_upload_is_streamed_to_disk(tmp_path):
    """300 MB streamed from a generator; the server's peak RSS stays far below that."""
    proc = subprocess.Popen([sys.executable, "-m", "flickr_sandbox", "--port", "0", "--data", str(tmp_path)],
                            stdout=subprocess.PIPE, text=True, cwd=os.getcwd(),
                            env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    try:
        url = proc.stdout.readline().strip()
        host, port = urllib.parse.urlsplit(url).hostname, urllib.parse.urlsplit(url).port
        sb = type("S", (), {"url": url, "api_key": C.API_KEY, "api_secret": C.API_SECRET,
                            "oauth_token": C.OAUTH_TOKEN, "oauth_token_secret": C.OAUTH_TOKEN_SECRET})()
        client = Client(sb)
        size = 300 * 1024 * 1024
        block = b"\xff\xd8\xff\xe0" + bytes(range(256)) * 4096  # ~1 MiB, JPEG magic first
        head, ctype = multipart({"title": "big"}, None)
        boundary = ctype.split("boundary=")[1]
        prefix = head[:-len(f"--{boundary}--\r\n")] + (
            f"--{boundary}\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"big.jpg\"\r\n"
            "Content-Type: image/jpeg\r\n\r\n").encode()
        suffix = f"\r\n--{boundary}--\r\n".encode()
        sha = hashlib.sha256()

        def body():
            yield prefix
            sent = 0
            while sent < size:
                chunk = block[:min(len(block), size - sent)]
                sha.update(chunk)
                sent += len(chunk)
                yield chunk
            yield suffix

        oauth = client.oauth_client((C.OAUTH_TOKEN, C.OAUTH_TOKEN_SECRET), signature_type="AUTH_HEADER")
        _, hdrs, _ = oauth.sign(url + "/services/upload/", "POST", body="title=big",
                                headers={"Content-Type": "application/x-www-form-urlencoded"})
        conn = http.client.HTTPConnection(host, port, timeout=120)
        conn.request("POST", "/services/upload/", body=body(), headers={
            "Content-Type": ctype, "Authorization": hdrs["Authorization"],
            "Content-Length": str(len(prefix) + size + len(suffix))})
        resp = conn.getresponse()
        root = ET.fromstring(resp.read())
        photo_id = root.find("photoid").text
        info = client.rest("flickr.sandbox.getFileInfo", photo_id=photo_id).ok().find("file")
        assert info.get("size") == str(size) and info.get("sha256") == sha.hexdigest()
        assert _rss_peak_kib(proc.pid) < 100 * 1024, "server held the upload in memory"
    finally:
        proc.terminate()
        proc.wait(10)


# -- Hostile bodies: bounded before anything is read or stored (issue 29, item 5) --------------

def _post_head(path: str, ctype: str, length: int, extra: str = "") -> bytes:
    return (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: {ctype}\r\n"
            f"Content-Length: {length}\r\n{extra}\r\n").encode()


def _read_reply(sock: socket.socket) -> tuple[int, bytes]:
    """Status and body of the one response on a raw socket (Content-Length framed)."""
    data = b""
    while b"\r\n\r\n" not in data:
        piece = sock.recv(65536)
        assert piece, f"connection closed before an answer: {data!r}"
        data += piece
    head, _, body = data.partition(b"\r\n\r\n")
    length = int(next(line.split(b":")[1] for line in head.split(b"\r\n")
                      if line.lower().startswith(b"content-length:")))
    while len(body) < length:
        piece = sock.recv(65536)
        assert piece, "connection closed inside the answer"
        body += piece
    return int(head.split()[1]), body


def _temp_uploads(sb) -> list[str]:
    return [name for name in os.listdir(sb.store.photo_dir) if name.startswith(".upload-")]


def test_form_fields_without_a_key_are_refused_in_small_memory():
    """1,024 fields of 1,000 KiB and no key: refused after 1 MiB of them, the sandbox's peak
    memory stays where it was (it went from 36 MB to 1.06 GB when every field was kept)."""
    fields, field_size = 1024, 1000 * 1024
    boundary = "hostile"
    value = b"v" * field_size
    part = [f"--{boundary}\r\nContent-Disposition: form-data; name=\"f{i}\"\r\n\r\n".encode() + value + b"\r\n"
            for i in range(2)]
    length = fields * len(part[0]) + len(f"--{boundary}--\r\n")
    with SandboxProcess() as sb:
        before = _rss_peak_kib(sb.process.pid)
        host, port = urllib.parse.urlsplit(sb.url).hostname, urllib.parse.urlsplit(sb.url).port
        sent = [0]

        def send_all(sock):
            try:
                for i in range(fields):
                    sock.sendall(part[i % 2])
                    sent[0] += len(part[0])
                sock.sendall(f"--{boundary}--\r\n".encode())
            except OSError:
                pass  # the sandbox answered and closed: what is expected

        with socket.create_connection((host, port), timeout=60) as sock:
            sock.sendall(_post_head("/services/upload/", f"multipart/form-data; boundary={boundary}", length))
            start = time.monotonic()
            sender = threading.Thread(target=send_all, args=(sock,), daemon=True)
            sender.start()
            status, body = _read_reply(sock)
            refused_in = time.monotonic() - start
            sender.join(30)
        after = _rss_peak_kib(sb.process.pid)
    print(f"declared {length / 1e6:.0f} MB; answered {status} after {refused_in * 1000:.0f} ms; client had sent "
          f"{sent[0] / 1e6:.1f} MB; sandbox VmHWM {before / 1024:.1f} -> {after / 1024:.1f} MiB")
    assert status == 413 and b"form fields" in body, body
    assert after - before < 32 * 1024, f"the sandbox's peak memory grew by {(after - before) / 1024:.0f} MiB"


def test_photo_with_a_bad_signature_is_refused_before_it_is_stored(up):
    """A 512 MiB photo part after fields whose signature is wrong (or without any key): the
    answer comes after the first MiB, and no temporary file was made."""
    photo_size = 512 * 1024 * 1024
    fields = {"title": "hostile"}
    signed = urllib.parse.urlencode(fields)
    oauth = up.oauth_client((C.OAUTH_TOKEN, "ffffffffffffffff"), signature_type="AUTH_HEADER")
    _, hdrs, _ = oauth.sign(up.url + "/services/upload/", "POST", body=signed,
                            headers={"Content-Type": "application/x-www-form-urlencoded"})
    head, ctype = multipart(fields, None)
    boundary = ctype.split("boundary=")[1]
    prefix = head[:-len(f"--{boundary}--\r\n")] + (
        f"--{boundary}\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"big.jpg\"\r\n"
        "Content-Type: image/jpeg\r\n\r\n").encode()
    length = len(prefix) + photo_size + len(f"\r\n--{boundary}--\r\n")
    first = b"\xff\xd8\xff\xe0" + bytes(1024 * 1024 - 4)
    host, port = urllib.parse.urlsplit(up.url).hostname, urllib.parse.urlsplit(up.url).port
    for headers, expected in ((f"Authorization: {hdrs['Authorization']}\r\n", b"oauth_problem=signature_invalid"),
                              ("", b'code="100"')):
        with socket.create_connection((host, port), timeout=10) as sock:
            start = time.monotonic()
            sock.sendall(_post_head("/services/upload/", ctype, length, headers) + prefix + first)
            status, body = _read_reply(sock)  # times out if the sandbox waits for the 511 MiB left
            took = time.monotonic() - start
            stored = _temp_uploads(up.sb)
        print(f"refused with {status} after {took * 1000:.0f} ms of a {length / 2 ** 20:.0f} MiB body; "
              f"temporary files: {stored}")
        assert expected in body and not stored, body


def test_bodies_over_their_bound_are_refused_before_reading(up):
    host, port = urllib.parse.urlsplit(up.url).hostname, urllib.parse.urlsplit(up.url).port
    cases = [("/services/upload/", "multipart/form-data; boundary=x", 2 ** 31),  # a 2 GiB upload
             ("/services/rest/", "application/x-www-form-urlencoded", MAX_FORM_BYTES + 1),
             ("/services/oauth/request_token", "application/x-www-form-urlencoded", MAX_FORM_BYTES + 1),
             ("/services/rest/", "application/octet-stream", 2 ** 62)]
    for path, ctype, length in cases:
        with socket.create_connection((host, port), timeout=10) as sock:
            sock.sendall(_post_head(path, ctype, length))  # and not one byte of the body
            status, body = _read_reply(sock)
        print(f"{path} Content-Length {length}: {status} {body!r}")
        assert status == 413, (path, status, body)


def test_chunked_upload_over_the_bound_is_refused():
    """Without a Content-Length, the body is counted as it comes: the bound holds all the same."""
    with Sandbox(max_upload_bytes=1024 * 1024) as sb:
        client = Client(sb)
        body, ctype = multipart({"title": "chunked"}, placeholder_jpeg(8, 8) + bytes(2 * 1024 * 1024))
        oauth = client.oauth_client((C.OAUTH_TOKEN, C.OAUTH_TOKEN_SECRET), signature_type="AUTH_HEADER")
        _, hdrs, _ = oauth.sign(sb.url + "/services/upload/", "POST", body="title=chunked",
                                headers={"Content-Type": "application/x-www-form-urlencoded"})
        reply = client.raw("POST", "/services/upload/", body=iter([body[i:i + 65536] for i in range(0, len(body), 65536)]),
                           headers={"Content-Type": ctype, "Authorization": hdrs["Authorization"]})
        assert reply.status == 413 and not _temp_uploads(sb), reply.text
        assert sb.store.one("SELECT COUNT(*) AS n FROM photos WHERE title='chunked'")["n"] == 0


def test_a_body_that_dribbles_in_is_answered_408(monkeypatch):
    """A slow body (slowloris) is refused once it falls behind BODY_MIN_RATE after the grace."""
    monkeypatch.setattr(request_module, "BODY_GRACE_SECONDS", 0.5, raising=False)
    with Sandbox() as sb:
        host, port = urllib.parse.urlsplit(sb.url).hostname, urllib.parse.urlsplit(sb.url).port
        with socket.create_connection((host, port), timeout=10) as sock:
            start = time.monotonic()
            sock.sendall(_post_head("/services/rest/", "application/x-www-form-urlencoded", 1000))
            sent = 0
            # One byte every 100 ms (the slowness is what is tested) until the answer comes.
            while not select.select([sock], [], [], 0.1)[0]:
                assert time.monotonic() - start < 8, "no answer to a dribbling body"
                sock.sendall(b"a")
                sent += 1
            status, body = _read_reply(sock)
        print(f"answered {status} after {time.monotonic() - start:.2f} s and {sent} bytes")
        assert status == 408, body
