# SPDX-License-Identifier: MIT
"""A small test client for the sandbox: raw HTTP, signed with oauthlib or api_sig."""
from __future__ import annotations

import hashlib
import http.client
import pathlib
import ssl
import urllib.parse
import uuid
import xml.etree.ElementTree as ET
from dataclasses import dataclass

from oauthlib import oauth1

from flickr_sandbox.catalogue import METHODS as CATALOGUE
from flickr_sandbox.methods import METHODS as SANDBOX_METHODS

# Flickr requires POST for write and delete methods (the sandbox's own ones included).
POST_METHODS = frozenset([row[0] for row in CATALOGUE if row[1] == "POST"] +
                         [name for name, m in SANDBOX_METHODS.items() if m.perms >= 2])
# The fixtures of every language's tests (provenance: Tests/Fixtures/README.md); names below are relative.
FIXTURES = pathlib.Path(__file__).resolve().parents[2] / "Tests" / "Fixtures"


@dataclass
class Reply:
    status: int
    headers: http.client.HTTPMessage
    body: bytes

    @property
    def text(self) -> str:
        return self.body.decode("utf-8")

    @property
    def xml(self) -> ET.Element:
        return ET.fromstring(self.body)

    def ok(self) -> ET.Element:
        root = self.xml
        assert self.status == 200 and root.get("stat") == "ok", self.text
        return root

    def err(self) -> tuple[int, str]:
        root = self.xml
        assert root.get("stat") == "fail", self.text
        e = root.find("err")
        return int(e.get("code")), e.get("msg")


class Client:
    def __init__(self, sandbox, ca_file: str | None = None):
        self.sb = sandbox
        self.url = sandbox.url
        parts = urllib.parse.urlsplit(self.url)
        self.scheme, self.host, self.port = parts.scheme, parts.hostname, parts.port
        self.ca_file = ca_file or getattr(sandbox, "ca_file", None)

    def connection(self) -> http.client.HTTPConnection:
        if self.scheme == "https":
            ctx = ssl.create_default_context(cafile=self.ca_file)
            return http.client.HTTPSConnection(self.host, self.port, context=ctx, timeout=30)
        return http.client.HTTPConnection(self.host, self.port, timeout=30)

    def raw(self, method: str, path: str, body=None, headers=None, conn=None) -> Reply:
        own = conn is None
        conn = conn or self.connection()
        try:
            conn.request(method, path, body=body, headers=headers or {})
            resp = conn.getresponse()
            return Reply(resp.status, resp.headers, resp.read())
        finally:
            if own:
                conn.close()

    # -- REST -----------------------------------------------------------------

    def rest(self, method: str | None = None, *, auth: str = "none", http_method: str | None = None,
             path: str = "/services/rest/", token=None, where: str = "query", headers=None,
             conn=None, **params) -> Reply:
        """Call a REST method. auth: none | oauth | legacy. http_method: by default POST for the
        methods Flickr requires it for (write and delete ones), else GET."""
        if http_method is None:
            http_method = "POST" if method in POST_METHODS else "GET"
        if method is not None:
            params = {"method": method, **params}
        params = {k: str(v) for k, v in params.items()}
        if auth == "none":
            params.setdefault("api_key", self.sb.api_key)
        elif auth == "legacy":
            params.setdefault("api_key", self.sb.api_key)
            params.setdefault("auth_token", token or self.sb.auth_token)
            params["api_sig"] = api_sig(self.sb.api_secret, params)
        if auth == "oauth":
            tok = token or (self.sb.oauth_token, self.sb.oauth_token_secret)
            return self.oauth_request(http_method, path, params, tok, where=where, headers=headers,
                                      conn=conn)
        return self._send(http_method, path, params, headers or {}, conn)

    def _send(self, http_method, path, params, headers, conn=None) -> Reply:
        encoded = urllib.parse.urlencode(params, quote_via=urllib.parse.quote)
        if http_method == "GET":
            return self.raw("GET", f"{path}?{encoded}", headers=headers, conn=conn)
        headers = {"Content-Type": "application/x-www-form-urlencoded", **headers}
        return self.raw("POST", path, body=encoded.encode(), headers=headers, conn=conn)

    def oauth_client(self, token=None, secret_override=None, **kw) -> oauth1.Client:
        kw.setdefault("signature_type", oauth1.SIGNATURE_TYPE_QUERY)
        return oauth1.Client(self.sb.api_key,
                             client_secret=secret_override or self.sb.api_secret,
                             resource_owner_key=token[0] if token else None,
                             resource_owner_secret=token[1] if token else None, **kw)

    def oauth_request(self, http_method, path, params, token, *, where="query", headers=None,
                      conn=None, secret_override=None, sign_url=None, **client_kw) -> Reply:
        """Sign with oauthlib and send. GET: params in the query; POST: params in a form body.

        where: query | body | header, the place of the oauth_* parameters.
        sign_url: sign for this URL instead of the one requested (wrong-URL tests).
        """
        kind = {"query": oauth1.SIGNATURE_TYPE_QUERY, "body": oauth1.SIGNATURE_TYPE_BODY,
                "header": oauth1.SIGNATURE_TYPE_AUTH_HEADER}[where]
        client = self.oauth_client(token, secret_override, signature_type=kind, **client_kw)
        encoded = urllib.parse.urlencode(params, quote_via=urllib.parse.quote)
        url = sign_url or self.url + path
        headers = dict(headers or {})
        if http_method == "GET":
            uri, hdrs, _ = client.sign(f"{url}?{encoded}" if encoded else url, "GET", headers=headers)
            query = urllib.parse.urlsplit(uri).query
            return self.raw("GET", f"{path}?{query}" if query else path, headers=hdrs, conn=conn)
        headers["Content-Type"] = "application/x-www-form-urlencoded"
        uri, hdrs, body = client.sign(url, http_method, body=encoded, headers=headers)
        query = urllib.parse.urlsplit(uri).query
        return self.raw(http_method, f"{path}?{query}" if query else path,
                        body=(body or "").encode(), headers=hdrs, conn=conn)

    # -- upload ---------------------------------------------------------------

    def upload(self, photo: bytes | None, *, path="/services/upload/", token=None, auth="oauth",
               filename="photo.jpg", extra_headers=None, **fields) -> Reply:
        """Multipart upload, signed over every field except photo."""
        fields = {k: str(v) for k, v in fields.items()}
        headers = dict(extra_headers or {})
        if auth == "oauth":
            tok = token or (self.sb.oauth_token, self.sb.oauth_token_secret)
            client = self.oauth_client(tok, signature_type=oauth1.SIGNATURE_TYPE_AUTH_HEADER)
            _, hdrs, _ = client.sign(self.url + path, "POST",
                                     body=urllib.parse.urlencode(fields, quote_via=urllib.parse.quote),
                                     headers={"Content-Type": "application/x-www-form-urlencoded"})
            headers["Authorization"] = hdrs["Authorization"]
        elif auth == "legacy":
            fields.setdefault("api_key", self.sb.api_key)
            fields.setdefault("auth_token", token or self.sb.auth_token)
            fields["api_sig"] = api_sig(self.sb.api_secret, fields)
        elif auth == "none":
            fields.setdefault("api_key", self.sb.api_key)
        body, content_type = multipart(fields, photo, filename)
        headers["Content-Type"] = content_type
        return self.raw("POST", path, body=body, headers=headers)


def api_sig(secret: str, params: dict) -> str:
    text = secret + "".join(k + params[k] for k in sorted(params) if k not in ("api_sig", "photo"))
    return hashlib.md5(text.encode()).hexdigest()


def multipart(fields: dict, photo: bytes | None, filename="photo.jpg") -> tuple[bytes, str]:
    boundary = "----sbtest" + uuid.uuid4().hex
    out = bytearray()
    for k, v in fields.items():
        out += (f"--{boundary}\r\nContent-Disposition: form-data; name=\"{k}\"\r\n\r\n{v}\r\n").encode()
    if photo is not None:
        out += (f"--{boundary}\r\nContent-Disposition: form-data; name=\"photo\"; "
                f"filename=\"{filename}\"\r\nContent-Type: application/octet-stream\r\n\r\n").encode()
        out += photo + b"\r\n"
    out += f"--{boundary}--\r\n".encode()
    return bytes(out), f"multipart/form-data; boundary={boundary}"


def png_bytes(width: int, height: int) -> bytes:
    """A valid PNG (solid grey), built with zlib."""
    import struct
    import zlib

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    raw = b"".join(b"\x00" + b"\x80" * width for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def fixture_text(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


def structure(elem: ET.Element) -> tuple:
    """(tag, attribute names in order, child structures by first occurrence of each tag)."""
    seen = {}
    for child in elem:
        seen.setdefault(child.tag, structure(child))
    return elem.tag, tuple(elem.attrib), tuple(seen.values())


def oauth_flow(client: Client, perms="write", callback="http://localhost/cb", **authorize_args):
    """Run request_token -> authorize -> access_token with oauthlib; return (token, secret, fields)."""
    reply = client.oauth_request("GET", "/services/oauth/request_token", {}, None,
                                 callback_uri=callback)
    assert reply.status == 200, reply.text
    cred = dict(urllib.parse.parse_qsl(reply.text))
    query = urllib.parse.urlencode({"oauth_token": cred["oauth_token"], "perms": perms, **authorize_args})
    auth = client.raw("GET", f"/services/oauth/authorize?{query}")
    assert auth.status == 302, auth.text
    location = auth.headers["Location"]
    verifier = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(location).query))["oauth_verifier"]
    reply = client.oauth_request("GET", "/services/oauth/access_token", {},
                                 (cred["oauth_token"], cred["oauth_token_secret"]), verifier=verifier)
    assert reply.status == 200, reply.text
    fields = dict(urllib.parse.parse_qsl(reply.text))
    return fields["oauth_token"], fields["oauth_token_secret"], fields


