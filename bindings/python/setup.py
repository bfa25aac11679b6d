# SPDX-License-Identifier: MIT
"""Bundles libflickr.so into the package when FLICKR_BUNDLE_LIBRARY names it.

`FLICKR_BUNDLE_LIBRARY=build/libflickr.so.0 pip install ./bindings/python`
ships the library inside the installed package, where the loader finds it
without any environment variable. Without it, the package loads the system's
libflickr.so.0.
"""
import os
import shutil

from setuptools import setup
from setuptools.command.build_py import build_py


class BuildWithLibrary(build_py):
    def run(self):
        super().run()
        library = os.environ.get("FLICKR_BUNDLE_LIBRARY")
        if library:
            if not os.path.isfile(library):
                raise SystemExit(f"FLICKR_BUNDLE_LIBRARY={library}: no such file")
            # Copy the real file (not a link) under the soname the loader looks for.
            shutil.copyfile(os.path.realpath(library), os.path.join(self.build_lib, "flickr", "libflickr.so.0"))


setup(cmdclass={"build_py": BuildWithLibrary})
