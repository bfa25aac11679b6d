# SPDX-License-Identifier: MIT
"""The sandbox against hostile input, over real sockets with the standard library only.

Numbers no 64-bit integer can hold (20-digit photo ids, 40-digit pages and dates), negative and
non-numeric values must get a Flickr answer (``stat="fail"`` with the method's own error, or the
fallback Flickr applies), never a dropped connection. And OAuth parameters sent in an
``Authorization: OAuth`` header (how python-flickrapi signs) count like query ones: checkToken
answers for the header's token, and the header's signature is verified (RFC 5849 §3.5.1).
"""
from __future__ import annotations

import base64
import hashlib
import hmac
import http.client
import json
import secrets
import time
import urllib.parse
import xml.etree.ElementTree as ET
from dataclasses import dataclass

import pytest

from flickr_sandbox.methods import METHODS

HUGE = "1" * 40
TWENTY = "9" * 20
PAST_INT64 = str(2 ** 63)  # the smallest positive number SQLite's INTEGER cannot hold
# What every method gets in every numeric parameter: beyond 64 bits either way, a digit int()
# refuses, past int()'s 4300-digit limit, an embedded NUL.
HOSTILE = [HUGE, PAST_INT64, "-" + HUGE, "\u00b2", "1" * 5000, "1\0"]


# -- HTTP and RFC 5849 signing -------------------------------------------------------------------


@dataclass
class Reply:
    status: int
    headers: http.client.HTTPMessage
    body: bytes

    def rsp(self) -> ET.Element:
        """The <rsp> envelope; fails unless this is a well-formed HTTP 200 Flickr answer."""
        assert self.status == 200, (self.status, self.body[:300])
        root = ET.fromstring(self.body)
        assert root.tag == "rsp" and root.get("stat") in ("ok", "fail"), self.body[:300]
        return root

    def ok(self) -> ET.Element:
        root = self.rsp()
        assert root.get("stat") == "ok", self.body[:300]
        return root

    def err(self) -> tuple[int, str]:
        root = self.rsp()
        assert root.get("stat") == "fail", self.body[:300]
        return int(root.find("err").get("code")), root.find("err").get("msg")


def enc(value: str) -> str:
    """RFC 3986 percent-encoding (RFC 5849 §3.6)."""
    return urllib.parse.quote(value, safe="~")


def hmac_sha1(http_method: str, url: str, pairs: list[tuple[str, str]], consumer_secret: str,
              token_secret: str) -> str:
    """RFC 5849 §3.4: base string over every parameter but oauth_signature, HMAC-SHA1, base64."""
    normalized = "&".join(f"{k}={v}" for k, v in sorted((enc(k), enc(v)) for k, v in pairs))
    base = "&".join((http_method.upper(), enc(url), enc(normalized)))
    key = f"{enc(consumer_secret)}&{enc(token_secret)}".encode()
    return base64.b64encode(hmac.new(key, base.encode(), hashlib.sha1).digest()).decode()


def oauth_values(server, token: str) -> dict[str, str]:
    return {"oauth_consumer_key": server.api_key, "oauth_nonce": secrets.token_hex(16),
            "oauth_signature_method": "HMAC-SHA1", "oauth_timestamp": str(int(time.time())),
            "oauth_token": token, "oauth_version": "1.0"}


def authorization_header(oauth: dict[str, str]) -> str:
    # realm first: it is sent but never signed (RFC 5849 §3.5.1).
    return 'OAuth realm="http://sandbox.invalid/", ' + ", ".join(
        f'{enc(k)}="{enc(v)}"' for k, v in oauth.items())


def send(server, http_method: str, path: str, params: dict[str, str], headers=None) -> Reply:
    """One request on a fresh connection; a dropped connection fails the test with a clear message."""
    parts = urllib.parse.urlsplit(server.url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    encoded = urllib.parse.urlencode(params, quote_via=urllib.parse.quote)
    headers = dict(headers or {})
    try:
        if http_method == "GET":
            conn.request("GET", f"{path}?{encoded}", headers=headers)
        else:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            conn.request(http_method, path, body=encoded.encode(), headers=headers)
        resp = conn.getresponse()
        return Reply(resp.status, resp.headers, resp.read())
    except (http.client.RemoteDisconnected, ConnectionError) as exc:
        pytest.fail(f"the sandbox dropped the connection instead of answering: {exc!r}")
    finally:
        conn.close()


def rest(server, method: str, **params) -> Reply:
    """An unsigned REST call (api_key only)."""
    return send(server, "GET", "/services/rest/", {"method": method, "api_key": server.api_key, **params})


def signed(server, path: str, params: dict[str, str], *, http_method: str = "GET",
           in_header: bool = False, token: tuple[str, str] | None = None, tamper: bool = False) -> Reply:
    """A request signed for the sandbox's access token, oauth_* in the query/form or the header."""
    token, token_secret = token or (server.oauth_token, server.oauth_token_secret)
    oauth = oauth_values(server, token)
    oauth["oauth_signature"] = hmac_sha1(http_method, server.url + path, [*params.items(), *oauth.items()],
                                         server.api_secret, token_secret)
    if tamper:
        oauth["oauth_signature"] = base64.b64encode(b"\0" * 20).decode()
    if in_header:
        return send(server, http_method, path, params, {"Authorization": authorization_header(oauth)})
    return send(server, http_method, path, {**params, **oauth})


def signed_rest(server, method: str, *, http_method: str = "GET", in_header: bool = False,
                token: tuple[str, str] | None = None, tamper: bool = False, **params) -> Reply:
    return signed(server, "/services/rest/", {"method": method, **params}, http_method=http_method,
                  in_header=in_header, token=token, tamper=tamper)


# -- numbers beyond 64 bits, negative and non-numeric values ----------------------------------


@pytest.mark.parametrize("photo_id", [TWENTY, HUGE, PAST_INT64, "-1", "abc", "\u00b2", "1" * 5000])
@pytest.mark.parametrize("method", ["flickr.photos.getInfo", "flickr.photos.getSizes"])
def test_unusable_photo_id_is_photo_not_found(sandbox, method, photo_id):
    assert rest(sandbox, method, photo_id=photo_id).err() == (1, "Photo not found")


def test_twenty_digit_photo_id_in_json_and_signed(sandbox):
    reply = rest(sandbox, "flickr.photos.getInfo", photo_id=TWENTY, format="json", nojsoncallback="1")
    assert reply.status == 200
    assert json.loads(reply.body) == {"stat": "fail", "code": 1, "message": "Photo not found"}
    for method in ("flickr.photos.setMeta", "flickr.photos.addTags", "flickr.photos.delete"):
        reply = signed_rest(sandbox, method, http_method="POST", photo_id=TWENTY, title="t", tags="t")
        assert reply.err() == (1, "Photo not found"), method


def _photos(reply: Reply) -> ET.Element:
    return reply.ok().find("photos")


@pytest.mark.parametrize("method,criteria", [("flickr.photos.getRecent", {}),
                                             ("flickr.photos.search", {"text": "e"})])
@pytest.mark.parametrize("page", [HUGE, PAST_INT64, str(2 ** 62), "1" * 5000])
def test_page_past_any_offset_is_an_empty_page(sandbox, method, criteria, page):
    photos = _photos(rest(sandbox, method, page=page, **criteria))
    assert int(photos.get("total")) > 0
    assert int(photos.get("page")) > int(photos.get("pages"))  # past the last page...
    assert len(photos) == 0  # ...so nothing on it
    assert int(photos.get("page")) <= 2 ** 63 - 1


@pytest.mark.parametrize("method,criteria", [("flickr.photos.getRecent", {}),
                                             ("flickr.photos.search", {"text": "e"})])
def test_per_page_and_page_fall_back_as_for_any_bad_value(sandbox, method, criteria):
    for huge in (HUGE, "1" * 5000):  # capped, as any per_page over 500
        assert _photos(rest(sandbox, method, per_page=huge, **criteria)).get("perpage") == "500"
    for bad in ("-" + HUGE, "-1", "0", "abc", "\u00b2"):
        photos = _photos(rest(sandbox, method, per_page=bad, page=bad, **criteria))
        assert (photos.get("page"), photos.get("perpage")) == ("1", "100"), bad
        assert len(photos) == min(100, int(photos.get("total")))


def _search_total(server, **criteria) -> int:
    return int(_photos(rest(server, "flickr.photos.search", **criteria)).get("total"))


@pytest.mark.parametrize("kind", ["taken", "upload"])
def test_dates_beyond_any_calendar(sandbox, kind):
    everything = int(_photos(rest(sandbox, "flickr.photos.getRecent")).get("total"))
    assert everything > 0
    # A 40-digit unix time is the far future: nothing is later, everything is earlier.
    assert _search_total(sandbox, **{f"min_{kind}_date": HUGE}) == 0
    assert _search_total(sandbox, **{f"max_{kind}_date": HUGE}) == everything
    for far in (PAST_INT64, "99999999999999", "1" * 5000):
        assert _search_total(sandbox, **{f"min_{kind}_date": far}) == 0, far
    # Not a date at all: the criterion is ignored, as for any unparsable date.
    for bad in ("-" + HUGE, "-1", "abc", "\u00b2"):
        assert _search_total(sandbox, **{f"min_{kind}_date": bad}) == everything, bad


@pytest.mark.parametrize("value", [HUGE, TWENTY, "-1", "\u00b2"])
def test_other_numeric_ids(sandbox, value):
    assert rest(sandbox, "flickr.photosets.getPhotos", photoset_id=value).err() == (1, "Photoset not found")
    assert rest(sandbox, "flickr.places.getTopPlacesList", place_type_id=value).err() == (
        2, "Not a valid place type")
    assert rest(sandbox, "flickr.sandbox.getFileInfo", photo_id=value).err() == (1, "Photo not found")
    assert signed_rest(sandbox, "flickr.photosets.addPhoto", http_method="POST", photoset_id=value,
                       photo_id=value).err() == (1, "Photoset not found")
    assert signed_rest(sandbox, "flickr.photosets.create", http_method="POST", title="t",
                       primary_photo_id=value).err() == (2, "Photo not found")


@pytest.mark.parametrize("in_header", [False, True])
def test_replace_of_a_forty_digit_photo_id_is_photo_not_found(sandbox, in_header):
    reply = signed(sandbox, "/services/replace/", {"photo_id": HUGE}, http_method="POST",
                   in_header=in_header)
    assert reply.err() == (1, "Photo not found")


def test_photo_file_with_a_forty_digit_id_is_404(sandbox):
    reply = send(sandbox, "GET", f"/photos/65535/{HUGE}_0123456789.jpg", {})
    assert reply.status == 404 and b"404 Not Found" in reply.body


# (huge=HUGE is left out: before the fix it streamed a body of 10**40 bytes.)
@pytest.mark.parametrize("spec", [f"latency={HUGE}", f"slow={HUGE}", f"latency={PAST_INT64}",
                                  "latency=\u00b2", "huge=\u00b2", "http503;times=\u00b2"])
def test_fault_values_out_of_range_are_a_bad_spec(sandbox, spec):
    reply = send(sandbox, "GET", "/services/rest/", {"method": "flickr.test.echo",
                                                     "api_key": sandbox.api_key, "sandbox_fault": spec})
    assert reply.status == 400 and reply.body.startswith(b"sandbox_fault: "), reply.body[:200]


# Every numeric parameter a method reads (the ones it ignores cost nothing to send).
FUZZED = ["photo_id", "photoset_id", "primary_photo_id", "page", "per_page", "min_upload_date",
          "max_upload_date", "min_taken_date", "max_taken_date", "place_type_id", "date", "tickets"]


@pytest.mark.parametrize("method", sorted(METHODS))
def test_every_method_answers_hostile_numbers(sandbox, method):
    """Signed with a delete-perms token so every method gets past authentication to its arguments."""
    for name in FUZZED:
        for value in HOSTILE:
            signed_rest(sandbox, method, http_method="POST", **{name: value}).rsp()


# -- the last resort: a bug in a handler answers 500, and is logged -----------------------------


@pytest.fixture
def own_sandbox():
    """An in-process sandbox, for tests that plant a bug in it."""
    from flickr_sandbox import Sandbox
    with Sandbox() as sb:
        yield sb


def test_a_bug_in_a_method_answers_500_and_is_logged(own_sandbox, monkeypatch, caplog):
    from flickr_sandbox.methods import Method

    def broken(call):
        raise RuntimeError("planted bug")
    monkeypatch.setitem(METHODS, "flickr.test.broken", Method(broken, 0, False))
    parts = urllib.parse.urlsplit(own_sandbox.url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    try:
        for _ in range(2):  # the connection survives the failure (keep-alive)
            conn.request("GET", f"/services/rest/?method=flickr.test.broken&api_key={own_sandbox.api_key}")
            resp = conn.getresponse()
            body = resp.read()
            assert resp.status == 500 and b"500 Internal Server Error" in body
            assert int(resp.headers["Content-Length"]) == len(body)
        conn.request("GET", f"/services/rest/?method=flickr.test.echo&api_key={own_sandbox.api_key}")
        assert conn.getresponse().status == 200
    finally:
        conn.close()
    logged = [r for r in caplog.records if r.name == "flickr_sandbox" and r.exc_info]
    assert logged and "planted bug" in str(logged[0].exc_info[1])
    assert "api_key" not in logged[0].getMessage()  # the path only, never the query


def test_a_bug_while_reading_the_request_answers_500(own_sandbox, monkeypatch, caplog):
    from flickr_sandbox import server

    def broken(req):
        raise ValueError("planted bug")
    monkeypatch.setitem(server.ROUTES, "/services/rest", broken)
    reply = send(own_sandbox, "POST", "/services/rest/", {"method": "flickr.test.echo"})
    assert reply.status == 500 and b"500 Internal Server Error" in reply.body
    assert reply.headers["Connection"] == "close"  # the body may not have been read
    assert any(r.name == "flickr_sandbox" and r.exc_info for r in caplog.records)


# -- OAuth parameters in the Authorization header ---------------------------------------------


@pytest.mark.parametrize("http_method", ["GET", "POST"])
def test_check_token_answers_for_the_header_token(sandbox, http_method):
    reply = signed_rest(sandbox, "flickr.auth.oauth.checkToken", http_method=http_method, in_header=True)
    oauth = reply.ok().find("oauth")
    assert oauth.find("token").text == sandbox.oauth_token
    assert oauth.find("perms").text == "delete"
    assert oauth.find("user").get("nsid") == "12037949@N00"


def test_header_params_are_request_params(sandbox):
    """What a method sees does not depend on where the client put the oauth_* parameters."""
    echo = signed_rest(sandbox, "flickr.test.echo", in_header=True, x="y").ok()
    values = {e.tag: e.text for e in echo}
    assert values["oauth_token"] == values["auth_token"] == sandbox.oauth_token
    assert values["oauth_signature"] == values["api_sig"]
    assert "realm" not in values


@pytest.mark.parametrize("http_method", ["GET", "POST"])
def test_check_token_with_a_wrong_header_signature_fails(sandbox, http_method):
    reply = signed_rest(sandbox, "flickr.auth.oauth.checkToken", http_method=http_method,
                        in_header=True, tamper=True)
    assert reply.status == 401
    assert reply.body.startswith(b"oauth_problem=signature_invalid&debug_sbs="), reply.body[:200]


def test_header_signature_covers_the_query_parameters(sandbox):
    """Signed without the query's parameters (realm excluded, but nothing else): refused."""
    oauth = oauth_values(sandbox, sandbox.oauth_token)
    oauth["oauth_signature"] = hmac_sha1("GET", sandbox.url + "/services/rest/", list(oauth.items()),
                                         sandbox.api_secret, sandbox.oauth_token_secret)
    reply = send(sandbox, "GET", "/services/rest/", {"method": "flickr.auth.oauth.checkToken"},
                 {"Authorization": authorization_header(oauth)})
    assert reply.status == 401 and reply.body.startswith(b"oauth_problem=signature_invalid")


def test_check_token_with_an_unknown_header_token_fails(sandbox):
    reply = signed_rest(sandbox, "flickr.auth.oauth.checkToken", in_header=True,
                        token=("72157600000000099-0000000000000000", "0000000000000000"))
    assert reply.status == 401 and reply.body == b"oauth_problem=token_rejected"
