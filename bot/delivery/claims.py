"""The claim-and-record protocol both message targets go through (the group's, and each
seat's hand): the next call is claimed in the target's delivery record before it is
made, so that no other process makes it too, and what Telegram answered is recorded
after it, ending the claim. Both are compare-and-set writes of the record; a claim
lost to another writer means the pass plans again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from bot.delivery.at_table import AtTable
from bot.delivery.backoff import BACKOFF
from bot.delivery.liveness import Liveness
from bot.game.service import GameService
from bot.storage.delivery_records import DeliveryRecord
from bot.storage.models import Claim, GroupDelivery, HandDelivery
from bot.storage.stored import LOST, Stored
from bot.telegram import api
from bot.telegram.api import CallOutcome, Result

R = TypeVar("R", GroupDelivery, HandDelivery)


class Converger:
    """What each target converges with: the game service, this process's claims, who has
    the live table open (read only where a table is served), and the clock (tests
    replace it). A target makes its calls through `bot` (`_begin`)."""

    def __init__(
        self,
        bot: api.Bot,
        service: GameService,
        liveness: Liveness,
        clock: Callable[[], float],
        at_table: AtTable | None = None,
    ) -> None:
        self.service = service
        self.at_table = at_table or AtTable(None)
        self.liveness = liveness
        self.claims = Claims(liveness)
        self.clock = clock
        self._begin(bot)

    def _begin(self, bot: api.Bot) -> None:
        """The target's own set-up."""


class Claims:
    """Claims and records calls for this process (`liveness` names it, and keeps its
    heartbeat fresh so that its claims do not look abandoned to others)."""

    def __init__(self, liveness: Liveness) -> None:
        self.liveness = liveness

    async def claim(
        self,
        record: DeliveryRecord[R],
        stored: Stored[R],
        shown: R,
        name: str,
        now: float,
        note: Callable[[R], None] | None = None,
    ) -> Stored[R] | None:
        """Claim the call `name` in the record as read (`stored`; `shown` is its value, or a
        fresh one for a new match); None if someone wrote it meanwhile (plan again).
        `note`: what the target keeps of its calls besides (the group's minute)."""
        await self.liveness.beat()
        claimed = shown.model_copy(deep=True)
        claimed.rev += 1
        claimed.claim = Claim(key=name, by=self.liveness.process_id, since=now)
        if note is not None:
            note(claimed)
        written = await record.write(stored, claimed)
        if written is LOST:
            return None
        return Stored(claimed, written)

    async def record(
        self,
        record: DeliveryRecord[R],
        claimed: Stored[R],
        game_id: str,
        apply_result: Callable[[R], None],
    ) -> R | None:
        """End our claim and record what the call did (`apply_result`), unless a new match
        took the chat meanwhile; the record as written."""
        owner = self.liveness.process_id

        def apply(current: R | None) -> R | None:
            shown = current or record.kind(game_id=game_id)
            if shown.game_id != game_id:
                return shown  # a new match took over the chat meanwhile
            if shown.claim is not None and shown.claim.by == owner:
                shown.claim = None
            shown.rev += 1
            apply_result(shown)
            return shown

        return await record.commit(claimed, apply)


def retry_at(result: Result, failures: int, now: float) -> float | None:
    """When a call that did not go through is tried again: after Telegram's wait for a
    429, after a backoff by the failures in a row for a failure or a lost answer (None:
    nothing to try again)."""
    if result.outcome is CallOutcome.RETRY:
        return now + max(result.retry_after, 0.1)
    if result.outcome in (CallOutcome.FAILED, CallOutcome.UNCERTAIN):
        return now + BACKOFF.after(failures)
    return None
