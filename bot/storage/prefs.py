"""What people and chats chose: a user's preferences, a chat's language, a forum
topic's name."""

from __future__ import annotations

from pydantic import ValidationError
from redis.asyncio import Redis

from bot.storage.common import STATS_TTL, USER_TTL, as_text
from bot.storage.keys import Keys
from bot.storage.models import UserPrefs


class Prefs:
    def __init__(self, redis: Redis, keys: Keys) -> None:
        self.redis = redis
        self.keys = keys

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

    async def chat_language(self, chat_id: int) -> str | None:
        raw = await self.redis.get(self.keys.chat_language(chat_id))
        return None if raw is None else as_text(raw)

    async def set_chat_language(self, chat_id: int, lang: str) -> None:
        await self.redis.set(self.keys.chat_language(chat_id), lang, ex=STATS_TTL)

    async def topic_name(self, chat_id: int, thread_id: int) -> str | None:
        raw = await self.redis.get(self.keys.topic(chat_id, thread_id))
        return None if raw is None else as_text(raw)

    async def set_topic_name(self, chat_id: int, thread_id: int, name: str) -> None:
        await self.redis.set(self.keys.topic(chat_id, thread_id), name, ex=STATS_TTL)
