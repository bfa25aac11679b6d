# SPDX-License-Identifier: MIT
"""The binding's only way to the applications (the flickr-apps distribution, apps/flickr_apps):
the forwarders `flickr.__main__` (`python -m flickr`) and `flickr.backup` import them inside
`needed`, so that without flickr-apps they fail with one line saying what to install, as the
CLI's `flickr sandbox` does without flickr-sandbox. `import flickr` loads neither."""
from __future__ import annotations

import contextlib
from typing import Iterator

#: What a checkout or an install lacks when the applications are missing.
INSTALL = "pip install flickr-apps (in a checkout: pip install ./apps, or scripts/install-cli.sh)"


class AppsMissing(ImportError):
    """`what` (a documented name of the binding) is an application, and flickr-apps is not installed."""


@contextlib.contextmanager
def needed(what: str) -> Iterator[None]:
    """Runs an import of flickr_apps; its absence becomes AppsMissing, one line naming `what`."""
    try:
        yield
    except ModuleNotFoundError as error:
        if error.name != "flickr_apps":
            raise
        raise AppsMissing(f"{what} is in the flickr-apps distribution, which is not installed: {INSTALL}") from None
