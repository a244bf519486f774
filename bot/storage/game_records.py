"""A chat's game records: its match (one a forum topic), what the group's and the hands'
messages of it show (the delivery layer's records), the last finished game's record
(/export) and a game set aside as unreadable.

Records are changed by compare-and-set: read a record, compute its new value with
a plain function, and write it only if Redis still holds exactly what was read
(one Lua script); if someone wrote in between, read again and retry. The keys of a
match are its chat's (one hash tag), so on a Redis Cluster a script or an MGET of them
stays in one slot.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from pydantic import BaseModel
from redis.asyncio import Redis

from bot.storage import scripts
from bot.storage.common import DAY, GAME_TTL, MAX_ATTEMPTS, RECORD_TTL, as_bytes, backoff
from bot.storage.due import DueIndex
from bot.storage.keys import Keys
from bot.storage.migration import Migration
from bot.storage.models import GroupDelivery, HandDelivery, Match
from bot.storage.presence import PresenceTags
from bot.storage.store_errors import ConflictError
from bot.storage.stored import LOST, Lost, Stored, stored_delivery, stored_match

M = TypeVar("M", bound=BaseModel)

BROKEN_TTL = 30 * DAY  # a game set aside as unreadable, kept for a look by hand


class GameRecords:
    def __init__(
        self,
        redis: Redis,
        keys: Keys,
        migration: Migration,
        due: DueIndex,
        presence_tags: PresenceTags,
    ) -> None:
        """`presence_tags`: told the chat's presence tag with each read of a match and a
        delivery record (the delivery asks who is at the table next)."""
        self.redis = redis
        self.keys = keys
        self.migration = migration
        self.due = due
        self.presence_tags = presence_tags
        self._compare_and_set = redis.register_script(scripts.COMPARE_AND_SET)
        self._set_aside = redis.register_script(scripts.SET_ASIDE)

    def match_record(self, chat_id: int, thread_id: int | None) -> MatchRecord:
        """The match of a chat (or forum topic), as the game service writes it."""
        return MatchRecord(self, chat_id, thread_id)

    async def read_match(self, chat_id: int, thread_id: int | None) -> Stored[Match]:
        async def read() -> Stored[Match]:
            return stored_match(await self.redis.get(self.keys.game(chat_id, thread_id)))

        return await self.migration.upgrading(chat_id, thread_id, read)

    async def load(self, chat_id: int, thread_id: int | None) -> Match | None:
        return (await self.read_match(chat_id, thread_id)).value

    async def read_group(
        self, chat_id: int, thread_id: int | None
    ) -> tuple[Stored[Match], Stored[GroupDelivery]]:
        """The match and what its group messages show, in one round trip."""

        async def read() -> tuple[Stored[Match], Stored[GroupDelivery]]:
            match, group = await self._read_with_tag(
                chat_id, self.keys.game(chat_id, thread_id), self.keys.group(chat_id, thread_id)
            )
            return stored_match(match), stored_delivery(GroupDelivery, group)

        return await self.migration.upgrading(chat_id, thread_id, read)

    async def read_hand(
        self, chat_id: int, thread_id: int | None, seat: int
    ) -> tuple[Stored[Match], Stored[HandDelivery]]:
        async def read() -> tuple[Stored[Match], Stored[HandDelivery]]:
            match, hand = await self._read_with_tag(
                chat_id,
                self.keys.game(chat_id, thread_id),
                self.keys.hand(chat_id, thread_id, seat),
            )
            return stored_match(match), stored_delivery(HandDelivery, hand)

        return await self.migration.upgrading(chat_id, thread_id, read)

    async def _read_with_tag(self, chat_id: int, *keys: str) -> list[Any]:
        """The keys' values, read with the chat's presence tag (told to `presence_tags`)."""
        *values, tag = await self.redis.mget(*keys, self.keys.table_presence_tag(chat_id))
        self.presence_tags.saw(chat_id, tag)
        return values

    async def read_delivery(
        self, chat_id: int, thread_id: int | None, seats: int
    ) -> tuple[Stored[GroupDelivery], list[Stored[HandDelivery]]]:
        """Every delivery record of a chat's match (for reading, e.g. by tests and /healthz)."""
        keys = [self.keys.group(chat_id, thread_id)]
        keys += [self.keys.hand(chat_id, thread_id, seat) for seat in range(seats)]
        raws = await self.redis.mget(*keys)
        group = stored_delivery(GroupDelivery, raws[0])
        return group, [stored_delivery(HandDelivery, r) for r in raws[1:]]

    async def last_record(self, chat_id: int, thread_id: int | None) -> str | None:
        """The last finished game of a chat (engine.pack() text), for /export."""
        raw = await self.redis.get(self.keys.last_record(chat_id, thread_id))
        return None if raw is None else as_bytes(raw).decode()  # type: ignore[union-attr]

    async def set_aside(self, chat_id: int, thread_id: int | None, raw: bytes) -> bool:
        """Move an unreadable game (still exactly `raw`) out of the chat's way, with its
        delivery records; False if it changed meanwhile (someone else moved it)."""
        keys = [self.keys.game(chat_id, thread_id), self.keys.broken(chat_id, thread_id)]
        keys += [self.keys.group(chat_id, thread_id)]
        keys += [self.keys.hand(chat_id, thread_id, seat) for seat in range(4)]
        moved = await self._set_aside(keys=keys, args=[raw, BROKEN_TTL], client=self.redis)
        if moved:
            await self.due.forget_due(chat_id, thread_id)
        return bool(moved)

    async def write(
        self,
        key: str,
        before: Stored[Any],
        after: BaseModel | None,
        ttl: int = GAME_TTL,
        also: tuple[str, str, int] | None = None,
    ) -> bytes | Lost | None:
        """Write `after` (None: delete) if `key` still holds `before`; LOST if it does not.

        Returns the bytes written (None when deleted). `also` is (key, value, ttl), set
        together with it.
        """
        value = b"" if after is None else after.model_dump_json().encode()
        keys = [key] if also is None else [key, also[0]]
        args: list[Any] = ["1" if before.exists else "0", before.raw or b"", value, ttl]
        if also is not None:
            args += [also[1], also[2]]
        if not await self._compare_and_set(keys=keys, args=args, client=self.redis):
            return LOST
        return None if after is None else value

    async def change(
        self,
        key: str,
        model: type[M],
        apply: Callable[[M | None], M | None],
        ttl: int = GAME_TTL,
    ) -> M | None:
        """Read-apply-write a delivery record until it commits (`apply` may run more than once)."""
        for attempt in range(MAX_ATTEMPTS):
            before = stored_delivery(model, await self.redis.get(key))
            after = apply(before.value)
            if await self.write(key, before, after, ttl) is not LOST:
                return after
            await backoff(attempt)
        raise ConflictError(f"gave up changing {key} after {MAX_ATTEMPTS} attempts")

    async def drop(self, chat_id: int, thread_id: int | None) -> None:
        """Remove a match and its delivery records whatever state they are in (even unreadable)."""
        keys = [self.keys.game(chat_id, thread_id), self.keys.group(chat_id, thread_id)]
        keys += [self.keys.hand(chat_id, thread_id, seat) for seat in range(4)]
        await self.redis.delete(*keys)

    async def game_threads(self, chat_id: int) -> list[int | None]:
        """The topics of a chat that have a match stored."""
        threads: list[int | None] = []
        # On a cluster redis-py scans every primary (a chat's keys are on one of them,
        # or on two while its slot migrates).
        async for raw_key in self.redis.scan_iter(match=self.keys.game_pattern(chat_id), count=100):
            key = raw_key.decode() if isinstance(raw_key, bytes) else str(raw_key)
            threads.append(self.keys.parse_game(key)[1])
        return threads


class MatchRecord:
    """One chat's (or forum topic's) match: written only by compare-and-set, and only by
    the game service; a finished game's record is kept beside it for /export."""

    def __init__(self, games: GameRecords, chat_id: int, thread_id: int | None) -> None:
        self.games = games
        self.chat_id, self.thread_id = chat_id, thread_id

    def __str__(self) -> str:
        topic = "" if self.thread_id is None else f" topic {self.thread_id}"
        return f"the match of chat {self.chat_id}{topic}"

    async def read(self) -> Stored[Match]:
        return await self.games.read_match(self.chat_id, self.thread_id)

    async def write(self, before: Stored[Match], after: Match) -> bytes | Lost:
        """Write `after` if the record still holds `before`: the bytes written, or LOST
        (someone wrote in between: read it again)."""
        keys = self.games.keys
        also = None
        if after.status == "over" and after.engine is not None:
            also = (keys.last_record(self.chat_id, self.thread_id), after.engine, RECORD_TTL)
        key = keys.game(self.chat_id, self.thread_id)
        written = await self.games.write(key, before, after, also=also)
        assert written is not None  # (None only for a record deleted)
        return written


async def commit(
    games: GameRecords,
    key: str,
    claimed: Stored[M],
    model: type[M],
    apply: Callable[[M | None], M | None],
) -> M | None:
    """Write `apply(claimed)` if the record still holds what we claimed (one round trip);
    if someone wrote in between, apply the same change to what is there now."""
    current = claimed.value.model_copy(deep=True) if claimed.value is not None else None
    after = apply(current)
    if await games.write(key, claimed, after) is not LOST:
        return after
    return await games.change(key, model, apply)
