"""Which games seat each person: one Redis hash a person (`Keys.user_games`), a field a
chat and topic ("<chat id>:<topic id or 0>") holding the id of the match that seats him
there, under his hash tag (`{u<user id>}`, so it works the same on a Redis Cluster).

It is a hint kept beside the matches, not the truth: the matches live in the chats'
slots and this hash in his, so no script holds both. The game service notes a person
before it writes a change that seats him (a write then lost leaves an entry too many)
and drops him after a change that unseats him or ends the game is written (a failure
there leaves one too many as well); whoever reads the hash checks each entry against
its match, and drops an entry whose match no longer seats him (bot.game.profiles).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass

from redis.asyncio import Redis
from redis.exceptions import RedisError

from bot.storage.common import USER_TTL, as_text
from bot.storage.keys import Keys

log = logging.getLogger(__name__)

# Entries read at most: a person sits in a few games, and the stale ones go when read.
MAX_READ = 20

# KEYS[1]: his hash. ARGV: [1] the place, [2] the game id, [3] the ttl in seconds.
NOTE = """
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('EXPIRE', KEYS[1], ARGV[3])
return 1
"""

# Drop the place only if it still names that game (another may seat him there since).
FORGET = """
if redis.call('HGET', KEYS[1], ARGV[1]) == ARGV[2] then
  return redis.call('HDEL', KEYS[1], ARGV[1])
end
return 0
"""


@dataclass(frozen=True)
class Seated:
    """An entry: the chat (and topic) whose game `game_id` seated him when noted."""

    chat_id: int
    thread_id: int | None
    game_id: str


class UserGames:
    def __init__(self, redis: Redis, keys: Keys) -> None:
        self.redis = redis
        self.keys = keys
        self._note = redis.register_script(NOTE)
        self._forget = redis.register_script(FORGET)

    async def note(
        self, user_ids: Iterable[int], chat_id: int, thread_id: int | None, game_id: str
    ) -> None:
        """These people sit in game `game_id` there (about to be written)."""
        place = _place(chat_id, thread_id)
        for user_id in user_ids:
            key = self.keys.user_games(user_id)
            await self._note(keys=[key], args=[place, game_id, USER_TTL], client=self.redis)

    async def forget(
        self, user_ids: Iterable[int], chat_id: int, thread_id: int | None, game_id: str
    ) -> None:
        """Game `game_id` there no longer seats these people. At most a hint goes stale
        if Redis fails here (it is dropped when read), so a failure is only logged."""
        place = _place(chat_id, thread_id)
        try:
            for user_id in user_ids:
                key = self.keys.user_games(user_id)
                await self._forget(keys=[key], args=[place, game_id], client=self.redis)
        except (RedisError, OSError) as exc:
            log.warning("chat %s: a seat index entry left stale (%r)", chat_id, exc)

    async def seated(self, user_id: int) -> list[Seated]:
        """His entries (at most `MAX_READ`), to be checked against their matches."""
        raw = await self.redis.hgetall(self.keys.user_games(user_id))
        found: list[Seated] = []
        for place, game_id in raw.items():
            chat, _, thread = as_text(place).partition(":")
            try:
                found.append(Seated(int(chat), int(thread) or None, as_text(game_id)))
            except ValueError:
                continue  # not written by us: never matches a game, so never listed
        return sorted(found, key=lambda s: (s.chat_id, s.thread_id or 0))[:MAX_READ]


def _place(chat_id: int, thread_id: int | None) -> str:
    return f"{chat_id}:{thread_id or 0}"
