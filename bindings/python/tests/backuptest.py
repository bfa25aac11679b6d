# SPDX-License-Identifier: MIT
"""What the backup tests share: a small account of uploaded items in a sandbox of their own.

The seeded account's originals are drawn by the sandbox on first request (4000x3000 JPEGs, about a
second each): a backup of those takes minutes. These tests empty the account and upload small
files instead, whose bytes they know, so every file of the backup can be compared byte for byte.
"""
import hashlib
import json
import os
import pathlib
import subprocess
import sys

import flickr
from libtest import cli_env, endpoints

#: What the sandbox takes as a JPEG upload: a JPEG's start, then bytes of the photo's own.
def jpeg(n: int, size: int = 40_000) -> bytes:
    seed = hashlib.sha256(str(n).encode()).digest()
    return b"\xff\xd8\xff\xe0" + (seed * (size // 32 + 1))[:size]


#: An ISO media file's start: the sandbox takes it as a video (media="video", mp4).
def mp4(n: int, size: int = 60_000) -> bytes:
    seed = hashlib.sha256(f"video {n}".encode()).digest()
    return b"\x00\x00\x00\x18ftypmp42" + (seed * (size // 32 + 1))[:size]


def client(server, token: bool = True) -> flickr.Flickr:
    settings = server.settings
    options = endpoints(server)
    if token:
        options.update(oauth_token=settings.oauth_token, oauth_token_secret=settings.oauth_token_secret)
    return flickr.Flickr(settings.api_key, settings.api_secret, **options)


def empty_account(api: flickr.Flickr) -> None:
    """Deletes every item of the sandbox user (the seeded ones): the account starts empty."""
    for photo in list(api.walk("flickr.people.getPhotos", user_id="me")):
        api.call("flickr.photos.delete", photo_id=photo["id"])


def upload(api: flickr.Flickr, data: bytes, **args) -> str:
    return str(api.upload(data, **args)["photoid"]["_text"])


def small_account(api: flickr.Flickr, photos: int, videos: int = 0) -> dict[str, bytes]:
    """An empty account, then `photos` JPEGs and `videos` videos: {id: the uploaded bytes}."""
    empty_account(api)
    items = {}
    for n in range(photos):
        data = jpeg(n)
        items[upload(api, data, title=f"Photo {n}", description=f"about {n}", tags=f"tag{n} common")] = data
    for n in range(videos):
        data = mp4(n)
        items[upload(api, data, title=f"Video {n}")] = data
    return items


def run_cli(server, *argv, env_extra=None, timeout=120):
    return subprocess.run([sys.executable, "-m", "flickr", *argv], capture_output=True, text=True,
                          env=cli_env(server, env_extra=env_extra), timeout=timeout)


def start_cli(server, *argv, env_extra=None, **popen) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "flickr", *argv], env=cli_env(server, env_extra=env_extra),
                            **popen)


def media_files(root: pathlib.Path) -> dict[str, pathlib.Path]:
    """{id: path} of the media files in the backup, found by walking it (not by asking its state)."""
    found = {}
    for path in root.rglob("*"):
        relative = path.relative_to(root)
        if relative.parts[0] in (".flickr-backup", "albums", "collections") or path.is_symlink():
            continue
        if path.is_file() and path.suffix not in (".json", ".xmp", ".html") and path.name[0].isdigit():
            found[path.name.split("_")[0]] = path
    return found


def state_rows(root: pathlib.Path, query: str) -> list:
    import sqlite3

    db = sqlite3.connect(f"file:{root / '.flickr-backup' / 'state.sqlite3'}?mode=ro", uri=True)
    try:
        return db.execute(query).fetchall()
    finally:
        db.close()


def sidecar(path: pathlib.Path) -> dict:
    return json.loads(path.with_name(path.name.rsplit(".", 1)[0] + ".json").read_text("utf-8"))


def partial_files(root: pathlib.Path) -> list[str]:
    """Temporary files left in the backup's own folders (the download cache is the library's)."""
    return [str(p) for p in root.rglob("*.part") if ".flickr-backup" not in p.relative_to(root).parts]


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def environ_without_flickr() -> dict:
    return {k: v for k, v in os.environ.items() if not k.startswith("FLICKR_") or k == "FLICKR_LIBRARY"}
