# SPDX-License-Identifier: MIT
"""flickr.Flickr as a context: options, errors, lifetime, threads."""
import threading

import pytest

import flickr
from flickr import errors
from flickr.client import NUMBER_OPTIONS, STRING_OPTIONS


@pytest.fixture
def api(library_path):
    with flickr.Flickr("key", "secret") as api:
        yield api


def test_defaults(api):
    assert api.get_option("rest_endpoint") == "https://api.flickr.com/services/rest/"
    assert api.get_option("upload_endpoint") == "https://up.flickr.com/services/upload/"
    assert api.get_option("replace_endpoint") == "https://up.flickr.com/services/replace/"
    assert api.get_option("oauth_endpoint") == "https://www.flickr.com/services/oauth/"
    assert api.get_option("user_agent") == "libflickr/" + flickr.__version__
    assert api.get_option("oauth_token") is None
    assert api.get_option("timeout_ms") == 30000
    assert api.get_option("max_response_bytes") == 32 * 1024 * 1024
    assert api.get_option("upload_idle_timeout_ms") == 60000
    assert api.get_option("upload_response_timeout_ms") == 300000


def test_options_as_keywords(library_path):
    with flickr.Flickr(
        "key", "secret", rest_endpoint="http://127.0.0.1:9/services/rest/", oauth_token="tok",
        oauth_token_secret="sec", timeout_ms=1500, oauth_in_header=True, user_agent="app/2 ✓",
    ) as api:
        assert api.get_option("rest_endpoint") == "http://127.0.0.1:9/services/rest/"
        assert api.get_option("oauth_token") == "tok"
        assert api.get_option("timeout_ms") == 1500
        assert api.get_option("oauth_in_header") == 1
        assert api.get_option("user_agent") == "app/2 ✓"


def test_every_option_round_trips(api, tmp_path):
    ca = tmp_path / "ca.pem"
    ca.write_text("not checked until a TLS call")
    values = {name: "http://127.0.0.1:1/x/" for name in STRING_OPTIONS if name.endswith("endpoint")}
    values["base_url"] = "http://127.0.0.1:2"
    values.update(oauth_token="t", oauth_token_secret="s", auth_token="a", user_agent="u", proxy="", ca_file=str(ca),
                  photo_cache_dir=str(tmp_path / "photos"))
    assert set(values) == set(STRING_OPTIONS)
    api.set_option("base_url", values["base_url"])  # first: it sets every endpoint
    for name, value in values.items():
        api.set_option(name, value)
        assert api.get_option(name) == value, name
    numbers = {"timeout_ms": 1, "connect_timeout_ms": 2, "max_response_bytes": 4096, "oauth_in_header": 1,
               "upload_idle_timeout_ms": 3, "upload_response_timeout_ms": 4, "max_retries": 5, "retry_base_ms": 6,
               "retry_post": 1, "rate_limit_per_hour": 7, "rate_limit_per_second": 8, "photo_cache_max_bytes": 4096,
               "max_connections": 9, "check_arguments": 0, "budget_per_hour": 10,
               "keep_body": 0}
    assert set(numbers) == set(NUMBER_OPTIONS)
    for name, value in numbers.items():
        api.set_option(name, value)
        assert api.get_option(name) == value, name


def test_none_restores_default(api):
    api.set_option("rest_endpoint", "http://localhost:1/")
    api.set_option("rest_endpoint", None)
    assert api.get_option("rest_endpoint") == "https://api.flickr.com/services/rest/"


@pytest.mark.parametrize(
    "name, value",
    [
        ("rest_endpoint", "ftp://example.com/"),
        ("upload_endpoint", "no scheme"),
        ("user_agent", "a\r\nInjected: 1"),
        ("ca_file", "/nonexistent/ca.pem"),
        ("timeout_ms", -1),
        ("max_response_bytes", 5),
        ("oauth_in_header", 7),
        ("timeout_ms", 2**70),
        ("proxy", "nul\0inside"),
    ],
)
def test_invalid_values_raise_invalid_argument(api, name, value):
    before = api.get_option(name)
    with pytest.raises(flickr.InvalidArgument) as caught:
        api.set_option(name, value)
    assert caught.value.code == errors.EINVAL
    assert isinstance(caught.value, ValueError) and isinstance(caught.value, flickr.FlickrError)
    assert caught.value.message
    assert api.get_option(name) == before


def test_wrong_types_and_unknown_options(api):
    with pytest.raises(TypeError):
        api.set_option("timeout_ms", "100")
    with pytest.raises(TypeError):
        api.set_option("rest_endpoint", 5)
    with pytest.raises(TypeError, match="unknown option"):
        api.set_option("no_such_option", 1)
    with pytest.raises(TypeError):
        flickr.Flickr("key", "secret", bogus=1)


def test_bad_credentials(library_path):
    with pytest.raises(flickr.InvalidArgument, match="API key"):
        flickr.Flickr("", "secret")
    with pytest.raises(flickr.InvalidArgument, match="control"):
        flickr.Flickr("key", "sec\nret")
    with pytest.raises(flickr.InvalidArgument):
        flickr.Flickr("key\udcff", "secret")  # not valid UTF-8 once encoded


def test_secret_never_in_messages(api):
    with pytest.raises(flickr.InvalidArgument) as caught:
        api.set_option("oauth_token_secret", "hunter2-secret\n")
    assert "hunter2" not in str(caught.value)


def test_close_is_idempotent_and_use_after_close_raises(library_path):
    api = flickr.Flickr("key", "secret")
    assert not api.closed
    api.close()
    api.close()
    assert api.closed
    with pytest.raises(flickr.StateError) as caught:
        api.get_option("timeout_ms")
    assert caught.value.code == errors.ESTATE
    with pytest.raises(flickr.StateError):
        api.set_option("timeout_ms", 1)


def test_threads_share_one_context(api):
    failures = []

    def worker(n):
        try:
            for i in range(200):
                api.set_option("timeout_ms", n * 1000 + i)
                assert 0 <= api.get_option("timeout_ms") < 10000
                with pytest.raises(flickr.InvalidArgument):
                    api.set_option("rest_endpoint", "bad")
        except Exception as error:  # surfaced below, with the thread's error
            failures.append(error)

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []


def test_exception_classes_per_code():
    expected = {
        errors.EINVAL: flickr.InvalidArgument, errors.ENOMEM: flickr.NoMemory,
        errors.ENETWORK: flickr.NetworkError, errors.ETIMEOUT: flickr.Timeout,
        errors.EHTTP: flickr.HTTPError, errors.EAPI: flickr.APIError, errors.EOAUTH: flickr.OAuthError,
        errors.EPARSE: flickr.ParseError, errors.EABORTED: flickr.Aborted, errors.ETLS: flickr.TLSError,
        errors.EIO: flickr.FileError, errors.ETOOBIG: flickr.TooBig, errors.ESTATE: flickr.StateError,
    }
    for code, cls in expected.items():
        error = errors.from_status(code, "m", api_code=112, http_status=200)
        assert type(error) is cls and isinstance(error, flickr.FlickrError)
        assert (error.code, error.api_code, error.http_status, error.message) == (code, 112, 200, "m")
    assert isinstance(errors.from_status(errors.ETIMEOUT, "t"), TimeoutError)
    assert isinstance(errors.from_status(errors.ENETWORK, "n"), ConnectionError)
    assert type(errors.from_status(-999, "?")) is flickr.FlickrError
    assert str(errors.from_status(errors.ENETWORK, "connection refused")) == "connection refused"
    assert str(errors.from_status(errors.EIO, "cannot read x.jpg")) == "cannot read x.jpg"


def test_timeout_is_the_builtin_timeout_error_too_and_keeps_its_old_name():
    """flickr.Timeout was flickr.TimeoutError, which shadowed the builtin in `from flickr import *`.
    The old names still give the very same class, with a DeprecationWarning."""
    import builtins

    assert issubclass(flickr.Timeout, builtins.TimeoutError) and issubclass(flickr.Timeout, flickr.FlickrError)
    with pytest.raises(TimeoutError):  # the builtin
        raise errors.from_status(errors.ETIMEOUT, "t")
    for module in (flickr, errors):
        with pytest.warns(DeprecationWarning, match=r"TimeoutError is deprecated, use flickr\.Timeout"):
            assert module.TimeoutError is flickr.Timeout
    with pytest.warns(DeprecationWarning):
        from flickr import TimeoutError as old
    assert old is flickr.Timeout
    assert "TimeoutError" not in flickr.__all__ and "Timeout" in flickr.__all__
    namespace: dict = {}
    exec("from flickr import *", namespace)
    assert "TimeoutError" not in namespace
    with pytest.raises(AttributeError, match="has no attribute 'Nothing'"):
        flickr.Nothing


def test_strerror_matches_library(library_path):
    from flickr import _ffi

    lib = _ffi.lib()
    assert lib.flickr_strerror(errors.EAPI) == b"Flickr API error"
    assert lib.flickr_strerror(12345) == b"unknown error code"


def test_64_bit_option_setter_reaches_2_to_the_40(api):
    """flickr_context_set_int64/get_int64 (0.5): the byte bounds' full range, whatever the width
    of C's long (32 bits on the i686 and armv7 wheels)."""
    import ctypes

    from flickr import _ffi

    handle = api._live()
    option = NUMBER_OPTIONS["photo_cache_max_bytes"]
    _ffi.lib().flickr_context_set_int64(handle, option, 1 << 40)
    value = ctypes.c_int64()
    _ffi.lib().flickr_context_get_int64(ctypes.byref(value), handle, option)
    assert value.value == 1 << 40
    with pytest.raises(errors.InvalidArgument):
        _ffi.lib().flickr_context_set_int64(handle, option, (1 << 40) + 1)
