"""Which bot processes are running: each keeps a short-lived key in Redis fresh.

A call to Telegram is claimed in the game before it is made, so that two
processes never make the same one. When the process holding a claim dies (a
crash, `kill -9`, a lost machine), its heartbeat key expires within seconds and
the claim is taken over, instead of the group and the hand waiting out a long lease.
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from collections.abc import Callable

from redis.exceptions import RedisError

from bot.storage.heartbeats import Heartbeats
from bot.storage.models import Claim

log = logging.getLogger(__name__)

PROCESS_TTL = 10.0  # seconds a process counts as running after its last heartbeat
# A claim of a process that still runs but has not finished its call by then is taken
# as lost (a call waiting long for the budget keeps its claim meanwhile).
CLAIM_LEASE = 300.0
STOP_SECONDS = 5.0  # the longest stop() waits for the heartbeat to end


class Liveness:
    """This process's heartbeat, and whether another process's still beats."""

    def __init__(
        self,
        heartbeats: Heartbeats,
        ttl: float = PROCESS_TTL,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.heartbeats = heartbeats
        self.ttl = ttl
        self.clock = clock
        self.process_id = uuid.uuid4().hex[:12]
        self._last_beat: float | None = None
        self._task: asyncio.Task[None] | None = None
        self._stopping = False

    async def beat(self) -> None:
        """Refresh our key if a third of its life is gone (so: before every claim)."""
        now = self.clock()
        if self._last_beat is not None and now - self._last_beat < self.ttl / 3:
            return
        await self.heartbeats.heartbeat(self.process_id, self.ttl)
        self._last_beat = now

    async def holds(self, claim: Claim, now: float) -> bool:
        """Is the call `claim` names still being made (by a process that runs)?

        Not if the claim is ours: a target's passes run one at a time here, so a pass
        finding our claim finds one an earlier pass could not clear (Redis failed before
        it noted how its call went). Waiting for it would wait out the whole lease.
        """
        if claim.by == self.process_id:
            return False
        if now - claim.since >= CLAIM_LEASE:
            return False
        return await self.alive(claim.by)

    async def alive(self, process_id: str) -> bool:
        if process_id == self.process_id:
            return True
        return await self.heartbeats.alive(process_id)

    def start(self) -> None:
        """Beat in the background, so that a long call of ours keeps its claim."""
        self._task = asyncio.create_task(self._run(), name="domino-heartbeat")

    async def stop(self) -> None:
        if self._task is not None:
            self._stopping = True
            self._task.cancel()
            # The loop also ends on the flag: redis-py may turn the cancellation of a
            # call under way into a RedisError, which the loop catches and carries on.
            await asyncio.wait({self._task}, timeout=STOP_SECONDS)
            self._task = None

    async def _run(self) -> None:
        while not self._stopping:
            try:
                await self.beat()
            except RedisError as exc:
                if self._stopping:
                    return
                log.warning("heartbeat: storage unavailable (%s)", exc)
            await asyncio.sleep(self.ttl / 6)
