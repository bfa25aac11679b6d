# SPDX-License-Identifier: MIT
"""A harvest's checkpoint file: small JSON, replaced atomically (an exclusive temp name, then
rename), so a process killed at any moment leaves the last whole one."""
from __future__ import annotations

import json
from typing import Any

from .._files import write_atomically

VERSION = 1
MAX_BYTES = 64 << 20  # a checkpoint holds slices and at most one slice's ids: far below this


def write(path: str, state: dict[str, Any]) -> None:
    write_atomically(path, json.dumps(dict(state, version=VERSION), separators=(",", ":")).encode(), 0o600)


def read(path: str) -> dict[str, Any] | None:
    """The checkpoint at `path`, None if there is none; ValueError if it is not one."""
    try:
        with open(path, "rb") as source:
            data = source.read(MAX_BYTES + 1)
    except FileNotFoundError:
        return None
    if len(data) > MAX_BYTES:
        raise ValueError(f"{path} is too large for a harvest checkpoint")
    try:
        state = json.loads(data)
    except (UnicodeDecodeError, ValueError) as error:
        raise ValueError(f"{path} is not a harvest checkpoint: {error}") from None
    if not isinstance(state, dict) or state.get("version") != VERSION:
        raise ValueError(f"{path} is not a harvest checkpoint (version {VERSION})")
    return state
