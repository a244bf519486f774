"""The live table, the third target beside the group and the hands, as the delivery sees
it: who of a match's people has it open (bot.storage.presence, which bot.table.presence
keeps from the open tables; the table's own pushes are bot.table's hub and feed).

What it changes for the other two (docs/table.md, "Fewer Bot API calls"): a present
seat's hand waits (`bot.delivery.hand.plan.table_holds_hand`) and catches up when his
table closes or lapses; the board is paced slower while every person seated is present
(`bot.delivery.group.plan.table_paces`). Without a table served nobody is present and
nothing is read.
"""

from __future__ import annotations

from bot.storage.models import Match
from bot.storage.presence import Presence


class AtTable:
    def __init__(self, presence: Presence | None) -> None:
        """`presence`: None where no table is served (nobody can be at one)."""
        self.presence = presence

    @property
    def served(self) -> bool:
        return self.presence is not None

    async def lapses(self, match: Match, user_id: int, now: float) -> float | None:
        """When the person's presence at the match's table lapses unless renewed (None: he
        is not at the table)."""
        if self.presence is None:
            return None
        found = await self.presence.present(
            match.chat_id, match.thread_id, match.id, [user_id], now
        )
        return found.get(user_id)

    async def everyone(self, match: Match, now: float) -> bool:
        """Whether every person seated has the table open (a game of computers only has
        nobody there)."""
        if self.presence is None:
            return False
        people = {seat.user_id for seat in match.seats if seat.human and seat.user_id}
        if not people:
            return False
        found = await self.presence.present(match.chat_id, match.thread_id, match.id, people, now)
        return len(found) == len(people)

    async def buttons_pressed(
        self, chat_id: int, thread_id: int | None, game_id: str, user_id: int, now: float
    ) -> bool:
        """He pressed a button of his private chat: not present until he opens the table
        again. Whether he was present."""
        if self.presence is None:
            return False
        return await self.presence.use_buttons(chat_id, thread_id, game_id, user_id, now)
