# SPDX-License-Identifier: MIT
"""What the binding reads out of the library's answers, in one place.

Private. A response becomes a dict, its body text, or the data of one of its values here, and a
photo dict becomes the library's photo value here, so that calls, futures, uploads, the OAuth steps
and URLs all map answers the same way. Layer: above `_ffi` (its only import in the package), below
every module that makes calls.
"""
from __future__ import annotations

import contextlib
import ctypes
import json
import marshal
import re
import threading
from typing import Any, Callable, Iterator

from . import _ffi

# The library's JSON is compact, valid UTF-8, one value: the decoder's C scanner reads it directly,
# without json.loads' two frames and two whitespace regex matches (1.2 us of 3.5 for an echo answer).
_scan: Callable[[str, int], tuple[Any, int]] = getattr(json.JSONDecoder(), "scan_once")  # no stub declares it

# The same tree in marshal's format (flickr_response_marshal): lengths instead of text to scan,
# one str per distinct key. marshal's format is not promised stable across Python versions, so it
# is used only once the running interpreter has read a probe as exactly what it reads from the
# JSON (docs/python.md, "How answers become dicts"); JSON otherwise.
_PROBE = ("<rsp stat='ok'><photos page='1' total='2'><photo id='1' title='caf\u00e9 \u732b \U0001f600'/>"
          "<photo id='2' title='' x='&#9;&#10;&#13;\u2028\u2029 \" &amp;'>u{[0r\u0080\u00f5</photo></photos>"
          "<e/><user id='3' user='4'><user>5</user></user><long a='" + "z" * 300 + "'>" + "\u00e9" * 200
          + "<![CDATA[<x/>]]></long></rsp>").encode("utf-8")
_marshal_decided = False
_marshal_ok = False


def _from_json(pointer: int | None) -> Any:
    """A library-rendered JSON text (`char *`, freed here) as Python data; NULL raises the thread's error."""
    return _scan(_ffi.take_text(pointer), 0)[0]


class _Out(threading.local):
    """The `char *` and `size_t` a marshal rendering is returned in, one pair per thread, with
    their addresses: (data, size, &data, &size)."""

    def __init__(self) -> None:
        data, size = ctypes.c_void_p(), ctypes.c_size_t()
        self.pair = (data, size, ctypes.addressof(data), ctypes.addressof(size))


_out = _Out()


def _from_marshal(render: Callable[..., int], handle: Any) -> Any:
    """`render(&bytes, &length, handle)` (flickr_response_marshal or flickr_value_marshal, raising on
    failure) read as Python data; the bytes are freed here."""
    data, size, data_address, size_address = _out.pair
    render(data_address, size_address, handle)
    return marshal.loads(_take_bytes(data.value or 0, size.value))  # never NULL after a success


def marshal_agrees() -> bool:
    """Whether this interpreter reads the library's marshal rendering of the probe exactly as the JSON
    (same types, keys in the same order, same text); decided once per process."""
    global _marshal_decided, _marshal_ok
    if not _marshal_decided:
        lib = _ffi.lib()
        try:
            with _ffi.Response() as response:
                lib.flickr_response_parse(response.out, _PROBE, len(_PROBE))
                expected = _from_json(lib.flickr_response_json(response))
                _marshal_ok = _same(_from_marshal(lib.flickr_response_marshal, response), expected)
        except Exception:  # noqa: BLE001 - whatever fails here (marshal.loads: ValueError, EOFError...), JSON stays
            _marshal_ok = False
        _marshal_decided = True
    return _marshal_ok


def _same(a: Any, b: Any) -> bool:
    """`a == b`, with the same types and each dict's keys in the same order (iterative: trees nest
    deeper than Python's recursion limit allows)."""
    pending = [(a, b)]
    while pending:
        x, y = pending.pop()
        if type(x) is not type(y):
            return False
        if isinstance(x, dict):
            if list(x) != list(y):
                return False
            pending.extend((x[key], y[key]) for key in x)
        elif isinstance(x, list):
            if len(x) != len(y):
                return False
            pending.extend(zip(x, y))
        elif x != y:
            return False
    return True


def _tree(lib: Any, response: Any) -> Any:
    """A response's whole tree as Python data."""
    if _marshal_ok or marshal_agrees():
        return _from_marshal(lib.flickr_response_marshal, response)
    return _from_json(lib.flickr_response_json(response))


def as_dict(response: Any) -> dict[str, Any]:
    """The response's value tree as a dict."""
    answer: dict[str, Any] = _tree(_ffi.lib(), response)  # an object, always
    return answer


def call_dict(context: Any, method: str, params: dict[str, Any], verb: int) -> dict[str, Any]:
    """`flickr_call` and its answer as a dict: the path of every `Flickr.call`, kept to few frames and
    a bare response pointer (no handle object), freed here whatever happens.

    The response (its body and tree) is freed as soon as it is rendered, before Python reads the
    rendering into dicts: on a large answer the two never coexist (bench/NOTES.md, Change 21)."""
    lib = _ffi.lib()
    response = _ffi.ResponsePtr()
    try:
        lib.flickr_call(ctypes.byref(response), context, _ffi.encode(method, "method"), _ffi.params_array(params), verb)
        if _marshal_ok or marshal_agrees():
            data, size, data_address, size_address = _out.pair
            lib.flickr_response_marshal(data_address, size_address, response)
            pointer, length = data.value or 0, size.value  # never NULL after a success
        else:
            pointer, length = lib.flickr_response_json(response), -1
            if not pointer:
                raise _ffi.last_error()
    finally:
        if response:
            lib.flickr_response_free(response)
    if length < 0:
        answer: dict[str, Any] = _from_json(pointer)  # an object, always
        return answer
    try:  # _take_bytes, inline: one frame less on every call
        blob = ctypes.string_at(pointer, length)
    finally:
        lib.flickr_free(pointer)
    answer = marshal.loads(blob)
    return answer


def _take_bytes(pointer: int, length: int) -> bytes:
    """The library's `length` bytes at `pointer` copied out, and freed before anything reads the
    copy: a large answer's dicts are then built beside one copy of its rendering, not two."""
    try:
        return ctypes.string_at(pointer, length)
    finally:
        _ffi.lib().flickr_free(pointer)


def body_text(response: _ffi.Response) -> str:
    """The body as received (Flickr's XML), decoded; undecodable bytes replaced."""
    length = ctypes.c_size_t()
    pointer = _ffi.lib().flickr_response_body(response, ctypes.byref(length))
    return ctypes.string_at(pointer, length.value).decode("utf-8", "replace")


def value_json(value: Any) -> Any:
    """A value borrowed from a response (a walk's item...) as Python data, copied out (through
    marshal's format where `marshal_agrees`, as JSON otherwise)."""
    lib = _ffi.lib()
    if _marshal_ok or marshal_agrees():
        return _from_marshal(lib.flickr_value_marshal, value)
    return _from_json(lib.flickr_value_json(value))


def call(function: Callable[..., Any], *args: Any, convert: Callable[[_ffi.Response], Any] = as_dict) -> Any:
    """`function(out, *args)`, a C function that fills a response (raising on failure), read by
    `convert`; the response is freed whatever happens."""
    with _ffi.Response() as response:
        function(response.out, *args)
        return convert(response)


# xml.sax.saxutils.quoteattr would do, but importing it imports urllib.request (and ssl, http,
# email...): about 6 MiB of every process that imports flickr.
_XML_ATTRIBUTE_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;",
                                        "\t": "&#9;", "\n": "&#10;", "\r": "&#13;"})
_XML_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]*\Z")


def _xml_attribute(value: str) -> str:
    """`value` escaped for a double-quoted XML attribute (whitespace kept as character references)."""
    return value.translate(_XML_ATTRIBUTE_ESCAPES)


@contextlib.contextmanager
def photo_value(photo: dict[str, Any]) -> Iterator[Any]:
    """A photo dict as the library's photo object, for the duration of a call.

    The dict's text attributes are written as one ``<photo/>`` element and parsed by
    the library, so the photo is read exactly as one from a response would be. getInfo's
    ``dates["lastupdate"]`` goes along as ``lastupdate`` (the photo cache's key includes it).
    """
    if not isinstance(photo, dict):
        raise TypeError(f"photo must be a dict, not {type(photo).__name__}")
    dates = photo.get("dates")
    if "lastupdate" not in photo and isinstance(dates, dict) and isinstance(dates.get("lastupdate"), str):
        photo = dict(photo, lastupdate=dates["lastupdate"])
    owner = photo.get("owner")
    if isinstance(owner, dict):  # getInfo's <owner nsid=.. path_alias=../>: what a page URL needs
        photo = dict(photo, owner=owner.get("nsid", ""))
        if isinstance(owner.get("path_alias"), str) and "pathalias" not in photo:
            photo["pathalias"] = owner["path_alias"]
    attributes = "".join(f' {name}="{_xml_attribute(value)}"' for name, value in photo.items()
                         if isinstance(name, str) and isinstance(value, str) and _XML_NAME.match(name))
    xml = f"<photo{attributes}/>".encode("utf-8", "surrogatepass")
    lib = _ffi.lib()
    with _ffi.Response() as response:
        lib.flickr_response_parse(response.out, xml, len(xml))
        yield lib.flickr_response_root(response)
