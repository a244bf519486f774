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


class _Deadline:
    """The end of one wait: past it, `passed` fails saying what never came."""

    def __init__(self, what: str, timeout: float, context: Callable[[], str] | None) -> None:
        self._at = time.monotonic() + timeout
        self._what = what
        self._timeout = timeout
        self._context = context

    def passed(self) -> None:
        """Raise NotInTime once the deadline has passed."""
        if time.monotonic() > self._at:
            text = f"{self._what}: not within {self._timeout:g} s"
            raise NotInTime(f"{text}\n{self._context()}" if self._context is not None else text)


def _tried(check: Callable[[], Any], ignore: tuple[type[BaseException], ...]) -> Any:
    """What `check` returns (None for an exception in `ignore`)."""
    try:
        return check()
    except ignore:
        return None


async def _tried_async(check: Callable[[], Any], ignore: tuple[type[BaseException], ...]) -> Any:
    """`_tried`, awaiting what `check` returns if it is awaitable."""
    try:
        value = check()
        return await value if inspect.isawaitable(value) else value
    except ignore:
        return None


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
    deadline = _Deadline(what, timeout, context)
    while True:
        value = _tried(check, ignore)
        if value:
            return value
        deadline.passed()
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
    deadline = _Deadline(what, timeout, context)
    while True:
        value = await _tried_async(check, ignore)
        if value:
            return value
        deadline.passed()
        await asyncio.sleep(every)
