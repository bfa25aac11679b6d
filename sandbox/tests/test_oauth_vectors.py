# SPDX-License-Identifier: MIT
"""The sandbox's signature code against the published vectors (docs/protocol.md §11)."""
import pytest

from flickr_sandbox.oauth import (base_string, base_url, enc, hmac_sha1, legacy_api_sig,
                                  normalize_parameters, parse_authorization)

CK = "653e7a6ecc1d528c516cc8f92cf98611"
CS = "a9567d986a7539fe"
COMMON = [("oauth_consumer_key", CK), ("oauth_signature_method", "HMAC-SHA1"), ("oauth_version", "1.0")]

STEP1 = COMMON + [("oauth_callback", "http://www.example.com"), ("oauth_nonce", "95613465"),
                  ("oauth_timestamp", "1305586162")]
STEP3 = COMMON + [("oauth_nonce", "37026218"), ("oauth_timestamp", "1305586309"),
                  ("oauth_verifier", "5d1b96a26b494074"),
                  ("oauth_token", "72157626737672178-022bbd2f4c2f3432")]
STEP4 = COMMON + [("nojsoncallback", "1"), ("format", "json"), ("method", "flickr.test.login"),
                  ("oauth_nonce", "84354935"), ("oauth_timestamp", "1305583871"),
                  ("oauth_token", "72157626318069415-087bfc7b5816092c")]


def test_flickr_doc_flow():
    b1 = base_string("GET", "http://www.flickr.com/services/oauth/request_token", STEP1)
    assert b1 == ("GET&http%3A%2F%2Fwww.flickr.com%2Fservices%2Foauth%2Frequest_token&oauth_callback"
                  "%3Dhttp%253A%252F%252Fwww.example.com%26oauth_consumer_key%3D653e7a6ecc1d528c516cc8f92"
                  "cf98611%26oauth_nonce%3D95613465%26oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp"
                  "%3D1305586162%26oauth_version%3D1.0")
    assert hmac_sha1(b1, CS) == "7w18YS2bONDPL/zgyzP5XTr5af4="
    b3 = base_string("GET", "http://www.flickr.com/services/oauth/access_token", STEP3)
    assert hmac_sha1(b3, CS, "fccb68c4e6103197") == "UD9TGXzrvLIb0Ar5ynqvzatM58U="
    b4 = base_string("GET", "http://www.flickr.com/services/rest", STEP4)
    assert hmac_sha1(b4, CS, "a202d1f853ec69de") == "dh3pEH0Xk1qILr82HyhOsxRv1XA="


@pytest.mark.parametrize("url,pairs,ts,sig", [
    ("https://www.flickr.com/services/oauth/request_token", STEP1, "", "2zL7aYEzEEY0IvEgQjT7IqB518U="),
    ("http://api.flickr.com/services/rest", STEP4, "a202d1f853ec69de", "GxxloJaiXUv6U5u0psFJXG0vxOI="),
    ("http://www.flickr.com/services/rest/", STEP4, "a202d1f853ec69de", "n9WYiswmYHrks1plejLaYYnb2/w="),
    ("https://api.flickr.com/services/rest/", STEP4, "a202d1f853ec69de", "5+P7V7+LINmeYM1tz2o0pxXoRGo="),
])
def test_same_parameters_other_urls(url, pairs, ts, sig):
    assert hmac_sha1(base_string("GET", url, pairs), CS, ts) == sig


def test_rfc5849_examples():
    ck, cs = "dpf43f3p2l4k3l03", "kd94hf93k423kf44"
    p1 = [("oauth_consumer_key", ck), ("oauth_signature_method", "HMAC-SHA1"),
          ("oauth_callback", "http://printer.example.com/ready"), ("oauth_nonce", "wIjqoS"),
          ("oauth_timestamp", "137131200")]
    assert hmac_sha1(base_string("POST", "https://photos.example.net/initiate", p1), cs) == \
        "74KNZJeDHnMBp0EMJ9ZHt/XKycU="
    p2 = [("oauth_consumer_key", ck), ("oauth_signature_method", "HMAC-SHA1"),
          ("oauth_token", "hh5s93j4hdidpola"), ("oauth_verifier", "hfdp7dh39dks9884"),
          ("oauth_nonce", "walatlh"), ("oauth_timestamp", "137131201")]
    assert hmac_sha1(base_string("POST", "https://photos.example.net/token", p2), cs,
                     "hdhd0244k9j7ao03") == "gKgrFCywp7rO0OXSjdot/IHF7IU="
    p3 = [("file", "vacation.jpg"), ("size", "original"), ("oauth_consumer_key", ck),
          ("oauth_signature_method", "HMAC-SHA1"), ("oauth_token", "nnch734d00sl2jdk"),
          ("oauth_nonce", "chapoH"), ("oauth_timestamp", "137131202")]
    assert hmac_sha1(base_string("GET", "http://photos.example.net/photos", p3), cs,
                     "pfkkdhi9sl3r4s00") == "MdpQcU8iPSUjWoN/UDMsK2sui9I="
    p4 = [p for p in p3 if p[0] not in ("oauth_nonce", "oauth_timestamp")] + [
        ("oauth_nonce", "kllo9940pd9333jh"), ("oauth_timestamp", "1191242096"), ("oauth_version", "1.0")]
    assert hmac_sha1(base_string("GET", "http://photos.example.net/photos", p4), cs,
                     "pfkkdhi9sl3r4s00") == "tR3+Ty81lMeYAr/Fid0kMTYa/WM="


def test_rfc5849_parameter_normalisation_with_duplicates():
    # Decoded from POST http://example.com/request?b5=%3D%253D&a3=a&c%40=&a2=r%20b, body c2&a3=2+q
    from flickr_sandbox.request import parse_form
    pairs = parse_form("b5=%3D%253D&a3=a&c%40=&a2=r%20b") + parse_form(b"c2&a3=2+q") + [
        ("oauth_consumer_key", "9djdj82h48djs9d2"), ("oauth_token", "kkk9d7dh3k39sjv7"),
        ("oauth_signature_method", "HMAC-SHA1"), ("oauth_timestamp", "137131201"),
        ("oauth_nonce", "7d8f3e4a"), ("oauth_signature", "ignored")]
    base = base_string("POST", base_url("http", "Example.com:80", "/request"), pairs)
    assert base == ("POST&http%3A%2F%2Fexample.com%2Frequest&a2%3Dr%2520b%26a3%3D2%2520q%26a3%3Da%26b5"
                    "%3D%253D%25253D%26c%2540%3D%26c2%3D%26oauth_consumer_key%3D9djdj82h48djs9d2%26oauth_"
                    "nonce%3D7d8f3e4a%26oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp%3D137131201"
                    "%26oauth_token%3Dkkk9d7dh3k39sjv7")
    assert hmac_sha1(base, "j49sk3j29djd", "dh893hdasih9") == "r6/TJjbCOr97/+UU0NsvSne7s5g="


def test_library_vectors():
    base = base_string("GET", "http://www.example.com", [("foo", "123"), ("bar", "456")])
    assert base == "GET&http%3A%2F%2Fwww.example.com&bar%3D456%26foo%3D123"
    assert hmac_sha1(base, "consumer secret") == "lNBTzyWRRHBuoXmgK13Nht5oiKs="
    assert hmac_sha1(base, "consumer secret", "keyboard cat") == "pytjoWTzMmvq13/Bai9YVX1tV9c="
    assert base_string("GET", "http://www.example.com", [("foo", "!'()*")]) == \
        "GET&http%3A%2F%2Fwww.example.com&foo%3D%2521%2527%2528%2529%252A"
    masci = [("oauth_callback", "http://www.wackylabs.net/oauth/test"),
             ("oauth_consumer_key", "768fe946d252b119746fda82e1599980"),
             ("oauth_nonce", "C2F26CD5C075BA9050AD8EE90644CF29"), ("oauth_signature_method", "HMAC-SHA1"),
             ("oauth_timestamp", "1316657628"), ("oauth_version", "1.0")]
    mb = base_string("GET", "http://www.flickr.com/services/oauth/request_token", masci)
    assert hmac_sha1(mb, "1a3c208e172d3edc", "token12345secret") == "dXyfrCetFSTpzD3djSrkFhj0MIQ="
    assert hmac_sha1(mb, "1a3c208e172d3edc") == "0fhNGlzpFNAsTme/hDfUb5HPB5U="
    derived = [("method", "flickr.test.login"), ("oauth_consumer_key", "ck"), ("oauth_nonce", "ABCDEF12"),
               ("oauth_signature_method", "HMAC-SHA1"), ("oauth_timestamp", "1300000000"),
               ("oauth_token", "tok"), ("oauth_version", "1.0")]
    assert hmac_sha1(base_string("GET", "https://api.flickr.com/services/rest/", derived), "cs", "ts") \
        == "RDF0ABlvL6kiAAWSyponRtOVZls="


def test_legacy_api_sig_vectors():
    assert legacy_api_sig("SECRET", {"api_key": "1234567890", "foo": "1", "bar": "2", "baz": "3"}) == \
        "0a55ae496d1db08f39deb5d894ae3849"
    assert legacy_api_sig("SECRET", {"api_key": "KEY", "method": "flickr.photos.getRecent",
                                     "per_page": "1"}) == "bce3d1452288a969567418fd034097b1"


def test_percent_encoding():
    assert enc("a b+c&d=e/f?g~h%i#j") == "a%20b%2Bc%26d%3De%2Ff%3Fg~h%25i%23j"
    assert enc("café ✓") == "caf%C3%A9%20%E2%9C%93"
    assert enc("!'()*") == "%21%27%28%29%2A"
    assert normalize_parameters([("b", "2"), ("a", "z"), ("a", "y"), ("oauth_signature", "x")]) == \
        "a=y&a=z&b=2"


def test_base_url_and_header_parsing():
    assert base_url("HTTP", "Example.COM:80", "/r/") == "http://example.com/r/"
    assert base_url("https", "h:443", "/x") == "https://h/x"
    assert base_url("http", "127.0.0.1:8080", "/x") == "http://127.0.0.1:8080/x"
    assert parse_authorization('OAuth realm="Photos", oauth_consumer_key="ck", oauth_signature="a%2Fb%3D"') \
        == [("oauth_consumer_key", "ck"), ("oauth_signature", "a/b=")]
    assert parse_authorization("Basic abc") is None
