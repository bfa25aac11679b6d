# SPDX-License-Identifier: MIT
"""The sandbox's version is the client's (the three distributions are released together; apps/setup.py
is a link to this file): include/flickr/version.h's, one level up in a checkout, the only place it
is written; an sdist carries it in its PKG-INFO."""
import os
import re

from setuptools import setup

here = os.path.dirname(os.path.abspath(__file__))
header = os.path.join(here, "..", "include", "flickr", "version.h")
if os.path.isfile(header):
    with open(header, encoding="ascii") as f:
        numbers = dict(re.findall(r"^#define FLICKR_VERSION_(MAJOR|MINOR|PATCH) +(\d+)$", f.read(), re.M))
    if len(numbers) != 3:
        raise SystemExit(f"{header}: no FLICKR_VERSION_MAJOR/MINOR/PATCH lines")
    version = "{MAJOR}.{MINOR}.{PATCH}".format(**numbers)
else:
    with open(os.path.join(here, "PKG-INFO"), encoding="utf-8") as f:
        version = re.search(r"^Version: (\S+)$", f.read(), re.M).group(1)
setup(version=version)
