# SPDX-License-Identifier: MIT
"""`Flickr`: a context holding credentials, tokens, endpoints and transport settings."""
from __future__ import annotations

import ctypes
import pathlib
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, Optional

from . import _dispatch, _ffi, _response
# The names this module has always offered, now defined where both clients share them.
from ._core import GET as GET, METHOD_VERB as METHOD_VERB, POST as POST
from ._core import ClientCore, OptionValue as OptionValue, logger as logger, verb
from ._dispatch import Convert, RequestFuture as RequestFuture
from ._header import NUMBER_OPTION_DEFAULTS as NUMBER_OPTION_DEFAULTS, NUMBER_OPTION_RANGES as NUMBER_OPTION_RANGES
from ._header import NUMBER_OPTIONS as NUMBER_OPTIONS, STRING_OPTIONS as STRING_OPTIONS
from ._harvest import Harvest
from ._threaded_iter import OneAtATime
from .api import Methods
from .upload import Progress, Source

if TYPE_CHECKING:
    from .oauth import OAuth


def _fetched_path(response: _ffi.Response) -> pathlib.Path:
    return pathlib.Path(_response.as_dict(response)["path"])



class Walk(Iterator[dict[str, Any]]):
    """A walk over every item of a paged method (made by :meth:`Flickr.walk`).

    An iterator that may be continued after an exception: a failed page (a network error,
    `OverBudget`) is asked again by the next ``next()``, while a listing the library found
    lying (`ParseError`) fails again. ``page`` is the number of the last page the server
    answered (0 before the first): with the first page's number, how many calls the walk made;
    ``total`` the total Flickr announced on it (-1 before). ``close()`` (or the end) frees it.
    """

    def __init__(self, context: Any, method: str, item_path: str | None, params: dict[str, Any]) -> None:
        self._pages = _ffi.Pages()
        _ffi.lib().flickr_pages_new(self._pages.out, context, _ffi.encode(method, "method"),
                                    _ffi.params_array(params), _ffi.encode(item_path, "item_path"))
        self._page = 0
        self._total = -1
        self._busy = OneAtATime()  # a second thread's step raises, as a generator's would

    def __next__(self) -> dict[str, Any]:
        with self._busy:
            if not self._pages:  # ended or closed
                raise StopIteration
            lib = _ffi.lib()
            item = _ffi.ValuePtr()
            try:
                lib.flickr_pages_next(ctypes.byref(item), self._pages)
            finally:
                self._page, self._total = int(lib.flickr_pages_page(self._pages)), int(lib.flickr_pages_total(self._pages))
            if not item:
                self._pages.close()
                raise StopIteration
            return _response.value_json(item)  # type: ignore[no-any-return]

    @property
    def page(self) -> int:
        """The number of the last page the server answered, 0 before the first."""
        return self._page

    @property
    def total(self) -> int:
        """The total Flickr announced on the last page answered, -1 before the first."""
        return self._total

    def close(self) -> None:
        """Ends the walk and frees its page; ``page`` and ``total`` stay."""
        with self._busy:
            self._pages.close()

    def __enter__(self) -> "Walk":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


class Flickr(Methods):
    """A libflickr context.

    ``Flickr(api_key, secret, **options)``; options are the keywords of
    ``STRING_OPTIONS`` and ``NUMBER_OPTIONS`` (e.g. ``rest_endpoint=``,
    ``oauth_token=``, ``ca_file=``, ``timeout_ms=``; ``base_url=`` points every endpoint
    at one server such as the sandbox). Safe to share between threads. Use as a context
    manager, or call :meth:`close`.

    Flickr's methods are attributes: ``api.photos.search(text="kitten")``,
    ``api.groups.discuss.replies.getList(...)`` (see :mod:`flickr.api`); :meth:`call` calls
    any method by name.
    """

    def __init__(self, api_key: str, secret: str | None = None, **options: OptionValue):
        self._core = ClientCore(api_key, secret, options)
        self.api_key = api_key

    # -- options --------------------------------------------------------

    def set_option(self, name: str, value: OptionValue) -> None:
        """Sets one option; ``None`` restores a string option's default."""
        self._core.set_option(name, value)

    def get_option(self, name: str) -> str | int | None:
        """The option's current value (its default when unset)."""
        return self._core.get_option(name)

    # -- calls ----------------------------------------------------------

    def call(self, method: str, /, *, post: bool | None = None, **params: Any) -> dict[str, Any]:
        """Calls `method` and returns the response as a dict (the `<rsp>` object).

        The verb is the method's own from the catalogue (POST for Flickr's write and delete
        methods) unless `post` says otherwise. Parameter values are converted to text: bools as
        1/0, lists comma-joined; None values are left out. A known method's missing required
        argument raises `InvalidArgument` before anything is sent (the `check_arguments`
        option). Raises a `FlickrError` subclass on failure (`APIError` with `.api_code` for
        Flickr's stat="fail"). ``api.photos.search(...)`` is the same call with a signature.
        """
        return _response.call_dict(self._core.live(), method, params, verb(post))

    def post(self, method: str, /, **params: Any) -> dict[str, Any]:
        """:meth:`call` with POST whatever the catalogue says."""
        return _response.call_dict(self._core.live(), method, params, POST)

    def call_xml(self, method: str, /, *, post: bool | None = None, **params: Any) -> str:
        """Like :meth:`call`, returning Flickr's XML body as received.

        Raises `InvalidArgument`, sending nothing, on a client made with ``keep_body=False``
        (its answers keep no body).
        """
        self._core.check_keeps_body()
        body: str = self._call(method, params, verb(post), _response.body_text)
        return body

    def call_discard(self, method: str, /, *, post: bool | None = None, **params: Any) -> None:
        """Like :meth:`call` for a call whose answer you will not read.

        A success is recognised from the start of the answer and nothing is mapped, which makes
        the call cheaper; failures raise exactly as :meth:`call` raises them. For writes such as
        ``flickr.photos.addTags``.
        """
        _ffi.lib().flickr_call_discard(self._core.live(), _ffi.encode(method, "method"), _ffi.params_array(params),
                                       verb(post))

    def _call(self, method: str, params: dict[str, Any], verb: int, convert: Convert = _response.as_dict) -> Any:
        return _response.call(_ffi.lib().flickr_call, self._core.live(), _ffi.encode(method, "method"),
                              _ffi.params_array(params), verb, convert=convert)

    def call_async(self, method: str, /, *, post: bool | None = None, **params: Any) -> RequestFuture:
        """Starts a call and returns at once with a future of its dict.

        The request runs on the library's worker thread; many may be in flight
        on one Flickr object. `future.cancel()` aborts it (the future then
        raises `flickr.Aborted`). Done callbacks run on a thread of this object,
        not the worker, so they may block, wait for other futures or make calls.
        """
        return self._core.call_future(method, params, verb(post))

    # -- photos ---------------------------------------------------------

    def fetch_photo(self, photo: dict[str, Any], size: str = "b") -> pathlib.Path:
        """The path of the photo's image at `size` in the photo cache, downloading it only when missing.

        `photo` is a photo dict as calls return them (id, secret and server; sizes
        h, k, 3k... need their url_* extra, "o" originalsecret and originalformat
        or url_o). Sizes are those of `flickr_photo_source_url` ("b" is 1024 px).
        The cache is `photo_cache_dir` (default $XDG_CACHE_HOME/flickr/photos),
        bounded by `photo_cache_max_bytes` (default 10 MiB) with least-recently-used
        eviction, shared safely by threads and processes; it touches no file of the
        directory but its own (`flickr-cache-*`). A replace through this process makes
        the photo's cached images stale; another client's is seen when the dict carries
        `lastupdate` (extras="last_update", or getInfo's `dates`). Raises `InvalidArgument`
        for a photo lacking what the size needs, `HTTPError` for a 404,
        `ParseError` when the answer is not an image, `FileError` when the cache
        cannot be written; nothing is cached then.
        """
        lib = _ffi.lib()
        path = ctypes.c_void_p()
        with _response.photo_value(photo) as value:
            lib.flickr_photo_fetch(ctypes.byref(path), self._core.live(), value, _ffi.encode(size, "size"))
        return pathlib.Path(_ffi.take_text(path.value))

    def photo_url(self, photo: dict[str, Any], size: str = "b") -> str:
        """The image URL of `photo` at `size` on this object's ``photo_endpoint`` (Flickr's static
        host, or a sandbox's): the URL :meth:`fetch_photo` downloads. Sizes as for
        :func:`flickr.urls.source`."""
        out = ctypes.c_void_p()
        with _response.photo_value(photo) as value:
            _ffi.lib().flickr_photo_image_url(ctypes.byref(out), self._core.live(), value, _ffi.encode(size, "size"))
        return _ffi.take_text(out.value)

    def fetch_photo_async(self, photo: dict[str, Any], size: str = "b") -> RequestFuture:
        """Like :meth:`fetch_photo`, returning at once with a future of the path."""
        lib = _ffi.lib()
        context = self._core.live()
        encoded = _ffi.encode(size, "size")
        with _response.photo_value(photo) as value:
            return self._core.start(lambda request, key: lib.flickr_photo_fetch_async(
                request, context, value, encoded, _dispatch.on_done, key), _fetched_path)

    def walk(self, method: str, *, item_path: str | None = None, **params: Any) -> "Walk":
        """Yields every item of every page of a paged method, lazily, as dicts.

        Pages are fetched (GET, with retries) as the iteration reaches them;
        the walk reads Flickr's page/pages/total and stops after an empty or
        the last page (and at Flickr's caps). The item list is found
        automatically (photos.photo, photosets.photoset...) unless `item_path`
        names it. `per_page` defaults to 500.

        A listing that cannot be walked raises `ParseError` naming the method,
        the page and why: a page that repeats the last one or brings no new id,
        or more pages announced than items (docs/harvest.md, "Lying listings").
        The result is a :class:`Walk`: after an error such as `OverBudget`, the
        next ``next()`` asks the same page again; ``page`` and ``total`` say
        where it is.
        """
        return Walk(self._core.live(), method, item_path, params)

    def harvest(self, method: str, *, dates: str = "upload", min_slice: int = 60, checkpoint: str | None = None,
                shard: tuple[int, int] = (1, 1), **params: Any) -> Harvest:
        """Every item a search-like method matches, each once, past Flickr's 4,000-result cap.

        An iterator of dicts, as :meth:`walk`, that slices the query by date (``dates``: "upload" or
        "taken"; the caller's ``min_/max_..._date`` bound it, in unix seconds) and below
        ``min_slice`` seconds by licence. With ``checkpoint`` (a file path) it saves its state after
        each page taken in full and continues from an existing checkpoint of the same query;
        ``shard=(k, n)`` takes the k-th of n parts, for n processes. ``.report`` tells its
        completeness. See docs/harvest.md.
        """
        return Harvest(self._core.live(), method, dates=dates, min_slice=min_slice, checkpoint=checkpoint, shard=shard,
                       **params)

    # -- uploads --------------------------------------------------------

    def upload(self, photo: Source, /, progress: Optional[Progress] = None, *, filename: str | None = None,
               mime_type: str | None = None, length: int | None = None, **args: Any) -> dict[str, Any]:
        """Uploads a photo and returns Flickr's answer as a dict.

        `photo` is a path (a str, as os.listdir spells any file name, or an
        os.PathLike, bytes-based too), bytes-like data (the photo itself), or a
        binary file object (read as the upload goes; `length` when its size
        cannot be told). `progress(sent,
        total)` is called as the body goes out, on this thread; an
        exception it raises, or returning False, stops the upload (the
        exception is re-raised here; False gives `flickr.Aborted`). `args` are
        Flickr's upload arguments (title, description, tags, is_public,
        is_friend, is_family, safety_level, content_type, hidden, async...).

        The answer is `{"stat": "ok", "photoid": {"_text": ID, "secret": ..,
        "originalsecret": ..}}`, or with `async=1`, `{"ticketid": {"_text": T}}`
        (see :meth:`wait_ticket`).
        """
        from . import upload

        return upload.run(self._core.live(), photo, None, args, progress, filename, mime_type, length)

    def replace(self, photo: Source, photo_id: str, /, progress: Optional[Progress] = None, *,
                filename: str | None = None, mime_type: str | None = None, length: int | None = None, **args: Any) -> dict[str, Any]:
        """Replaces the image of `photo_id` (one of the user's photos); as :meth:`upload`."""
        from . import upload

        return upload.run(self._core.live(), photo, photo_id, args, progress, filename, mime_type, length)

    def wait_ticket(self, ticket_id: str, timeout_ms: int = 300_000) -> str:
        """Waits for an asynchronous upload's ticket and returns the new photo's id."""
        from . import upload

        return upload.wait_ticket(self._core.live(), ticket_id, timeout_ms)

    # -- authentication -------------------------------------------------

    @property
    def oauth(self) -> "OAuth":
        """The OAuth steps (request_token, authorize_url, parse_callback, access_token, check_token...)."""
        from .oauth import OAuth

        return OAuth(self)

    def authenticate_console(self, perms: str = "read", **options: Any) -> dict[str, Any]:
        """Out-of-band login: prints the authorize URL and reads the code. On success this object
        signs with the new token, which is also saved in the token store. See `OAuth.authenticate_console`."""
        return self.oauth.authenticate_console(perms, **options)

    def authenticate_via_browser(self, perms: str = "read", **options: Any) -> dict[str, Any]:
        """Login through a browser and a loopback callback server (times out cleanly). On success
        this object signs with the new token, also saved in the token store. See
        `OAuth.authenticate_via_browser`."""
        return self.oauth.authenticate_via_browser(perms, **options)

    # -- lifetime -------------------------------------------------------

    def _live(self) -> Any:
        """The context's handle (for the OAuth steps, `_oauth_steps.Client`)."""
        return self._core.live()

    @property
    def closed(self) -> bool:
        return self._core.closed

    def close(self) -> None:
        """Releases the context; calling it again does nothing. Requests in flight still complete
        their futures; the object's dispatcher threads end after the last one. Safe from a done
        callback (nothing here waits for a dispatcher thread)."""
        self._core.close()

    def __enter__(self) -> "Flickr":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def client_over(core: ClientCore) -> Flickr:
    """The Flickr object over `core`, a context another client made (`AsyncFlickr.sync`): both
    share its options, tokens, connections and lifetime. Internal to the package."""
    client = Flickr.__new__(Flickr)
    client._core = core
    client.api_key = core.api_key
    return client
