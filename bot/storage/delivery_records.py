"""The delivery layer's records: what the group's messages of a chat's match show, and what
each seat's private hand message shows (bot.delivery). The one place that names their
keys for it: a caller asks for the group's record of a chat, or a seat's, never a key.

They are read beside the match in one round trip, and written by compare-and-set
through the game records (bot.storage.game_records), whose scripts keep every key of a chat
in its slot.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

from bot.storage.game_records import GameRecords, commit
from bot.storage.models import GroupDelivery, HandDelivery, Match
from bot.storage.stored import Lost, Stored

R = TypeVar("R", GroupDelivery, HandDelivery)


@dataclass(frozen=True)
class DeliveryRecord(Generic[R]):
    """One record: the group's of a chat (or forum topic), or one seat's hand."""

    games: GameRecords
    key: str
    kind: type[R]

    async def write(self, before: Stored[R], after: R) -> bytes | Lost | None:
        """Write `after` if the record still holds `before` (LOST if it does not)."""
        return await self.games.write(self.key, before, after)

    async def commit(self, claimed: Stored[R], apply: Callable[[R | None], R | None]) -> R | None:
        """`apply` to what we claimed, written at once if nobody wrote meanwhile, else
        applied to what is there now; the record as written."""
        return await commit(self.games, self.key, claimed, self.kind, apply)

    async def change(self, apply: Callable[[R | None], R | None]) -> R | None:
        """Read-apply-write until it commits (`apply` may run more than once)."""
        return await self.games.change(self.key, self.kind, apply)


class DeliveryRecords:
    def __init__(self, games: GameRecords) -> None:
        self.games = games

    def group(self, chat_id: int, thread_id: int | None) -> DeliveryRecord[GroupDelivery]:
        return DeliveryRecord(self.games, self.games.keys.group(chat_id, thread_id), GroupDelivery)

    def hand(self, chat_id: int, thread_id: int | None, seat: int) -> DeliveryRecord[HandDelivery]:
        key = self.games.keys.hand(chat_id, thread_id, seat)
        return DeliveryRecord(self.games, key, HandDelivery)

    async def read_group(
        self, chat_id: int, thread_id: int | None
    ) -> tuple[Stored[Match], Stored[GroupDelivery]]:
        """The match and what its group messages show, in one round trip."""
        return await self.games.read_group(chat_id, thread_id)

    async def read_hand(
        self, chat_id: int, thread_id: int | None, seat: int
    ) -> tuple[Stored[Match], Stored[HandDelivery]]:
        """The match and what a seat's hand message shows, in one round trip."""
        return await self.games.read_hand(chat_id, thread_id, seat)
