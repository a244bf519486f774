"""The periodic sweep: play for seats whose deadline passed, make paced group edits.

Every bot process runs one. Due work is found in Redis, so it survives restarts;
each action is applied by an optimistic transaction on the game's version, so
when several processes find the same work, exactly one does it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable

from redis.exceptions import RedisError

from bot.delivery.sync import Syncer
from bot.game.service import GameService
from bot.storage.store import BrokenGameError

log = logging.getLogger(__name__)


class Sweeper:
    def __init__(
        self,
        service: GameService,
        syncer: Syncer,
        interval: float,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.service = service
        self.syncer = syncer
        self.interval = interval
        self.clock = clock
        self._task: asyncio.Task[None] | None = None
        self._stopping = False

    def start(self) -> None:
        self._stopping = False
        self._task = asyncio.create_task(self._run(), name="domino-sweeper")

    async def stop(self) -> None:
        if self._task is not None:
            # The flag as well as the cancel: redis-py can swallow a cancellation that lands
            # in the middle of a command, and the loop would then run (and stop() wait) forever.
            self._stopping = True
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _run(self) -> None:
        while not self._stopping:
            try:
                await self.sweep_once()
            except RedisError as exc:
                log.warning("sweep: storage unavailable (%s)", exc)
            except Exception:
                log.exception("sweep failed")
            await asyncio.sleep(self.interval)

    async def sweep_once(self) -> int:
        """Handle every game with something due now; how many were looked at."""
        store = self.service.store
        due = await store.due(self.clock())
        for chat_id, thread_id in due:
            try:
                await self.service.run_due(chat_id, thread_id)
                await self.syncer.sync(chat_id, thread_id)
            except BrokenGameError:
                log.warning("game in chat %s is unreadable; it waits for /stop", chat_id)
                await store.reschedule(chat_id, thread_id, None)
            except RedisError:
                raise
            except Exception:
                log.exception("due work for chat %s failed", chat_id)
                # try again later rather than spinning on it
                await store.reschedule(chat_id, thread_id, self.clock() + 10)
        return len(due)
