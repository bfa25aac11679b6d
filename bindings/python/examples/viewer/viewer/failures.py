# SPDX-License-Identifier: MIT
"""Which failures are worth trying again, decided here and nowhere else.

A transient failure may go away by itself (the network, a timeout, Flickr busy or down: HTTP 5xx,
API error 105): the page offers Retry. A permanent one answers the same every time (Flickr's API
errors such as 1 "Photo not found", an unknown place or vacation, a malformed address): a Retry
button there is a dead end, so the page says what happened and offers a way back instead.
Every JSON error says which it is (``"transient"``); viewer.js only reads that.
"""

from __future__ import annotations

from dataclasses import dataclass

import flickr

# Flickr's API errors that mean "not now" rather than "no": 105 Service currently unavailable,
# 106 Write operation failed ("due to a temporary issue"). Every other code is an answer.
TRANSIENT_API_CODES = frozenset({105, 106})
# HTTP statuses worth another try: the 5xx family, a request timeout, too many requests.
TRANSIENT_HTTP = frozenset({408, 429})
# Failures on the way to Flickr or back; a broken answer (ParseError) is usually a cut or mangled
# transfer rather than Flickr's considered reply, so it is tried again too.
_TRANSIENT_KINDS = (flickr.NetworkError, flickr.Timeout, flickr.TLSError, flickr.ParseError, flickr.Aborted)


def transient_status(status: int) -> bool:
    """Whether an HTTP status (Flickr's, or the viewer's own) may change on its own."""
    return status >= 500 or status in TRANSIENT_HTTP


def is_transient(error: flickr.FlickrError) -> bool:
    if isinstance(error, flickr.APIError):
        return error.api_code in TRANSIENT_API_CODES
    if isinstance(error, flickr.HTTPError):
        return transient_status(error.http_status)
    return isinstance(error, _TRANSIENT_KINDS)


def describe(error: flickr.FlickrError) -> str:
    """A message for people, from a library error."""
    if isinstance(error, flickr.APIError):
        return f"Flickr refused the request: {error.message} (error {error.api_code})."
    if isinstance(error, (flickr.NetworkError, flickr.Timeout, flickr.TLSError)):
        return f"Flickr could not be reached: {error.message}"
    if isinstance(error, flickr.HTTPError):
        return f"The request to Flickr failed: {error.message}"
    if isinstance(error, flickr.ParseError):
        return f"Flickr's answer could not be read: {error.message}"
    return error.message or type(error).__name__


@dataclass(frozen=True)
class Failure:
    """What the viewer answers for a failure: the message, its HTTP status, whether to offer Retry,
    and for a thing that is not there a heading the page shows instead of its own."""

    message: str
    status: int
    transient: bool
    heading: str = ""

    def json(self) -> dict:
        body: dict = {"error": self.message, "transient": self.transient}
        if self.heading:
            body["heading"] = self.heading
        return body


def of_flickr(error: flickr.FlickrError) -> Failure:
    transient = is_transient(error)
    status = 504 if isinstance(error, flickr.Timeout) else 503 if transient else 502
    return Failure(describe(error), status, transient)


def of_status(message: str, status: int) -> Failure:
    """A failure of the viewer's own (an unknown address, a bad request, a cache race)."""
    return Failure(message, status, transient_status(status))


class Missing(Exception):
    """A thing Flickr or the viewer does not have (a photo, a place, a vacation): permanent, 404,
    shown under `heading`."""

    def __init__(self, heading: str, message: str):
        super().__init__(message)
        self.failure = Failure(message, 404, False, heading)
