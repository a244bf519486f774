"""The open tables of this process, and the views pushed to them after every change.

Each open table is one WebSocket (`Seat`), attached under its chat (and forum topic).
When a change of a chat is committed, here or in another process (bot.table.feed), the
chat's tables get the whole new view, each its own (a seat's hand only to that seat's
user), with the view's version: never a diff, so a table that missed one is whole again
with the next. Views alike (every spectator of one language) are built and encoded once.

Pushes of one chat run one at a time, newest wins: a burst of changes costs at most one
push under way and one after it, and a version older than one a table was sent is never
sent to it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web
from pydantic_core import to_json
from redis.exceptions import RedisError

from bot.game import ratings
from bot.game.match_errors import StoreError
from bot.game.match_records import Current
from bot.game.service import GameService
from bot.i18n import Translator
from bot.table.initdata import Identity
from bot.table.views import gone_view

log = logging.getLogger(__name__)

Chat = tuple[int, int | None]
GONE = 2**62  # the version of a "gone" view: above any match's


@dataclass(eq=False)
class Seat:
    """One open table: its WebSocket, who opened it, for which game, in which language."""

    socket: web.WebSocketResponse
    identity: Identity
    tr: Translator
    chat: Chat
    game_id: str
    sent: int = -1  # the newest view version sent


@dataclass
class _ChatPush:
    """A chat's push under way, and the newest state waiting for the next one."""

    task: asyncio.Task[None] | None = None
    waiting: Current | None = None
    read: bool = False  # the state must be read (another process changed it)


@dataclass
class Hub:
    service: GameService
    views: Callable[[Current, Seat, dict[int, int] | None], dict[str, Any]]
    # Told when the first table of a chat opens here and when its last one closes (the
    # feed follows the chat's channel meanwhile).
    on_first: Callable[[int], Awaitable[None]] | None = None
    on_last: Callable[[int], Awaitable[None]] | None = None
    # Told when a table opens (before its first view) and when it closed (bot.table.presence).
    on_attach: Callable[[Seat], Awaitable[None]] | None = None
    on_detach: Callable[[Seat], Awaitable[None]] | None = None
    tables: dict[Chat, set[Seat]] = field(default_factory=dict)
    _pushes: dict[Chat, _ChatPush] = field(default_factory=dict)

    @property
    def count(self) -> int:
        return sum(len(seats) for seats in self.tables.values())

    async def attach(self, seat: Seat) -> None:
        """`seat` hears of its chat's changes from now on; its first view is sent."""
        seats = self.tables.setdefault(seat.chat, set())
        first = not any(chat[0] == seat.chat[0] for chat, open_ in self.tables.items() if open_)
        seats.add(seat)
        if first and self.on_first is not None:
            await self.on_first(seat.chat[0])
        if self.on_attach is not None:
            await self.on_attach(seat)
        current = await self.service.current(*seat.chat)
        await self._send(seat, current, await self.changes(current))

    async def detach(self, seat: Seat) -> None:
        seats = self.tables.get(seat.chat)
        if seats is None or seat not in seats:
            return
        seats.discard(seat)
        if not seats:
            del self.tables[seat.chat]
        if self.on_last is not None and not any(chat[0] == seat.chat[0] for chat in self.tables):
            await self.on_last(seat.chat[0])
        if self.on_detach is not None:
            await self.on_detach(seat)

    def changed(self, current: Current) -> None:
        """A change of this process was committed: push it (the state is at hand)."""
        chat = (current.match.chat_id, current.match.thread_id)
        if chat in self.tables:
            self._push(chat, current)

    def refresh(self, chat: Chat) -> None:
        """The chat changed elsewhere: read it and push."""
        if chat in self.tables:
            self._push(chat, None)

    def refresh_chat(self, chat_id: int) -> None:
        """Every topic of the chat changed elsewhere (a channel carries the chat's changes)."""
        for chat in [chat for chat in self.tables if chat[0] == chat_id]:
            self.refresh(chat)

    def refresh_all(self) -> None:
        """Changes may have been missed (the feed's connection dropped): push them all."""
        for chat in list(self.tables):
            self.refresh(chat)

    async def close_all(self, code: int, message: str) -> None:
        """Close every open table (the server is stopping)."""
        seats = [seat for seats in self.tables.values() for seat in seats]
        await asyncio.gather(
            *(seat.socket.close(code=code, message=message.encode()) for seat in seats),
            return_exceptions=True,
        )
        for push in self._pushes.values():
            if push.task is not None:
                push.task.cancel()

    # -- pushing ---------------------------------------------------------------------------

    def _push(self, chat: Chat, current: Current | None) -> None:
        push = self._pushes.setdefault(chat, _ChatPush())
        if current is None:
            push.read = True
        elif push.waiting is None or push.waiting.match.rev <= current.match.rev:
            push.waiting = current
        if push.task is None:
            push.task = asyncio.get_running_loop().create_task(self._run(chat, push))

    async def _run(self, chat: Chat, push: _ChatPush) -> None:
        try:
            while push.waiting is not None or push.read:
                current, read = push.waiting, push.read
                push.waiting, push.read = None, False
                try:
                    if read:
                        current = await self.service.current(*chat)
                    await self._send_all(chat, current)
                except (StoreError, RedisError) as exc:
                    log.warning("table: chat %s not pushed (%s)", chat[0], exc.__class__.__name__)
        finally:
            push.task = None
            if self._pushes.get(chat) is push:
                del self._pushes[chat]

    async def _send_all(self, chat: Chat, current: Current | None) -> None:
        seats = list(self.tables.get(chat, ()))
        if not seats:
            return
        changes = await self.changes(current)
        encoded: dict[tuple[object, ...], str] = {}
        sends = []
        for seat in seats:
            text = self._encode(seat, current, changes, encoded)
            if text is not None:
                sends.append(self._deliver(seat, text))
        await asyncio.gather(*sends)

    async def _send(
        self, seat: Seat, current: Current | None, changes: dict[int, int] | None
    ) -> None:
        text = self._encode(seat, current, changes, {})
        if text is not None:
            await self._deliver(seat, text)

    def _encode(
        self,
        seat: Seat,
        current: Current | None,
        changes: dict[int, int] | None,
        encoded: dict[tuple[object, ...], str],
    ) -> str | None:
        """The message with the seat's view (None: it has this version or a newer one);
        alike views are encoded once (`encoded`, by what tells them apart)."""
        gone = current is None or current.match.id != seat.game_id
        following = None if current is None else current.match.id  # the chat's game now
        if gone:
            key: tuple[object, ...] = ("gone", seat.game_id, following)
            version = GONE  # once gone, gone: nothing after it
        else:
            assert current is not None
            match = current.match
            user = seat.identity.user_id
            key = (match.seat_of(user), user == match.creator_id, seat.tr.lang)
            version = match.rev
        if version <= seat.sent:
            return None
        seat.sent = version
        if key not in encoded:
            if current is None or gone:
                view = gone_view(seat.game_id, following)
            else:
                view = self.views(current, seat, changes)
            # pydantic's encoder (Rust) writes a view's JSON four times faster than the
            # standard library's: one view a move for every game with a table open.
            encoded[key] = to_json({"type": "view", "view": view}).decode()
        return encoded[key]

    async def _deliver(self, seat: Seat, text: str) -> None:
        if seat.socket.closed:
            return
        try:
            await seat.socket.send_str(text)
        except (ConnectionError, RuntimeError) as exc:  # it closed meanwhile
            log.debug("table: push not sent (%s)", exc.__class__.__name__)

    async def changes(self, current: Current | None) -> dict[int, int] | None:
        """A finished match's rating changes by seat, for its final table."""
        if current is None or current.match.status != "over":
            return None
        rated = await self.service.tally.final_changes(current)
        return ratings.seat_changes(current.match, rated)
