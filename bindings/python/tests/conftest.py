# SPDX-License-Identifier: MIT
"""Shared fixtures: where the built library and the repository are."""
import os
import pathlib

import pytest

REPO = pathlib.Path(__file__).resolve().parents[3]
PACKAGE_DIR = REPO / "bindings" / "python"


@pytest.fixture(scope="session")
def library_path() -> pathlib.Path:
    """The libflickr.so under test: $FLICKR_LIBRARY, else the CMake build's copy."""
    path = pathlib.Path(os.environ.get("FLICKR_LIBRARY", REPO / "build" / "libflickr.so.0"))
    if not path.exists():
        pytest.fail(f"libflickr not built: {path} is missing (run the README's test command)")
    os.environ["FLICKR_LIBRARY"] = str(path)
    return path
