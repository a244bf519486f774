"""The updates taken up in the last few minutes, by id, so that each is handled once across
processes: Telegram sends a webhook update again when the answer was slow (the second copy
may reach another process), and a poller that died before confirming what it fetched
leaves it to be fetched again (see `bot.app.MeteredApplication`)."""

from __future__ import annotations

from redis.asyncio import Redis

from bot.storage.common import ms
from bot.storage.keys import Keys


class SeenUpdates:
    def __init__(self, redis: Redis, keys: Keys) -> None:
        self.redis = redis
        self.keys = keys

    async def first_sight(self, update_id: int, ttl: float) -> bool:
        """True the first time any process takes this update up within `ttl` seconds."""
        key = self.keys.update(update_id)
        return bool(await self.redis.set(key, "1", px=max(1, ms(ttl)), nx=True))
