# SPDX-License-Identifier: MIT
"""The library's asynchronous requests, as Python futures: how a request starts (`start`), the one
done callback C calls for every request (`on_done`, on the library's worker thread), and the
dispatcher threads that complete each client's futures (`Dispatcher`), across fork() and exit.

Both clients start their requests here (`flickr.client.Flickr`'s ``*_async`` methods and
`flickr.async_client.AsyncFlickr`, through `flickr._core.ClientCore`); docs/threading.md says on
which thread each step runs.
"""
from __future__ import annotations

import atexit
import ctypes
import enum
import itertools
import logging
import os
import queue
import threading
import time
import weakref
from concurrent.futures import Future, InvalidStateError
from typing import Any, Callable, Optional

from . import _ffi, _response, errors

#: How a request's response becomes its future's result.
Convert = Callable[["_ffi.Response"], Any]
#: What a dispatcher thread delivers: the future, how to convert the response, the response, the
#: error. The conversion is None only beside an error (a request lost to a fork), never called then.
_Outcome = tuple["Future[Any]", Optional[Convert], "_ffi.Response", Optional[BaseException]]

_logger = logging.getLogger("flickr")  # the client's logger (flickr.client.logger)


class _Pending:
    """An asynchronous call in flight: its future, its C request, how its response becomes the
    result, and the dispatcher that completes the future."""

    __slots__ = ("future", "request", "convert", "dispatcher")

    def __init__(self, future: "RequestFuture", dispatcher: "Dispatcher",
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


on_done = _ffi.DoneCallback(_request_done)


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
_dispatchers: "weakref.WeakSet[Dispatcher]" = weakref.WeakSet()  # for the fork handler


class Dispatcher:
    """Completes one Flickr object's futures on Python threads, never on the library's worker.

    The worker (see `on_done`) only queues each outcome. A dispatcher thread takes it, converts
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
                _logger.exception("a done callback failed")
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
    orphans: dict[Dispatcher, list[_Outcome]] = {}
    unqueued: dict[Dispatcher, list[Future[Any]]] = {}
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
    #: What C uses until the request ends (an upload's buffer and ctypes thunks), given to `start`.
    _keep_alive: object = None

    def cancel(self) -> bool:
        with _pending_lock:
            pending = _pending.get(self._key)
            request = pending.request if pending is not None else None
            if request is not None:
                _ffi.lib().flickr_request_cancel(request)
        return request is not None


def start(start: Callable[[Any, int], Any], dispatcher: Dispatcher,
          convert: Convert = _response.as_dict, keep_alive: object = None) -> RequestFuture:
    """Starts a request through `start(request_out, key)` (a C *_async call) and returns its future,
    which holds `keep_alive` (what C uses until the request ends) for the request's life."""
    global _next_key
    future = RequestFuture()
    future._keep_alive = keep_alive
    future.set_running_or_notify_cancel()
    pending = _Pending(future, dispatcher, convert)
    with _pending_lock:
        _next_key += 1
        key = future._key = _next_key
        _pending[key] = pending
    request = _ffi.RequestPtr()  # borrowed, for cancel(): `on_done` owns and frees it
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
