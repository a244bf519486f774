"""The change feed: every committed change reaches the open tables of its chat, in this
process at once and in the others through Redis pub/sub.

The game service tells its change listeners after each commit (bot.game.match_records); the
feed is one of them, beside the delivery layer. A change of this process is pushed from
the state at hand and published on the chat's channel (bot.storage.tables) as a short
note: which chat and topic, which revision, which process. A process with tables of
that chat open reads the chat's match again and pushes it; its own notes it skips. The
embedded store serves one process: nothing is published there.

A process follows the channel of a chat only while a table of that chat is open here.
When the feed's connection to Redis drops, what was published meanwhile is lost: once it
reads again, every open table is pushed anew.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets

from redis.exceptions import RedisError

from bot import background
from bot.game.match_records import Current
from bot.storage.tables import FeedListener, Tables
from bot.table.hub import Hub

log = logging.getLogger(__name__)

LISTEN_WAIT = 1.0  # seconds a read of the channel waits before looking again
RETRY_WAIT = 1.0  # seconds before reading again after Redis failed


class Feed:
    def __init__(self, tables: Tables, hub: Hub) -> None:
        self.tables = tables
        self.hub = hub
        self.process = secrets.token_hex(6)  # tells this process's own notes apart
        self._listener: FeedListener | None = None
        self._reader: asyncio.Task[None] | None = None
        self._sending: set[asyncio.Task[None]] = set()
        hub.on_first = self._follow
        hub.on_last = self._leave

    def changed(self, current: Current, seen: int) -> None:
        """The game service's change listener (called right after a commit)."""
        self.hub.changed(current)
        if not self.tables.shared:
            return
        match = current.match
        note = json.dumps(
            {"p": self.process, "c": match.chat_id, "t": match.thread_id or 0, "r": match.rev},
            separators=(",", ":"),
        )
        task = asyncio.get_running_loop().create_task(self._publish(match.chat_id, note))
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)

    async def _publish(self, chat_id: int, note: str) -> None:
        try:
            await self.tables.publish(chat_id, note)
        except RedisError as exc:  # the others' tables catch up with the chat's next change
            log.warning("table feed: chat %s not published (%s)", chat_id, exc)

    # -- following other processes' changes -------------------------------------------------

    def start(self) -> None:
        if self.tables.shared and self._reader is None:
            self._listener = self.tables.listener()
            self._reader = asyncio.get_running_loop().create_task(self._read(), name="table-feed")

    async def stop(self) -> None:
        await background.cancel(self._reader)
        self._reader = None
        if self._sending:
            await asyncio.wait(list(self._sending), timeout=2.0)
        if self._listener is not None:
            with contextlib.suppress(RedisError, OSError):
                await self._listener.close()
            self._listener = None

    async def _follow(self, chat_id: int) -> None:
        if self._listener is not None:
            try:
                await self._listener.follow(chat_id)
            except RedisError as exc:
                log.warning("table feed: cannot follow chat %s (%s)", chat_id, exc)

    async def _leave(self, chat_id: int) -> None:
        if self._listener is not None:
            try:
                await self._listener.leave(chat_id)
            except RedisError as exc:
                log.warning("table feed: cannot leave chat %s (%s)", chat_id, exc)

    async def _read(self) -> None:
        listener = self._listener
        assert listener is not None
        failed = False
        while True:
            try:
                note = await listener.next_message(LISTEN_WAIT)
            except (RedisError, OSError) as exc:
                if not failed:
                    log.warning("table feed: cannot read the channels (%s)", exc)
                failed = True
                await asyncio.sleep(RETRY_WAIT)
                continue
            if failed:  # reading again: what was published meanwhile is lost
                failed = False
                log.info("table feed: reading the channels again")
                self.hub.refresh_all()
            if note is not None:
                self._heard(note)

    def _heard(self, note: str) -> None:
        try:
            data = json.loads(note)
            process, chat_id, thread = str(data["p"]), int(data["c"]), int(data["t"])
        except (ValueError, KeyError, TypeError):
            log.warning("table feed: an unreadable note")
            return
        if process != self.process:
            self.hub.refresh((chat_id, thread or None))
