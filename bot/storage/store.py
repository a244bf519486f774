"""Games and everything around them in Redis, changed by optimistic transactions.

A change WATCHes the game's key, reads it, lets a plain function change the
model, and writes it back in MULTI/EXEC with a TTL; if another process wrote in
between, it starts again (a bounded number of times). The function must not do
I/O: it may run more than once.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from pydantic import ValidationError
from redis.asyncio import Redis
from redis.exceptions import WatchError

from bot.storage.keys import Keys
from bot.storage.models import ChatGame, StatLine, UserPrefs

log = logging.getLogger(__name__)

T = TypeVar("T")

DAY = 24 * 3600
GAME_TTL = 7 * DAY  # a game nobody touched for a week is gone
RECORD_TTL = 90 * DAY
STATS_TTL = 365 * DAY
USER_TTL = 365 * DAY
MAX_ATTEMPTS = 25


class StoreError(Exception):
    """Storage failed; nothing was changed."""


class BrokenGameError(StoreError):
    """The stored game cannot be read (corrupted or from an incompatible version)."""


class ConflictError(StoreError):
    """Too many concurrent writers: the change was given up."""


@dataclass
class Tx:
    """What a change function sees and may change."""

    game: ChatGame | None
    delete: bool = False
    record: dict[str, Any] | None = None  # the finished game's record, stored for /export
    extra: dict[str, Any] = field(default_factory=dict)


class Store:
    def __init__(self, redis: Redis, keys: Keys) -> None:
        self.redis = redis
        self.keys = keys

    # -- games ------------------------------------------------------------------

    async def load(self, chat_id: int, thread_id: int | None) -> ChatGame | None:
        raw = await self.redis.get(self.keys.game(chat_id, thread_id))
        return _parse_game(raw)

    async def change(
        self, chat_id: int, thread_id: int | None, apply: Callable[[Tx], T]
    ) -> tuple[ChatGame | None, T]:
        """Run `apply` on the stored game until it commits; returns the new game and its result.

        `apply` raises to give up without writing; anything it raises passes through.
        """
        key = self.keys.game(chat_id, thread_id)
        record_key = self.keys.last_record(chat_id, thread_id)
        for attempt in range(MAX_ATTEMPTS):
            async with self.redis.pipeline(transaction=True) as pipe:
                try:
                    await pipe.watch(key)
                    tx = Tx(_parse_game(await pipe.get(key)))
                    result = apply(tx)
                    pipe.multi()  # type: ignore[no-untyped-call]
                    if tx.delete or tx.game is None:
                        pipe.delete(key)
                    else:
                        tx.game.rev += 1
                        pipe.set(key, tx.game.model_dump_json(), ex=GAME_TTL)
                    if tx.record is not None:
                        record = json.dumps(tx.record, ensure_ascii=False)
                        pipe.set(record_key, record, ex=RECORD_TTL)
                    await pipe.execute()
                    return (None if tx.delete else tx.game), result
                except WatchError:
                    await asyncio.sleep(random.uniform(0, 0.005 * (attempt + 1)))
        raise ConflictError(f"gave up changing {key} after {MAX_ATTEMPTS} attempts")

    async def drop(self, chat_id: int, thread_id: int | None) -> None:
        """Remove a game whatever state it is in (even unreadable)."""
        await self.redis.delete(self.keys.game(chat_id, thread_id))

    # -- due work: deadlines and paced board edits ---------------------------------

    async def schedule(self, chat_id: int, thread_id: int | None, when: float) -> None:
        """Note that something may be due for this game at `when` (earliest wins)."""
        # LT keeps an earlier time already there; it still adds a missing member.
        await self.redis.zadd(self.keys.due(), {self.keys.game(chat_id, thread_id): when}, lt=True)

    async def due(self, now: float, limit: int = 50) -> list[tuple[int, int | None]]:
        members = await self.redis.zrangebyscore(self.keys.due(), "-inf", now, start=0, num=limit)
        found = []
        for member in members:
            assert isinstance(member, bytes | str)
            key = member.decode() if isinstance(member, bytes) else member
            try:
                found.append(self.keys.parse_game(key))
            except ValueError:
                await self.redis.zrem(self.keys.due(), member)
        return found

    async def reschedule(self, chat_id: int, thread_id: int | None, when: float | None) -> None:
        """Set the game's due time exactly (None: nothing due)."""
        key = self.keys.game(chat_id, thread_id)
        if when is None:
            await self.redis.zrem(self.keys.due(), key)
        else:
            await self.redis.zadd(self.keys.due(), {key: when})

    # -- running processes ----------------------------------------------------------

    async def heartbeat(self, process_id: str, ttl: float) -> None:
        await self.redis.set(self.keys.process(process_id), "1", px=int(ttl * 1000))

    async def alive(self, process_id: str) -> bool:
        return bool(await self.redis.exists(self.keys.process(process_id)))

    # -- records, stats, languages --------------------------------------------------

    async def last_record(self, chat_id: int, thread_id: int | None) -> dict[str, Any] | None:
        raw = await self.redis.get(self.keys.last_record(chat_id, thread_id))
        if raw is None:
            return None
        try:
            data = json.loads(raw)
        except ValueError:
            return None
        return data if isinstance(data, dict) else None

    async def add_to_stats(self, chat_id: int, game_id: str, lines: dict[int, StatLine]) -> bool:
        """Add a finished game's results once (False if it was already counted).

        The mark and every player's line are written in one transaction: a crash
        half-way cannot count a game without its lines, nor count it twice.
        """
        counted = self.keys.counted(chat_id)
        key = self.keys.stats(chat_id)
        for attempt in range(MAX_ATTEMPTS):
            async with self.redis.pipeline(transaction=True) as pipe:
                try:
                    await pipe.watch(counted, key)
                    if await pipe.sismember(counted, game_id):
                        return False
                    totals = {
                        str(user_id): _merge(_parse_stat(await pipe.hget(key, str(user_id))), line)
                        for user_id, line in lines.items()
                    }
                    pipe.multi()  # type: ignore[no-untyped-call]
                    pipe.sadd(counted, game_id)
                    pipe.expire(counted, STATS_TTL)
                    for user_id, total in totals.items():
                        pipe.hset(key, user_id, total.model_dump_json())
                    pipe.expire(key, STATS_TTL)
                    await pipe.execute()
                    return True
                except WatchError:
                    await asyncio.sleep(random.uniform(0, 0.005 * (attempt + 1)))
        raise ConflictError(f"gave up adding game {game_id} to {key} after {MAX_ATTEMPTS} attempts")

    async def stats(self, chat_id: int) -> dict[int, StatLine]:
        raw = await self.redis.hgetall(self.keys.stats(chat_id))
        lines = {}
        for user_id, value in raw.items():
            line = _parse_stat(value)
            if line is not None:
                lines[int(user_id)] = line
        return lines

    async def chat_language(self, chat_id: int) -> str | None:
        raw = await self.redis.get(self.keys.chat_language(chat_id))
        return None if raw is None else (raw.decode() if isinstance(raw, bytes) else str(raw))

    async def set_chat_language(self, chat_id: int, lang: str) -> None:
        await self.redis.set(self.keys.chat_language(chat_id), lang, ex=STATS_TTL)

    async def user(self, user_id: int) -> UserPrefs:
        raw = await self.redis.get(self.keys.user(user_id))
        if raw is None:
            return UserPrefs()
        try:
            return UserPrefs.model_validate_json(raw)
        except ValidationError:
            return UserPrefs()

    async def save_user(self, user_id: int, prefs: UserPrefs) -> None:
        await self.redis.set(self.keys.user(user_id), prefs.model_dump_json(), ex=USER_TTL)

    async def game_threads(self, chat_id: int) -> list[int | None]:
        """The topics of a chat that have a game stored."""
        pattern = f"{self.keys.prefix}:{{c{chat_id}}}:game:*"
        threads: list[int | None] = []
        async for raw_key in self.redis.scan_iter(match=pattern, count=100):
            key = raw_key.decode() if isinstance(raw_key, bytes) else str(raw_key)
            threads.append(self.keys.parse_game(key)[1])
        return threads

    async def move_chat(self, old_chat_id: int, new_chat_id: int) -> int:
        """A group became a supergroup: carry its keys over to the new id."""
        moved = 0
        pattern = f"{self.keys.prefix}:{{c{old_chat_id}}}:*"
        async for raw_key in self.redis.scan_iter(match=pattern, count=100):
            key = raw_key.decode() if isinstance(raw_key, bytes) else str(raw_key)
            new_key = key.replace(f"{{c{old_chat_id}}}", f"{{c{new_chat_id}}}", 1)
            dumped = await self.redis.dump(key)
            ttl = await self.redis.pttl(key)
            if dumped is None:
                continue
            await self.redis.restore(new_key, max(ttl, 0), dumped, replace=True)
            await self.redis.delete(key)
            moved += 1
            if ":game:" in key:
                await self.redis.zrem(self.keys.due(), key)
                await self.redis.zadd(self.keys.due(), {new_key: 0})
        return moved


def _parse_game(raw: bytes | str | None) -> ChatGame | None:
    if raw is None:
        return None
    try:
        return ChatGame.model_validate_json(raw)
    except ValidationError as exc:
        raise BrokenGameError(f"stored game is unreadable: {exc.error_count()} errors") from None


def _parse_stat(raw: bytes | str | None) -> StatLine | None:
    if raw is None:
        return None
    try:
        return StatLine.model_validate_json(raw)
    except ValidationError:
        return None


def _merge(total: StatLine | None, line: StatLine) -> StatLine:
    if total is None:
        return line
    records = [r for r in (total.best_record, line.best_record) if r is not None]
    return StatLine(
        name=line.name,
        games=total.games + line.games,
        wins=total.wins + line.wins,
        points=total.points + line.points,
        best_record=max(records) if records else None,
    )
