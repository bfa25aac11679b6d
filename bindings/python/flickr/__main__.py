# SPDX-License-Identifier: MIT
"""`python -m flickr`: the command line."""
import sys

from .cli import main

sys.exit(main())
