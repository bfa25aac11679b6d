# SPDX-License-Identifier: MIT
"""`python -m flickr`: the command line, which lives in the flickr-apps distribution
(flickr_apps.cli, docs/architecture.md); this forwarder keeps the documented name working."""
import sys

from ._apps import AppsMissing, needed

try:
    with needed("python -m flickr"):
        from flickr_apps.cli import main
except AppsMissing as missing:
    sys.exit(f"error: {missing}")

sys.exit(main())
