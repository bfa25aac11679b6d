# SPDX-License-Identifier: MIT
"""Debian's firefox-esr driven through WebDriver BiDi, which Firefox serves itself when started with
--remote-debugging-port: Playwright cannot drive Debian's Firefox and geckodriver is not packaged
in Debian. The WebSocket is a minimal RFC 6455 client over a socket (the standard library has
none; text frames, ping and close are all BiDi uses), so no test package is added.

`launch()` starts a headless Firefox on a fresh profile whose every network request goes to a
closed port on 127.0.0.1; `Firefox.page()` opens a file:// page and fails the caller on any
script or console error, and on any request other than a file:// one, when the block ends."""
import base64
import contextlib
import json
import os
import pathlib
import re
import select
import socket
import struct
import subprocess
import tempfile
import time
from typing import Any, Iterator, Optional

FIREFOX = os.environ.get("VIEWER_FIREFOX", "/usr/bin/firefox-esr")
TIMEOUT = 10.0


def closed_port() -> int:
    """A port of 127.0.0.1 nothing listens on: bound then closed (refused at once, not timed out)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def user_js(proxy_port: int) -> str:
    """Prefs for the fresh profile: everything through a proxy that refuses, no updates, no
    telemetry (the remote agent sets its own recommended prefs on top)."""
    prefs: dict[str, Any] = {
        "network.proxy.type": 1, "network.proxy.no_proxies_on": "", "network.proxy.allow_hijacking_localhost": True,
        "network.proxy.share_proxy_settings": True, "network.dns.disablePrefetch": True,
        "network.captive-portal-service.enabled": False, "network.connectivity-service.enabled": False,
        "app.update.auto": False, "app.update.enabled": False, "extensions.update.enabled": False,
        "datareporting.healthreport.uploadEnabled": False, "datareporting.policy.dataSubmissionEnabled": False,
        "toolkit.telemetry.enabled": False, "browser.safebrowsing.malware.enabled": False,
        "browser.safebrowsing.phishing.enabled": False, "browser.shell.checkDefaultBrowser": False,
    }
    for scheme in ("http", "ssl", "socks"):
        prefs[f"network.proxy.{scheme}"] = "127.0.0.1"
        prefs[f"network.proxy.{scheme}_port"] = proxy_port
    return "".join(f"user_pref({json.dumps(name)}, {json.dumps(value)});\n" for name, value in prefs.items())


class WebSocket:
    """The client side of RFC 6455, enough for BiDi: masked text frames out; text, continuation,
    ping and close in."""

    def __init__(self, host: str, port: int, path: str, deadline: float) -> None:
        self.sock = socket.create_connection((host, port), timeout=max(0.1, deadline - time.monotonic()))
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
                           f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        self.buffer = b""
        while b"\r\n\r\n" not in self.buffer:
            self._fill(deadline)
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        assert head.startswith(b"HTTP/1.1 101"), f"no WebSocket at ws://{host}:{port}{path}: {head[:200]!r}"

    def _fill(self, deadline: float) -> None:
        left = deadline - time.monotonic()
        assert left > 0, "Firefox did not answer in time"
        readable, _, _ = select.select([self.sock], [], [], left)
        if readable:
            chunk = self.sock.recv(65536)
            assert chunk, "Firefox closed its WebSocket"
            self.buffer += chunk

    def _take(self, count: int, deadline: float) -> bytes:
        while len(self.buffer) < count:
            self._fill(deadline)
        taken, self.buffer = self.buffer[:count], self.buffer[count:]
        return taken

    def _send(self, opcode: int, payload: bytes) -> None:
        size = len(payload)
        head = bytes([0x80 | opcode])
        if size < 126:
            head += bytes([0x80 | size])
        elif size < 65536:
            head += bytes([0x80 | 126]) + struct.pack("!H", size)
        else:
            head += bytes([0x80 | 127]) + struct.pack("!Q", size)
        mask = os.urandom(4)
        self.sock.sendall(head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))

    def send(self, text: str) -> None:
        self._send(0x1, text.encode())

    def receive(self, deadline: float) -> str:
        """The next whole text message (fragments joined; pings answered)."""
        message = b""
        while True:
            first, second = self._take(2, deadline)
            opcode, size = first & 0x0F, second & 0x7F
            if size == 126:
                size = struct.unpack("!H", self._take(2, deadline))[0]
            elif size == 127:
                size = struct.unpack("!Q", self._take(8, deadline))[0]
            mask = self._take(4, deadline) if second & 0x80 else b""
            payload = self._take(size, deadline)
            if mask:
                payload = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
            if opcode == 0x9:
                self._send(0xA, payload)
                continue
            assert opcode != 0x8, f"Firefox closed its WebSocket: {payload!r}"
            if opcode in (0x0, 0x1, 0x2):
                message += payload
                if first & 0x80:
                    return message.decode()

    def close(self) -> None:
        self.sock.close()


class Firefox:
    """One BiDi session: commands answered in order, events kept for whoever reads them."""

    def __init__(self, socket_: WebSocket) -> None:
        self.ws = socket_
        self.next_id = 0
        self.events: list[dict] = []
        self.context = ""

    def command(self, method: str, timeout: float = TIMEOUT, **params: Any) -> dict:
        self.next_id += 1
        sent = self.next_id
        self.ws.send(json.dumps({"id": sent, "method": method, "params": params}))
        deadline = time.monotonic() + timeout
        while True:
            message = json.loads(self.ws.receive(deadline))
            if message.get("type") == "event":
                self.events.append(message)
            elif message.get("id") == sent:
                assert message.get("type") == "success", f"{method}: {message}"
                return dict(message["result"])

    def evaluate(self, expression: str) -> Any:
        """`expression`'s value in the page (awaited), as JSON: strings, numbers, booleans, null."""
        result = self.command("script.evaluate", expression=f"JSON.stringify(({expression}) ?? null)",
                              target={"context": self.context}, awaitPromise=True)
        assert result["type"] == "success", f"{expression}: {result.get('exceptionDetails')}"
        return json.loads(result["result"]["value"])

    def wait_for(self, expression: str, expected: Any = True, timeout: float = TIMEOUT) -> Any:
        """Polls `expression` until it equals `expected` (a condition of the page, never a sleep
        standing in for one); AssertionError with the last value at the deadline."""
        deadline = time.monotonic() + timeout
        while True:
            value = self.evaluate(expression)
            if value == expected:
                return value
            assert time.monotonic() < deadline, f"{expression}: {value!r}, not {expected!r}, after {timeout}s"
            # Between polls, read whatever the browser reports, up to 50 ms: no busy loop.
            readable, _, _ = select.select([self.ws.sock], [], [], 0.05)
            if readable or self.ws.buffer:
                self.events.append(json.loads(self.ws.receive(time.monotonic() + 1)))

    def navigate(self, url: str) -> None:
        self.command("browsingContext.navigate", context=self.context, url=url, wait="complete")

    def problems(self, since: int = 0) -> tuple[list[str], list[str]]:
        """(errors logged in the page, requests to anything but file://) among events[since:]."""
        errors, outside = [], []
        for event in self.events[since:]:
            params = event.get("params", {})
            if event.get("method") == "log.entryAdded" and params.get("level") == "error":
                errors.append(str(params.get("text")))
            elif event.get("method") == "network.beforeRequestSent":
                url = str(params.get("request", {}).get("url", ""))
                if not url.startswith("file://"):
                    outside.append(url)
        return errors, outside

    @contextlib.contextmanager
    def page(self, url: str) -> Iterator["Firefox"]:
        """`url` opened; fails the caller on an error or a request outside file:// when it ends."""
        # about:blank first: from a page of the same file, a new #fragment alone would not reload it.
        self.navigate("about:blank")
        since = len(self.events)
        self.navigate(url)
        yield self
        self.evaluate("0")  # a round trip: events the page sent before it are read
        errors, outside = self.problems(since)
        assert not outside, f"requests outside the archive: {outside}"
        assert not errors, f"errors in the page: {errors}"


@contextlib.contextmanager
def launch(timeout: float = 30.0) -> Iterator[Firefox]:
    """A headless firefox-esr on a fresh profile, killed when the block ends, however it ends;
    AssertionError naming the package when it is missing (no skip)."""
    assert pathlib.Path(FIREFOX).exists(), f"{FIREFOX} is missing: install Debian's firefox-esr (scripts/install-deps.sh)"
    with tempfile.TemporaryDirectory(prefix="firefox-bidi-") as home:
        profile = pathlib.Path(home, "profile")
        profile.mkdir()
        (profile / "user.js").write_text(user_js(closed_port()))
        log = pathlib.Path(home, "firefox.log")
        env = dict(os.environ, HOME=home, MOZ_CRASHREPORTER_DISABLE="1", MOZ_HEADLESS="1")
        with open(log, "wb") as output:
            # Port 0: Firefox picks a free one and says which on stderr.
            browser = subprocess.Popen([FIREFOX, "--headless", "--no-remote", "--remote-debugging-port=0",
                                        "--profile", str(profile), "about:blank"],
                                       stdout=output, stderr=subprocess.STDOUT, env=env, start_new_session=True)
        ws: Optional[WebSocket] = None
        try:
            deadline = time.monotonic() + timeout
            while not (found := re.search(rb"WebDriver BiDi listening on ws://(127\.0\.0\.1|localhost):(\d+)", log.read_bytes())):
                assert browser.poll() is None, f"firefox-esr exited {browser.returncode}: {log.read_text(errors='replace')}"
                assert time.monotonic() < deadline, f"no WebDriver BiDi from firefox-esr: {log.read_text(errors='replace')}"
                time.sleep(0.05)  # polling the log for the port: the condition, with a deadline
            ws = WebSocket(found.group(1).decode(), int(found.group(2)), "/session", deadline)
            firefox = Firefox(ws)
            firefox.command("session.new", timeout=timeout, capabilities={})
            firefox.command("session.subscribe", events=["log.entryAdded", "network.beforeRequestSent"])
            firefox.context = firefox.command("browsingContext.getTree", maxDepth=0)["contexts"][0]["context"]
            yield firefox
        finally:
            if ws:
                ws.close()
            with contextlib.suppress(ProcessLookupError):
                os.killpg(browser.pid, 9)  # its content processes too
            browser.wait(timeout=30)
