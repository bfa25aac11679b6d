# SPDX-License-Identifier: MIT
"""The CLI's one progress renderer, for upload, download, backup and harvest: a line on stderr,
redrawn in place on a terminal, in one set of units: bytes in IEC units (B, KiB, MiB, GiB, TiB),
items as done/total, rates per second (docs/cli.md, "Progress")."""
from __future__ import annotations

import sys
import time
from typing import Optional, TextIO

from .common import terminal_safe


# IEC units, 1,024 apart, for every amount of bytes the CLI shows: a photo of 1,340 bytes reads
# 1.3 KiB (it read 0.0/0.0 MB once), and the backup's MB and the upload's were not the same MB.
_UNITS = [(1 << 40, "TiB"), (1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")]


def _unit(amount: float) -> tuple[float, str]:
    """The largest unit of which `amount` holds at least one, as shown to a tenth (1,048,524 bytes
    is 1.0 MiB, not 1024.0 KiB); bytes below a KiB."""
    return next(((size, name) for size, name in _UNITS if amount >= size * 0.99995), (1.0, "B"))


def _in(amount: float, unit: tuple[float, str]) -> str:
    size, name = unit
    return f"{amount:.0f}" if name == "B" else f"{amount / size:.1f}"


def size(amount: float) -> str:
    """``1.3 KiB``, ``500 B``."""
    unit = _unit(amount)
    return f"{_in(amount, unit)} {unit[1]}"


def sizes(done: float, total: float) -> str:
    """``1.3/4.0 MiB``: both in the unit of the larger."""
    unit = _unit(max(done, total))
    return f"{_in(done, unit)}/{_in(total, unit)} {unit[1]}"


def rate(amount: float, seconds: float) -> str:
    """Bytes a second: ``2.5 MiB/s``."""
    return size(amount / max(seconds, 1e-6)) + "/s"


def items(done: int, total: Optional[int] = None) -> str:
    """``3/10 items``, ``500 items``."""
    return f"{done}/{total} items" if total is not None else f"{done} items"


def item_rate(count: int, seconds: float) -> str:
    """Items a second: ``12.5 items/s``."""
    return f"{count / max(seconds, 1e-6):.1f} items/s"


def eta(seconds: float) -> str:
    """``ETA 2m05s``."""
    return f"ETA {int(seconds) // 60}m{int(seconds) % 60:02d}s"


class ProgressLine:
    """One progress line on `stream` (stderr). Live (on a terminal, or when asked: `flickr backup
    --progress line`), `show` redraws it in place (erasing the rest of the line) and `keep` ends it
    so that it stays; otherwise (a log, a pipe) only the kept lines are written. Every text goes
    through terminal_safe: a file or photo name in it must not drive the terminal."""

    def __init__(self, stream: Optional[TextIO] = None, live: Optional[bool] = None) -> None:
        self.stream = stream or sys.stderr
        self.tty = self.stream.isatty() if live is None else live
        self.started = time.monotonic()
        self.last = ""  # the last text shown or kept

    def elapsed(self) -> float:
        return time.monotonic() - self.started

    def show(self, text: str) -> None:
        """The line as it is now: redrawn in place on a terminal, not written elsewhere."""
        self.last = terminal_safe(text)
        if self.tty:
            self.stream.write("\r\x1b[K" + self.last)
            self.stream.flush()

    def keep(self, text: str) -> None:
        """A line that stays (a file's last state, a periodic report, a failure): on a terminal it
        replaces the line in place, and the next `show` starts below it."""
        self.last = terminal_safe(text)
        self.stream.write(("\r\x1b[K" if self.tty else "") + self.last + "\n")
        self.stream.flush()

    def clear(self) -> None:
        """Erases the line in place (a terminal only)."""
        if self.tty:
            self.stream.write("\r\x1b[K")
            self.stream.flush()


class ProgressBar:
    """An upload's progress callback: ``label [####......]  40% 1.6/4.0 MiB 2.1 MiB/s``, redrawn on
    a terminal; elsewhere one line per file, when it is sent."""

    def __init__(self, label: str, stream: Optional[TextIO] = None, width: int = 30) -> None:
        self.label = label
        self.line = ProgressLine(stream)
        self.width = width

    def __call__(self, sent: int, total: int) -> None:
        fraction = sent / total if total else 1.0
        filled = int(fraction * self.width)
        text = (f"{self.label} [{'#' * filled}{'.' * (self.width - filled)}] {fraction:4.0%} "
                f"{sizes(sent, total)} {rate(sent, self.line.elapsed())}")
        if sent >= total:
            self.line.keep(text)
        else:
            self.line.show(text)
