"""The event loop the bot runs on: uvloop's, where it is installed, else asyncio's own.

Why uvloop: nearly all of the bot's work is small network round trips (a Redis command,
a WebSocket push, a Bot API call) and the tasks and timers around them, and uvloop runs
that machinery in C: a move at the live table costs the bot about 5 % less CPU on it
(`bench/load.py --table`, run in turn with EVENT_LOOP=asyncio; docs/performance.md).
`EVENT_LOOP=asyncio` keeps asyncio's loop; uvloop is not made for Windows, where the
bot falls back to asyncio's loop and says so.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Literal

log = logging.getLogger(__name__)

LoopChoice = Literal["uvloop", "asyncio"]
LoopFactory = Callable[[], asyncio.AbstractEventLoop]


def loop_factory(choice: LoopChoice) -> LoopFactory | None:
    """What makes the bot's loop (None: asyncio's default)."""
    if choice == "asyncio":
        return None
    try:
        import uvloop
    except ImportError:
        log.warning("EVENT_LOOP=uvloop, but uvloop is not installed: asyncio's loop is used")
        return None
    factory: LoopFactory = uvloop.new_event_loop
    return factory


def loop_name(loop: asyncio.AbstractEventLoop) -> str:
    """Which loop runs ("uvloop" or "asyncio"), for the start-up log line."""
    return "uvloop" if type(loop).__module__.startswith("uvloop") else "asyncio"
