# SPDX-License-Identifier: MIT
"""What a client needs to know of a running sandbox: its URL and the credentials it accepts.

One definition for every way a sandbox hands them over: ``python -m flickr_sandbox`` prints
them (human lines, or one JSON line with ``--print-settings json``), an in-process
:class:`~flickr_sandbox.Sandbox` has them as ``settings``, and
:class:`~flickr_sandbox.launch.SandboxProcess` reads them back from a child process for the
tests, the examples, the demo and the bench, which each used to parse the lines on their own.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, fields
from typing import Any


@dataclass(frozen=True)
class Settings:
    """A running sandbox's URL (no trailing slash), credentials, state directory and CA file."""

    url: str
    api_key: str
    api_secret: str
    oauth_token: str  # pre-authorised OAuth access token of the seeded user (perms delete)
    oauth_token_secret: str
    auth_token: str  # legacy auth token of the same user
    data_dir: str
    ca_file: str | None = None  # the CA to trust, with --tls only

    def lines(self) -> list[str]:
        """The start-up lines for people: the URL first, then ``name=value`` (no ca_file without TLS)."""
        values = [(f.name, getattr(self, f.name)) for f in fields(self)[1:]]
        return [self.url] + [f"{name}={value}" for name, value in values if value is not None]

    def to_json(self) -> str:
        """One line of JSON: what ``--print-settings json`` prints, for programs."""
        return json.dumps(asdict(self), separators=(",", ":"), allow_nan=False)

    @classmethod
    def from_json(cls, text: str) -> Settings:
        """Read :meth:`to_json`'s line; names this version does not know are ignored."""
        data = json.loads(text)
        if not isinstance(data, dict):
            raise ValueError(f"sandbox settings must be a JSON object, not {text!r}")
        try:
            return cls(**{f.name: data[f.name] for f in fields(cls) if f.name in data})
        except TypeError as err:  # a field missing
            raise ValueError(f"incomplete sandbox settings {text!r}: {err}") from None

    def client_environment(self, *, token: bool = True) -> dict[str, str]:
        """The variables the ``flickr`` command and the C examples read to use this sandbox.

        ``token=False`` leaves the user's access token out: for a program that logs in itself.
        """
        env = {"FLICKR_ENDPOINT": self.url, "FLICKR_API_KEY": self.api_key, "FLICKR_API_SECRET": self.api_secret}
        if token:
            env.update(FLICKR_OAUTH_TOKEN=self.oauth_token, FLICKR_OAUTH_TOKEN_SECRET=self.oauth_token_secret)
        if self.ca_file is not None:
            env["FLICKR_CA_FILE"] = self.ca_file
        return env

    def sandbox_environment(self) -> dict[str, str]:
        """Every setting as ``FLICKR_SANDBOX_<NAME>`` (the URL as FLICKR_SANDBOX_URL): what the C tests read."""
        return {f"FLICKR_SANDBOX_{name.upper()}": value for name, value in asdict(self).items() if value is not None}


class SettingsView:
    """The settings' fields as attributes (``sandbox.url``, ``sandbox.api_key``... ``sandbox.ca_file``)
    of what holds them: the names tests and scripts have always used on a sandbox."""

    settings: Settings

    def __getattr__(self, name: str) -> Any:
        # Called only for names the object itself lacks; "settings" itself is one until it is set.
        if name in _FIELDS and "settings" in vars(self):
            return getattr(self.settings, name)
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")


_FIELDS = frozenset(f.name for f in fields(Settings))
