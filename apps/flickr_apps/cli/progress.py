# SPDX-License-Identifier: MIT
"""A one-line progress bar on stderr, redrawn in place on a terminal."""
from __future__ import annotations

import sys
import time
from typing import Optional, TextIO

from .common import terminal_safe


# Decimal units, as the amounts were shown in MB before: a photo of 1,340 bytes read 0.0/0.0 MB.
_UNITS = [(1e9, "GB"), (1e6, "MB"), (1e3, "KB")]


def _unit(amount: float) -> tuple[float, str]:
    """The largest unit of which `amount` holds at least one (bytes below a kilobyte)."""
    return next(((size, name) for size, name in _UNITS if amount >= size), (1.0, "B"))


def _in(amount: float, unit: tuple[float, str]) -> str:
    size, name = unit
    return f"{amount:.0f}" if name == "B" else f"{amount / size:.1f}"


class ProgressBar:
    def __init__(self, label: str, stream: Optional[TextIO] = None, width: int = 30) -> None:
        self.label = terminal_safe(label)  # a file name: it must not drive the terminal
        self.stream = stream or sys.stderr
        self.width = width
        self.started = time.monotonic()
        self.tty = self.stream.isatty()
        self._last_line = ""

    def __call__(self, sent: int, total: int) -> None:
        fraction = sent / total if total else 1.0
        filled = int(fraction * self.width)
        rate = sent / max(time.monotonic() - self.started, 1e-6)
        unit, rate_unit = _unit(max(total, sent)), _unit(rate)
        line = (f"{self.label} [{'#' * filled}{'.' * (self.width - filled)}] {fraction:4.0%} "
                f"{_in(sent, unit)}/{_in(total, unit)} {unit[1]} {_in(rate, rate_unit)} {rate_unit[1]}/s")
        if self.tty:
            self.stream.write("\r" + line)
            if sent >= total:
                self.stream.write("\n")
        elif sent >= total:  # not a terminal: one line per file, when done
            self.stream.write(line + "\n")
        self.stream.flush()
        self._last_line = line
