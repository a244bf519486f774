"""The hints a practice game's person was shown, one hash a game by game version:
asking twice for the same move shows the same hint and counts once."""

from __future__ import annotations

from redis.asyncio import Redis

from bot.storage.common import RECORD_TTL, as_text
from bot.storage.keys import Keys


class Hints:
    def __init__(self, redis: Redis, keys: Keys) -> None:
        self.redis = redis
        self.keys = keys

    async def shown_hint(
        self, chat_id: int, thread_id: int | None, game_id: str, version: int
    ) -> str | None:
        """The hint already shown for the move at `version` of a practice game, if any."""
        raw = await self.redis.hget(self.keys.hints(chat_id, thread_id, game_id), str(version))
        return None if raw is None else as_text(raw)

    async def note_hint(
        self, chat_id: int, thread_id: int | None, game_id: str, version: int, line: str
    ) -> str:
        """Keep the hint shown for the move at `version`; the one kept (the first, if two
        processes worked one out at once: a move has one hint, whoever asks again)."""
        key = self.keys.hints(chat_id, thread_id, game_id)
        await self.redis.hsetnx(key, str(version), line)
        await self.redis.expire(key, RECORD_TTL)
        kept = await self.redis.hget(key, str(version))
        return line if kept is None else as_text(kept)

    async def hints_used(self, chat_id: int, thread_id: int | None, game_id: str) -> int:
        """How many moves of a practice game had a hint shown."""
        return int(await self.redis.hlen(self.keys.hints(chat_id, thread_id, game_id)))
