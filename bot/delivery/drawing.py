"""Pictures are drawn off the event loop, two at a time.

Drawing holds the interpreter lock for most of its milliseconds. With many threads
drawing at once the event loop waits for the lock again and again, and everything it
does (answering presses, letting calls go the moment the budget allows them) comes
late; two threads keep both cores busy without crowding it out.

A board is drawn on a canvas of several megabytes and encoded into more; glibc keeps
what they freed in its heaps rather than giving it back, so a bot that draws all day
looks far larger than what it holds. Every `TRIM_EVERY` seconds a drawing thread hands
the free memory back (`malloc_trim`: no library does this one call, and where the C
library is not glibc it is skipped).
"""

from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

T = TypeVar("T")

_EXECUTOR = ThreadPoolExecutor(max_workers=2, thread_name_prefix="domino-draw")
TRIM_EVERY = 10.0  # seconds


def _malloc_trim() -> Callable[[int], int] | None:
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        trim: Callable[[int], int] = libc.malloc_trim
    except (OSError, AttributeError):  # not glibc
        return None
    return trim


class _Trim:
    """Hands freed memory back to the system at most every `TRIM_EVERY` seconds."""

    def __init__(self) -> None:
        self.trim = _malloc_trim()
        self.last = time.monotonic()
        self.lock = threading.Lock()

    def after_drawing(self) -> None:
        if self.trim is None or time.monotonic() - self.last < TRIM_EVERY:
            return
        if not self.lock.acquire(blocking=False):
            return  # the other thread is at it
        try:
            self.last = time.monotonic()
            self.trim(0)
        finally:
            self.lock.release()


_TRIM = _Trim()


def _drawn(render: Callable[..., T], *args: object) -> T:
    try:
        return render(*args)
    finally:
        _TRIM.after_drawing()


async def draw(render: Callable[..., T], *args: object) -> T:
    """`render(*args)` in a drawing thread."""
    return await asyncio.get_running_loop().run_in_executor(_EXECUTOR, _drawn, render, *args)
