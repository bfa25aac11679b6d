# SPDX-License-Identifier: MIT
"""The CLI's one progress renderer (apps/flickr_apps/cli/progress.py, issue 41 §3): upload's bars, the
backup's live line, download's and harvest's lines show bytes in IEC units (B, KiB, MiB, GiB, TiB:
the upload's bar and the backup's line each had its own decimal MB), items as done/total and rates
per second; redrawn in place when live, one kept line otherwise; and no other CLI module formats
an amount of bytes itself."""
from __future__ import annotations

import io
import re

import pytest

from libtest import APPS_DIR


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("total, shown", [
    (0, "0/0 B"), (500, "500/500 B"), (1023, "1023/1023 B"), (1024, "1.0/1.0 KiB"), (1340, "1.3/1.3 KiB"),
    (999_999, "976.6/976.6 KiB"), (1_048_524, "1.0/1.0 MiB"), (5_000_000, "4.8/4.8 MiB"),
    (3_200_000_000, "3.0/3.0 GiB"), (3 << 40, "3.0/3.0 TiB")])
def test_amounts_in_iec_units_of_the_total(total, shown):
    """A photo of 1,340 bytes read 0.0/0.0 MB once: each amount in the largest IEC unit it holds
    once (1,048,524 bytes is 1.0 MiB, never 1024.0 KiB)."""
    from flickr_apps.cli.progress import ProgressBar

    stream = io.StringIO()
    ProgressBar("photo.jpg", stream=stream)(total, total)
    print(stream.getvalue().strip())
    assert f"100% {shown} " in stream.getvalue()
    assert re.search(r" [\d.]+ (B|KiB|MiB|GiB|TiB)/s\n$", stream.getvalue())


def test_upload_bar_redrawn_on_a_terminal_one_line_when_piped():
    from flickr_apps.cli.progress import ProgressBar

    piped, terminal = io.StringIO(), Terminal()
    for stream in (piped, terminal):
        bar = ProgressBar("a\x1bb.jpg", stream=stream, width=10)  # a name must not drive the terminal
        for sent in (0, 2048, 4096):
            bar(sent, 4096)
    print(repr(piped.getvalue()), repr(terminal.getvalue()))
    assert piped.getvalue().count("\n") == 1 and "\r" not in piped.getvalue()
    assert piped.getvalue().startswith("a\\x1bb.jpg [##########] 100% 4.0/4.0 KiB ")
    assert terminal.getvalue().count("\r\x1b[K") == 3 and terminal.getvalue().endswith("/s\n")
    assert "\r\x1b[Ka\\x1bb.jpg [#####.....]  50% 2.0/4.0 KiB " in terminal.getvalue()
    assert "\x1bb" not in terminal.getvalue().replace("\x1b[K", "")


def test_backup_live_line_in_the_same_units():
    """The backup's line had its own MB and MB/s: now the renderer's KiB/MiB and items."""
    from flickr_apps.cli.backup import LiveLine

    stream = io.StringIO()  # piped: --progress line asked for it
    live = LiveLine(stream)
    live({"event": "listed", "items": 2, "api_calls": 1})
    # (an item's line is drawn at most every 0.2 s, but the last one, done == total, always)
    live({"event": "item", "id": "1", "status": "failed", "error": "gone", "done": 1, "total": 2, "bytes": 0,
          "api_calls": 2})
    live({"event": "item", "id": "2", "status": "done", "done": 2, "total": 2, "bytes": 1340 * 1024,
          "api_calls": 3})
    live({"event": "end", "api_calls": 3})
    text = stream.getvalue()
    print(repr(text))
    assert "\r\x1b[K2 items listed, calls 1" in text and "\r\x1b[K1: gone\n" in text
    assert re.search(r"\r\x1b\[K2/2 items, 1\.3 MiB, [\d.]+ (B|KiB|MiB|GiB|TiB)/s, ETA 0m00s, calls 3\r\x1b\[K$", text)
    assert not re.search(r"\b[KMG]B\b", text)


def test_progress_line_kept_and_live():
    from flickr_apps.cli.progress import ProgressLine, item_rate, items, rate, size

    piped = io.StringIO()
    line = ProgressLine(piped)
    line.show("not shown when piped")
    line.keep("harvest: " + items(500) + ", " + item_rate(500, 40.0))
    line.clear()
    assert piped.getvalue() == "harvest: 500 items, 12.5 items/s\n"
    assert (items(3, 10), size(0), size(2 << 20), rate(3 << 20, 2.0)) == ("3/10 items", "0 B", "2.0 MiB",
                                                                             "1.5 MiB/s")


def test_no_other_cli_module_formats_bytes():
    """One renderer: a CLI module that divides by 1e6 or writes MB/KB/GB itself has a second one
    (the backup's line and `--verify` did: MB beside the upload bar's own MB)."""
    pattern = re.compile(r"\b1e[369]\b|\b1_?000_?000\b|[\d}] ?[KMGT]B\b|\"[KMGT]B\b")
    cli = APPS_DIR / "flickr_apps" / "cli"
    found = [f"{path.name}:{number}: {line.strip()}"
             for path in sorted(cli.glob("*.py")) if path.name != "progress.py"
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if pattern.search(line)]
    print(f"{len(list(cli.glob('*.py')))} CLI modules checked: {found}")
    assert not found, found
