# SPDX-License-Identifier: MIT
"""`python -m flickr_apps.cli`: the `flickr` command, as `python -m flickr` runs it (without the binding's forwarder)."""
import sys

from . import main

sys.exit(main())
