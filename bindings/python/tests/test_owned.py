# SPDX-License-Identifier: MIT
"""`_ffi.Owned`: a handle the binding holds is freed exactly once, whichever way it goes (close,
a with block, garbage collection, closes racing on two threads), and a closed one reaches the
library as NULL, never as freed memory. The frees are counted by wrapping the C function."""
from __future__ import annotations

import ctypes
import gc
import threading

import pytest

from flickr import _ffi, errors

XML = b'<rsp stat="ok"><photo id="1" secret="s" server="2"/></rsp>'


@pytest.fixture
def frees(library_path, monkeypatch):
    """The pointers handed to flickr_response_free while the test runs (each still freed)."""
    lib = _ffi.lib()
    real = lib.flickr_response_free
    seen: list[int] = []

    def counting(pointer):
        seen.append(ctypes.addressof(pointer.contents))
        real(pointer)

    monkeypatch.setattr(lib, "flickr_response_free", counting)
    return seen


def parsed() -> _ffi.Response:
    response = _ffi.Response()
    _ffi.lib().flickr_response_parse(response.out, XML, len(XML))
    return response


def test_close_frees_once_and_leaves_null(frees):
    response = parsed()
    assert response
    assert _ffi.lib().flickr_response_root(response)  # the handle itself is the ctypes argument
    response.close()
    response.close()
    assert len(frees) == 1
    assert not response
    assert not _ffi.lib().flickr_response_root(response)  # NULL, which the library refuses
    with pytest.raises(errors.StateError):
        response.out  # cannot be filled again


def test_a_with_block_frees_on_an_exception(frees):
    with pytest.raises(RuntimeError):
        with parsed():
            raise RuntimeError("in the block")
    assert len(frees) == 1


def test_a_handle_never_filled_frees_nothing(frees):
    with _ffi.Response():
        pass
    assert frees == []


def test_a_failed_call_leaves_nothing_to_free(frees):
    with pytest.raises(errors.InvalidArgument):
        with _ffi.Response() as response:
            _ffi.lib().flickr_url_parse(response.out, b"not a flickr url")
    assert frees == []


def test_garbage_collection_frees_a_handle_left_open(frees):
    response = parsed()
    del response
    gc.collect()
    assert len(frees) == 1


def test_closes_racing_on_threads_free_once(frees):
    for _ in range(50):
        response = parsed()
        barrier = threading.Barrier(4)

        def close():
            barrier.wait()
            response.close()

        threads = [threading.Thread(target=close) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert len(frees) == 50


def test_every_kind_names_a_declared_free_of_its_pointer_type():
    for kind in (_ffi.Response, _ffi.Pages, _ffi.UploadSource, _ffi.Request):
        restype, argtypes = _ffi._SIGNATURES[kind.free_function]
        assert restype is None and argtypes == [kind.pointer_type], kind
