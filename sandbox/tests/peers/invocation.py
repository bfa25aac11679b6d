# SPDX-License-Identifier: MIT
"""How flickr-download and gallery-dl are run against a sandbox: their venv, options, files.

Shared by tests/test_peers.py, which checks what they download, and bench/run.py's workload 8,
which times them: both run ``run_peer.py TOOL REST_URL ARGS...`` with the peers' venv's Python,
from :attr:`Invocation.cwd`, in :meth:`Invocation.env`, and find the files under
:attr:`Invocation.out`. Keys and tokens go through each tool's own options and config files.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

from flickr_sandbox import constants as C

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
REQUIREMENTS = HERE / "requirements.txt"
RUN_PEER = HERE / "run_peer.py"
INSTALL_TIMEOUT = 900  # the first pip install of the peers; later runs reuse the venv at once

# flickr-download's --naming id: "{id}.jpg", "{id}.mp4". (Its title namings fail on the sandbox's
# hostile titles as they would on Flickr: a 255-character title makes a file name too long,
# "trailing dot." and "../../etc/passwd" lose their extension.)
FD_NAME = re.compile(r"^(\d+)\.\w+$")
GDL_NAME = re.compile(r"^flickr_(\d+)\.\w+$")  # gallery-dl's default "{category}_{id}.{extension}"
# The sandbox user's photostream as each tool is told to download it.
PHOTOSTREAM_URL = f"https://www.flickr.com/photos/{C.USER_PATH_ALIAS}/"


def peers_python() -> str:
    """build/peers-venv's python (FLICKR_PEERS_VENV to put it elsewhere): made, or reused until
    requirements.txt changes, by scripts/venv.sh."""
    venv = os.environ.get("FLICKR_PEERS_VENV", str(ROOT / "build" / "peers-venv"))
    done = subprocess.run([str(ROOT / "scripts" / "venv.sh"), str(REQUIREMENTS)], env=dict(os.environ, FLICKR_VENV=venv),
                          capture_output=True, text=True, timeout=INSTALL_TIMEOUT)
    if done.returncode != 0:
        raise RuntimeError(f"scripts/venv.sh {REQUIREMENTS} failed:\n{done.stderr[-4000:]}")
    return done.stdout.strip().splitlines()[-1] + "/bin/python"


def tool_env(home: Path) -> dict[str, str]:
    """This environment but for proxies and Python paths; HOME and XDG folders of the run's own."""
    env = {k: v for k, v in os.environ.items()
           if k.lower() not in ("pythonpath", "http_proxy", "https_proxy", "all_proxy", "virtual_env")}
    home.mkdir(parents=True, exist_ok=True)
    env.update(HOME=str(home), XDG_CACHE_HOME=str(home / ".cache"), XDG_CONFIG_HOME=str(home / ".config"),
               NO_PROXY="127.0.0.1,localhost", PYTHONIOENCODING="utf-8")
    return env


@dataclass(frozen=True)
class Invocation:
    """One run of a tool: its own arguments, where it runs, its HOME, where its files land."""

    tool: str
    args: tuple[str, ...]
    cwd: Path
    home: Path
    out: Path  # the folder its photo files land under (in folders of their own: per user, per album)
    name_id: re.Pattern[str]  # a photo file's name -> the photo's id

    def argv(self, rest_url: str) -> list[str]:
        """run_peer.py's arguments (after the peers' python), the tool's REST endpoint rest_url."""
        return [str(RUN_PEER), self.tool, rest_url, *self.args]

    def env(self) -> dict[str, str]:
        return tool_env(self.home)

    def photo_ids(self) -> set[str]:
        """The ids of the photos whose files are under out (metadata and hidden files aside)."""
        if not self.out.is_dir():
            return set()
        names = (p.name for p in self.out.rglob("*") if p.is_file() and p.suffix != ".json" and p.name[0] != ".")
        return {m.group(1) for m in map(self.name_id.search, names) if m}


def flickr_download(work: Path, *args: str) -> Invocation:
    """flickr-download 0.3.7 signed as the sandbox user, JSON metadata, files named by id, in work/out."""
    home, out = work / "home", work / "out"
    home.mkdir(parents=True)
    out.mkdir()
    # Its -t reads the user's OAuth token from ~/.flickr_token (token, then secret).
    (home / ".flickr_token").write_text(f"{C.OAUTH_TOKEN}\n{C.OAUTH_TOKEN_SECRET}")
    return Invocation("flickr-download", ("-k", C.API_KEY, "-s", C.API_SECRET, "-t", "-j", "-n", "id", *args),
                      out, home, out, FD_NAME)


def gallery_dl(work: Path, url: str) -> Invocation:
    """gallery-dl on url, signed as the sandbox user, with every extra it knows and its metadata files."""
    home, out = work / "home", work / "out"
    work.mkdir(parents=True, exist_ok=True)
    config = work / "gallery-dl.json"
    config.write_text(json.dumps({"extractor": {"base-directory": str(out), "flickr": {
        "api-key": C.API_KEY, "api-secret": C.API_SECRET,
        "access-token": C.OAUTH_TOKEN, "access-token-secret": C.OAUTH_TOKEN_SECRET,
        # Its default is 1 to 2 s between API calls (never under 0.5 s for Flickr, whatever is set).
        "sleep-request": 0,
        # Every extra it knows: license, date_taken, original_format, last_update, geo, machine_tags, o_dims.
        "metadata": True}}}))
    return Invocation("gallery-dl", ("--config-ignore", "--config", str(config), "--write-metadata", url),
                      work, home, out / "flickr" / C.USER_NAME, GDL_NAME)


def photostream(tool: str, work: Path) -> Invocation:
    """The tool downloading the sandbox user's whole photostream (private items included) into work."""
    if tool == "flickr-download":
        return flickr_download(work, "-p", C.USER_NAME)
    if tool == "gallery-dl":
        return gallery_dl(work, PHOTOSTREAM_URL)
    raise ValueError(f"no photostream invocation for {tool!r}")
