"""The call budget's counts, shared by every process: the token's calls in the last
second, each group's in the last minute, the pauses Telegram asked for (keys tagged
`{budget}`, so one script sees them all), and each chat's bucket of board calls. The
rules are bot.telegram.budget's and bot.delivery.group.plan's; this only counts."""

from __future__ import annotations

from redis.asyncio import Redis

from bot.storage import scripts
from bot.storage.common import as_text, ms
from bot.storage.keys import Keys


class BudgetStore:
    def __init__(self, redis: Redis, keys: Keys) -> None:
        self.redis = redis
        self.keys = keys
        self._take = redis.register_script(scripts.BUDGET_TAKE)
        self._restamp = redis.register_script(scripts.BUDGET_RESTAMP)
        self._board_turn = redis.register_script(scripts.BOARD_TURN)

    async def take_budget(
        self,
        chat_id: int | None,
        now: float,
        limit: int,
        window: float,
        chat_limit: int,
        chat_window: float,
        name: str,
    ) -> tuple[int, int]:
        """(0, 0) if a call may go now (and it is counted), else (ms to wait, why)."""
        chat = chat_id if chat_id is not None else 0
        keys = [
            self.keys.budget_calls(),
            self.keys.budget_chat_calls(chat),
            self.keys.budget_chat_pause(chat),
            self.keys.budget_pause(),
        ]
        args: list[int | str] = [
            ms(now),
            limit,
            int(window * 1000),
            chat_limit,
            int(chat_window * 1000),
            name,
        ]
        wait, why = await self._take(keys=keys, args=args, client=self.redis)
        return int(wait), int(why)

    async def restamp_budget(self, chat_id: int | None, name: str, now: float) -> None:
        """Count the call `name` from `now` (in the token's window, and the group's)."""
        keys = [self.keys.budget_calls()]
        if chat_id is not None:
            keys.append(self.keys.budget_chat_calls(chat_id))
        await self._restamp(keys=keys, args=[ms(now), name], client=self.redis)

    async def group_calls(self, chat_id: int, now: float, window: float) -> list[tuple[float, str]]:
        """The group's calls of the last `window` seconds, oldest first: when each was
        counted, and its entry's name (see `take_budget`). Every process's, to every topic
        of the chat, answers too: what the budget counts against the group's limit."""
        found: list[tuple[bytes | str, float]] = await self.redis.zrange(  # type: ignore[assignment]
            self.keys.budget_chat_calls(chat_id),
            f"({ms(now - window)}",  # as the budget's script drops them: older or as old
            "+inf",
            byscore=True,
            withscores=True,
        )
        return [(float(score) / 1000, as_text(name)) for name, score in found]

    async def take_board_turn(self, chat_id: int, now: float, interval: float, size: int) -> float:
        """A token of the chat's bucket of board calls (one more each `interval` seconds,
        at most `size`): 0.0 once taken, else the seconds until one is there."""
        wait = await self._board_turn(
            keys=[self.keys.board_turn(chat_id)],
            args=[ms(now), ms(interval), size],
            client=self.redis,
        )
        return int(wait) / 1000

    async def pause_budget(self, chat_id: int | None, seconds: float) -> None:
        """Telegram asked to wait: no call to this chat (None: to anyone) for `seconds`."""
        key = self.keys.budget_pause() if chat_id is None else self.keys.budget_chat_pause(chat_id)
        await self.redis.set(key, "1", px=max(1, int(seconds * 1000)))
