#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The main job: runs the C examples and a short Python session against a
fresh sandbox (or against the real Flickr when FLICKR_API_KEY and
FLICKR_API_SECRET are set), and tells what happened.

Run through scripts/demo.sh, which installs and builds first.
"""
from __future__ import annotations

import os
import pathlib
import subprocess
import sys
import urllib.request

REPO = pathlib.Path(__file__).resolve().parents[1]
BUILD = REPO / "build"
EXAMPLES = BUILD / "bindings" / "c" / "examples"
PHOTO = REPO / "bindings" / "c" / "examples" / "photo.jpg"
sys.path.insert(0, str(REPO / "bindings" / "python"))
sys.path.insert(0, str(REPO / "sandbox"))
sys.path.insert(0, str(REPO / "bindings" / "c" / "examples"))
os.environ.setdefault("FLICKR_LIBRARY", str(BUILD / "libflickr.so.0"))

from flickr_sandbox import SandboxProcess, SandboxStartError  # noqa: E402


def heading(text: str) -> None:
    print(f"\n== {text}", flush=True)


def start_sandbox(env: dict) -> SandboxProcess:
    try:
        return SandboxProcess(env=env)
    except SandboxStartError as err:
        sys.exit(f"the sandbox did not start: {err}")


def run_example(name: str, *args: str, env: dict) -> None:
    """Runs a C example with its output going straight to the terminal."""
    print(f"$ {name} {' '.join(args)}", flush=True)
    status = subprocess.run([str(EXAMPLES / name), *args], env=env, timeout=300).returncode
    if status != 0:
        sys.exit(f"{name} failed with status {status}")


def c_login(env: dict) -> None:
    """oauth_login, with this script playing the user's browser."""
    from play_browser import authorize

    print("$ oauth_login write   (this script plays the browser)", flush=True)
    example = subprocess.Popen([str(EXAMPLES / "oauth_login"), "write"], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, text=True, env=env)
    for line in example.stdout:
        print("  " + line, end="")
        if "/services/oauth/authorize?" in line:
            callback = authorize(line.strip(), oob=False)
            print(f"  [browser approves and is sent to] {callback}")
            example.stdin.write(callback + "\n")
            example.stdin.close()
    if example.wait(timeout=60) != 0:
        sys.exit("oauth_login failed")


def python_session(options: dict, key: str, secret: str, sandbox: bool) -> None:
    import flickr

    def browser(url: str) -> None:
        # The user's browser: approving redirects to the loopback callback, which urllib follows.
        urllib.request.urlopen(url, timeout=30).read()

    with flickr.Flickr(key, secret, **options) as api:
        print(f"flickr {flickr.__version__} on libflickr {flickr.library_version()}")
        if sandbox:
            token = api.authenticate_via_browser("write", browser=browser, timeout=30, store=False,
                                                 output=sys.stdout)
            print(f"logged in as {token['username']} ({token['user_nsid']})")
        elif not api.get_option("oauth_token"):
            print("(no FLICKR_OAUTH_TOKEN: skipping login and upload)")
        if api.get_option("oauth_token"):
            user = api.call("flickr.test.login")["user"]
            print(f"flickr.test.login: {user['username']['_text']}")

            def bar(sent: int, total: int) -> None:
                filled = sent * 30 // max(total, 1)
                print(f"\r  uploading [{'#' * filled}{'.' * (30 - filled)}] {sent}/{total} bytes", end="",
                      flush=True)
                if sent == total:
                    print()

            answer = api.upload(str(PHOTO), progress=bar, title="From the Python demo", tags="demo libflickr",
                                is_public=0)
            photo_id = answer["photoid"]["_text"]
            api.post("flickr.photos.addTags", photo_id=photo_id, tags="python")
            info = api.call("flickr.photos.getInfo", photo_id=photo_id)["photo"]
            print(f"uploaded photo {photo_id}: \"{info['title']['_text']}\", tags "
                  f"{[t['_text'] for t in info['tags']['tag']]}")
        found = api.call("flickr.photos.search", text="a" if sandbox else "sunset", per_page=3, extras="owner_name")
        print(f"flickr.photos.search: {found['photos']['total']} results; first page:")
        for photo in found["photos"]["photo"]:
            print(f"  - {photo['title']} by {photo.get('ownername', photo['owner'])}")
        if sandbox:
            walked = sum(1 for _ in api.walk("flickr.photos.getRecent", per_page=100))
            print(f"Flickr.walk over flickr.photos.getRecent: {walked} photos, every page")
        else:  # be gentle with the real service: the first 200 only
            walked = sum(1 for _, _ in zip(range(200), api.walk("flickr.photos.getRecent", per_page=100)))
            print(f"Flickr.walk over flickr.photos.getRecent: the first {walked} photos")


def main() -> int:
    env = dict(os.environ)
    real = bool(env.get("FLICKR_API_KEY") and env.get("FLICKR_API_SECRET") and not env.get("FLICKR_ENDPOINT"))
    sandbox_process = None
    try:
        if real:
            heading("Against the real Flickr (FLICKR_API_KEY is set)")
        else:
            heading("Starting the sandbox (python -m flickr_sandbox)")
            sandbox_process = start_sandbox(env)
            settings = sandbox_process.settings
            print(f"sandbox at {settings.url}, data in {settings.data_dir}")
            for name in ("FLICKR_OAUTH_TOKEN", "FLICKR_OAUTH_TOKEN_SECRET", "FLICKR_CA_FILE"):
                env.pop(name, None)
            env.update(settings.client_environment(token=False))

        heading("C: hello")
        run_example("hello", env=env)
        heading("C: recent_photos (flickr.photos.getRecent, like RandomPublicPhoto)")
        run_example("recent_photos", "3", env=env)
        if not real:
            heading("C: oauth_login (request token, authorize, access token, flickr.test.login)")
            c_login(env)
            env.update(FLICKR_OAUTH_TOKEN=settings.oauth_token, FLICKR_OAUTH_TOKEN_SECRET=settings.oauth_token_secret)
        if env.get("FLICKR_OAUTH_TOKEN"):
            heading("C: upload (progress bar, then flickr.photos.setMeta, like SnapAndRun)")
            run_example("upload", str(PHOTO), "Snap and run", env=env)

        heading("Python: login, upload with progress, search, walk")
        from flickr_apps.cli.common import endpoint_options

        options = endpoint_options(env.get("FLICKR_ENDPOINT"))
        if real and env.get("FLICKR_OAUTH_TOKEN") and env.get("FLICKR_OAUTH_TOKEN_SECRET"):
            options.update(oauth_token=env["FLICKR_OAUTH_TOKEN"], oauth_token_secret=env["FLICKR_OAUTH_TOKEN_SECRET"])
        python_session(options, env["FLICKR_API_KEY"], env["FLICKR_API_SECRET"], sandbox=not real)
        heading("Demo finished")
        return 0
    finally:
        if sandbox_process is not None:
            sandbox_process.stop()
            print("sandbox stopped")


if __name__ == "__main__":
    sys.exit(main())
