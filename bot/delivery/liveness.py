"""Which bot processes are running: each keeps a short-lived key in Redis fresh.

A call to Telegram is claimed in the game before it is made, so that two
processes never make the same one. When the process holding a claim dies (a
crash, `kill -9`, a lost machine), its heartbeat key expires within seconds and
the claim is taken over, instead of the group and the hand waiting out a long lease.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import uuid
from collections.abc import Callable

from redis.exceptions import RedisError

from bot.storage.models import Claim
from bot.storage.store import Store

log = logging.getLogger(__name__)

PROCESS_TTL = 10.0  # seconds a process counts as running after its last heartbeat
# A claim of a process that still runs but has not finished its call by then is taken
# as lost (a call waiting long for the budget keeps its claim meanwhile).
CLAIM_LEASE = 300.0


class Liveness:
    """This process's heartbeat, and whether another process's still beats."""

    def __init__(
        self,
        store: Store,
        ttl: float = PROCESS_TTL,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.store = store
        self.ttl = ttl
        self.clock = clock
        self.process_id = uuid.uuid4().hex[:12]
        self._last_beat: float | None = None
        self._task: asyncio.Task[None] | None = None

    async def beat(self) -> None:
        """Refresh our key if a third of its life is gone (so: before every claim)."""
        now = self.clock()
        if self._last_beat is not None and now - self._last_beat < self.ttl / 3:
            return
        await self.store.heartbeat(self.process_id, self.ttl)
        self._last_beat = now

    async def holds(self, claim: Claim, now: float) -> bool:
        """Is the call `claim` names still being made (by a process that runs)?"""
        if now - claim.since >= CLAIM_LEASE:
            return False
        return await self.alive(claim.by)

    async def alive(self, process_id: str) -> bool:
        if process_id == self.process_id:
            return True
        return await self.store.alive(process_id)

    def start(self) -> None:
        """Beat in the background, so that a long call of ours keeps its claim."""
        self._task = asyncio.create_task(self._run(), name="domino-heartbeat")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _run(self) -> None:
        while True:
            try:
                await self.beat()
            except RedisError as exc:
                log.warning("heartbeat: storage unavailable (%s)", exc)
            await asyncio.sleep(self.ttl / 6)
