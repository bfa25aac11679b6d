# SPDX-License-Identifier: MIT
"""Helpers shared by the binding's tests (fixtures are in conftest.py)."""
import contextlib
import os
import pathlib
import subprocess
import sys
import types

REPO = pathlib.Path(__file__).resolve().parents[3]
PACKAGE_DIR = REPO / "bindings" / "python"


def start_sandbox(*extra):
    """Starts `python -m flickr.sandbox --port 0` and reads the lines it prints."""
    process = subprocess.Popen(
        [sys.executable, "-m", "flickr.sandbox", "--port", "0", *extra],
        stdout=subprocess.PIPE, text=True, env=dict(os.environ, PYTHONPATH=str(PACKAGE_DIR)),
    )
    info = {"url": process.stdout.readline().strip(), "process": process}
    if not info["url"].startswith("http"):
        process.kill()
        raise RuntimeError(f"the sandbox did not start: {info['url']!r}")
    wanted = {"api_key", "api_secret", "oauth_token", "oauth_token_secret", "auth_token", "data_dir"}
    if "--tls" in extra:
        wanted.add("ca_file")
    while not wanted.issubset(info):
        name, _, value = process.stdout.readline().strip().partition("=")
        if not name:
            break
        info[name] = value
    return types.SimpleNamespace(**info)


def stop_sandbox(sandbox):
    sandbox.process.terminate()
    try:
        sandbox.process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        sandbox.process.kill()


@contextlib.contextmanager
def running_sandbox(*extra):
    """A sandbox process for the length of a with block (start_sandbox, then stop_sandbox)."""
    server = start_sandbox(*extra)
    try:
        yield server
    finally:
        stop_sandbox(server)


def endpoints(server) -> dict:
    """The option keywords pointing a Flickr object at a sandbox: one base URL for every endpoint."""
    return {"base_url": server.url}
