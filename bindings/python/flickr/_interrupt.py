# SPDX-License-Identifier: MIT
"""Ctrl-C during a blocking call.

Python runs its signal handlers on the main thread, between bytecodes: while the main
thread is blocked in a C call, a Ctrl-C waits for the call to end (20-120 s against a
silent server). The library asks the context's interrupt callback every 100 ms while a
synchronous call waits (flickr_context_set_interrupt). Entering that callback gives the
interpreter the thread back, so it runs the pending SIGINT handler right there; but a
KeyboardInterrupt raised at a callback's entry cannot be caught inside it, and ctypes
would swallow it. So, while a blocking call runs on the main thread, SIGINT goes to a
handler that only notes it; the callback then tells the library to stop, and when the
call has returned the KeyboardInterrupt is raised in the caller's frame, as usual.

Only the default handler is stood in for: a program's own SIGINT handler is left as it is
(it runs when the call ends, as before).
"""

from __future__ import annotations

import ctypes
import os
import signal
import threading
from types import FrameType
from typing import Any, Callable, Optional

# signal.getsignal converts the handler to an enum: 2.8 us of every call, 3% of a fast one. The C
# module's own getsignal does not (CPython's signal.py imports it as signal._signal).
_getsignal: Callable[[int], Any] = getattr(getattr(signal, "_signal", signal), "getsignal", signal.getsignal)

_MAIN = threading.main_thread().ident
_noted = False  # a SIGINT arrived during the current blocking call (main thread only)
_blocking = False


def _note_sigint(signum: int, frame: Optional[FrameType]) -> None:
    global _noted
    if _blocking:
        _noted = True
    else:
        signal.default_int_handler(signum, frame)


def _check(_userdata: Optional[int]) -> int:
    # Every 100 ms on a thread blocked in a call; on the main thread, entering this function
    # runs a pending SIGINT handler (_note_sigint) first.
    return 1 if _noted and threading.get_ident() == _MAIN else 0


#: The context's flickr_interrupt_fn; module-level, so the thunk lives as long as the library.
CALLBACK = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p)(_check)


def _after_fork_in_child() -> None:
    # The child's main thread is the one that forked (threading's own handler, registered before
    # this one, has made it so); a blocking call another thread was in does not exist here.
    global _MAIN, _blocking, _noted
    _MAIN = threading.main_thread().ident
    _blocking = _noted = False


os.register_at_fork(after_in_child=_after_fork_in_child)


def interruptible(function: Callable[..., Any]) -> Callable[..., Any]:
    """`function` (a blocking ctypes function) made to let a Ctrl-C through within ~0.1 s."""

    def call(*args: Any) -> Any:
        global _blocking, _noted
        if threading.get_ident() != _MAIN:
            return function(*args)
        handler = _getsignal(signal.SIGINT)
        if handler is signal.default_int_handler:
            signal.signal(signal.SIGINT, _note_sigint)
        elif handler is not _note_sigint:
            return function(*args)  # the program's own handler: not ours to stand in for
        _blocking, _noted = True, False
        try:
            return function(*args)
        finally:
            _blocking = False
            if _noted:
                _noted = False
                raise KeyboardInterrupt  # replaces the library's FLICKR_EABORTED for this call

    call.__name__ = getattr(function, "__name__", "call")
    return call
