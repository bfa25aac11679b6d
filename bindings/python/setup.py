# SPDX-License-Identifier: MIT
"""Bundles libflickr.so into the package when FLICKR_BUNDLE_LIBRARY names it.

`FLICKR_BUNDLE_LIBRARY=build/libflickr.so.0 pip install ./bindings/python`
ships the library inside the installed package, where the loader finds it
without any environment variable. Without it, the package loads the system's
libflickr.so.0. A relative path is read from the directory the command was
typed in, although pip runs this file in bindings/python.

A wheel that carries the library is a platform wheel, `py3-none-linux_<arch>`
with the library's own architecture (read from its ELF header): the binding
binds no Python ABI (ctypes), but the library runs on one machine type only.
Without the library the wheel stays `py3-none-any`.

Only an explicit bundling step ships a library: it builds in a temporary
directory, removed afterwards, so no bundled copy stays behind in the source
tree; and every build removes any libflickr.so* a build directory still holds
before it copies the one asked for, if any.
"""
import glob
import os
import re
import shutil
import tempfile

from setuptools import Distribution, setup
from setuptools.command.build_py import build_py

try:  # setuptools 70.1 and later
    from setuptools.command.bdist_wheel import bdist_wheel
except ImportError:
    try:  # earlier ones take it from the wheel package
        from wheel.bdist_wheel import bdist_wheel
    except ImportError:  # no wheel can be built here (an sdist, say): nothing to tag
        bdist_wheel = None


def caller_directory():
    """The directory pip (or another build frontend) was started in: this file runs in the
    package's own directory, in a process the frontend starts, so it is the parent's. PWD is not
    used: a program that changed directory before starting pip passes on a stale one."""
    try:
        return os.readlink(f"/proc/{os.getppid()}/cwd")
    except OSError:
        return None


def library_path(value):
    """FLICKR_BUNDLE_LIBRARY as the caller meant it, an absolute path."""
    if os.path.isabs(value):
        return value
    caller = caller_directory()
    if caller is None or not os.path.isabs(caller):
        raise SystemExit(f"FLICKR_BUNDLE_LIBRARY={value}: a relative path, and the directory it was "
                         f"given in is unknown; give an absolute one: FLICKR_BUNDLE_LIBRARY=\"$PWD/{value}\"")
    return os.path.join(caller, value)


def package_version():
    """The version, written once in include/flickr/version.h (two levels up, in a checkout); an
    sdist carries it in its PKG-INFO, written from the header when the sdist was made."""
    here = os.path.dirname(os.path.abspath(__file__))
    header = os.path.join(here, "..", "..", "include", "flickr", "version.h")
    if os.path.isfile(header):
        with open(header, encoding="ascii") as f:
            text = f.read()
        parts = [re.search(rf"^#define FLICKR_VERSION_{part} +(\d+)$", text, re.M) for part in ("MAJOR", "MINOR", "PATCH")]
        if None in parts:
            raise SystemExit(f"{header}: no FLICKR_VERSION_MAJOR/MINOR/PATCH lines")
        return ".".join(found.group(1) for found in parts)
    with open(os.path.join(here, "PKG-INFO"), encoding="utf-8") as f:
        return re.search(r"^Version: (\S+)$", f.read(), re.M).group(1)


VERSION = package_version()
LIBRARY = library_path(os.environ["FLICKR_BUNDLE_LIBRARY"]) if os.environ.get("FLICKR_BUNDLE_LIBRARY") else None
SONAME = "libflickr.so.0"  # the name the loader looks for beside the package's modules

# ELF e_machine -> the architecture in a wheel's platform tag.
_MACHINES = {3: "i686", 21: "ppc64le", 22: "s390x", 40: "armv7l", 62: "x86_64", 183: "aarch64", 243: "riscv64"}


def library_platform(path: str) -> str:
    """`linux_<arch>` of an ELF shared library, from its header."""
    with open(path, "rb") as f:
        head = f.read(20)
    if len(head) < 20 or head[:4] != b"\x7fELF":
        raise SystemExit(f"FLICKR_BUNDLE_LIBRARY={path}: not an ELF shared library")
    byteorder = "little" if head[5] == 1 else "big"
    machine = int.from_bytes(head[18:20], byteorder)
    if machine not in _MACHINES or (machine == 21 and byteorder == "big"):
        raise SystemExit(f"FLICKR_BUNDLE_LIBRARY={path}: unknown machine type {machine}")
    return "linux_" + _MACHINES[machine]


class BuildWithLibrary(build_py):
    def run(self):
        super().run()
        package_dir = os.path.join(self.build_lib, "flickr")
        for stale in glob.glob(os.path.join(package_dir, "libflickr.so*")):
            os.remove(stale)  # left by an earlier build: never shipped unless asked for again
        if LIBRARY:
            # Copy the real file (not a link) under the soname the loader looks for.
            shutil.copyfile(os.path.realpath(LIBRARY), os.path.join(package_dir, SONAME))


class WithLibrary(Distribution):
    """The distribution when it bundles the library: platform code, installed to platlib (its
    wheel's Root-Is-Purelib is false), as a compiled extension would be."""

    def has_ext_modules(self):
        return True


commands = {"build_py": BuildWithLibrary}
if bdist_wheel is not None:
    class PlatformWheel(bdist_wheel):
        def finalize_options(self):
            super().finalize_options()
            if LIBRARY and not self.plat_name_supplied:
                self.plat_name = library_platform(LIBRARY)

        def get_tag(self):
            if self.root_is_pure:
                return super().get_tag()
            return "py3", "none", self.plat_name.replace("-", "_").replace(".", "_")

    commands["bdist_wheel"] = PlatformWheel
if LIBRARY:
    if not os.path.isfile(LIBRARY):
        raise SystemExit(f"FLICKR_BUNDLE_LIBRARY={LIBRARY}: no such file")
    library_platform(LIBRARY)  # refuse a file that is no library before building anything
    with tempfile.TemporaryDirectory(prefix="flickr-bundle-") as build_base:
        setup(version=VERSION, cmdclass=commands, distclass=WithLibrary,
              options={"build": {"build_base": build_base}})
else:
    setup(version=VERSION, cmdclass=commands)
