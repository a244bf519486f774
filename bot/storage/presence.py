"""Who sits at the live table right now: a sorted set per chat (`Keys.table_presence`),
whose members are open tables by the time they lapse.

Each bot process renews the tables open there every few seconds (bot.table.presence),
so a process that dies lets its tables lapse within `lapse` seconds on its own. A
member names the topic, the game, the person and the process, so two processes serving
one person's two tables each keep their own, and one closing leaves the other's.

A press of a button in the private chat while the table is open says that the person
plays with the buttons again: a mark beside his tables, which counts him as not present
until he opens the table anew. The embedded store keeps the same set in memory.

The delivery asks who is present once or twice a move; what it read is kept in the
process (`Presence`) while it holds: until the earliest of its tables may lapse, and while
the chat's presence tag (`Keys.table_presence_tag`, new at every arrival, departure and
press of the buttons, read in the same round trip as the chat's records: `PresenceTags`)
is the one it was read with. A renewal that only extends tables changes no tag: the
kept read lapses first and is read anew.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TypeVar, cast

from redis.asyncio import Redis

from bot.storage.common import GAME_TTL, as_text
from bot.storage.keys import Keys

T = TypeVar("T")

BUTTONS = "buttons"  # the process part of the mark of a person back on the buttons
KEPT_LONGEST = 30.0  # seconds a read of a chat's presence is kept, at most
CHATS_KEPT = 20_000  # chats whose tag and presence a process keeps, at most

Members = tuple[tuple[str, float], ...]  # a chat's presence: (member, lapses) of each table


class PresenceTags:
    """The presence tag each chat's records were last read with in this process (absent:
    not read with them; None: the chat has no tag, nobody came since it expired)."""

    def __init__(self) -> None:
        self._tags: dict[int, str | None] = {}

    def saw(self, chat_id: int, raw: bytes | str | None) -> None:
        _keep(self._tags, chat_id, None if raw is None else as_text(raw))

    def known(self, chat_id: int) -> bool:
        return chat_id in self._tags

    def latest(self, chat_id: int) -> str | None:
        return self._tags.get(chat_id)


@dataclass(frozen=True, slots=True)
class _Read:
    """A chat's presence as read, with the tag it had then, kept until `until`."""

    tag: str | None
    members: Members
    until: float


@dataclass(frozen=True)
class OpenTable:
    """One person's open table in one process."""

    thread_id: int | None
    game_id: str
    user_id: int


class Presence:
    def __init__(self, redis: Redis, keys: Keys, tags: PresenceTags) -> None:
        """`tags`: those the chat's records are read with (`GameRecords`)."""
        self.redis = redis
        self.keys = keys
        self.tags = tags
        self._reads: dict[int, _Read] = {}

    async def renew(
        self,
        tables_by_chat: Mapping[int, Iterable[OpenTable]],
        process: str,
        until: float,
        now: float,
    ) -> None:
        """Each chat's tables open in `process` count as present until `until`; tables
        that lapsed (any process's) are dropped. One round trip for every chat: a
        process with thousands of open tables renews them well within `lapse`."""
        pipe = self.redis.pipeline(transaction=False)
        adding: list[tuple[int, bool]] = []  # each chat, and whether it has a ZADD
        for chat_id, tables in tables_by_chat.items():
            key = self.keys.table_presence(chat_id)
            members = {_member(table, process): until for table in tables}
            if members:
                pipe.zadd(key, members)
            adding.append((chat_id, bool(members)))
            pipe.zremrangebyscore(key, "-inf", now)
            # The key goes with the last table's lapse (renewals all lapse alike: the
            # last one written lapses last).
            pipe.expireat(key, int(max(until, now)) + 1)
        results = iter(await pipe.execute())
        arrived: list[int] = []
        for chat_id, zadd in adding:
            if zadd and next(results):
                arrived.append(chat_id)  # a table not there before (it had lapsed)
            next(results), next(results)
        if arrived:
            await self._retag(arrived)

    async def arrive(self, chat_id: int, table: OpenTable, process: str, until: float) -> None:
        """A table opened: present from now (whatever buttons he pressed before)."""
        key = self.keys.table_presence(chat_id)
        await self.redis.zrem(key, _member(table, BUTTONS))
        await self.redis.zadd(key, {_member(table, process): until})
        await self.redis.expireat(key, int(until) + 1)
        await self._retag([chat_id])

    async def leave(self, chat_id: int, table: OpenTable, process: str) -> None:
        """The last connection of this table in `process` closed."""
        await self.redis.zrem(self.keys.table_presence(chat_id), _member(table, process))
        await self._retag([chat_id])

    async def use_buttons(
        self, chat_id: int, thread_id: int | None, game_id: str, user_id: int, now: float
    ) -> bool:
        """He pressed a button of his private chat: not present until he opens the table
        again. Whether he was present (nothing is written otherwise)."""
        present = await self.present(chat_id, thread_id, game_id, [user_id], now, kept=False)
        if user_id not in present:
            return False
        mark = _member(OpenTable(thread_id, game_id, user_id), BUTTONS)
        # Kept while his tables are (the key goes with their lapse).
        await self.redis.zadd(self.keys.table_presence(chat_id), {mark: now + GAME_TTL})
        await self._retag([chat_id])
        return True

    async def present(
        self,
        chat_id: int,
        thread_id: int | None,
        game_id: str,
        user_ids: Iterable[int],
        now: float,
        kept: bool = True,
    ) -> dict[int, float]:
        """Who of `user_ids` has the game's table open (and has not gone back to the
        buttons), each with the time his presence lapses unless renewed.

        With `kept`, what this process read of the chat before is used while it holds
        (see the module's doc); without, it is read anew."""
        wanted = {str(user_id) for user_id in user_ids}
        head = f"{thread_id or 0}:{game_id}:"
        until: dict[int, float] = {}
        on_buttons: set[int] = set()
        for member, score in await self._members(chat_id, now, kept):
            if score <= now or not member.startswith(head):
                continue
            user, _, process = member.removeprefix(head).partition(":")
            if user not in wanted:
                continue
            if process == BUTTONS:
                on_buttons.add(int(user))
            else:
                until[int(user)] = max(until.get(int(user), 0.0), float(score))
        return {user: when for user, when in until.items() if user not in on_buttons}

    async def _members(self, chat_id: int, now: float, kept: bool) -> Members:
        """Every table of the chat present after `now`: as kept, or read (and kept)."""
        tags = self.tags
        if kept and tags.known(chat_id):
            read = self._reads.get(chat_id)
            if read is not None and now < read.until and read.tag == tags.latest(chat_id):
                return read.members
        pipe = self.redis.pipeline(transaction=False)
        # The tag first: what follows it is at least as new as the tag says.
        pipe.get(self.keys.table_presence_tag(chat_id))
        pipe.zrangebyscore(self.keys.table_presence(chat_id), f"({now}", "+inf", withscores=True)
        tag, found = await pipe.execute()
        members = tuple(
            (as_text(raw), float(score)) for raw, score in cast(list[tuple[bytes, float]], found)
        )
        # Kept until its first table may lapse (a renewal since is not seen here).
        lapses = min((score for _, score in members), default=now + KEPT_LONGEST)
        tag_text = None if tag is None else as_text(tag)
        _keep(self._reads, chat_id, _Read(tag_text, members, min(lapses, now + KEPT_LONGEST)))
        return members

    async def _retag(self, chat_ids: Iterable[int]) -> None:
        """The chats' presence changed: a new tag each, so every process reads it anew."""
        pipe = self.redis.pipeline(transaction=False)
        for chat_id in chat_ids:
            # Random, never a count: a tag that expired and came back must not match
            # one a process kept.
            pipe.set(self.keys.table_presence_tag(chat_id), uuid.uuid4().hex, ex=GAME_TTL)
            self._reads.pop(chat_id, None)
        await pipe.execute()


def _keep(kept: dict[int, T], chat_id: int, value: T) -> None:
    """`kept[chat_id] = value`, holding at most `CHATS_KEPT` chats (when full, all are
    dropped: rare, and the next reads fill it again)."""
    if len(kept) >= CHATS_KEPT and chat_id not in kept:
        kept.clear()
    kept[chat_id] = value


def _member(table: OpenTable, process: str) -> str:
    return f"{table.thread_id or 0}:{table.game_id}:{table.user_id}:{process}"
