# SPDX-License-Identifier: MIT
"""The exception families (issue 30): as httpx groups its exceptions, so that callers and the
CLI catch a family (`except flickr.TransportError`) rather than a hand-kept tuple of classes.
Every status of include/flickr/common.h maps to a class in its family; no existing class lost a
base (ConnectionError, TimeoutError, OSError, ValueError still catch what they caught)."""

from __future__ import annotations

import builtins

import pytest

import flickr
from flickr import errors
from test_header_agreement import _enumerators

FAMILIES = (flickr.TransportError, flickr.ServiceError, flickr.ResponseError, flickr.UsageError)

#: status name -> (class, family or None for the classes that stand alone)
EXPECTED = {
    "ENETWORK": (flickr.NetworkError, flickr.TransportError),
    "ETIMEOUT": (flickr.Timeout, flickr.TransportError),
    "ETLS": (flickr.TLSError, flickr.TransportError),
    "EHTTP": (flickr.HTTPError, flickr.TransportError),
    "EAPI": (flickr.APIError, flickr.ServiceError),
    "EOAUTH": (flickr.OAuthError, flickr.ServiceError),
    "EPARSE": (flickr.ParseError, flickr.ResponseError),
    "ETOOBIG": (flickr.TooBig, flickr.ResponseError),
    "EINVAL": (flickr.InvalidArgument, flickr.UsageError),
    "ESTATE": (flickr.StateError, flickr.UsageError),
    "ENOTFOUND": (flickr.NotFound, flickr.UsageError),
    "EBUDGET": (flickr.OverBudget, flickr.TransportError),
    "ENOMEM": (flickr.NoMemory, None),
    "EABORTED": (flickr.Aborted, None),
    "EIO": (flickr.FileError, None),
}

STATUSES = {name: value for name, value in _enumerators("common.h", "FLICKR").items()
            if name.startswith("E") and name != "ERROR"}


def test_the_table_covers_every_status_of_the_header():
    assert set(EXPECTED) == set(STATUSES), "a status without its expected family, or a stale row"
    print(f"{len(STATUSES)} statuses, {len(FAMILIES)} families")


def test_errors_exports_every_status_of_the_header():
    """errors.py re-exports the generated codes by name (errors.EINVAL): a code appended to the
    header needs its name there, and its class."""
    header = _enumerators("common.h", "FLICKR")
    missing = sorted(name for name, value in header.items() if getattr(errors, name, None) != value)
    print(f"{len(header)} status codes in common.h")
    assert missing == []


@pytest.mark.parametrize("name", sorted(STATUSES))
def test_each_status_maps_to_a_class_of_its_family(name):
    cls, family = EXPECTED[name]
    error = errors.from_status(STATUSES[name], "m")
    assert type(error) is cls
    assert isinstance(error, flickr.FlickrError)
    # In exactly its own family, and in no other.
    assert [f for f in FAMILIES if isinstance(error, f)] == ([family] if family else [])


def test_the_families_are_flickr_errors_and_disjoint():
    for family in FAMILIES:
        assert issubclass(family, flickr.FlickrError) and family.__bases__ == (flickr.FlickrError,)
        assert family.__name__ in flickr.__all__ and getattr(errors, family.__name__) is family
    for a in FAMILIES:
        for b in FAMILIES:
            assert (a is b) == issubclass(a, b)


def test_the_builtin_bases_are_kept():
    for cls, builtin in [(flickr.NetworkError, ConnectionError), (flickr.Timeout, builtins.TimeoutError),
                         (flickr.FileError, OSError), (flickr.InvalidArgument, ValueError)]:
        assert issubclass(cls, builtin), (cls, builtin)
    error = errors.from_status(errors.ETIMEOUT, "slow")
    assert str(error) == "slow" and error.code == errors.ETIMEOUT and isinstance(error, OSError)


def test_a_family_catches_its_members():
    with pytest.raises(flickr.TransportError):
        raise errors.from_status(errors.ETLS, "untrusted")
    with pytest.raises(flickr.ServiceError) as caught:
        raise errors.from_status(errors.EAPI, "Photo not found", api_code=1)
    assert caught.value.api_code == 1


def test_the_cli_maps_families_to_exit_codes():
    """One test per family: the CLI's exit code follows the family, not a tuple of classes."""
    from flickr_apps.cli import _exit_code
    from flickr_apps.cli.common import EXIT_API, EXIT_AUTH, EXIT_FAILURE, EXIT_NETWORK, EXIT_USAGE

    codes = {name: _exit_code(errors.from_status(value, "m")) for name, value in STATUSES.items()}
    assert {codes[n] for n in ("ENETWORK", "ETIMEOUT", "ETLS", "EHTTP")} == {EXIT_NETWORK}
    assert (codes["EAPI"], codes["EOAUTH"], codes["EINVAL"]) == (EXIT_API, EXIT_AUTH, EXIT_USAGE)
    assert codes["EPARSE"] == codes["EIO"] == EXIT_FAILURE
    # A new member of the transport family is a network failure without touching the CLI.
    class ProxyError(flickr.TransportError):
        pass
    assert _exit_code(ProxyError(errors.ENETWORK, "proxy refused")) == EXIT_NETWORK
