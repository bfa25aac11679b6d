# SPDX-License-Identifier: MIT
"""Start a sandbox in a child process and hand its settings to whoever needs them.

The one way the tests, the C tests (``Tests/c/with_sandbox.py``), the examples, the demo and
the bench start a sandbox of their own::

    from flickr_sandbox import SandboxProcess

    with SandboxProcess("--tls") as sandbox:      # python -m flickr_sandbox --port 0 --tls
        sandbox.url, sandbox.api_key, sandbox.ca_file   # sandbox.settings: a Settings
        subprocess.run(program, env=dict(os.environ, **sandbox.settings.client_environment()))

The child is started with ``--print-settings json`` and its first stdout line read as
:class:`~flickr_sandbox.settings.Settings`, so that nobody parses the lines printed for people.
A process, not a thread: the sandbox then runs beside a client that may crash or hold the GIL
(an in-process one is :class:`flickr_sandbox.Sandbox`).
"""

from __future__ import annotations

import os
import select
import subprocess
import sys
from pathlib import Path
from typing import IO, Mapping, Union

from .settings import Settings, SettingsView

# The directory holding the flickr_sandbox package: the child imports the same sandbox as its parent.
PACKAGE_ROOT = str(Path(__file__).resolve().parents[1])
START_TIMEOUT = 60.0  # seconds until the settings line; seeding takes well under one (--seed-photos 20000: 2 s)
_Stderr = Union[int, IO[bytes], IO[str], None]


class SandboxStartError(RuntimeError):
    """The child exited, printed something else, or said nothing in time."""


class SandboxProcess(SettingsView):
    """``python -m flickr_sandbox --port 0 OPTIONS...`` as a child process, with its settings.

    ``options`` are the sandbox's own (``--tls``, ``--latency-ms N``, ``--data DIR``...); without
    ``--port`` it picks a free port.  ``env`` is the child's environment (default: this one's);
    PYTHONPATH gets this package's directory first.  ``stderr`` as for :class:`subprocess.Popen`
    (default: inherited).  Stop it with :meth:`stop`, or use it as a context manager.
    """

    def __init__(self, *options: str, env: Mapping[str, str] | None = None, stderr: _Stderr = None,
                 python: str = sys.executable, timeout: float = START_TIMEOUT):
        argv = [python, "-m", "flickr_sandbox", "--print-settings", "json", *options]
        if not any(o == "--port" or o.startswith("--port=") for o in options):
            argv += ["--port", "0"]
        child_env = dict(os.environ if env is None else env)
        child_env["PYTHONPATH"] = os.pathsep.join(p for p in (PACKAGE_ROOT, child_env.get("PYTHONPATH")) if p)
        self.process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=stderr, text=True, env=child_env)
        try:
            self.settings = self._read_settings(timeout)
        except BaseException:
            self.stop()
            raise

    def _read_settings(self, timeout: float) -> Settings:
        stdout = self.process.stdout
        assert stdout is not None  # stdout=PIPE
        ready, _, _ = select.select([stdout], [], [], timeout)
        if not ready:
            raise SandboxStartError(f"the sandbox printed no settings within {timeout:g} s")
        line = stdout.readline()
        if not line:
            raise SandboxStartError(f"the sandbox exited (status {self.process.wait()}) before printing its settings")
        try:
            return Settings.from_json(line)
        except ValueError as err:
            raise SandboxStartError(f"the sandbox printed {line.strip()!r}, not its settings ({err})") from None

    def stop(self, timeout: float = 10.0) -> int:
        """SIGTERM (the sandbox removes a temporary data dir and exits 0), SIGKILL after ``timeout`` s."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.process.stdout is not None:
            self.process.stdout.close()
        return self.process.returncode

    def __enter__(self) -> SandboxProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
