"""Who is called in private when a new game opens in a chat (/notify): one Redis hash a
chat (or forum topic), user id -> language, under the chat's hash tag (`Keys.subscribers`).

A subscription stands until `/notify off` or until a call finds the bot blocked. The hash
holds at most `MAX_SUBSCRIBERS`, so one chat's calls stay a bounded share of the budget;
it expires `SUBSCRIPTION_TTL` after the last /notify (a chat gone quiet forgets them).

How many a lobby called is kept beside it (`Keys.called`, one small key a lobby that
called anyone, as long as a game lives), not in the match: a new field there would be
a new match format.
"""

from __future__ import annotations

from enum import Enum

from redis.asyncio import Redis

from bot.storage.common import GAME_TTL
from bot.storage.keys import Keys

MAX_SUBSCRIBERS = 50
SUBSCRIPTION_TTL = 365 * 24 * 3600

# One script, so that two /notify at once cannot take the hash past its bound.
# KEYS[1]: the hash. ARGV: user id, language, bound, ttl (s).
# Returns 1 added, 2 already there (language updated), 0 full.
SUBSCRIBE = """
local there = redis.call('HEXISTS', KEYS[1], ARGV[1])
if there == 0 and redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[3]) then
  return 0
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('EXPIRE', KEYS[1], tonumber(ARGV[4]))
if there == 1 then return 2 end
return 1
"""


class Subscribed(Enum):
    ADDED = 1
    ALREADY = 2
    FULL = 0


class Subscriptions:
    def __init__(self, redis: Redis, keys: Keys) -> None:
        self.redis = redis
        self.keys = keys
        self._subscribe = self.redis.register_script(SUBSCRIBE)

    async def subscribe(
        self, chat_id: int, thread_id: int | None, user_id: int, lang: str
    ) -> Subscribed:
        key = self.keys.subscribers(chat_id, thread_id)
        args: list[int | str] = [user_id, lang, MAX_SUBSCRIBERS, SUBSCRIPTION_TTL]
        found = await self._subscribe(keys=[key], args=args, client=self.redis)
        return Subscribed(int(found))

    async def unsubscribe(self, chat_id: int, thread_id: int | None, user_id: int) -> bool:
        """False if he was not subscribed."""
        key = self.keys.subscribers(chat_id, thread_id)
        return bool(await self.redis.hdel(key, str(user_id)))

    async def subscribers(self, chat_id: int, thread_id: int | None) -> dict[int, str]:
        """Everyone to call (user id -> language); what cannot be read is skipped."""
        raw = await self.redis.hgetall(self.keys.subscribers(chat_id, thread_id))
        found: dict[int, str] = {}
        for user, lang in raw.items():
            try:
                found[int(user)] = lang.decode() if isinstance(lang, bytes) else str(lang)
            except ValueError:
                continue
        return found

    async def note_called(
        self, chat_id: int, thread_id: int | None, game_id: str, count: int
    ) -> None:
        key = self.keys.called(chat_id, thread_id, game_id)
        await self.redis.set(key, count, ex=GAME_TTL)

    async def forget_called(self, chat_id: int, thread_id: int | None, game_id: str) -> None:
        """The lobby was not opened after all (a game was running, or it was taken over)."""
        await self.redis.delete(self.keys.called(chat_id, thread_id, game_id))

    async def called(self, chat_id: int, thread_id: int | None, game_id: str) -> int:
        raw = await self.redis.get(self.keys.called(chat_id, thread_id, game_id))
        try:
            return int(raw) if raw is not None else 0
        except ValueError:
            return 0
