"""Waiting for a condition: poll until it holds, or fail saying what never came and after
how long. One helper for plain functions (`until`) and one for the event loop
(`until_async`, which also awaits a coroutine function's result)."""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import Callable
from typing import Any


class NotInTime(AssertionError):
    """The condition did not hold within the timeout (an AssertionError: a failed test)."""


def _message(what: str, timeout: float, context: Callable[[], str] | None) -> str:
    text = f"{what}: not within {timeout:g} s"
    return f"{text}\n{context()}" if context is not None else text


def until(
    check: Callable[[], Any],
    what: str,
    timeout: float = 20,
    every: float = 0.02,
    ignore: tuple[type[BaseException], ...] = (),
    context: Callable[[], str] | None = None,
) -> Any:
    """Call `check` every `every` s until it returns something truthy, and return that.

    `ignore`: exceptions that count as "not yet" (OSError while a server is still coming
    up); `context`: more to say when it fails (say, the fake Bot API's last calls)."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            value = check()
        except ignore:
            value = None
        if value:
            return value
        if time.monotonic() > deadline:
            raise NotInTime(_message(what, timeout, context))
        time.sleep(every)


async def until_async(
    check: Callable[[], Any],
    what: str,
    timeout: float = 20,
    every: float = 0.02,
    ignore: tuple[type[BaseException], ...] = (),
    context: Callable[[], str] | None = None,
) -> Any:
    """`until` for the event loop: `check` may be a plain or a coroutine function."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            value = check()
            if inspect.isawaitable(value):
                value = await value
        except ignore:
            value = None
        if value:
            return value
        if time.monotonic() > deadline:
            raise NotInTime(_message(what, timeout, context))
        await asyncio.sleep(every)
