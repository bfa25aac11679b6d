# SPDX-License-Identifier: MIT
"""OAuth 1.0a endpoints and REST signature checks, driven by independent clients
(oauthlib, requests-oauthlib, the flickrapi package), and the legacy api_sig scheme."""
import re
import time
import urllib.parse

from sbclient import Client, api_sig, fixture_text, oauth_flow

from flickr_sandbox import constants as C
from flickr_sandbox.oauth import hmac_sha1


def _request_token(client, callback="http://localhost/cb"):
    reply = client.oauth_request("GET", "/services/oauth/request_token", {}, None, callback_uri=callback)
    assert reply.status == 200
    assert reply.headers["Content-Type"] == "text/plain;charset=UTF-8"
    assert re.fullmatch(r"oauth_callback_confirmed=true&oauth_token=72157\d{12}-[0-9a-f]{16}"
                        r"&oauth_token_secret=[0-9a-f]{16}", reply.text)
    doc = fixture_text("oauth/request_token.response.flickr-doc.txt")
    assert [k for k, _ in urllib.parse.parse_qsl(reply.text)] == [k for k, _ in urllib.parse.parse_qsl(doc)]
    return dict(urllib.parse.parse_qsl(reply.text))


def test_full_flow_each_signature_placement(client):
    token, secret, fields = oauth_flow(client, perms="delete")
    assert fields["fullname"] == "Sandbox User" and fields["user_nsid"] == C.USER_NSID
    for where in ("query", "header"):
        assert client.rest("flickr.test.login", auth="oauth", token=(token, secret), where=where).ok()
    for where in ("query", "body", "header"):
        assert client.rest("flickr.test.login", auth="oauth", token=(token, secret), where=where,
                           http_method="POST").ok()


def test_access_token_response_is_percent_encoded(client):
    cred = _request_token(client)
    loc = client.raw("GET", f"/services/oauth/authorize?oauth_token={cred['oauth_token']}&perms=read")
    verifier = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(loc.headers["Location"]).query))["oauth_verifier"]
    reply = client.oauth_request("GET", "/services/oauth/access_token", {},
                                 (cred["oauth_token"], cred["oauth_token_secret"]), verifier=verifier)
    assert re.fullmatch(r"fullname=Sandbox%20User&oauth_token=[0-9-a-f]+&oauth_token_secret=[0-9a-f]{16}"
                        r"&user_nsid=12037949%40N00&username=sandbox", reply.text)
    # Field order and encoding as in Flickr's documented answer.
    doc = fixture_text("oauth/access_token.response.flickr-doc.txt")
    assert [k for k, _ in urllib.parse.parse_qsl(reply.text)] == [k for k, _ in urllib.parse.parse_qsl(doc)]
    # Request tokens are single use.
    again = client.oauth_request("GET", "/services/oauth/access_token", {},
                                 (cred["oauth_token"], cred["oauth_token_secret"]), verifier=verifier)
    assert (again.status, again.text) == (401, "oauth_problem=token_rejected")


def test_authorize_redirect_keeps_callback_query(client):
    # No %-escapes in the callback: oauthlib decodes oauth_* values twice (its own quirk).
    cred = _request_token(client, callback="http://localhost:9/back?state=x+y&n=1")
    reply = client.raw("GET", f"/services/oauth/authorize?oauth_token={cred['oauth_token']}&perms=write")
    assert reply.status == 302
    parts = urllib.parse.urlsplit(reply.headers["Location"])
    assert (parts.scheme, parts.netloc, parts.path) == ("http", "localhost:9", "/back")
    q = dict(urllib.parse.parse_qsl(parts.query))
    assert q["state"] == "x y" and q["n"] == "1" and q["oauth_token"] == cred["oauth_token"]
    assert re.fullmatch(r"[0-9a-f]{16}", q["oauth_verifier"])


def test_authorize_oob_and_errors(client):
    cred = _request_token(client, callback="oob")
    page = client.raw("GET", f"/services/oauth/authorize?oauth_token={cred['oauth_token']}&perms=read")
    assert page.status == 200 and "text/html" in page.headers["Content-Type"]
    verifier = re.search(r"\b(\d{3}-\d{3}-\d{3})\b", page.text).group(1)
    bad = client.oauth_request("GET", "/services/oauth/access_token", {},
                               (cred["oauth_token"], cred["oauth_token_secret"]), verifier="111-222-333")
    assert (bad.status, bad.text) == (401, "oauth_problem=verifier_invalid")
    good = client.oauth_request("GET", "/services/oauth/access_token", {},
                                (cred["oauth_token"], cred["oauth_token_secret"]), verifier=verifier)
    assert good.status == 200
    unknown = client.raw("GET", "/services/oauth/authorize?oauth_token=72157000000000000-0000000000000000")
    assert unknown.status == 400 and "Oops!" in unknown.text and "oauth_token" in unknown.text
    cred = _request_token(client)
    perms = client.raw("GET", f"/services/oauth/authorize?oauth_token={cred['oauth_token']}&perms=all")
    assert perms.status == 400 and "permission" in perms.text


def test_user_refuses(client):
    cred = _request_token(client)
    page = client.raw("GET", f"/services/oauth/authorize?oauth_token={cred['oauth_token']}&sandbox_deny=1")
    assert page.status == 200
    reply = client.oauth_request("GET", "/services/oauth/access_token", {},
                                 (cred["oauth_token"], cred["oauth_token_secret"]), verifier="x")
    assert (reply.status, reply.text) == (401, "oauth_problem=token_rejected")


def test_other_approving_user(client):
    token, secret, fields = oauth_flow(client, perms="read", sandbox_user="otheruser")
    assert fields["user_nsid"] == C.OTHER_NSID
    root = client.rest("flickr.test.login", auth="oauth", token=(token, secret)).ok()
    assert root.find("user").get("id") == C.OTHER_NSID


def test_request_token_needs_valid_signature(client):
    reply = client.oauth_request("GET", "/services/oauth/request_token", {}, None,
                                 callback_uri="oob", secret_override="wrongsecret00000")
    assert reply.status == 401 and reply.text.startswith("oauth_problem=signature_invalid&debug_sbs=GET&")
    stale = client.oauth_request("GET", "/services/oauth/request_token", {}, ("old", "stalesecret"),
                                 callback_uri="oob")
    assert stale.status == 401  # signed with a leftover token secret (docs/protocol.md §10)
    no_cb = client.oauth_request("GET", "/services/oauth/request_token", {}, None)
    assert no_cb.status == 400 and "oauth_callback" in no_cb.text


def _debug_sbs(reply):
    assert reply.status == 401, reply.text
    assert reply.headers["Content-Type"] == "text/plain;charset=UTF-8"
    problem, _, sbs = reply.text.partition("&debug_sbs=")
    assert problem == "oauth_problem=signature_invalid"
    return sbs


def test_rest_signature_failures(client):
    tok = (C.OAUTH_TOKEN, C.OAUTH_TOKEN_SECRET)
    wrong_secret = client.oauth_request("GET", "/services/rest/", {"method": "flickr.test.login"}, tok,
                                        secret_override="0000000000000000")
    sbs = _debug_sbs(wrong_secret)
    port = client.port
    assert sbs.startswith(f"GET&http%3A%2F%2F127.0.0.1%3A{port}%2Fservices%2Frest%2F&method%3Dflickr.test.login%26")
    # Wrong URL: signed for /services/rest, sent to /services/rest/
    wrong_url = client.oauth_request("GET", "/services/rest/", {"method": "flickr.test.login"}, tok,
                                     sign_url=client.url + "/services/rest")
    assert "%2Fservices%2Frest%2F&" in _debug_sbs(wrong_url)
    wrong_host = client.oauth_request("GET", "/services/rest/", {"method": "flickr.test.login"}, tok,
                                      sign_url=f"http://localhost:{port}/services/rest/")
    _debug_sbs(wrong_host)
    # Tampered parameter after signing
    client_ = client.oauth_client(tok)
    uri, _, _ = client_.sign(f"{client.url}/services/rest/?method=flickr.test.echo&foo=1")
    tampered = client.raw("GET", uri[len(client.url):].replace("foo=1", "foo=2"))
    assert "foo%3D2" in _debug_sbs(tampered)


def test_debug_sbs_verifies_with_right_key(client):
    """debug_sbs is exactly the base string; signing it with the right key gives the client's signature."""
    tok = (C.OAUTH_TOKEN, C.OAUTH_TOKEN_SECRET)
    c = client.oauth_client(tok, secret_override="x" * 16)
    uri, _, _ = c.sign(f"{client.url}/services/rest/?method=flickr.test.echo&t=a%20b%21")
    sent_sig = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(uri).query))["oauth_signature"]
    sbs = _debug_sbs(client.raw("GET", uri[len(client.url):]))
    assert hmac_sha1(sbs, "x" * 16, C.OAUTH_TOKEN_SECRET) == sent_sig


def test_replay_and_timestamp(client):
    tok = (C.OAUTH_TOKEN, C.OAUTH_TOKEN_SECRET)
    uri, _, _ = client.oauth_client(tok).sign(f"{client.url}/services/rest/?method=flickr.test.null")
    path = uri[len(client.url):]
    assert client.raw("GET", path).ok() is not None
    replay = client.raw("GET", path)
    assert (replay.status, replay.text) == (401, "oauth_problem=nonce_used")
    old = client.oauth_client(tok, timestamp=str(int(time.time()) - 3600), nonce="n1")
    uri, _, _ = old.sign(f"{client.url}/services/rest/?method=flickr.test.null")
    stale = client.raw("GET", uri[len(client.url):])
    assert stale.status == 401 and stale.text.startswith("oauth_problem=timestamp_refused")


def test_unknown_token_and_consumer(client):
    reply = client.rest("flickr.test.login", auth="oauth", token=("72157000000000009-0123456789abcdef", "x"))
    assert (reply.status, reply.text) == (401, "oauth_problem=token_rejected")
    bad = Client(client.sb)
    bad.sb = type("S", (), {"api_key": "f" * 32, "api_secret": C.API_SECRET, "url": client.url})()
    reply = bad.oauth_request("GET", "/services/rest/", {"method": "flickr.test.echo"}, None)
    assert (reply.status, reply.text) == (401, "oauth_problem=consumer_key_unknown")


def test_requests_oauthlib_session(sandbox):
    from requests_oauthlib import OAuth1Session
    s = OAuth1Session(sandbox.api_key, client_secret=sandbox.api_secret, callback_uri="http://localhost/cb")
    s.fetch_request_token(sandbox.url + "/services/oauth/request_token")
    auth_url = s.authorization_url(sandbox.url + "/services/oauth/authorize", perms="write")
    redirect = s.get(auth_url, allow_redirects=False).headers["Location"]
    s.parse_authorization_response(redirect)
    tokens = s.fetch_access_token(sandbox.url + "/services/oauth/access_token")
    assert tokens["user_nsid"] == C.USER_NSID and tokens["username"] == "sandbox"
    r = s.post(sandbox.url + "/services/rest", data={"method": "flickr.test.login", "format": "json",
                                                     "nojsoncallback": "1"})
    assert r.json() == {"user": {"id": C.USER_NSID, "path_alias": "sandbox",
                                 "username": {"_content": "sandbox"}}, "stat": "ok"}


def test_flickrapi_package(fresh_sandbox, tmp_path, monkeypatch):
    """The python-flickrapi package, pointed at the sandbox, completes the flow and calls methods."""
    import flickrapi  # in requirements-test.txt: a missing peer fails here, never skips
    sandbox = fresh_sandbox
    from flickrapi import auth as fauth
    from flickrapi import core
    base = sandbox.url + "/services"
    monkeypatch.setattr(fauth.OAuthFlickrInterface, "REQUEST_TOKEN_URL", base + "/oauth/request_token")
    monkeypatch.setattr(fauth.OAuthFlickrInterface, "AUTHORIZE_URL", base + "/oauth/authorize")
    monkeypatch.setattr(fauth.OAuthFlickrInterface, "ACCESS_TOKEN_URL", base + "/oauth/access_token")
    monkeypatch.setattr(core.FlickrAPI, "REST_URL", base + "/rest/")
    monkeypatch.setattr(core.FlickrAPI, "UPLOAD_URL", base + "/upload/")
    monkeypatch.setattr(core.FlickrAPI, "REPLACE_URL", base + "/replace/")
    api = flickrapi.FlickrAPI(sandbox.api_key, sandbox.api_secret, format="etree",
                              token_cache_location=str(tmp_path))
    api.get_request_token(oauth_callback="oob")
    url = api.auth_url(perms="write")
    import requests
    page = requests.get(url).text
    verifier = re.search(r"\d{3}-\d{3}-\d{3}", page).group(0)
    api.get_access_token(verifier)
    login = api.test.login()
    assert login.find("user").get("id") == C.USER_NSID
    # checkToken signed in the Authorization header; a False here deletes the saved token.
    assert api.token_valid(perms="write")
    assert api.token_cache.token is not None
    found = api.photos.search(user_id="me", per_page=5)
    assert found.find("photos").get("total") == "100"
    echo = api.test.echo(text="café ✓ !*'()")
    assert echo.find("text").text == "café ✓ !*'()"
    photo = tmp_path / "p.gif"
    photo.write_bytes(b"GIF89a\x01\x00\x01\x00\x00\x00\x00;")
    up = api.upload(str(photo), title="via flickrapi", tags="a b", is_public=0)
    photo_id = up.find("photoid").text
    info = api.photos.getInfo(photo_id=photo_id)
    assert info.find("photo/title").text == "via flickrapi"


# -- legacy api_sig / frob flow ---------------------------------------------------

def test_legacy_signed_calls(client):
    root = client.rest("flickr.test.login", auth="legacy").ok()
    assert root.find("user").get("id") == C.USER_NSID
    params = {"method": "flickr.test.login", "api_key": C.API_KEY, "auth_token": C.AUTH_TOKEN}
    assert client._send("GET", "/services/rest/", params, {}).err() == (97, "Missing signature")
    params["api_sig"] = "0" * 32
    assert client._send("GET", "/services/rest/", params, {}).err() == (96, "Invalid signature")
    params["auth_token"] = "72157000000000000-ffffffffffffffff"
    params["api_sig"] = api_sig(C.API_SECRET, params)
    assert client._send("GET", "/services/rest/", params, {}).err() == (98, "Invalid auth token")


def test_frob_flow_and_migration(fresh_sandbox):
    c = Client(fresh_sandbox)
    assert c.rest("flickr.auth.getFrob").err() == (97, "Missing signature")
    signed = {"method": "flickr.auth.getFrob", "api_key": C.API_KEY}
    signed["api_sig"] = api_sig(C.API_SECRET, signed)
    frob = c._send("GET", "/services/rest/", signed, {}).ok().find("frob").text
    early = {"method": "flickr.auth.getToken", "api_key": C.API_KEY, "frob": frob}
    early["api_sig"] = api_sig(C.API_SECRET, early)
    assert c._send("GET", "/services/rest/", early, {}).err()[0] == 108
    page = {"api_key": C.API_KEY, "perms": "write", "frob": frob}
    page["api_sig"] = api_sig(C.API_SECRET, page)
    assert c.raw("GET", "/services/auth/?" + urllib.parse.urlencode(page)).status == 200
    early["api_sig"] = api_sig(C.API_SECRET, {k: v for k, v in early.items() if k != "api_sig"})
    auth = c._send("GET", "/services/rest/", early, {}).ok()
    token = auth.find("auth/token").text
    assert auth.find("auth/perms").text == "write"
    assert auth.find("auth/user").get("nsid") == C.USER_NSID
    assert c.rest("flickr.test.login", auth="legacy", token=token).ok()
    # Migrate to OAuth: the legacy token dies, the new OAuth token works.
    migrated = c.rest("flickr.auth.oauth.getAccessToken", auth="legacy", token=token).ok()
    doc = fixture_text("xml/doc-examples/flickr.auth.oauth.getAccessToken.xml")
    assert "access_token" in doc
    at = migrated.find("auth/access_token")
    assert list(at.attrib) == ["oauth_token", "oauth_token_secret"]
    assert c.rest("flickr.test.login", auth="legacy", token=token).err()[0] == 98
    check = c.rest("flickr.auth.oauth.checkToken", auth="oauth", oauth_token=at.get("oauth_token"),
                   token=(at.get("oauth_token"), at.get("oauth_token_secret"))).ok()
    assert check.find("oauth/perms").text == "write"


def test_tls_base_string_uses_https():
    from flickr_sandbox import Sandbox
    with Sandbox(tls_enabled=True) as sb:
        c = Client(sb)
        assert c.rest("flickr.test.login", auth="oauth", where="header").ok()
        token, secret, _ = oauth_flow(c, perms="read")
        assert c.rest("flickr.test.login", auth="oauth", token=(token, secret)).ok()
        bad = c.oauth_request("GET", "/services/rest/", {"method": "flickr.test.login"},
                              (C.OAUTH_TOKEN, C.OAUTH_TOKEN_SECRET), secret_override="0" * 16)
        assert _debug_sbs(bad).startswith(f"GET&https%3A%2F%2F127.0.0.1%3A{sb.port}%2Fservices%2Frest%2F&")
