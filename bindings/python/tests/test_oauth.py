# SPDX-License-Identifier: MIT
"""Flickr.oauth and the two complete logins against the sandbox over real sockets."""
import io
import os
import re
import sqlite3
import threading
import time
import urllib.error
import urllib.request

import pytest

import flickr
from flickr import errors
from flickr.tokens import TokenStore
from libtest import endpoints, running_sandbox


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def browse(url):
    """The browser's view of a page: (status, Location header, body), redirects not followed."""
    try:
        with urllib.request.build_opener(_NoRedirect).open(url, timeout=20) as page:
            return page.status, None, page.read().decode()
    except urllib.error.HTTPError as answer:
        return answer.code, answer.headers.get("Location"), answer.read().decode()


def options(server):
    return dict(endpoints(server), auth_endpoint=server.url + "/services/auth/")


@pytest.fixture
def api(library_path, sandbox):
    with flickr.Flickr(sandbox.api_key, sandbox.api_secret, **options(sandbox)) as api:
        yield api


@pytest.fixture
def store(tmp_path):
    return TokenStore(tmp_path / "tokens.json")


def approve(api, perms="write", extra=""):
    """Steps 1 and 2: a request token approved in the 'browser'; returns (request, verifier)."""
    request = api.oauth.request_token("http://127.0.0.1:9/cb")
    status, location, _ = browse(api.oauth.authorize_url(request["oauth_token"], perms) + extra)
    assert status == 302, location
    token, verifier = api.oauth.parse_callback(location)
    assert token == request["oauth_token"]
    return request, verifier


def test_every_step(api):
    request = api.oauth.request_token("http://127.0.0.1:9/callback")
    assert request["oauth_callback_confirmed"] == "true"
    assert len(request["oauth_token_secret"]) == 16
    url = api.oauth.authorize_url(request["oauth_token"], "delete")
    assert url.startswith(api.get_option("oauth_endpoint") + "authorize?oauth_token=")
    assert url.endswith("&perms=delete")
    status, location, _ = browse(url)
    assert status == 302 and location.startswith("http://127.0.0.1:9/callback?")
    token, verifier = api.oauth.parse_callback(location)
    assert token == request["oauth_token"]
    access = api.oauth.access_token(token, request["oauth_token_secret"], verifier)
    assert access["user_nsid"] == "12037949@N00"      # sent URL-encoded: decoded
    assert access["fullname"] == "Sandbox User"
    assert access["username"] == "sandbox"
    assert access["oauth_token"] != token
    # The steps never change the object's tokens.
    assert api.get_option("oauth_token") is None
    api.oauth.use(access)
    assert api.call("flickr.test.login")["user"]["id"] == "12037949@N00"
    checked = api.oauth.check_token()
    assert checked == {"token": access["oauth_token"], "perms": "delete", "user_nsid": "12037949@N00",
                       "username": "sandbox", "fullname": "Sandbox User"}


def test_request_token_ignores_a_stale_token(api):
    api.set_option("oauth_token", "72157600000000009-0000000000000000")
    api.set_option("oauth_token_secret", "stale")
    assert api.oauth.request_token("oob")["oauth_token"]
    assert api.get_option("oauth_token") == "72157600000000009-0000000000000000"


def test_oob(api):
    request = api.oauth.request_token("oob")
    status, location, body = browse(api.oauth.authorize_url(request["oauth_token"], "read"))
    assert status == 200 and location is None
    verifier = re.search(r'id="verifier"[^>]*>([^<]+)<', body).group(1)
    assert re.fullmatch(r"\d{3}-\d{3}-\d{3}", verifier)
    assert api.oauth.access_token(request["oauth_token"], request["oauth_token_secret"], verifier)["username"] == "sandbox"


def test_bad_verifier_and_reuse(api):
    request, verifier = approve(api)
    with pytest.raises(errors.OAuthError) as caught:
        api.oauth.access_token(request["oauth_token"], request["oauth_token_secret"], "wrong")
    assert caught.value.http_status == 401
    assert "oauth_problem=verifier_invalid" in caught.value.message
    assert request["oauth_token_secret"] not in caught.value.message
    api.oauth.access_token(request["oauth_token"], request["oauth_token_secret"], verifier)
    with pytest.raises(errors.OAuthError, match="token_rejected"):
        api.oauth.access_token(request["oauth_token"], request["oauth_token_secret"], verifier)


def test_unknown_and_expired_tokens(api, sandbox):
    with pytest.raises(errors.OAuthError, match="token_rejected"):
        api.oauth.access_token("72157699999999999-0123456789abcdef", "0123456789abcdef", "123-456-789")
    request, verifier = approve(api)
    # Age the request token past its hour in the sandbox's own store.
    with sqlite3.connect(os.path.join(sandbox.data_dir, "sandbox.sqlite3")) as db:
        db.execute("UPDATE tokens SET created = created - 7200 WHERE token = ?", (request["oauth_token"],))
    with pytest.raises(errors.OAuthError, match="token_rejected") as caught:
        api.oauth.access_token(request["oauth_token"], request["oauth_token_secret"], verifier)
    assert caught.value.http_status == 401
    # An expired token is also refused at the authorize page (an HTML "Oops" page).
    status, location, body = browse(api.oauth.authorize_url(request["oauth_token"], "read"))
    assert status == 400 and location is None and "Oops" in body


def test_signature_refused(library_path, sandbox, api):
    with flickr.Flickr(sandbox.api_key, "ffffffffffffffff", **options(sandbox)) as wrong:
        with pytest.raises(errors.OAuthError, match="signature_invalid") as caught:
            wrong.oauth.request_token("oob")
        assert caught.value.http_status == 401
    request, verifier = approve(api)
    with pytest.raises(errors.OAuthError, match="signature_invalid"):
        api.oauth.access_token(request["oauth_token"], "0000000000000000", verifier)


def test_wrong_perms(api):
    request, verifier = approve(api, "read")
    api.oauth.use(api.oauth.access_token(request["oauth_token"], request["oauth_token_secret"], verifier))
    assert api.oauth.check_token()["perms"] == "read"
    with pytest.raises(errors.APIError) as caught:
        api.post("flickr.photos.addTags", photo_id="1", tags="x")
    assert caught.value.api_code == 99


def test_denied(api):
    request = api.oauth.request_token("http://127.0.0.1:9/cb")
    status, location, body = browse(api.oauth.authorize_url(request["oauth_token"], "write") + "&sandbox_deny=1")
    assert status == 200 and location is None and "declined" in body
    with pytest.raises(errors.OAuthError, match="token_rejected"):
        api.oauth.access_token(request["oauth_token"], request["oauth_token_secret"], "anything")


def test_other_user(api):
    request, verifier = approve(api, "write", "&sandbox_user=otheruser")
    access = api.oauth.access_token(request["oauth_token"], request["oauth_token_secret"], verifier)
    assert (access["username"], access["user_nsid"]) == ("otheruser", "35034346050@N01")


@pytest.mark.parametrize("url", ["", "oauth_token=a&oauth_verifier=b", "http://x/cb", "http://x/cb#?oauth_token=a",
                                 "http://x/cb?oauth_token=a b&oauth_verifier=c", "no scheme?oauth_token=a"])
def test_malformed_callbacks(library_path, url):
    from flickr.oauth import parse_callback  # also usable without a Flickr object

    with pytest.raises(errors.InvalidArgument):
        parse_callback(url)


@pytest.mark.parametrize("url", ["http://x/cb?oauth_token=a", "http://x/cb?oauth_verifier=b",
                                 "http://x/cb?oauth_token=a&oauth_verifier=", "myapp://auth?denied=a"])
def test_incomplete_callbacks(api, url):
    with pytest.raises(errors.OAuthError):
        api.oauth.parse_callback(url)


def test_callback_decoding(api):
    assert api.oauth.parse_callback("snapnrun://auth?oauth_token=a%2Db&oauth_verifier=c%20d+e#f") == ("a-b", "c d e")


@pytest.mark.parametrize("perms", ["", "admin", "READ", "read,write"])
def test_perms_validation(api, perms):
    with pytest.raises(errors.InvalidArgument, match="perms"):
        api.oauth.authorize_url("72157-1", perms)
    with pytest.raises(errors.InvalidArgument, match="perms"):
        api.authenticate_console(perms, input=lambda prompt: "x", store=False)


def test_authorize_url_without_perms(api):
    assert "perms" not in api.oauth.authorize_url("72157-1", None)


def test_check_token_failures(api, sandbox):
    with pytest.raises(errors.StateError):
        api.oauth.check_token()
    with pytest.raises(errors.OAuthError, match="token_rejected"):
        api.oauth.check_token("72157699999999999-0123456789abcdef", "0123456789abcdef")
    assert api.oauth.check_token(sandbox.oauth_token, sandbox.oauth_token_secret)["perms"] == "delete"


def test_console_login(api, store):
    out = io.StringIO()

    def user(prompt):
        url = re.search(r"^(http\S+authorize\S+)$", out.getvalue(), re.M).group(1)
        status, _, body = browse(url)
        return re.search(r'id="verifier"[^>]*>([^<]+)<', body).group(1)

    token = api.authenticate_console("write", input=user, output=out, store=store)
    assert token["username"] == "sandbox" and token["perms"] == "write"
    assert api.get_option("oauth_token") == token["oauth_token"]  # the convenience layer configures the object
    assert api.call("flickr.test.login")["user"]["id"] == "12037949@N00"
    saved = store.load(api.api_key)
    assert saved.oauth_token == token["oauth_token"] and saved.oauth_token_secret == token["oauth_token_secret"]


def test_console_login_accepts_a_pasted_callback(api, store):
    out = io.StringIO()

    def user(prompt):
        url = re.search(r"^(http\S+authorize\S+)$", out.getvalue(), re.M).group(1)
        # The user went through the browser anyway: an oob token shows the code, so fake the
        # pasted URL from it.
        token = re.search(r"oauth_token=([^&]+)", url).group(1)
        _, _, body = browse(url)
        code = re.search(r'id="verifier"[^>]*>([^<]+)<', body).group(1)
        return f"http://127.0.0.1/cb?oauth_token={token}&oauth_verifier={code}\n"

    assert api.authenticate_console("read", input=user, output=out, store=store)["username"] == "sandbox"
    with pytest.raises(errors.OAuthError):
        api.authenticate_console("read", input=lambda prompt: "", output=io.StringIO(), store=store)


def test_browser_login(api, store):
    seen = []

    def browser(url):
        seen.append(url)
        urllib.request.urlopen(url, timeout=20).read()  # follows the redirect to the loopback server

    token = api.authenticate_via_browser("delete", browser=browser, timeout=20, output=io.StringIO(), store=store)
    assert seen and "perms=delete" in seen[0]
    assert token["user_nsid"] == "12037949@N00"
    assert api.oauth.check_token()["perms"] == "delete"
    assert store.load(api.api_key, "sandbox").oauth_token == token["oauth_token"]


def test_browser_login_times_out_cleanly(api, store):
    out = io.StringIO()
    threads = threading.active_count()
    started = time.monotonic()
    with pytest.raises(flickr.Timeout, match="no authorization arrived"):
        api.authenticate_via_browser("read", browser=False, timeout=0.3, output=out, store=store)
    assert time.monotonic() - started < 5
    assert "authorize?oauth_token=" in out.getvalue()
    assert store.entries() == []
    assert api.get_option("oauth_token") is None
    assert threading.active_count() <= threads  # the loopback server and its thread are gone
    assert api.oauth.request_token("oob")["oauth_token"]  # the object still works


def test_browser_login_denied(api, store):
    def browser(url):
        browse(url + "&sandbox_deny=1")

    with pytest.raises(flickr.Timeout):
        api.authenticate_via_browser("read", browser=browser, timeout=1, output=io.StringIO(), store=store)
    assert store.entries() == []


def test_browser_login_no_browser_available(api, store, monkeypatch):
    import webbrowser

    def none():
        raise webbrowser.Error("no browser")

    monkeypatch.setattr(webbrowser, "get", lambda *a: none())
    out = io.StringIO()
    with pytest.raises(flickr.Timeout):
        api.authenticate_via_browser("read", timeout=0.2, output=out, store=store)
    assert "no browser found" in out.getvalue()


def test_legacy_migration_and_frob_flow(library_path):
    server = running_sandbox()  # its own: the exchange retires the seeded legacy token
    try:
        with flickr.Flickr(server.api_key, server.api_secret, auth_token=server.auth_token, **options(server)) as api:
            with pytest.raises(errors.APIError) as caught:
                api.oauth.exchange_legacy_token("72157699999999999-0000000000000000")
            assert caught.value.api_code == 98
            access = api.oauth.exchange_legacy_token()
            assert api.get_option("auth_token") == server.auth_token  # unchanged
            with pytest.raises(errors.APIError):
                api.oauth.exchange_legacy_token()  # the old token is gone
            api.oauth.use(access)
            assert api.call("flickr.test.login")["user"]["id"] == "12037949@N00"

            frob = api.oauth.legacy_frob()
            with pytest.raises(errors.APIError) as caught:
                api.oauth.legacy_token(frob)
            assert caught.value.api_code == 108
            url = api.oauth.legacy_login_url(frob, "write")
            assert url.startswith(server.url + "/services/auth/?") and "api_sig=" in url
            status, _, body = browse(url)
            assert status == 200 and "successfully" in body
            legacy = api.oauth.legacy_token(frob)
            assert legacy["perms"] == "write" and legacy["username"] == "sandbox"
            with pytest.raises(errors.InvalidArgument):
                api.oauth.legacy_login_url(frob, "all")
        with flickr.Flickr(server.api_key, server.api_secret, auth_token=legacy["auth_token"],
                           **options(server)) as old:
            assert old.call("flickr.test.login")["user"]["id"] == "12037949@N00"
    finally:
        server.stop()
