"""What people and chats chose: a user's preferences, a chat's language, a forum
topic's name.

A user's preferences are one Redis hash (`Keys.user_prefs`), a field a setting, and
each change writes only its own field, atomically: a `/lang` and a `/start` at the same
moment both stay (a read, a change and a write of the whole record lost one of them).
Earlier releases kept them as one JSON text (`Keys.user`); such a record is still read,
and carried over into the hash by the first read or change that meets it (its fields
the hash has already are kept). Both keys carry the person's hash tag, so one script
holds them both, on a Redis Cluster too.
"""

from __future__ import annotations

from redis.asyncio import Redis

from bot.storage.common import MAX_ATTEMPTS, STATS_TTL, USER_TTL, as_text, backoff
from bot.storage.keys import Keys
from bot.storage.models import UserPrefs
from bot.storage.store_errors import ConflictError

# The hash's fields.
LANG = "lang"
STARTED = "started"  # "1": he opened the private chat (the bot may write to him); "0": not

# Set one field ('' deletes it), unless an earlier release's record is still there to
# be carried over first (0: not done). KEYS[1]: the hash; KEYS[2]: that record.
# ARGV: [1] the field, [2] its value, [3] the ttl in seconds.
SET_FIELD = """
if redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
if ARGV[2] == '' then
  redis.call('HDEL', KEYS[1], ARGV[1])
else
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
end
redis.call('EXPIRE', KEYS[1], ARGV[3])
return 1
"""

# Carry an earlier release's record over into the hash, if it still holds what was read
# (0: it changed or went meanwhile). A field the hash has already is kept. KEYS as above.
# ARGV: [1] the record read, [2] the ttl, [3..] field, value, field, value...
CARRY_OVER = """
if redis.call('GET', KEYS[2]) ~= ARGV[1] then return 0 end
for i = 3, #ARGV, 2 do
  redis.call('HSETNX', KEYS[1], ARGV[i], ARGV[i + 1])
end
if #ARGV > 2 then redis.call('EXPIRE', KEYS[1], ARGV[2]) end
redis.call('DEL', KEYS[2])
return 1
"""


class Prefs:
    def __init__(self, redis: Redis, keys: Keys) -> None:
        self.redis = redis
        self.keys = keys
        self._set_field = redis.register_script(SET_FIELD)
        self._carry_over = redis.register_script(CARRY_OVER)

    # -- a user's preferences ---------------------------------------------------------

    async def user(self, user_id: int) -> UserPrefs:
        """His preferences (the defaults if he has none, or they cannot be read)."""
        fields = await self.redis.hgetall(self.keys.user_prefs(user_id))
        if fields:
            found = {as_text(name): as_text(value) for name, value in fields.items()}
            return UserPrefs(lang=found.get(LANG) or None, started=found.get(STARTED) == "1")
        raw = await self.redis.get(self.keys.user(user_id))
        if raw is None:
            return UserPrefs()
        prefs = _earlier(raw)
        await self._upgrade(user_id, raw, prefs)
        return prefs

    async def set_language(self, user_id: int, lang: str) -> None:
        """/lang in private: the language of his private messages."""
        await self._set(user_id, LANG, lang)

    async def mark_started(self, user_id: int) -> None:
        """He wrote to the bot in private: it may write to him."""
        await self._set(user_id, STARTED, "1")

    async def mark_unreachable(self, user_id: int) -> None:
        """His private chat refused the bot (never opened, or the bot blocked): it may not
        write to him until he opens the chat again."""
        await self._set(user_id, STARTED, "0")

    async def _set(self, user_id: int, field: str, value: str) -> None:
        keys = [self.keys.user_prefs(user_id), self.keys.user(user_id)]
        for attempt in range(MAX_ATTEMPTS):
            args: list[str | int] = [field, value, USER_TTL]
            if await self._set_field(keys=keys, args=args, client=self.redis):
                return
            raw = await self.redis.get(keys[1])  # an earlier release's record: carried over
            if raw is not None and not await self._upgrade(user_id, raw, _earlier(raw)):
                await backoff(attempt)
        raise ConflictError(f"user {user_id}: gave up setting {field}")

    async def _upgrade(self, user_id: int, raw: bytes | str, prefs: UserPrefs) -> bool:
        """The earlier release's record `raw` (read as `prefs`) becomes the hash."""
        keys = [self.keys.user_prefs(user_id), self.keys.user(user_id)]
        args: list[str | int | bytes] = [raw, USER_TTL]
        if prefs.lang:
            args += [LANG, prefs.lang]
        args += [STARTED, "1" if prefs.started else "0"]
        return bool(await self._carry_over(keys=keys, args=args, client=self.redis))

    # -- chats and topics -------------------------------------------------------------

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


def _earlier(raw: bytes | str) -> UserPrefs:
    """An earlier release's record (one JSON text); the defaults if it cannot be read
    (carried over as they are, so it is not read again)."""
    try:
        return UserPrefs.model_validate_json(raw)
    except ValueError:
        return UserPrefs()
