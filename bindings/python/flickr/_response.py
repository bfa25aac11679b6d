# SPDX-License-Identifier: MIT
"""What the binding reads out of the library's answers, in one place.

Private. A response becomes a dict, its body text, or the JSON of one of its values here, and a
photo dict becomes the library's photo value here, so that calls, futures, uploads, the OAuth steps
and URLs all map answers the same way. Layer: above `_ffi` (its only import in the package), below
every module that makes calls.
"""
from __future__ import annotations

import contextlib
import ctypes
import json
import re
from typing import Any, Callable, Iterator

from . import _ffi

# The library's JSON is compact, valid UTF-8, one value: the decoder's C scanner reads it directly,
# without json.loads' two frames and two whitespace regex matches (1.2 us of 3.5 for an echo answer).
_scan: Callable[[str, int], tuple[Any, int]] = getattr(json.JSONDecoder(), "scan_once")  # no stub declares it


def _from_json(pointer: int | None) -> Any:
    """A library-rendered JSON text (`char *`, freed here) as Python data; NULL raises the thread's error."""
    return _scan(_ffi.take_text(pointer), 0)[0]


def as_dict(response: Any) -> dict[str, Any]:
    """The response's value tree as a dict (the library renders it as JSON)."""
    answer: dict[str, Any] = _from_json(_ffi.lib().flickr_response_json(response))  # an object, always
    return answer


def call_dict(context: Any, method: str, params: dict[str, Any], verb: int) -> dict[str, Any]:
    """`flickr_call` and its answer as a dict: the path of every `Flickr.call`, kept to one frame and
    a bare response pointer (no handle object), freed here whatever happens.

    The response (its body and tree) is freed as soon as it is rendered, before Python copies the
    text and builds the dicts: on a large answer those copies and the response never coexist
    (bench/NOTES.md, Change 21)."""
    lib = _ffi.lib()
    response = _ffi.ResponsePtr()
    try:
        lib.flickr_call(ctypes.byref(response), context, _ffi.encode(method, "method"), _ffi.params_array(params), verb)
        rendered = lib.flickr_response_json(response)
        if not rendered:
            raise _ffi.last_error()
    except BaseException:
        if response:
            lib.flickr_response_free(response)
        raise
    lib.flickr_response_free(response)
    answer: dict[str, Any] = _from_json(rendered)  # an object, always
    return answer


def body_text(response: _ffi.Response) -> str:
    """The body as received (Flickr's XML), decoded; undecodable bytes replaced."""
    length = ctypes.c_size_t()
    pointer = _ffi.lib().flickr_response_body(response, ctypes.byref(length))
    return ctypes.string_at(pointer, length.value).decode("utf-8", "replace")


def value_json(value: Any) -> Any:
    """A value borrowed from a response (a walk's item...) as Python data, copied out."""
    return _from_json(_ffi.lib().flickr_value_json(value))


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
