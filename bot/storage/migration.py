"""Keys carried across owners' lines, the two times that happens:

- a group became a supergroup (`move_chat`): every key of the chat, whoever owns it,
  is carried over to the new chat id, as it is;
- a first-release game is met (`upgrading`): its one record is written back as this
  release's records (the match, the group's and the hands' delivery records; see
  bot.storage.legacy).

Both only move what is stored (never change what a value means), so the owners of the
keys need not know; what they write of the due index goes through its owner.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from redis.asyncio import Redis

from bot.storage import scripts
from bot.storage.common import GAME_TTL, MAX_ATTEMPTS, backoff
from bot.storage.due import DueIndex
from bot.storage.keys import Keys
from bot.storage.legacy import UnreadableLegacy, split
from bot.storage.prefs import Prefs
from bot.storage.store_errors import BrokenGameError, ConflictError
from bot.storage.stored import FirstRelease

log = logging.getLogger(__name__)

T = TypeVar("T")

UPGRADE_ATTEMPTS = 3


class Migration:
    def __init__(self, redis: Redis, keys: Keys, due: DueIndex, prefs: Prefs) -> None:
        self.redis = redis
        self.keys = keys
        self.due = due
        self.prefs = prefs
        self._delete_if_same = redis.register_script(scripts.DELETE_IF_SAME)
        self._upgrade = redis.register_script(scripts.UPGRADE)

    async def upgrading(
        self, chat_id: int, thread_id: int | None, read: Callable[[], Awaitable[T]]
    ) -> T:
        """`read()`, after writing a first-release record it meets as this release's."""
        for _ in range(UPGRADE_ATTEMPTS):
            try:
                return await read()
            except FirstRelease as found:
                await self._upgrade_first_release(chat_id, thread_id, found)
        raise ConflictError(f"chat {chat_id}: the first-release record kept changing")

    async def _upgrade_first_release(
        self, chat_id: int, thread_id: int | None, found: FirstRelease
    ) -> None:
        lang = await self.prefs.chat_language(chat_id) or "ru"
        try:
            records = split(found.old, lang)
        except UnreadableLegacy as exc:
            raise BrokenGameError(str(exc), found.raw) from None
        keys = [self.keys.game(chat_id, thread_id), self.keys.group(chat_id, thread_id)]
        keys += [self.keys.hand(chat_id, thread_id, seat) for seat in range(len(records.hands))]
        args: list[Any] = [found.raw, records.match.model_dump_json(), GAME_TTL]
        args.append(records.group.model_dump_json())
        args += ["" if hand is None else hand.model_dump_json() for hand in records.hands]
        if await self._upgrade(keys=keys, args=args, client=self.redis):
            log.info("chat %s: a first-release game %s upgraded", chat_id, found.old.id)

    async def move_chat(self, old_chat_id: int, new_chat_id: int) -> int:
        """A group became a supergroup: carry its keys over to the new id; how many moved.

        The two chats' keys are in two slots (in a cluster perhaps on two nodes), so no
        script or transaction can hold both: each key is copied (DUMP, then RESTORE with
        its TTL, replacing what the new chat has under that name), its game noted due
        under the new name, and only then the old key deleted, by a script that deletes
        it only if it still holds what was copied (else it is copied again). A move cut
        short leaves every key in the old chat, the new one or both, never in neither:
        moving again finishes it (what is already copied is copied again, unchanged).
        """
        moved = 0
        async for raw_key in self.redis.scan_iter(
            match=self.keys.chat_pattern(old_chat_id), count=100
        ):
            key = raw_key.decode() if isinstance(raw_key, bytes) else str(raw_key)
            new_key = self.keys.moved(key, old_chat_id, new_chat_id)
            game = ":game:" in key
            for attempt in range(MAX_ATTEMPTS):
                dumped = await self.redis.dump(key)
                ttl = await self.redis.pttl(key)
                if dumped is None or ttl == -2:
                    break  # gone meanwhile (expired, or dropped)
                await self.redis.restore(new_key, max(ttl, 0), dumped, replace=True)
                if game:  # a sweeper brings it in line under its new name
                    await self.due.note_due(*self.keys.parse_game(new_key), 0)
                if await self._delete_if_same(keys=[key], args=[dumped], client=self.redis):
                    moved += 1
                    if game:
                        await self.due.forget_due(*self.keys.parse_game(key))
                    break
                await backoff(attempt)  # changed since the copy: copy it again
            else:
                raise ConflictError(f"gave up moving {key} after {MAX_ATTEMPTS} attempts")
        return moved
