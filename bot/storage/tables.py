"""What the live table keeps in Redis: where each game is played (its id names it in the
table's start parameter), who sits at a game from the table, and the per-chat channel
that tells every process of a chat's committed changes.

The channel is a plain pub/sub channel on one server (or a Sentinel's master) and a
sharded one (SPUBLISH / SSUBSCRIBE) on a Redis Cluster, where it lies in the chat's slot:
a change of one chat then travels through that slot's node only. The embedded store
serves one process, which needs no channel: `shared` is False there and nothing is
published.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from fakeredis import FakeAsyncRedis
from redis.asyncio import Redis
from redis.asyncio.client import PubSub
from redis.asyncio.cluster import RedisCluster

from bot.storage.common import GAME_TTL, as_text
from bot.storage.keys import Keys

log = logging.getLogger(__name__)


class Tables:
    def __init__(self, redis: Redis, keys: Keys) -> None:
        self.redis = redis
        self.keys = keys
        self.sharded = isinstance(redis, RedisCluster)
        # Several processes can only share a real Redis (bot.__main__ refuses the rest).
        self.shared = not isinstance(redis, FakeAsyncRedis)

    # -- where a game is played ------------------------------------------------------------

    async def note_game(self, game_id: str, chat_id: int, thread_id: int | None) -> None:
        """`game_id` is played in that chat (and topic), for as long as a game lives."""
        place = f"{chat_id}:{thread_id or 0}"
        await self.redis.set(self.keys.table_game(game_id), place, ex=GAME_TTL)

    async def find_game(self, game_id: str) -> tuple[int, int | None] | None:
        """Where `game_id` is played (None: unknown, or long over). A look keeps it as long
        as a game lives again: a long game somebody watches stays findable."""
        raw = await self.redis.getex(self.keys.table_game(game_id), ex=GAME_TTL)
        if raw is None:
            return None
        chat, _, thread = as_text(raw).partition(":")
        try:
            return int(chat), (int(thread) or None)
        except ValueError:
            return None

    # -- who sits there from the table -------------------------------------------------------

    async def note_seated(
        self, chat_id: int, thread_id: int | None, game_id: str, user_id: int
    ) -> None:
        key = self.keys.table_seated(chat_id, thread_id, game_id)
        await self.redis.sadd(key, str(user_id))
        await self.redis.expire(key, GAME_TTL)

    async def seated(self, chat_id: int, thread_id: int | None, game_id: str, user_id: int) -> bool:
        key = self.keys.table_seated(chat_id, thread_id, game_id)
        return bool(await self.redis.sismember(key, str(user_id)))

    # -- the change feed between processes ----------------------------------------------------

    async def publish(self, chat_id: int, message: str) -> None:
        channel = self.keys.table_feed(chat_id)
        if self.sharded:
            await self.redis.spublish(channel, message)
        else:
            await self.redis.publish(channel, message)

    def listener(self) -> FeedListener:
        """A subscription to chats' channels, to follow and leave one by one."""
        return FeedListener(self.redis.pubsub(ignore_subscribe_messages=True), self)


class FeedListener:
    """One pub/sub connection that follows the channels of the chats given."""

    def __init__(self, pubsub: PubSub, tables: Tables) -> None:
        self.pubsub = pubsub
        self.tables = tables
        self._lock = asyncio.Lock()  # one subscription command at a time

    async def follow(self, chat_id: int) -> None:
        channel = self.tables.keys.table_feed(chat_id)
        async with self._lock:
            if self.tables.sharded:
                await self.pubsub.ssubscribe(channel)
            else:
                await self.pubsub.subscribe(channel)

    async def leave(self, chat_id: int) -> None:
        channel = self.tables.keys.table_feed(chat_id)
        async with self._lock:
            if self.tables.sharded:
                await self.pubsub.sunsubscribe(channel)
            else:
                await self.pubsub.unsubscribe(channel)

    @property
    def following(self) -> bool:
        return bool(self.pubsub.channels or self.pubsub.shard_channels)

    async def next_message(self, timeout: float) -> str | None:
        """The next message on a followed channel, or None after `timeout` seconds."""
        if not self.following:
            await asyncio.sleep(timeout)  # redis-py reads nothing before a first subscription
            return None
        found: dict[str, Any] | None
        if self.tables.sharded:
            found = await self.pubsub.get_sharded_message(
                ignore_subscribe_messages=True, timeout=timeout
            )
        else:
            found = await self.pubsub.get_message(ignore_subscribe_messages=True, timeout=timeout)
        if found is None or found.get("type") not in ("message", "smessage"):
            return None
        return as_text(found["data"])

    async def close(self) -> None:
        await self.pubsub.aclose()
