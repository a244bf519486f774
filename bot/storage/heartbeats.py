"""The running bot processes' heartbeats: one short-lived key a process (see
bot.delivery.liveness)."""

from __future__ import annotations

from redis.asyncio import Redis

from bot.storage.keys import Keys


class Heartbeats:
    def __init__(self, redis: Redis, keys: Keys) -> None:
        self.redis = redis
        self.keys = keys

    async def heartbeat(self, process_id: str, ttl: float) -> None:
        await self.redis.set(self.keys.process(process_id), "1", px=int(ttl * 1000))

    async def alive(self, process_id: str) -> bool:
        return bool(await self.redis.exists(self.keys.process(process_id)))
