# SPDX-License-Identifier: MIT
"""img2dataset (from PyPI: requirements-img2dataset.txt) downloads a harvest's CSV from the sandbox
with its multiprocessing distributor: every row's image is written, with its caption and licence.
img2dataset lives in a venv of its own (build/img2dataset-venv, FLICKR_IMG2DATASET_VENV to put it
elsewhere), made or reused by scripts/venv.sh: it pulls numpy, opencv, pyarrow... which the
project's venv does not hold."""
import csv
import json
import os
import pathlib
import subprocess
import sys

import pytest

from libtest import cli_env, run_cli

ROOT = pathlib.Path(__file__).resolve().parents[3]
REQUIREMENTS = ROOT / "bindings" / "python" / "requirements-img2dataset.txt"


def img2dataset() -> pathlib.Path:
    """The img2dataset command of its own venv, made (or reused while the requirements file is
    unchanged) by scripts/venv.sh."""
    venv = os.environ.get("FLICKR_IMG2DATASET_VENV", str(ROOT / "build" / "img2dataset-venv"))
    done = subprocess.run([str(ROOT / "scripts" / "venv.sh"), str(REQUIREMENTS)], env=dict(os.environ, FLICKR_VENV=venv),
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, f"scripts/venv.sh {REQUIREMENTS} failed:\n{done.stderr[-4000:]}"
    return pathlib.Path(done.stdout.strip().splitlines()[-1]) / "bin" / "img2dataset"


def test_img2dataset_downloads_a_harvest(sandbox, tmp_path):
    command = img2dataset()
    urls = tmp_path / "urls.csv"
    done = run_cli(sandbox, "harvest", "flickr.photos.search", "user_id=me", "--format", "img2dataset",
                   "--size", "q", "-o", str(urls))
    assert done.returncode == 0, done.stderr
    with open(urls, newline="", encoding="utf-8") as source:
        rows = {row["id"]: row for row in csv.DictReader(source)}
    out = tmp_path / "dataset"
    env = dict(cli_env(sandbox), NO_ALBUMENTATIONS_UPDATE="1", WANDB_MODE="disabled")
    ran = subprocess.run([str(command), "--url_list", str(urls), "--input_format", "csv", "--url_col", "url",
                          "--caption_col", "caption", "--save_additional_columns", '["id","license","license_name"]',
                          "--output_format", "files", "--output_folder", str(out), "--image_size", "64",
                          "--distributor", "multiprocessing", "--processes_count", "2", "--thread_count", "4",
                          "--retries", "1"], env=env, capture_output=True, text=True, timeout=300)
    assert ran.returncode == 0, ran.stderr[-2000:]
    written = {}
    for meta in out.glob("*/*.json"):
        record = json.loads(meta.read_text())
        record = {key: str(value) for key, value in record.items()}  # CSV cells read back as numbers
        if record["status"] == "success":
            image = meta.with_suffix(".jpg")
            assert image.read_bytes()[:3] == b"\xff\xd8\xff", image
            assert meta.with_suffix(".txt").read_text() == rows[record["id"]]["caption"]
            written[record["id"]] = record
    print(f"{len(rows)} rows, {len(written)} images written by img2dataset")
    assert len(rows) >= 100 and set(written) == set(rows)  # the user's 100 photos, and any a test uploaded
    assert all(record["license"] == rows[ident]["license"] and record["license_name"] == rows[ident]["license_name"]
               for ident, record in written.items())
    assert os.path.getsize(next(out.glob("*.parquet"))) > 0
