# SPDX-License-Identifier: MIT
"""Certificates for ``--tls``: a private CA and a server certificate it signs.

Made by trustme (the ``flickr-sandbox[tls]`` extra; Debian's python3-trustme), a library written
for exactly this, when it is installed; else by the ``openssl`` command-line tool, so that the
sandbox still runs on the standard library alone (stdlib has no X.509 writer).  Clients trust
the sandbox with ``ssl.create_default_context(cafile=ca_file)``.
"""

from __future__ import annotations

import importlib
import ipaddress
import os
import shutil
import subprocess
from types import ModuleType


class TLSSetupError(RuntimeError):
    """Neither trustme nor openssl is there, or openssl failed."""


def _trustme() -> ModuleType | None:
    try:
        return importlib.import_module("trustme")
    except ImportError:
        return None


def _openssl(*args: str, cwd: str) -> None:
    exe = shutil.which("openssl")
    if exe is None:
        raise TLSSetupError("--tls needs trustme (pip install 'flickr-sandbox[tls]', or Debian's python3-trustme) "
                            "or the openssl command-line tool (Debian package 'openssl')")
    result = subprocess.run([exe, *args], cwd=cwd, capture_output=True, text=True)
    if result.returncode != 0:
        raise TLSSetupError(f"openssl {args[0]} failed: {result.stderr.strip()}")


def generate(directory: str, host: str) -> tuple[str, str, str]:
    """Create ca.pem, server.pem and server.key in ``directory``; return their paths.

    The server certificate names 127.0.0.1 and localhost, plus ``host``.
    """
    os.makedirs(directory, exist_ok=True)
    paths = tuple(os.path.join(directory, n) for n in ("ca.pem", "server.pem", "server.key"))
    names = sorted({"127.0.0.1", "localhost", host.strip("[]")})
    trustme = _trustme()
    if trustme is not None:
        authority = trustme.CA(organization_name="libflickr sandbox CA")
        leaf = authority.issue_cert(*names, common_name="localhost")
        authority.cert_pem.write_to_path(paths[0])
        leaf.cert_chain_pems[0].write_to_path(paths[1])
        leaf.private_key_pem.write_to_path(paths[2])
    else:
        _generate_with_openssl(directory, names)
    return paths[0], paths[1], paths[2]


def _san(name: str) -> str:
    """A subjectAltName entry: ``IP:`` for an address, ``DNS:`` for a host name."""
    try:
        return f"IP:{ipaddress.ip_address(name)}"
    except ValueError:
        return f"DNS:{name}"


def _generate_with_openssl(directory: str, names: list[str]) -> None:
    """The same three files by three openssl commands (the CA's key and the request stay beside them)."""
    ec = ("-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes")
    _openssl("req", "-x509", *ec, "-keyout", "ca.key", "-out", "ca.pem", "-days", "3650",
             "-subj", "/CN=libflickr sandbox CA",
             "-addext", "basicConstraints=critical,CA:TRUE",
             "-addext", "keyUsage=critical,keyCertSign,cRLSign",
             "-addext", "subjectKeyIdentifier=hash", cwd=directory)
    _openssl("req", *ec, "-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=localhost",
             cwd=directory)
    with open(os.path.join(directory, "server.ext"), "w") as f:
        f.write(f"subjectAltName={','.join(_san(n) for n in names)}\n"
                "basicConstraints=critical,CA:FALSE\n"
                "keyUsage=critical,digitalSignature,keyEncipherment\n"
                "extendedKeyUsage=serverAuth\n"
                "subjectKeyIdentifier=hash\n"
                "authorityKeyIdentifier=keyid,issuer\n")
    _openssl("x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key",
             "-CAcreateserial", "-out", "server.pem", "-days", "825", "-extfile", "server.ext",
             cwd=directory)
