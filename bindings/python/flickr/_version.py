# SPDX-License-Identifier: MIT
"""The package's version, written once: in include/flickr/version.h.

In a checkout the header lies beside the package (bindings/python/flickr -> include/flickr) and is
read; an installed package has the version its build read from the same header (setup.py), in
its metadata. Neither loads the native library."""
from __future__ import annotations

import pathlib
import re

_HEADER = pathlib.Path(__file__).resolve().parents[3] / "include" / "flickr" / "version.h"


def header_version(text: str) -> str:
    """"MAJOR.MINOR.PATCH" from the text of version.h."""
    parts = []
    for part in ("MAJOR", "MINOR", "PATCH"):
        found = re.search(rf"^#define FLICKR_VERSION_{part} +(\d+)$", text, flags=re.M)
        if found is None:
            raise ImportError(f"version.h has no FLICKR_VERSION_{part} line")
        parts.append(found.group(1))
    return ".".join(parts)


def _version() -> str:
    if _HEADER.is_file():
        return header_version(_HEADER.read_text(encoding="ascii"))
    from importlib import metadata

    try:
        return metadata.version("flickr")
    except metadata.PackageNotFoundError:
        raise ImportError(f"flickr's version is unknown: no {_HEADER} (a checkout) and no installed "
                          "metadata (pip install bindings/python)") from None


VERSION = _version()
#: (major, minor, patch) of VERSION.
VERSION_INFO = tuple(int(part) for part in VERSION.split(".")[:3])
