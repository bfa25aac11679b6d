# SPDX-License-Identifier: MIT
"""Certificates for ``--tls``: a private CA and a server certificate it signs.

Generated with the ``openssl`` command-line tool (stdlib has no X.509 writer).
Clients trust the sandbox with ``ssl.create_default_context(cafile=ca_file)``.
"""

from __future__ import annotations

import ipaddress
import os
import shutil
import subprocess


class TLSSetupError(RuntimeError):
    """openssl is missing or failed."""


def _openssl(*args: str, cwd: str) -> None:
    exe = shutil.which("openssl")
    if exe is None:
        raise TLSSetupError("--tls needs the openssl command-line tool (Debian package 'openssl')")
    result = subprocess.run([exe, *args], cwd=cwd, capture_output=True, text=True)
    if result.returncode != 0:
        raise TLSSetupError(f"openssl {args[0]} failed: {result.stderr.strip()}")


def generate(directory: str, host: str) -> tuple[str, str, str]:
    """Create ca.pem, server.pem and server.key in ``directory``; return their paths.

    The server certificate names IP:127.0.0.1 and DNS:localhost, plus ``host``.
    """
    os.makedirs(directory, exist_ok=True)
    names = {"IP:127.0.0.1", "DNS:localhost"}
    try:
        names.add(f"IP:{ipaddress.ip_address(host.strip('[]'))}")
    except ValueError:
        names.add(f"DNS:{host}")
    ec = ("-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes")
    _openssl("req", "-x509", *ec, "-keyout", "ca.key", "-out", "ca.pem", "-days", "3650",
             "-subj", "/CN=libflickr sandbox CA",
             "-addext", "basicConstraints=critical,CA:TRUE",
             "-addext", "keyUsage=critical,keyCertSign,cRLSign",
             "-addext", "subjectKeyIdentifier=hash", cwd=directory)
    _openssl("req", *ec, "-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=localhost",
             cwd=directory)
    with open(os.path.join(directory, "server.ext"), "w") as f:
        f.write(f"subjectAltName={','.join(sorted(names))}\n"
                "basicConstraints=critical,CA:FALSE\n"
                "keyUsage=critical,digitalSignature,keyEncipherment\n"
                "extendedKeyUsage=serverAuth\n"
                "subjectKeyIdentifier=hash\n"
                "authorityKeyIdentifier=keyid,issuer\n")
    _openssl("x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key",
             "-CAcreateserial", "-out", "server.pem", "-days", "825", "-extfile", "server.ext",
             cwd=directory)
    ca, cert, key = (os.path.join(directory, n) for n in ("ca.pem", "server.pem", "server.key"))
    return ca, cert, key
