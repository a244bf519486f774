"""Who sits at the live table, kept in Redis from this process's open tables
(bot.storage.presence): the delivery layer holds a present seat's private hand message
back, and paces the group's board slower when every person seated is present
(docs/table.md, "Fewer Bot API calls").

A table counts from its hello until its last connection here closes, renewed every
`RENEW_EVERY` seconds; if this process dies, its tables lapse `LAPSE` seconds after
their last renewal. When a person's last table here closes, `on_closed` is told (the
delivery layer brings his hand message up to date at once).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable

from redis.exceptions import RedisError

from bot import background
from bot.storage.presence import OpenTable, Presence
from bot.table.hub import Hub, Seat

log = logging.getLogger(__name__)

RENEW_EVERY = 10.0  # seconds between renewals of this process's open tables
LAPSE = 30.0  # seconds an open table counts as present after its last renewal


def open_table(seat: Seat) -> OpenTable:
    return OpenTable(seat.chat[1], seat.game_id, seat.identity.user_id)


class TablePresence:
    def __init__(
        self,
        presence: Presence,
        hub: Hub,
        process: str,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.presence = presence
        self.hub = hub
        self.process = process
        self.clock = clock
        # Told (chat, topic) when a person's last table here closed.
        self.on_closed: Callable[[int, int | None], None] | None = None
        self._task: asyncio.Task[None] | None = None
        hub.on_attach = self._opened
        hub.on_detach = self._closed

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run(), name="table-presence")

    async def stop(self) -> None:
        await background.cancel(self._task)
        self._task = None

    async def renew(self) -> None:
        """Every table open here counts as present for `LAPSE` seconds more."""
        now = self.clock()
        by_chat: dict[int, set[OpenTable]] = {}
        for chat, seats in list(self.hub.tables.items()):
            by_chat.setdefault(chat[0], set()).update(open_table(seat) for seat in seats)
        if by_chat:
            await self.presence.renew(by_chat, self.process, now + LAPSE, now)

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(RENEW_EVERY)
            try:
                await self.renew()
            except RedisError as exc:  # a table open longer than LAPSE may lapse meanwhile
                log.warning("table presence: not renewed (%s)", exc)

    async def _opened(self, seat: Seat) -> None:
        try:
            await self.presence.arrive(
                seat.chat[0], open_table(seat), self.process, self.clock() + LAPSE
            )
        except RedisError as exc:  # the next renewal notes it
            log.warning("table presence: an opened table not noted (%s)", exc)

    async def _closed(self, seat: Seat) -> None:
        table = open_table(seat)
        if any(open_table(other) == table for other in self.hub.tables.get(seat.chat, ())):
            return  # another connection of his is open here
        try:
            await self.presence.leave(seat.chat[0], table, self.process)
        except RedisError as exc:  # it lapses then
            log.warning("table presence: a closed table not noted (%s)", exc)
        if self.on_closed is not None:
            self.on_closed(*seat.chat)
