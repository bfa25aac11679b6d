# SPDX-License-Identifier: MIT
"""Fault injection: every kind, by parameter or header, with times/key counting."""
import http.client
import socket
import time
import xml.etree.ElementTree as ET

import pytest

from flickr_sandbox import Sandbox
from flickr_sandbox import constants as C
from flickr_sandbox.faults import FaultSyntaxError, parse
from flickr_sandbox.pictures.jpeg import placeholder_jpeg

ECHO = f"/services/rest/?method=flickr.test.echo&api_key={C.API_KEY}"


def get(client, fault=None, header=None, path=ECHO):
    conn = client.connection()
    try:
        target = path + (f"&sandbox_fault={fault}" if fault else "")
        conn.request("GET", target, headers={"X-Sandbox-Fault": header} if header else {})
        resp = conn.getresponse()
        return resp.status, dict(resp.headers), resp.read()
    finally:
        conn.close()


def test_latency(client):
    t = time.monotonic()
    status, _, body = get(client, "latency=300")
    assert status == 200 and time.monotonic() - t >= 0.3
    assert b"sandbox_fault" not in body  # stripped before the method sees the arguments


@pytest.mark.parametrize("status", [500, 502, 503, 504])
def test_http_5xx(client, status):
    code, headers, body = get(client, f"http{status}")
    assert code == status and headers["Content-Type"].startswith("text/html")
    assert str(status).encode() in body and int(headers["Content-Length"]) == len(body)


def test_http_429_retry_after(client):
    code, headers, body = get(client, "http429=7")
    assert (code, headers["Retry-After"]) == (429, "7") and b"429 Too Many Requests" in body
    assert get(client, "http429")[1]["Retry-After"] == "1"


def test_malformed_empty_huge(client):
    status, headers, body = get(client, "malformed")
    assert status == 200 and headers["Content-Type"] == "text/xml; charset=utf-8"
    with pytest.raises(ET.ParseError):
        ET.fromstring(body)
    assert get(client, "empty")[0:3:2] == (200, b"")
    status, headers, body = get(client, "huge=3000000")
    assert status == 200 and len(body) == 3000000 == int(headers["Content-Length"])
    assert ET.fromstring(body).get("stat") == "ok"


def test_drop_sends_partial_body_then_resets(client):
    conn = client.connection()
    conn.request("GET", ECHO + "&sandbox_fault=drop")
    resp = conn.getresponse()
    assert resp.status == 200
    with pytest.raises((http.client.IncompleteRead, ConnectionResetError)):
        resp.read()
    conn.close()


def test_truncate(client):
    conn = client.connection()
    conn.request("GET", ECHO + "&sandbox_fault=truncate")
    resp = conn.getresponse()
    declared = int(resp.headers["Content-Length"])
    with pytest.raises(http.client.IncompleteRead) as info:
        resp.read()
    assert 0 < len(info.value.partial) < declared
    assert info.value.partial.endswith(b"</rsp>\n")
    conn.close()


def test_slow(client):
    t = time.monotonic()
    status, _, body = get(client, "slow=10", path=ECHO + "&pad=" + "x" * 200)
    chunks = -(-len(body) // 32)
    assert chunks > 5 and status == 200 and ET.fromstring(body).get("stat") == "ok"
    assert time.monotonic() - t >= (chunks - 1) * 0.010


def test_reset(client):
    conn = client.connection()
    conn.request("GET", ECHO + "&sandbox_fault=reset")
    with pytest.raises((ConnectionResetError, http.client.RemoteDisconnected)):
        conn.getresponse()
    conn.close()


def test_header_form_and_times_key(client):
    assert get(client, header="http503")[0] == 503
    seq = [get(client, header="http500;times=2;key=retry-a")[0] for _ in range(4)]
    assert seq == [500, 500, 200, 200]
    # Keys count independently; the same key in the parameter form shares the counter.
    assert get(client, "http502;times=1;key=retry-b")[0] == 502
    assert get(client, "http502;times=1;key=retry-b")[0] == 200
    assert get(client, "reset;times=0;key=never")[0] == 200


def test_bad_spec(client):
    status, _, body = get(client, "explode")
    assert status == 400 and b"unknown fault" in body
    for bad in ("latency", "drop=3", "huge=x", "http500;times=a"):
        with pytest.raises(FaultSyntaxError):
            parse(bad)


def test_fault_parameter_is_signed(client):
    """sandbox_fault is an ordinary parameter: part of the OAuth signature, then stripped."""
    reply = client.rest("flickr.test.echo", auth="oauth", sandbox_fault="latency=1", foo="1")
    root = reply.ok()
    assert "sandbox_fault" not in [e.tag for e in root] and root.find("foo").text == "1"
    # Tampering with it breaks the signature.
    c = client.oauth_client((C.OAUTH_TOKEN, C.OAUTH_TOKEN_SECRET))
    uri, _, _ = c.sign(f"{client.url}/services/rest/?method=flickr.test.echo&sandbox_fault=latency%3D1")
    tampered = client.raw("GET", uri[len(client.url):].replace("latency%3D1", "latency%3D2"))
    assert tampered.status == 401


def test_faults_on_upload_and_oauth(client):
    assert client.upload(placeholder_jpeg(8, 8), sandbox_fault="http502").status == 502
    reply = client.upload(placeholder_jpeg(8, 8), extra_headers={"X-Sandbox-Fault": "http500;times=1;key=up"})
    assert reply.status == 500
    assert client.upload(placeholder_jpeg(8, 8), extra_headers={"X-Sandbox-Fault": "http500;times=1;key=up"}).ok()
    r = client.raw("GET", "/services/oauth/request_token?sandbox_fault=http429=2")
    assert r.status == 429 and r.headers["Retry-After"] == "2"
    photo = client.rest("flickr.photos.getRecent", per_page=1, extras="url_sq").ok().find("photos/photo")
    path = photo.get("url_sq")[len(client.url):]
    assert client.raw("GET", path, headers={"X-Sandbox-Fault": "http504"}).status == 504


def test_connection_reusable_after_faults(client):
    conn = client.connection()
    try:
        for fault in ("http503", "http429", "malformed", "latency=1", "empty"):
            conn.request("GET", ECHO + f"&sandbox_fault={fault}")
            conn.getresponse().read()
        sock = conn.sock
        conn.request("GET", ECHO)
        assert conn.getresponse().status == 200 and conn.sock is sock
    finally:
        conn.close()


def test_global_latency():
    with Sandbox(latency_ms=150) as sb:
        t = time.monotonic()
        with socket.create_connection(("127.0.0.1", sb.port)) as s:
            s.sendall(f"GET {ECHO} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
            data = b""
            while chunk := s.recv(65536):
                data += chunk
        assert data.startswith(b"HTTP/1.1 200") and time.monotonic() - t >= 0.15
