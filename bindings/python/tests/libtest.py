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


def cli_env(sandbox, *, token=True, env_extra=None) -> dict:
    """The environment of a `flickr` command run against `sandbox`, as a user would: credentials in
    the environment (and the sandbox's pre-authorised token unless `token` is False), no token store."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("FLICKR_") or k == "FLICKR_LIBRARY"}
    env.update(PYTHONPATH=str(PACKAGE_DIR), FLICKR_API_KEY=sandbox.api_key, FLICKR_API_SECRET=sandbox.api_secret,
               FLICKR_ENDPOINT=sandbox.url, FLICKR_TOKEN_STORE=os.devnull + ".none")
    if token:
        env.update(FLICKR_OAUTH_TOKEN=sandbox.oauth_token, FLICKR_OAUTH_TOKEN_SECRET=sandbox.oauth_token_secret)
    env.update(env_extra or {})
    return env


def run_cli(sandbox, *argv, token=True, env_extra=None):
    """Runs `python -m flickr ARGV` against `sandbox` (see cli_env), capturing its output."""
    return subprocess.run([sys.executable, "-m", "flickr", *argv], capture_output=True, text=True,
                          env=cli_env(sandbox, token=token, env_extra=env_extra), timeout=120)
