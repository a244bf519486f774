"""The due index: one sorted set of game keys by the time something is due there (a
deadline, a call to make), which the sweepers of every process take work from. The
one writer of `Keys.due`: the game records and the migration go through it too."""

from __future__ import annotations

from dataclasses import dataclass

from redis.asyncio import Redis

from bot.storage import scripts
from bot.storage.common import ms
from bot.storage.keys import Keys


@dataclass(frozen=True)
class DueGames:
    """Games taken from the due index, and when to look at it again."""

    games: list[tuple[int, int | None]]
    lease: int  # ms: the due time the taken games have now (see DUE_SETTLE)
    earliest: int | None  # ms: the earliest due time in the index


class DueIndex:
    def __init__(self, redis: Redis, keys: Keys) -> None:
        self.redis = redis
        self.keys = keys
        self._take = redis.register_script(scripts.DUE_TAKE)
        self._settle = redis.register_script(scripts.DUE_SETTLE)

    async def note_due(self, chat_id: int, thread_id: int | None, when: float) -> int:
        """Note that the game must be looked at by `when` (replacing what was noted); in ms.

        Written just before a change of the game is: the process making the change
        brings the chat in line itself, earlier if need be, and settles the index after.
        """
        score = ms(when)
        await self.redis.zadd(self.keys.due(), {self.keys.game(chat_id, thread_id): score})
        return score

    async def take_due(self, now: float, lease: float, limit: int) -> DueGames:
        found, until, first = await self._take(
            keys=[self.keys.due()], args=[ms(now), int(lease * 1000), limit], client=self.redis
        )
        games = []
        for member in found:
            key = member.decode() if isinstance(member, bytes) else str(member)
            try:
                games.append(self.keys.parse_game(key))
            except ValueError:
                await self.redis.zrem(self.keys.due(), member)
        earliest = int(float(first)) if first not in (b"", "", None) else None
        return DueGames(games, int(until), earliest)

    async def settle_due(
        self, chat_id: int, thread_id: int | None, seen: int | None, when: float | None
    ) -> None:
        """Set the game's due time to `when` (None: nothing due) if it is still `seen`.

        If someone noted an earlier time since (another change, another process), the
        earlier of that and `when` stays, so nothing noted is lost.
        """
        member = self.keys.game(chat_id, thread_id)
        args = [member, "" if seen is None else seen, "" if when is None else ms(when)]
        await self._settle(keys=[self.keys.due()], args=args, client=self.redis)

    async def forget_due(self, chat_id: int, thread_id: int | None) -> None:
        """Nothing is due there any more, whoever noted what (the game is gone)."""
        await self.redis.zrem(self.keys.due(), self.keys.game(chat_id, thread_id))

    async def due_time(self, chat_id: int, thread_id: int | None) -> float | None:
        score = await self.redis.zscore(self.keys.due(), self.keys.game(chat_id, thread_id))
        return None if score is None else float(score) / 1000

    async def due_count(self) -> int:
        """How many games have something due (for /metrics)."""
        return int(await self.redis.zcard(self.keys.due()))
