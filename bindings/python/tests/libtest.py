# SPDX-License-Identifier: MIT
"""Helpers shared by the binding's tests (fixtures are in conftest.py)."""
import atexit
import contextlib
import http.server
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import threading

REPO = pathlib.Path(__file__).resolve().parents[3]
PACKAGE_DIR = REPO / "bindings" / "python"
# The sandbox, the tests' server, is a distribution of its own (sandbox/flickr_sandbox).
SANDBOX_DIR = REPO / "sandbox"
# The applications (the `flickr` command, the backup) are a distribution of their own too (apps/flickr_apps).
APPS_DIR = REPO / "apps"
# A checkout's client, applications and sandbox: the PYTHONPATH of the programs the tests start.
PYTHONPATH = os.pathsep.join((str(PACKAGE_DIR), str(APPS_DIR), str(SANDBOX_DIR)))
# The command without the sandbox: the binding and the applications only.
CLIENT_PATH = os.pathsep.join((str(PACKAGE_DIR), str(APPS_DIR)))
for _directory in (APPS_DIR, SANDBOX_DIR):
    if str(_directory) not in sys.path:
        sys.path.append(str(_directory))

from flickr_sandbox import SandboxProcess  # noqa: E402


def running_sandbox(*extra) -> SandboxProcess:
    """A sandbox process (`python -m flickr_sandbox --port 0 EXTRA...`) with its settings
    (`.url`, `.api_key`...): a context manager, or stop it with `.stop()`."""
    return SandboxProcess(*extra)


def endpoints(server) -> dict:
    """The option keywords pointing a Flickr object at a sandbox: one base URL for every endpoint."""
    return {"base_url": server.url}


_cli_cache: list = []


def session_cache_dir() -> str:
    """XDG_CACHE_HOME for this test process and what it starts (conftest.py), removed at its exit:
    the CLI budgets the sandbox's key (3600 calls an hour by default) in a file there, which must
    not be the user's own cache, shared by every test run of the hour."""
    if not _cli_cache:
        _cli_cache.append(tempfile.mkdtemp(prefix="flickr-test-cache-"))
        atexit.register(shutil.rmtree, _cli_cache[0], True)
    return _cli_cache[0]


def cli_env(sandbox, *, token=True, env_extra=None) -> dict:
    """The environment of a `flickr` command run against `sandbox`, as a user would: credentials in
    the environment (and the sandbox's pre-authorised token unless `token` is False), no token store."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("FLICKR_") or k == "FLICKR_LIBRARY"}
    env.update(sandbox.settings.client_environment(token=token), PYTHONPATH=PYTHONPATH,
               FLICKR_TOKEN_STORE=os.devnull + ".none")
    env.update(env_extra or {})
    return env


def run_cli(sandbox, *argv, token=True, env_extra=None):
    """Runs `python -m flickr ARGV` against `sandbox` (see cli_env), capturing its output."""
    return subprocess.run([sys.executable, "-m", "flickr", *argv], capture_output=True, text=True,
                          env=cli_env(sandbox, token=token, env_extra=env_extra), timeout=120)


@contextlib.contextmanager
def answering(body):
    """A server on 127.0.0.1 answering every GET with `body` (a hostile server's answer), or with
    what `body(path)` returns when it is a function (on the request's thread); its URL."""
    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            answer = body(self.path) if callable(body) else body
            self.send_response(200)
            self.send_header("Content-Length", str(len(answer)))
            self.end_headers()
            self.wfile.write(answer)

        def log_message(self, *args):
            pass

    with serving(Handler) as url:
        yield url


@contextlib.contextmanager
def serving(handler):
    """An HTTP server on 127.0.0.1 with `handler` (a BaseHTTPRequestHandler), on threads of its own; its URL."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
