# SPDX-License-Identifier: MIT
"""``--tls`` certificates, both ways: trustme (the flickr-sandbox[tls] extra) and the openssl command."""
import shutil
import ssl
import urllib.error
import urllib.request

import pytest

from flickr_sandbox import Sandbox, tls
from flickr_sandbox import constants as C


@pytest.fixture(params=["trustme", "openssl"])
def maker(request, monkeypatch):
    """Which of the two makes the certificates in this test."""
    # Both makers are required, not skipped: the test venv has trustme (requirements-test.txt) and
    # Debian has openssl; a sandbox without them would quietly lose a path it documents.
    if request.param == "trustme":
        assert tls._trustme() is not None, "trustme is missing: pip install 'flickr-sandbox[tls]'"
    if request.param == "openssl":
        assert shutil.which("openssl"), "the openssl command is missing: apt install openssl"
        monkeypatch.setattr(tls, "_trustme", lambda: None)
    return request.param


@pytest.mark.parametrize("name", ["127.0.0.1", "localhost"])
def test_the_sandbox_is_trusted_with_its_ca(maker, name):
    with Sandbox(tls_enabled=True) as sb:
        context = ssl.create_default_context(cafile=sb.ca_file)
        url = f"https://{name}:{sb.port}/services/rest/?method=flickr.test.echo&api_key={C.API_KEY}"
        with urllib.request.urlopen(url, context=context, timeout=10) as reply:
            assert b'<rsp stat="ok">' in reply.read()
        with pytest.raises(urllib.error.URLError, match="CERTIFICATE_VERIFY_FAILED"):
            urllib.request.urlopen(url, context=ssl.create_default_context(), timeout=10)


def test_the_certificate_names_the_host(maker, tmp_path):
    ca, cert, key = tls.generate(str(tmp_path), "sandbox.test")
    names = ssl._ssl._test_decode_cert(cert)["subjectAltName"]
    assert set(names) == {("IP Address", "127.0.0.1"), ("DNS", "localhost"), ("DNS", "sandbox.test")}
    ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER).load_cert_chain(cert, key)  # the key is the certificate's


def test_without_either_it_says_what_to_install(monkeypatch, tmp_path):
    monkeypatch.setattr(tls, "_trustme", lambda: None)
    monkeypatch.setattr(shutil, "which", lambda name: None)
    with pytest.raises(tls.TLSSetupError, match="flickr-sandbox\\[tls\\].*openssl"):
        tls.generate(str(tmp_path), "127.0.0.1")
