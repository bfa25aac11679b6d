# SPDX-License-Identifier: MIT
"""A one-line progress bar on stderr, redrawn in place on a terminal."""
from __future__ import annotations

import sys
import time

from .common import terminal_safe


class ProgressBar:
    def __init__(self, label: str, stream=None, width: int = 30):
        self.label = terminal_safe(label)  # a file name: it must not drive the terminal
        self.stream = stream or sys.stderr
        self.width = width
        self.started = time.monotonic()
        self.tty = self.stream.isatty()
        self._last_line = ""

    def __call__(self, sent: int, total: int) -> None:
        fraction = sent / total if total else 1.0
        filled = int(fraction * self.width)
        elapsed = max(time.monotonic() - self.started, 1e-6)
        line = (f"{self.label} [{'#' * filled}{'.' * (self.width - filled)}] {fraction:4.0%} "
                f"{sent / 1e6:.1f}/{total / 1e6:.1f} MB {sent / elapsed / 1e6:.1f} MB/s")
        if self.tty:
            self.stream.write("\r" + line)
            if sent >= total:
                self.stream.write("\n")
        elif sent >= total:  # not a terminal: one line per file, when done
            self.stream.write(line + "\n")
        self.stream.flush()
        self._last_line = line
