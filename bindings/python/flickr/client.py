# SPDX-License-Identifier: MIT
"""`Flickr`: a context holding credentials, tokens, endpoints and transport settings."""
from __future__ import annotations

import atexit
import enum
import ctypes
import itertools
import logging
import os
import pathlib
import queue
import threading
import time
import weakref
from collections.abc import Iterator
from concurrent.futures import Future, InvalidStateError
from typing import TYPE_CHECKING, Any, Callable, Optional, Union

from . import _ffi, _interrupt, _response, errors
# Option keywords (STRING_OPTIONS, NUMBER_OPTIONS) are the C option names without FLICKR_OPT_, in
# lower case, generated from include/flickr/context.h by scripts/gen-header-tables.py with the
# numeric options' ranges and defaults (NUMBER_OPTION_RANGES, NUMBER_OPTION_DEFAULTS); the verbs
# (flickr_http_method: GET, POST, and METHOD_VERB, the catalogue's) from include/flickr/client.h.
from ._header import GET as GET, METHOD_VERB as METHOD_VERB, POST as POST
from ._header import NUMBER_OPTION_DEFAULTS as NUMBER_OPTION_DEFAULTS, NUMBER_OPTION_RANGES as NUMBER_OPTION_RANGES
from ._header import NUMBER_OPTIONS as NUMBER_OPTIONS, STRING_OPTIONS as STRING_OPTIONS
from ._harvest import Harvest
from ._threaded_iter import OneAtATime
from .api import Methods
from .upload import Progress, Source

if TYPE_CHECKING:
    from .oauth import OAuth

OptionValue = Union[str, int, bool, None]
#: How a request's response becomes its future's result.
Convert = Callable[["_ffi.Response"], Any]
#: What a dispatcher thread delivers: the future, how to convert the response, the response, the
#: error. The conversion is None only beside an error (a request lost to a fork), never called then.
_Outcome = tuple["Future[Any]", Optional[Convert], "_ffi.Response", Optional[BaseException]]


def _verb(post: bool | None) -> int:
    """The one rule for every call: post=None takes the method's verb from the catalogue (POST
    for Flickr's write and delete methods, GET otherwise and for unknown methods)."""
    return METHOD_VERB if post is None else (POST if post else GET)

#: Receives the library's request log: a DEBUG line per request, an INFO line per retry.
logger = logging.getLogger("flickr")


def _log_line(line: bytes, userdata: Optional[int]) -> None:
    # One module-level thunk for every context, so it can never be collected while C holds it.
    try:
        text = line.decode("utf-8", "replace")
        logger.log(logging.INFO if text.startswith("retry ") else logging.DEBUG, "%s", text)
    except BaseException:  # never let an exception escape into C
        pass


# Wrapped by a call, not as a decorator: the function keeps its signature for the type checker.
_on_log = _ffi.LogCallback(_log_line)
_NO_LOG = _ffi.LogCallback()  # a NULL function pointer: no log callback


class _Pending:
    """An asynchronous call in flight: its future, its C request, how its response becomes the
    result, and the dispatcher that completes the future."""

    __slots__ = ("future", "request", "convert", "dispatcher")

    def __init__(self, future: "RequestFuture", dispatcher: "_Dispatcher",
                 convert: Convert = _response.as_dict) -> None:
        self.future = future
        self.request: Any = None
        self.convert = convert
        self.dispatcher = dispatcher


_pending: dict[int, _Pending] = {}
_pending_lock = threading.Lock()
_next_key = 0


def _request_done(request: Any, status: int, response: Any, userdata: Optional[int]) -> None:
    # One module-level callback for every request, so the ctypes thunk never dies
    # while C may call it; userdata is the key of the request's _Pending entry.
    # This runs on the library's worker thread, which every transfer of the context shares:
    # it only copies the outcome and queues it; a dispatcher thread completes the future.
    with _pending_lock:
        pending = _pending.get(userdata or 0)
        if pending is not None:
            pending.request = None  # from here on, cancel() must not touch the C request
    if pending is None:
        return
    owned, error = _ffi.Response(), None  # type: tuple[_ffi.Response, Optional[BaseException]]
    with _ffi.Request(request):  # freed on the way out: allowed inside the callback; does not wait
        try:
            if status == 0:
                # Our own reference: the borrowed `response` dies with the request, freed as this block ends.
                _ffi.lib().flickr_request_response(owned.out, request)
            else:
                error = _ffi.error_from_record(_ffi.lib().flickr_request_error(request).contents)
        except BaseException as failure:  # never let an exception escape into C
            error = failure
    pending.dispatcher.put((pending.future, pending.convert, owned, error))
    with _pending_lock:  # only now: a child forked before the put fails the future (_after_fork_in_child)
        _pending.pop(userdata or 0, None)


_on_done = _ffi.DoneCallback(_request_done)


def _deliver(future: Future[Any], convert: Optional[Convert], response: _ffi.Response, error: BaseException | None) -> None:
    """Converts the response (then frees it, whatever happens) and completes the future,
    which runs its done callbacks on this thread."""
    outcome = None
    with response:
        try:
            if error is None and convert is not None:
                outcome = convert(response)
        except BaseException as failure:
            error = failure
    try:
        if error is None:
            future.set_result(outcome)
        else:
            future.set_exception(error)
    except InvalidStateError:  # completed some other way; nothing left to tell
        pass


class _Stop(enum.Enum):
    STOP = enum.auto()


_STOP = _Stop.STOP  # wakes an idle dispatcher thread to see whether it should end
_IN_FLIGHT_AT_FORK = ("the request was in flight when the process forked: it belongs to the parent process, and ends"
                      " in the child without an answer (start it again in the child)")
_dispatcher_serials = itertools.count(1)
_dispatchers: "weakref.WeakSet[_Dispatcher]" = weakref.WeakSet()  # for the fork handler


class _Dispatcher:
    """Completes one Flickr object's futures on Python threads, never on the library's worker.

    The worker (see `_on_done`) only queues each outcome. A dispatcher thread takes it, converts
    the response and sets the future, which runs the user's done callbacks; so a callback may block
    (wait for another future, make calls) without stalling the object's transfers.

    Callbacks run one at a time in completion order, like on the worker before. A thread that takes
    an outcome first makes sure another one waits on the queue, and a delivery that has run for
    `GRACE` seconds (it may be waiting for a later future of this object) no longer holds back the
    next: a callback waiting for another future never deadlocks. Beyond two, idle threads end after
    `IDLE_SECONDS`; all end once the object is closed and its last request delivered.
    """

    GRACE = 0.1
    IDLE_SECONDS = 5.0
    KEPT_IDLE = 2  # a leader and its follower: no thread start on the way of a lone completion

    def __init__(self) -> None:
        self.serial = next(_dispatcher_serials)  # names its threads, flickr-done-SERIAL-N
        self._threads = itertools.count(1)
        self._queue: queue.SimpleQueue[_Outcome | _Stop] = queue.SimpleQueue()
        self._lock = threading.Condition()
        self._idle = 0  # threads waiting on the queue, or about to
        self._in_flight = 0  # requests started whose outcome was not taken yet
        self._closed = False
        self._taken = 0  # outcomes taken so far: the next one's turn
        self._turn = 0  # the turn that may deliver now
        self._turn_since: float | None = None  # when that turn started delivering
        self._delivering: dict[int, Future[Any]] = {}  # by turn: futures taken, not yet completed
        _dispatchers.add(self)

    # -- called by the Flickr object and the worker --------------------------

    def started(self) -> None:
        """A request is about to start: make sure some thread will take its outcome."""
        with self._lock:
            self._in_flight += 1
            spawn = self._idle == 0
            if spawn:
                self._idle += 1
        if spawn:
            self._spawn()

    def not_started(self) -> None:
        """The request announced by `started` failed to start; no outcome will come."""
        with self._lock:
            self._in_flight -= 1
            if self._ended():
                self._queue.put(_STOP)

    def put(self, outcome: _Outcome) -> None:
        """On the worker thread: no lock, no thread start, nothing that could wait."""
        self._queue.put(outcome)

    def close(self) -> None:
        # Without the lock: close() may come from __del__, on any thread, at any point.
        self._closed = True
        self._queue.put(_STOP)

    # -- dispatcher threads ---------------------------------------------------

    def _ended(self) -> bool:
        return self._closed and self._in_flight == 0

    def _spawn(self) -> None:
        name = f"flickr-done-{self.serial}-{next(self._threads)}"
        try:
            threading.Thread(target=self._run, name=name, daemon=True).start()
        except RuntimeError:  # the interpreter is shutting down: no new threads
            with self._lock:
                self._idle -= 1

    def _run(self) -> None:
        while True:
            taken = self._take()
            if taken is None:
                return
            turn, outcome = taken
            self._wait_for_turn(turn)
            try:
                _deliver(*outcome)
            except BaseException:  # a callback's SystemExit or the like must not end the thread
                logger.exception("a done callback failed")
            finally:
                self._end_turn(turn)
            with self._lock:
                if self._ended():
                    return
                self._idle += 1

    def _take(self) -> tuple[int, _Outcome] | None:
        """Waits, as an idle thread, for the next outcome: (turn, outcome), or None to end."""
        while True:
            timeout = self.IDLE_SECONDS if self._idle > self.KEPT_IDLE else None
            try:
                item = self._queue.get(timeout=timeout)
            except queue.Empty:
                item = None
            with self._lock:
                if item is None or item is _STOP:
                    if self._ended() or (item is None and self._idle > self.KEPT_IDLE):
                        self._idle -= 1
                        if item is _STOP:
                            self._queue.put(_STOP)  # the next idle thread ends too
                        return None
                    continue
                self._idle -= 1
                self._in_flight -= 1
                turn, self._taken = self._taken, self._taken + 1
                self._delivering[turn] = item[0]
                if self._ended():
                    self._queue.put(_STOP)
                # Before delivering, which may block: someone must be there for the next outcome.
                follower = self._idle == 0 and not self._ended()
                if follower:
                    self._idle += 1
            if follower:
                self._spawn()
            return turn, item

    def _wait_for_turn(self, turn: int) -> None:
        """Until the previous delivery has ended, or has run for GRACE seconds."""
        with self._lock:
            while self._turn < turn:
                if self._turn == turn - 1 and self._turn_since is not None:
                    left = self._turn_since + self.GRACE - time.monotonic()
                    if left <= 0:
                        break  # the previous callback is blocked or slow: go ahead
                    self._lock.wait(left)
                else:
                    self._lock.wait()
            self._turn, self._turn_since = turn, time.monotonic()
            self._lock.notify_all()  # the next turn's thread starts counting its grace

    def after_fork_in_child(self, orphans: list[_Outcome], unqueued: list[Future[Any]]) -> None:
        """In the child of a fork: no dispatcher thread exists here, and the lock may have been held
        by one at the fork. Outcomes queued before the fork are delivered here too; `orphans` (the
        requests that were in flight, which end here without a done callback), the futures of
        `unqueued` whose outcome is not in the queue (the worker was on its way to queue it), and
        the deliveries that a thread of the parent was making fail with the fork error."""
        self._lock = threading.Condition()
        queued = []
        while not self._queue.empty():
            queued.append(self._queue.get_nowait())
        have = {id(item[0]) for item in queued if item is not _STOP}
        lost = [future for future in unqueued if id(future) not in have]
        redo = [(future, None, _ffi.Response(), errors.StateError(errors.ESTATE, _IN_FLIGHT_AT_FORK))
                for future in list(self._delivering.values()) + lost]
        self._in_flight += len(self._delivering)  # taken once already
        self._delivering.clear()
        self._idle = 0
        self._turn, self._turn_since = self._taken, None
        for outcome in queued + redo + orphans:
            self._queue.put(outcome)
        if not self._queue.empty():
            self._idle = 1
            self._spawn()

    def _end_turn(self, turn: int) -> None:
        with self._lock:
            self._delivering.pop(turn, None)
            if self._turn == turn:  # not overtaken: hand over to the next turn
                self._turn, self._turn_since = turn + 1, None
                self._lock.notify_all()


@atexit.register
def _cancel_pending_at_exit() -> None:
    """Interpreter shutdown: stop every request still in flight so no callback arrives late."""
    with _pending_lock:
        requests = [p.request for p in _pending.values() if p.request is not None]
    for request in requests:
        _ffi.lib().flickr_request_cancel(request)
    deadline = time.monotonic() + 5
    while _pending and time.monotonic() < deadline:
        time.sleep(0.01)
    # Then no callback at all any more (log, interrupt, progress, read, done), whatever thread is
    # still inside the library: ctypes frees the callback trampolines as the interpreter goes, and
    # a call into one after that crashes the process. Waits for callbacks already running.
    if _ffi.is_loaded():
        _ffi.lib().flickr_shutdown_callbacks(5000)


def _after_fork_in_child() -> None:
    """os.register_at_fork: the child of a fork starts the binding's thread state afresh (the
    library does the same for its own: docs/threading.md, "Across fork()")."""
    global _pending_lock
    _pending_lock = threading.Lock()  # another thread may have held it at the fork
    orphans: dict[_Dispatcher, list[_Outcome]] = {}
    unqueued: dict[_Dispatcher, list[Future[Any]]] = {}
    for pending in list(_pending.values()):
        if pending.request is None:
            # Ended in the parent; its outcome is queued unless the worker had not queued it yet.
            unqueued.setdefault(pending.dispatcher, []).append(pending.future)
            continue
        # In flight at the fork: the library ended it in the child, with no done callback.
        with _ffi.Request(pending.request):
            error = _ffi.error_from_record(_ffi.lib().flickr_request_error(pending.request).contents)
        orphans.setdefault(pending.dispatcher, []).append((pending.future, None, _ffi.Response(), error))
    _pending.clear()
    for dispatcher in list(_dispatchers):
        dispatcher.after_fork_in_child(orphans.get(dispatcher, []), unqueued.get(dispatcher, []))


os.register_at_fork(after_in_child=_after_fork_in_child)


class RequestFuture(Future[Any]):
    """A `concurrent.futures.Future` whose `cancel()` aborts the HTTP request.

    A cancelled request fails with `flickr.Aborted` (the C request ends with FLICKR_EABORTED).
    The future completes, and its done callbacks run, on a thread of the Flickr object's own
    (never on the library's worker), one callback at a time in completion order; a callback may
    wait for other futures, make calls, or close the object.
    """

    _key = 0
    #: What C uses until the request ends (an upload's buffer and ctypes thunks), set by its starter.
    _keep_alive: object

    def cancel(self) -> bool:
        with _pending_lock:
            pending = _pending.get(self._key)
            request = pending.request if pending is not None else None
            if request is not None:
                _ffi.lib().flickr_request_cancel(request)
        return request is not None


def _start_async(start: Callable[[Any, int], Any], dispatcher: _Dispatcher,
                 convert: Convert = _response.as_dict) -> RequestFuture:
    """Starts a request through `start(request_out, key)` (a C *_async call) and returns its future."""
    global _next_key
    future = RequestFuture()
    future.set_running_or_notify_cancel()
    pending = _Pending(future, dispatcher, convert)
    with _pending_lock:
        _next_key += 1
        key = future._key = _next_key
        _pending[key] = pending
    request = _ffi.RequestPtr()  # borrowed, for cancel(): `_on_done` owns and frees it
    dispatcher.started()
    try:
        # The lock keeps the callback from running before `pending.request` is set.
        with _pending_lock:
            start(ctypes.byref(request), key)
            if key in _pending:
                pending.request = request
    except BaseException:
        with _pending_lock:
            _pending.pop(key, None)
        dispatcher.not_started()
        raise
    return future


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
        lib = _ffi.lib()
        self._handle = None
        self._dispatcher = _Dispatcher()  # no thread until the first asynchronous call
        self.api_key = api_key
        handle = _ffi.ContextPtr()
        lib.flickr_context_new(ctypes.byref(handle), _ffi.encode(api_key, "api_key"), _ffi.encode(secret, "secret"))
        self._handle = handle
        lib.flickr_context_set_interrupt(handle, _interrupt.CALLBACK, None)  # Ctrl-C within ~0.1 s
        self._logging = False
        self._sync_log(handle)
        try:
            for name, value in options.items():
                self.set_option(name, value)
        except BaseException:
            self.close()
            raise

    # -- options --------------------------------------------------------

    def set_option(self, name: str, value: OptionValue) -> None:
        """Sets one option; ``None`` restores a string option's default."""
        handle = self._live()
        if name in STRING_OPTIONS:
            if value is not None and not isinstance(value, str):
                raise TypeError(f"{name} must be a str or None, not {type(value).__name__}")
            _ffi.lib().flickr_context_set_string(handle, STRING_OPTIONS[name], _ffi.encode(value, name))
        elif name in NUMBER_OPTIONS:
            if isinstance(value, bool):
                value = int(value)
            if not isinstance(value, int):
                raise TypeError(f"{name} must be an int, not {type(value).__name__}")
            if not -(2**63) <= value < 2**63:
                raise errors.InvalidArgument(errors.EINVAL, f"{name} is out of range: {value}")
            _ffi.lib().flickr_context_set_int64(handle, NUMBER_OPTIONS[name], value)  # long is 32 bits on i686
        else:
            raise TypeError(f"unknown option {name!r}; known: {', '.join(sorted(STRING_OPTIONS | NUMBER_OPTIONS))}")

    def get_option(self, name: str) -> str | int | None:
        """The option's current value (its default when unset)."""
        handle = self._live()
        if name in STRING_OPTIONS:
            out = ctypes.c_void_p()
            _ffi.lib().flickr_context_get_string(ctypes.byref(out), handle, STRING_OPTIONS[name])
            return _ffi.take_string(out.value)
        if name in NUMBER_OPTIONS:
            number = ctypes.c_int64()
            _ffi.lib().flickr_context_get_int64(ctypes.byref(number), handle, NUMBER_OPTIONS[name])
            return number.value
        raise TypeError(f"unknown option {name!r}")

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
        return _response.call_dict(self._live(), method, params, _verb(post))

    def post(self, method: str, /, **params: Any) -> dict[str, Any]:
        """:meth:`call` with POST whatever the catalogue says."""
        return _response.call_dict(self._live(), method, params, POST)

    def call_xml(self, method: str, /, *, post: bool | None = None, **params: Any) -> str:
        """Like :meth:`call`, returning Flickr's XML body as received.

        Raises `InvalidArgument`, sending nothing, on a client made with ``keep_body=False``
        (its answers keep no body).
        """
        self._check_keeps_body()
        body: str = self._call(method, params, _verb(post), _response.body_text)
        return body

    def _check_keeps_body(self) -> None:
        if self.get_option("keep_body") == 0:
            raise errors.InvalidArgument(errors.EINVAL, "call_xml needs the answer's body, and this client "
                                         "was made with keep_body=False")

    def call_discard(self, method: str, /, *, post: bool | None = None, **params: Any) -> None:
        """Like :meth:`call` for a call whose answer you will not read.

        A success is recognised from the start of the answer and nothing is mapped, which makes
        the call cheaper; failures raise exactly as :meth:`call` raises them. For writes such as
        ``flickr.photos.addTags``.
        """
        _ffi.lib().flickr_call_discard(self._live(), _ffi.encode(method, "method"), _ffi.params_array(params),
                                       _verb(post))

    def _call(self, method: str, params: dict[str, Any], verb: int, convert: Convert = _response.as_dict) -> Any:
        return _response.call(_ffi.lib().flickr_call, self._live(), _ffi.encode(method, "method"),
                              _ffi.params_array(params), verb, convert=convert)

    def call_async(self, method: str, /, *, post: bool | None = None, **params: Any) -> RequestFuture:
        """Starts a call and returns at once with a future of its dict.

        The request runs on the library's worker thread; many may be in flight
        on one Flickr object. `future.cancel()` aborts it (the future then
        raises `flickr.Aborted`). Done callbacks run on a thread of this object,
        not the worker, so they may block, wait for other futures or make calls.
        """
        return self._call_future(method, params, _verb(post))

    def _call_future(self, method: str, params: dict[str, Any], verb: int, convert: Convert = _response.as_dict) -> RequestFuture:
        """A call started on the library's worker, as a future of `convert(response)`."""
        lib = _ffi.lib()
        context = self._live()
        encoded = _ffi.encode(method, "method")
        return _start_async(lambda request, key: lib.flickr_call_async(
            request, context, encoded, _ffi.params_array(params), verb, _on_done, key),
            self._dispatcher, convert)

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
            lib.flickr_photo_fetch(ctypes.byref(path), self._live(), value, _ffi.encode(size, "size"))
        return pathlib.Path(_ffi.take_text(path.value))

    def photo_url(self, photo: dict[str, Any], size: str = "b") -> str:
        """The image URL of `photo` at `size` on this object's ``photo_endpoint`` (Flickr's static
        host, or a sandbox's): the URL :meth:`fetch_photo` downloads. Sizes as for
        :func:`flickr.urls.source`."""
        out = ctypes.c_void_p()
        with _response.photo_value(photo) as value:
            _ffi.lib().flickr_photo_image_url(ctypes.byref(out), self._live(), value, _ffi.encode(size, "size"))
        return _ffi.take_text(out.value)

    def fetch_photo_async(self, photo: dict[str, Any], size: str = "b") -> RequestFuture:
        """Like :meth:`fetch_photo`, returning at once with a future of the path."""
        lib = _ffi.lib()
        context = self._live()
        encoded = _ffi.encode(size, "size")
        with _response.photo_value(photo) as value:
            return _start_async(lambda request, key: lib.flickr_photo_fetch_async(
                request, context, value, encoded, _on_done, key), self._dispatcher, convert=_fetched_path)

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
        return Walk(self._live(), method, item_path, params)

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
        return Harvest(self._live(), method, dates=dates, min_slice=min_slice, checkpoint=checkpoint, shard=shard,
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

        return upload.run(self._live(), photo, None, args, progress, filename, mime_type, length)

    def replace(self, photo: Source, photo_id: str, /, progress: Optional[Progress] = None, *,
                filename: str | None = None, mime_type: str | None = None, length: int | None = None, **args: Any) -> dict[str, Any]:
        """Replaces the image of `photo_id` (one of the user's photos); as :meth:`upload`."""
        from . import upload

        return upload.run(self._live(), photo, photo_id, args, progress, filename, mime_type, length)

    def wait_ticket(self, ticket_id: str, timeout_ms: int = 300_000) -> str:
        """Waits for an asynchronous upload's ticket and returns the new photo's id."""
        from . import upload

        return upload.wait_ticket(self._live(), ticket_id, timeout_ms)

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
        handle = self._handle
        if not handle:
            raise errors.StateError(errors.ESTATE, "this Flickr object is closed")
        if logger.isEnabledFor(logging.INFO) != self._logging:  # cached by logging: a dict lookup
            self._sync_log(handle)
        return handle

    def _sync_log(self, handle: Any) -> None:
        """Gives the library a log callback only while the `flickr` logger shows INFO (retries) or
        DEBUG (requests): otherwise each request would format a line and cross into Python for
        nothing (about 9 µs a call). Checked again before every call, so a level set later counts."""
        wanted = logger.isEnabledFor(logging.INFO)
        _ffi.lib().flickr_context_set_log(handle, _on_log if wanted else _NO_LOG, None)
        self._logging = wanted

    @property
    def closed(self) -> bool:
        return not self._handle

    def close(self) -> None:
        """Releases the context; calling it again does nothing. Requests in flight still complete
        their futures; the object's dispatcher threads end after the last one. Safe from a done
        callback (nothing here waits for a dispatcher thread)."""
        handle, self._handle = self._handle, None
        if handle:
            _ffi.lib().flickr_context_free(handle)
            self._dispatcher.close()

    def __enter__(self) -> "Flickr":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __del__(self) -> None:
        # During interpreter shutdown module globals may already be gone.
        if getattr(self, "_handle", None) and _ffi is not None and _ffi._lib is not None:
            try:
                self.close()
            except Exception:
                pass
