# SPDX-License-Identifier: MIT
"""The backup's concurrency is one idiom, asyncio (docs/backup.md, "Concurrency"; issue 41 §3): each
item's work is a coroutine awaiting its futures, on an event loop of the run's own; no generator
scheduler polling `wait(timeout=...)` beside it. Its behaviour (Ctrl-C, kill -9, failures, the
budget's waits) is held by test_backup*.py."""
from __future__ import annotations

import ast
import asyncio
import inspect
from concurrent.futures import Future

from libtest import APPS_DIR

STEPS = ("work", "_details", "_media", "_place", "_sidecars")


def test_each_items_steps_are_coroutines():
    from flickr_apps.backup.export.engine import ExportJob
    from flickr_apps.backup.job import ItemJob

    for job in (ItemJob, ExportJob):
        generators = [step for step in STEPS if not inspect.iscoroutinefunction(getattr(job, step))]
        print(f"{job.__name__}: {len(STEPS) - len(generators)} of {len(STEPS)} steps are coroutines")
        assert not generators, (job.__name__, generators)


def test_no_module_of_the_backup_polls_futures_or_yields_them():
    """A `wait(...)` of concurrent.futures, or a `yield [future]`, would be the old scheduler again."""
    found = []
    for path in sorted((APPS_DIR / "flickr_apps" / "backup").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module == "concurrent.futures":
                found += [f"{path.name}:{node.lineno} imports {a.name}" for a in node.names
                          if a.name in ("wait", "as_completed", "FIRST_COMPLETED")]
            if isinstance(node, ast.Yield) and isinstance(node.value, ast.List):
                found.append(f"{path.name}:{node.lineno} yields a list")
    print(found)
    assert not found, found


def test_a_cancelled_item_cancels_the_futures_it_awaits():
    """Ctrl-C cancels the workers; an item's await then cancels its futures (a RequestFuture's
    cancel aborts the C request), where the scheduler had to cancel each one itself."""
    from flickr_apps.backup.job import ended

    loop = asyncio.new_event_loop()
    try:
        first, second = Future(), Future()
        second.set_result("done")
        task = loop.create_task(ended(first, second))
        loop.run_until_complete(asyncio.sleep(0))  # the item is awaiting
        task.cancel()
        loop.run_until_complete(asyncio.gather(task, return_exceptions=True))
        assert task.cancelled() and first.cancelled() and second.result() == "done"
        both = [Future(), Future()]
        both[0].set_exception(OSError("read"))
        both[1].set_result(1)
        loop.run_until_complete(ended(*both))  # ends when all have ended; failures are read after
        assert isinstance(both[0].exception(), OSError)
    finally:
        loop.close()
