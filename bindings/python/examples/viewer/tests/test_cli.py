# SPDX-License-Identifier: MIT
"""``python -m viewer --sandbox``: prints its URL, serves, and stops cleanly on SIGTERM."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.request
from pathlib import Path

VIEWER_DIR = Path(__file__).resolve().parents[1]
SANDBOX_DIR = VIEWER_DIR.parents[3] / "sandbox"  # flickr_sandbox from this checkout


def test_the_command_starts_a_sandbox_and_the_viewer(tmp_path):
    path = [str(VIEWER_DIR), str(SANDBOX_DIR), os.environ.get("PYTHONPATH", "")]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(path))
    process = subprocess.Popen([sys.executable, "-m", "viewer", "--sandbox", "--port", "0",
                                "--data-dir", str(tmp_path)], stdout=subprocess.PIPE, text=True, env=env)
    try:
        url = process.stdout.readline().strip()
        assert url.startswith("http://127.0.0.1:")
        with urllib.request.urlopen(url + "api/places", timeout=20) as response:
            assert [p["title"] for p in json.load(response)["places"]] == ["Paris", "San Francisco", "Tokyo", "Zürich"]
    finally:
        process.terminate()
        assert process.wait(timeout=20) == 0
    assert (tmp_path / "sandbox" / "sandbox.sqlite3").is_file()  # kept for the next start
