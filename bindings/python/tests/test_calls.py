# SPDX-License-Identifier: MIT
"""Flickr.call / post / call_async against the sandbox over real sockets."""
import threading

import pytest

import flickr
from libtest import endpoints
from flickr import errors


@pytest.fixture
def api(library_path, sandbox):
    """Signed with the sandbox's pre-authorised OAuth token."""
    with flickr.Flickr(sandbox.api_key, sandbox.api_secret, oauth_token=sandbox.oauth_token,
                       oauth_token_secret=sandbox.oauth_token_secret, **endpoints(sandbox)) as api:
        yield api


@pytest.fixture
def public(library_path, sandbox):
    with flickr.Flickr(sandbox.api_key, sandbox.api_secret, **endpoints(sandbox)) as api:
        yield api


TRICKY = ["plain", "a b+c&d=e/f?g~h%i#j", "!*'();:@&=+$,/?#[]~%", "café ✓", "日本語", "😀 emoji", "%20", "tab\there"]


@pytest.mark.parametrize("value", TRICKY)
@pytest.mark.parametrize("verb", ["call", "post"])
def test_values_survive_the_signature_check(api, verb, value):
    answer = getattr(api, verb)("flickr.test.echo", title=value)
    assert answer["stat"] == "ok"
    assert answer["title"]["_text"] == value
    assert answer["api_auth_is_oauth"]["_text"] == "1"


def test_parameter_conversion(public):
    answer = public.call("flickr.test.echo", flag=True, off=False, ids=[1, 2, 3], n=7, skipped=None)
    assert answer["flag"]["_text"] == "1"
    assert answer["off"]["_text"] == "0"
    assert answer["ids"]["_text"] == "1,2,3"
    assert answer["n"]["_text"] == "7"
    assert "skipped" not in answer


def test_schemes(library_path, sandbox, api):
    assert api.call("flickr.test.login")["user"]["id"] == "12037949@N00"
    api.set_option("oauth_in_header", True)
    assert api.call("flickr.test.login")["user"]["username"]["_text"] == "sandbox"
    assert api.post("flickr.test.echo", x="y z")["x"]["_text"] == "y z"
    with flickr.Flickr(sandbox.api_key, sandbox.api_secret, auth_token=sandbox.auth_token,
                       **endpoints(sandbox)) as legacy:
        assert legacy.call("flickr.test.login")["user"]["id"] == "12037949@N00"


def test_photo_list_maps_to_lists_and_dicts(public):
    answer = public.call("flickr.photos.search", text="a", per_page=3, extras="url_m,description")
    photos = answer["photos"]
    assert photos["perpage"] == "3"
    assert isinstance(photos["photo"], list) and len(photos["photo"]) == 3
    for photo in photos["photo"]:
        assert set(photo) >= {"id", "owner", "secret", "server", "title", "url_m", "description"}


def test_api_error(api):
    with pytest.raises(flickr.APIError) as caught:
        api.call("flickr.fakeMethod")
    error = caught.value
    assert (error.code, error.api_code, error.http_status) == (errors.EAPI, 112, 200)
    assert error.message == 'Method "flickr.fakeMethod" not found'
    with pytest.raises(flickr.APIError) as caught:
        api.call("flickr.photos.getInfo", photo_id="1")
    assert caught.value.api_code == 1


@pytest.mark.parametrize(
    "fault, exception, http_status",
    [
        ("http500", flickr.HTTPError, 500),
        ("http502", flickr.HTTPError, 502),
        ("http429=3", flickr.HTTPError, 429),
        ("malformed", flickr.ParseError, 200),
        ("empty", flickr.ParseError, 200),
        ("truncate", flickr.NetworkError, None),
        ("reset", flickr.NetworkError, None),
    ],
)
def test_transport_and_http_errors(api, fault, exception, http_status):
    with pytest.raises(exception) as caught:
        api.call("flickr.test.echo", sandbox_fault=fault)
    if http_status is not None:
        assert caught.value.http_status == http_status
    api.call("flickr.test.echo")  # still usable


def test_call_discard_writes_and_fails_like_call(api):
    photo_id = api.call("flickr.photos.search", user_id="me", per_page=1)["photos"]["photo"][0]["id"]
    assert api.call_discard("flickr.photos.addTags", post=True, photo_id=photo_id, tags="py-discarded") is None
    assert 'raw="py-discarded"' in api.call_xml("flickr.photos.getInfo", photo_id=photo_id)
    assert api.call_discard("flickr.test.echo", title="caf\u00e9 & !*'()") is None
    with pytest.raises(flickr.APIError) as caught:
        api.call_discard("flickr.fakeMethod")
    assert (caught.value.api_code, caught.value.message) == (112, 'Method "flickr.fakeMethod" not found')
    for fault, exception in [("http502", flickr.HTTPError), ("empty", flickr.ParseError),
                             ("truncate", flickr.NetworkError)]:
        with pytest.raises(exception) as discarded:
            api.call_discard("flickr.test.echo", sandbox_fault=fault)
        with pytest.raises(exception) as called:
            api.call("flickr.test.echo", sandbox_fault=fault)
        assert (discarded.value.code, discarded.value.http_status, discarded.value.message) == \
            (called.value.code, called.value.http_status, called.value.message)
    # Not read, so not judged: broken XML after <rsp stat="ok"> (call raises ParseError).
    assert api.call_discard("flickr.test.echo", sandbox_fault="malformed") is None
    with pytest.raises(flickr.InvalidArgument):
        api.call_discard("flickr.test.echo", api_key="mine")


def test_timeout_and_size_cap(api):
    api.set_option("timeout_ms", 300)
    with pytest.raises(flickr.Timeout) as caught:
        api.call("flickr.test.echo", sandbox_fault="latency=2000")
    assert isinstance(caught.value, TimeoutError)
    api.set_option("timeout_ms", 30000)
    api.set_option("max_response_bytes", 100_000)
    with pytest.raises(flickr.TooBig):
        api.call("flickr.test.echo", sandbox_fault="huge=500000")


def test_one_thread_alternating_verbs_uploads_and_options(api):
    """Sequential calls reuse pooled curl handles, some without a reset (Transport/EasySetup.swift):
    nothing of one call may leak into the next: its body, its verb, its options."""
    for i in range(3):
        posted = api.post("flickr.test.echo", a=str(i))
        assert posted["a"]["_text"] == str(i)
        got = api.call("flickr.test.echo", b=str(i))
        assert got["b"]["_text"] == str(i) and "a" not in got  # a GET after a POST sends no body
        photo = api.upload(b"\xff\xd8\xff\xe0 not much of a jpeg \xff\xd9", title=f"reuse {i}")
        assert photo["photoid"]["_text"]
        after = api.call("flickr.test.echo", c=str(i))  # after a streamed upload: a plain GET again
        assert after["c"]["_text"] == str(i) and "title" not in after
    api.set_option("max_response_bytes", 1024)  # a new limit reaches the next call...
    with pytest.raises(flickr.TooBig):
        api.call("flickr.test.echo", sandbox_fault="huge=5000")
    api.set_option("max_response_bytes", 32 << 20)  # ...and so does the old one again
    assert api.call("flickr.test.echo", d="1")["d"]["_text"] == "1"


def test_an_upload_after_a_large_post_sends_its_own_body(api):
    # A pooled handle keeps a POST's copied body; an upload on it must not send that instead.
    api.post("flickr.test.echo", a="x" * 5000)
    photo = api.upload(b"\xff\xd8\xff\xe0 tiny \xff\xd9", title="after a post")
    assert photo["photoid"]["_text"]


def test_oauth_refusal_hides_secrets(api, sandbox):
    api.set_option("oauth_token_secret", "ffffffffffffffff")
    with pytest.raises(flickr.OAuthError) as caught:
        api.call("flickr.test.login")
    assert caught.value.http_status == 401
    assert "signature_invalid" in caught.value.message
    assert "ffffffffffffffff" not in str(caught.value)
    assert sandbox.api_secret not in str(caught.value)


def test_refused_arguments(api):
    with pytest.raises(flickr.InvalidArgument):
        api.call("flickr.test.echo", api_key="mine")
    with pytest.raises(flickr.InvalidArgument):
        api.call("flickr.test.echo", oauth_token="x")
    with pytest.raises(flickr.InvalidArgument):
        api.call("")
    with pytest.raises(flickr.InvalidArgument):
        api.call("flickr.test.echo", title="nul\0byte")


def test_call_async(api):
    futures = [api.call_async("flickr.test.echo", n=i) for i in range(40)]
    assert [f.result(timeout=30)["n"]["_text"] for f in futures] == [str(i) for i in range(40)]
    post = api.call_async("flickr.test.echo", post=True, x="1")
    assert post.result(timeout=30)["x"]["_text"] == "1"


def test_call_async_errors_and_cancel(api):
    failing = api.call_async("flickr.fakeMethod")
    with pytest.raises(flickr.APIError) as caught:
        failing.result(timeout=30)
    assert caught.value.api_code == 112
    slow = api.call_async("flickr.test.echo", sandbox_fault="latency=5000")
    assert slow.cancel()
    with pytest.raises(flickr.Aborted):
        slow.result(timeout=10)
    assert not slow.cancel()  # already ended


def test_threads_share_one_object(api):
    results, failures = [], []

    def worker(n):
        try:
            for i in range(15):
                results.append(api.call("flickr.test.echo", who=f"{n}-{i}")["who"]["_text"] == f"{n}-{i}")
        except Exception as error:
            failures.append(error)

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []
    assert results.count(True) == 8 * 15


def test_https_with_the_sandbox_ca(library_path, tls_sandbox):
    options = endpoints(tls_sandbox)
    with flickr.Flickr(tls_sandbox.api_key, tls_sandbox.api_secret, ca_file=tls_sandbox.ca_file, **options) as api:
        assert api.call("flickr.test.echo", x="tls")["x"]["_text"] == "tls"
    with flickr.Flickr(tls_sandbox.api_key, tls_sandbox.api_secret, **options) as api:
        with pytest.raises(flickr.TLSError):
            api.call("flickr.test.echo")


def test_closed_object_refuses_calls(library_path, sandbox):
    api = flickr.Flickr(sandbox.api_key, sandbox.api_secret, **endpoints(sandbox))
    api.close()
    with pytest.raises(flickr.StateError):
        api.call("flickr.test.echo")
    with pytest.raises(flickr.StateError):
        api.call_async("flickr.test.echo")


def test_messages_name_python_keywords_not_c_options(api):
    """The library's messages name its C options ('(FLICKR_OPT_CHECK_ARGUMENTS)'); a Python program
    sets them as keywords, and the message names those. The library's text stays in library_message."""
    with pytest.raises(flickr.InvalidArgument) as missing:
        api.call("flickr.photos.getInfo")
    assert missing.value.message == 'flickr.photos.getInfo requires the argument "photo_id" (check_arguments)'
    assert missing.value.library_message.endswith("(FLICKR_OPT_CHECK_ARGUMENTS)")
    # A program with names of its own for the options (a command's flags) names them so.
    assert missing.value.message_naming(lambda option: f"--{option.lower().replace('_', '-')}").endswith(
        "(--check-arguments)")
    assert missing.value.message_naming(str.lower) == missing.value.message
    print(repr(missing.value.message))
