# SPDX-License-Identifier: MIT
"""Every result of a search-like method, past the cap on what Flickr serves per query: the
library's harvest (`flickr_harvest_*`, docs/harvest.md) as a Python iterator.

Flickr gives at most the first 4,000 results of a query (then pages repeat). The harvest asks
page 1 of a date slice and reads its ``total``: over the cap, the slice is cut by time, down to a
minimum slice, below which it is asked once per licence; a slice within the cap is paged through.
Slices never overlap and ids are remembered besides, so each item is given out once.
"""
from __future__ import annotations

import ctypes
import json
from collections.abc import Iterator
from typing import Any

from .. import _ffi, _response, errors
from .._threaded_iter import OneAtATime
from .report import Report


class Harvest(Iterator[dict[str, Any]]):
    """An iterator over every item a search-like method matches, each once (see the module doc).

    Made by `Flickr.harvest`. ``report`` tells the completeness so far; ``extra`` is a JSON object
    of the caller's own, kept in the checkpoint (the CLI's output size); ``close()`` ends it.

    Like a generator, it is used by one thread at a time: while one thread is inside a step (or
    any other use), another's raises ``ValueError("generator already executing")``.
    """

    def __init__(self, context: Any, method: str, *, dates: str = "upload", min_slice: int = 60,
                 checkpoint: str | None = None, shard: tuple[int, int] = (1, 1), **params: Any) -> None:
        if not (isinstance(shard, tuple) and len(shard) == 2 and all(isinstance(n, int) for n in shard)):
            raise errors.InvalidArgument(errors.EINVAL, f"shard must be (K, N), not {shard!r:.40}")
        options: dict[str, Any] = {"dates": dates, "min_slice": min_slice, "shard": f"{shard[0]}/{shard[1]}"}
        if checkpoint is not None:
            options["checkpoint"] = str(checkpoint)
        self._handle = _ffi.HarvestHandle()
        self._last: Report | None = None  # the report when closed
        self._busy = OneAtATime()
        _ffi.lib().flickr_harvest_new(self._handle.out, context, _ffi.encode(method, "method"),
                                      _ffi.params_array(params), _ffi.params_array(options))

    def __next__(self) -> dict[str, Any]:
        with self._busy:
            item = _ffi.ValuePtr()
            _ffi.lib().flickr_harvest_next(ctypes.byref(item), self._handle)
            if not item:
                raise StopIteration
            return _response.value_json(item)  # type: ignore[no-any-return]

    def close(self) -> None:
        """Ends the harvest (the checkpoint keeps the last page taken in full); ``report`` stays."""
        with self._busy:
            if self._last is None:
                self._last = self._report()
            self._handle.close()

    @property
    def report(self) -> Report:
        if self._last is not None:
            return self._last
        with self._busy:
            return self._report()

    def _report(self) -> Report:
        return self._last or Report.from_json(json.loads(self._text(_ffi.lib().flickr_harvest_report)))

    @property
    def extra(self) -> dict[str, Any]:
        """The caller's JSON object in the checkpoint (the one continued from, until set)."""
        with self._busy:
            value = json.loads(self._text(_ffi.lib().flickr_harvest_extra))
        return value if isinstance(value, dict) else {}

    @extra.setter
    def extra(self, value: dict[str, Any]) -> None:
        with self._busy:
            _ffi.lib().flickr_harvest_set_extra(self._handle, _ffi.encode(json.dumps(value), "extra"))

    def save(self) -> None:
        """Writes the checkpoint now (it is also written after each page taken in full)."""
        with self._busy:
            _ffi.lib().flickr_harvest_save(self._handle)

    def _text(self, function: Any) -> str:
        out = ctypes.c_void_p()
        function(ctypes.byref(out), self._handle)
        return _ffi.take_string(out.value) or ""
