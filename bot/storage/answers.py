"""The group's last answer to a command, for a short window: a repeat of the command
then re-uses it (see bot.handlers.repeats)."""

from __future__ import annotations

import json

from redis.asyncio import Redis

from bot.storage.common import ms
from bot.storage.keys import Keys


class Answers:
    def __init__(self, redis: Redis, keys: Keys) -> None:
        self.redis = redis
        self.keys = keys

    async def claim_answer(
        self, chat_id: int, thread_id: int | None, command: str, window: float
    ) -> bool:
        """True for the first of a command in `window` seconds: it answers anew."""
        key = self.keys.answer(chat_id, thread_id, command)
        if not await self.redis.set(key, "{}", px=max(1, ms(window)), nx=True):
            return False
        await self.redis.delete(self.keys.answer_extra(chat_id, thread_id, command))
        return True

    async def note_answer(
        self, chat_id: int, thread_id: int | None, command: str, message_id: int, digest: str
    ) -> None:
        """The claimed answer was sent as `message_id` and shows `digest` (its window stays)."""
        key = self.keys.answer(chat_id, thread_id, command)
        value = json.dumps({"m": message_id, "h": digest})
        await self.redis.set(key, value, xx=True, keepttl=True)

    async def shown_answer(
        self, chat_id: int, thread_id: int | None, command: str
    ) -> tuple[int, str] | None:
        """(message id, digest) of the window's answer; None if there is none (yet)."""
        raw = await self.redis.get(self.keys.answer(chat_id, thread_id, command))
        try:
            found = json.loads(raw) if raw is not None else {}
            return int(found["m"]), str(found["h"])
        except (ValueError, KeyError, TypeError):
            return None

    async def take_answer_extra(
        self, chat_id: int, thread_id: int | None, command: str, window: float
    ) -> bool:
        """True once a window: a repeat may spend one call (an edit or a note)."""
        key = self.keys.answer_extra(chat_id, thread_id, command)
        return bool(await self.redis.set(key, "1", px=max(1, ms(window)), nx=True))

    async def forget_answer(self, chat_id: int, thread_id: int | None, command: str) -> None:
        """The next one of the command answers anew (the answer was not sent, or is gone)."""
        await self.redis.delete(
            self.keys.answer(chat_id, thread_id, command),
            self.keys.answer_extra(chat_id, thread_id, command),
        )
