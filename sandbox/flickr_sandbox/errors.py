# SPDX-License-Identifier: MIT
"""Exceptions that turn into Flickr's error answers."""


class ApiError(Exception):
    """An API failure: ``<rsp stat="fail"><err code msg/>`` with HTTP 200."""

    def __init__(self, code: int, message: str):
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class OAuthProblem(Exception):
    """An OAuth-layer failure: plain-text ``oauth_problem=...`` body with a 4xx status."""

    def __init__(self, status: int, body: str):
        super().__init__(body)
        self.status = status
        self.body = body


class BodyError(Exception):
    """The request body cannot be read (missing length, too large, malformed)."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status
        self.message = message
