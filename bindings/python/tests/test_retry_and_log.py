# SPDX-License-Identifier: MIT
"""Retries, the rate limiter and the `flickr` logger, against the sandbox's counted faults."""
import logging
import os
import time
import uuid

import pytest

import flickr
from libtest import endpoints


@pytest.fixture
def api(library_path, sandbox):
    with flickr.Flickr(sandbox.api_key, sandbox.api_secret, oauth_token=sandbox.oauth_token,
                       oauth_token_secret=sandbox.oauth_token_secret, retry_base_ms=10, **endpoints(sandbox)) as api:
        yield api


def fault(kind: str, times: int) -> str:
    return f"{kind};times={times};key={uuid.uuid4().hex}"


def test_get_is_retried_and_logged(api, caplog, sandbox):
    with caplog.at_level(logging.DEBUG, logger="flickr"):
        answer = api.call("flickr.test.echo", x="1", sandbox_fault=fault("http503", 2))
    assert answer["x"]["_text"] == "1"
    retries = [r for r in caplog.records if r.levelno == logging.INFO and r.getMessage().startswith("retry ")]
    assert len(retries) == 2
    assert "FLICKR_EHTTP (HTTP 503)" in retries[0].getMessage()
    final = [r.getMessage() for r in caplog.records if r.levelno == logging.DEBUG][-1]
    assert final.startswith("flickr.test.echo GET ") and "-> HTTP 200" in final and "2 retries" in final
    for record in caplog.records:
        text = record.getMessage()
        assert sandbox.api_secret not in text and sandbox.oauth_token_secret not in text and "?" not in text


def test_post_needs_opt_in(api):
    with pytest.raises(flickr.HTTPError):
        api.post("flickr.test.echo", sandbox_fault=fault("http502", 1))
    api.set_option("retry_post", True)
    assert api.post("flickr.test.echo", y="2", sandbox_fault=fault("http502", 1))["y"]["_text"] == "2"


def test_retry_limit(api):
    api.set_option("max_retries", 1)
    with pytest.raises(flickr.HTTPError) as caught:
        api.call("flickr.test.echo", sandbox_fault=fault("http500", 3))
    assert caught.value.http_status == 500
    api.set_option("max_retries", 0)
    with pytest.raises(flickr.NetworkError):
        api.call("flickr.test.echo", sandbox_fault=fault("reset", 3))


def test_retry_after_is_honoured(api):
    start = time.monotonic()
    api.call("flickr.test.echo", sandbox_fault=fault("http429=1", 1))
    assert time.monotonic() - start >= 0.95


def test_rate_limit(api):
    api.set_option("rate_limit_per_second", 4)
    start = time.monotonic()
    futures = [api.call_async("flickr.test.echo", n=i) for i in range(9)]
    for f in futures:
        f.result(timeout=30)
    assert time.monotonic() - start >= 1.9  # 9 starts at 4 per second: the last at >= 2 s
