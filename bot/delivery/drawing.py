"""Pictures are drawn off the event loop, two at a time.

Drawing holds the interpreter lock for most of its milliseconds. With many threads
drawing at once the event loop waits for the lock again and again, and everything it
does (answering presses, letting calls go the moment the budget allows them) comes
late; two threads keep both cores busy without crowding it out.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

T = TypeVar("T")

_EXECUTOR = ThreadPoolExecutor(max_workers=2, thread_name_prefix="domino-draw")


async def draw(render: Callable[..., T], *args: object) -> T:
    """`render(*args)` in a drawing thread."""
    return await asyncio.get_running_loop().run_in_executor(_EXECUTOR, render, *args)
