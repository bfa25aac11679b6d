# SPDX-License-Identifier: MIT
"""OAuth 1.0a (RFC 5849) and Flickr's legacy ``api_sig`` signatures.

Pure functions: percent-encoding, signature base string, HMAC-SHA1 and MD5
signatures, ``Authorization: OAuth`` header parsing.  The server uses them to
verify what clients send; the tests check them against the published vectors
in docs/protocol.md §11.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
from urllib.parse import quote, unquote


def enc(value: str) -> str:
    """RFC 3986 percent-encoding: only ``A-Z a-z 0-9 - . _ ~`` stay literal."""
    return quote(value, safe="~")


def normalize_parameters(pairs: list[tuple[str, str]]) -> str:
    """RFC 5849 §3.4.1.3.2: encode, sort by name then value, join with ``&``.

    ``oauth_signature`` is excluded; duplicates are kept.
    """
    encoded = sorted((enc(k), enc(v)) for k, v in pairs if k != "oauth_signature")
    return "&".join(f"{k}={v}" for k, v in encoded)


def base_url(scheme: str, host: str, path: str) -> str:
    """RFC 5849 §3.4.1.2: lowercase scheme and host, drop the default port, keep the path."""
    scheme = scheme.lower()
    host = host.lower()
    name, colon, port = host.rpartition(":")
    if colon and not host.endswith("]") and port == {"http": "80", "https": "443"}.get(scheme):
        host = name
    return f"{scheme}://{host}{path or '/'}"


def base_string(method: str, url: str, pairs: list[tuple[str, str]]) -> str:
    """Signature base string: ``METHOD&enc(url)&enc(normalized parameters)``."""
    return "&".join((method.upper(), enc(url), enc(normalize_parameters(pairs))))


def hmac_sha1(base: str, consumer_secret: str, token_secret: str = "") -> str:
    """Base64 HMAC-SHA1 of the base string with key ``enc(cs)&enc(ts)``."""
    key = f"{enc(consumer_secret)}&{enc(token_secret)}".encode()
    return base64.b64encode(hmac.new(key, base.encode(), hashlib.sha1).digest()).decode()


def signatures_match(expected: str, received: str) -> bool:
    return hmac.compare_digest(expected.encode(), received.encode())


_HEADER_PARAM = re.compile(r'\s*([^=\s,]+)\s*=\s*"([^"]*)"\s*(?:,|$)')


def parse_authorization(header: str | None) -> list[tuple[str, str]] | None:
    """Parameters of an ``Authorization: OAuth k="v", ...`` header (RFC 5849 §3.5.1).

    Returns None when the header is absent or not an OAuth one.  ``realm`` is
    dropped because it never takes part in the signature.
    """
    if not header or not header[:6].lower() == "oauth ":
        return None
    pairs = []
    for name, value in _HEADER_PARAM.findall(header[6:]):
        if name != "realm":
            pairs.append((unquote(name), unquote(value)))
    return pairs


def legacy_api_sig(secret: str, params: dict[str, str]) -> str:
    """Flickr's pre-OAuth signature: md5(secret + name1 + value1 + ...), sorted by name."""
    text = secret + "".join(k + params[k] for k in sorted(params))
    return hashlib.md5(text.encode("utf-8")).hexdigest()
