"""Who sits at the live table right now: a sorted set per chat (`Keys.table_presence`),
whose members are open tables by the time they lapse.

Each bot process renews the tables open there every few seconds (bot.table.presence),
so a process that dies lets its tables lapse within `lapse` seconds on its own. A
member names the topic, the game, the person and the process, so two processes serving
one person's two tables each keep their own, and one closing leaves the other's.

A press of a button in the private chat while the table is open says that the person
plays with the buttons again: a mark beside his tables, which counts him as not present
until he opens the table anew. The embedded store keeps the same set in memory.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import cast

from redis.asyncio import Redis

from bot.storage.common import GAME_TTL, as_text
from bot.storage.keys import Keys

BUTTONS = "buttons"  # the process part of the mark of a person back on the buttons


@dataclass(frozen=True)
class OpenTable:
    """One person's open table in one process."""

    thread_id: int | None
    game_id: str
    user_id: int


class Presence:
    def __init__(self, redis: Redis, keys: Keys) -> None:
        self.redis = redis
        self.keys = keys

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
        for chat_id, tables in tables_by_chat.items():
            key = self.keys.table_presence(chat_id)
            members = {_member(table, process): until for table in tables}
            if members:
                pipe.zadd(key, members)
            pipe.zremrangebyscore(key, "-inf", now)
            # The key goes with the last table's lapse (renewals all lapse alike: the
            # last one written lapses last).
            pipe.expireat(key, int(max(until, now)) + 1)
        await pipe.execute()

    async def arrive(self, chat_id: int, table: OpenTable, process: str, until: float) -> None:
        """A table opened: present from now (whatever buttons he pressed before)."""
        key = self.keys.table_presence(chat_id)
        await self.redis.zrem(key, _member(table, BUTTONS))
        await self.redis.zadd(key, {_member(table, process): until})
        await self.redis.expireat(key, int(until) + 1)

    async def leave(self, chat_id: int, table: OpenTable, process: str) -> None:
        """The last connection of this table in `process` closed."""
        await self.redis.zrem(self.keys.table_presence(chat_id), _member(table, process))

    async def use_buttons(
        self, chat_id: int, thread_id: int | None, game_id: str, user_id: int, now: float
    ) -> bool:
        """He pressed a button of his private chat: not present until he opens the table
        again. Whether he was present (nothing is written otherwise)."""
        present = await self.present(chat_id, thread_id, game_id, [user_id], now)
        if user_id not in present:
            return False
        mark = _member(OpenTable(thread_id, game_id, user_id), BUTTONS)
        # Kept while his tables are (the key goes with their lapse).
        await self.redis.zadd(self.keys.table_presence(chat_id), {mark: now + GAME_TTL})
        return True

    async def present(
        self,
        chat_id: int,
        thread_id: int | None,
        game_id: str,
        user_ids: Iterable[int],
        now: float,
    ) -> dict[int, float]:
        """Who of `user_ids` has the game's table open (and has not gone back to the
        buttons), each with the time his presence lapses unless renewed."""
        wanted = {str(user_id) for user_id in user_ids}
        found = cast(
            list[tuple[bytes | str, float]],
            await self.redis.zrangebyscore(
                self.keys.table_presence(chat_id), f"({now}", "+inf", withscores=True
            ),
        )
        head = f"{thread_id or 0}:{game_id}:"
        until: dict[int, float] = {}
        on_buttons: set[int] = set()
        for raw, score in found:
            member = as_text(raw)
            if not member.startswith(head):
                continue
            user, _, process = member.removeprefix(head).partition(":")
            if user not in wanted:
                continue
            if process == BUTTONS:
                on_buttons.add(int(user))
            else:
                until[int(user)] = max(until.get(int(user), 0.0), float(score))
        return {user: when for user, when in until.items() if user not in on_buttons}


def _member(table: OpenTable, process: str) -> str:
    return f"{table.thread_id or 0}:{table.game_id}:{table.user_id}:{process}"
