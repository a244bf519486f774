"""Bringing a player's private chat in line with his seat: one hand message, true at all times.

The seat to act gets a new message with buttons when his turn begins (so Telegram
notifies him); it is edited in place while his turn goes on (a draw) and when it
ends (the buttons go). The hand message it replaces is deleted, at the lowest
priority, so the chat holds one hand (where Telegram no longer lets a message be
deleted, it is cut down to one line). A send that got no answer may still have
arrived: the next one that lands tells us its message id, and every id in between
that could be a copy of ours has its buttons taken off. A message someone deleted
is sent anew. The caption of the hand to act says the time left; once a turn (a
third of its time left, or hours into a game without a clock) a short reminder
replies to it, and it is deleted once that turn is over.

A pass plans, claims and records here; the calls themselves are `calls`, what
an answer changes in the seat's record `results`.
"""

from __future__ import annotations

import asyncio
import logging

from bot import metrics
from bot.delivery.claims import Converger, retry_at
from bot.delivery.hand.calls import HandCalls
from bot.delivery.hand.plan import (
    TIDY_CALLS,
    HandCall,
    HandStep,
    HandWant,
    hand_step,
    hand_want,
    reminder_due,
    table_holds_hand,
)
from bot.delivery.hand.results import apply_result
from bot.game.clock import reminder_at
from bot.game.match_records import Current
from bot.logs import event
from bot.storage.delivery_records import DeliveryRecord, DeliveryRecords
from bot.storage.models import GroupDelivery, HandDelivery, Match
from bot.storage.stored import Stored
from bot.telegram import api, endings
from bot.telegram.api import CallOutcome, Result
from engine import Game

log = logging.getLogger(__name__)

CALLS_PER_PASS = 8
SeatAt = tuple[int, int | None, int]  # a seat's chat, topic and index
REMINDER_TOO_LATE = 5.0  # seconds before the deadline after which no reminder is sent


class HandConverger(Converger):
    def _begin(self, bot: api.Bot) -> None:
        self.records: DeliveryRecords = self.service.store.deliveries
        # What each call shows, drawn and made (on our clock, which tests replace).
        self.calls = HandCalls(bot, lambda: self.clock(), self.service.settings.webapp_url)
        self._waiting: dict[SeatAt, float] = {}  # since when each seat's next call waits
        self._showing: dict[SeatAt, str] = {}  # what the call each seat waits for would show

    async def run(
        self,
        chat_id: int,
        thread_id: int | None,
        seat: int,
        abandon: asyncio.Event | None = None,
    ) -> float | None:
        """Make the calls this seat's private chat needs now; when to look again.

        `abandon` is set when the match changes meanwhile: a call still waiting for the
        budget (the hand of a turn that is over, say) is given up and planned afresh.
        """
        record = self.records.hand(chat_id, thread_id, seat)
        key = (chat_id, thread_id, seat)
        for _ in range(CALLS_PER_PASS):
            if abandon is not None:
                # For the changes after this read only (an earlier one, left set, would give
                # up every call of the pass at once, each claimed and released for nothing).
                abandon.clear()
            stored_match, stored = await self.records.read_hand(chat_id, thread_id, seat)
            match = stored_match.value
            if match is None or seat >= len(match.seats):
                return None
            user_id = match.seats[seat].user_id
            if user_id is None:
                return None
            shown = stored.value
            if shown is None or shown.game_id != match.id:
                shown = HandDelivery(game_id=match.id)
            game = self.service.engine_game(match)
            # A finished game's result links to the final table, where messages have links;
            # in practice it comes below the final table, in the same chat.
            over = match.status == "over"
            linked = over and (endings.linkable(match.chat_id) or match.practice)
            # A practice game's hand comes below the board of the round under way.
            below = match.practice and match.status == "playing" and game is not None
            group = await self._group_record(match) if linked or below else None
            final_id = group.final_message_id if linked and group is not None else None
            board_id = None
            round_number = game.round.number if game is not None else 0
            if below and group is not None and group.board.round_number == round_number:
                board_id = group.board.message_id
            waits_for_board = below and board_id is None
            want = hand_want(match, game, seat, final_id, board_id)
            step = hand_step(want, shown, match.seats[seat].hand_requests)
            if waits_for_board and step is not None and not _tidying(step):
                # The hand comes below its round's board, whose post kicks us. Meanwhile the
                # last round's hand loses its buttons (only one message has live ones).
                if not shown.live or shown.message_id is None:
                    return None
                step = HandStep(HandCall.STRIP, shown.message_id)
            if step is None or step.call in TIDY_CALLS:
                # The turn's reminder comes before any tidying.
                remind_at = self._reminder_due(match, want, shown)
                if remind_at is not None and remind_at <= self.clock():
                    step = HandStep(HandCall.REMIND, shown.message_id)
                elif step is None:
                    return remind_at  # nothing now (the reminder's time, if one is to come)
            if linked and final_id is None and not _tidying(step):
                # The result links to the final table (in practice it comes below it): its
                # post kicks us. Meanwhile the hand of the last move loses its buttons.
                if not shown.live or shown.message_id is None:
                    return None
                step = HandStep(HandCall.STRIP, shown.message_id)
            requests = match.seats[seat].hand_requests
            if self.at_table.served and table_holds_hand(step, want, shown, requests):
                lapses = await self.at_table.lapses(match, user_id, self.clock())
                if lapses is not None:
                    return lapses  # his table shows it; back when it may lapse
            now = self.clock()
            if shown.claim is not None and await self.liveness.holds(shown.claim, now):
                return now + 1.0
            claimed = await self.claims.claim(record, stored, shown, step.call.value, now)
            if claimed is None:
                continue
            since = self._waiting.setdefault(key, now)
            self._showing[key] = "" if step.call is HandCall.STRIP or want is None else want.shows
            rating = None
            if want is not None and want.text and over and not _tidying(step):
                rating = await self._rating_change(match, game, user_id)
            try:
                if step.call is HandCall.SEND and await self._never_opened(match, user_id):
                    # Telegram refuses a bot's first word to a person who never opened its
                    # private chat: one who sat down at the live table and never did is not
                    # asked (his table shows it all), and is taken as refused at once.
                    result = Result(CallOutcome.FORBIDDEN, unsent=True)
                else:
                    result = await self.calls.perform(
                        match, game, seat, user_id, step, want, since, abandon, final_id, rating
                    )
            finally:
                self._showing.pop(key, None)
            if result.outcome is not CallOutcome.SUPERSEDED:
                self._waiting.pop(key, None)
            version = -1 if game is None else game.version
            retry, recorded = await self._record(
                record, claimed, match, seat, step, want, result, version
            )
            if retry is not None:
                return retry
            if recorded is not None and hand_step(want, recorded, requests) is None:
                # All shown (a change since kicks us again); the turn's reminder may be to come.
                remind_at = self._reminder_due(match, want, recorded)
                if remind_at is None or remind_at > self.clock():
                    return remind_at
        return self.clock()

    async def _never_opened(self, match: Match, user_id: int) -> bool:
        """Whether the person took his seat at the live table and never opened the bot's
        private chat (no `/start` there), so Telegram would refuse any message to him."""
        if not self.at_table.served:
            return False
        store = self.service.store
        if not await store.tables.seated(match.chat_id, match.thread_id, match.id, user_id):
            return False
        return not (await store.prefs.user(user_id)).started

    def _reminder_due(
        self, match: Match, want: HandWant | None, shown: HandDelivery
    ) -> float | None:
        """When this turn's reminder goes; None also when it would come too late to help
        (the turn is about to be played for him, or the game to end: that says enough)."""
        if match.deadline is None or match.deadline - self.clock() < REMINDER_TOO_LATE:
            return None
        return reminder_due(want, shown, reminder_at(match, self.service.settings))

    def waiting(self, chat_id: int, thread_id: int | None, seat: int) -> str | None:
        """What the seat's call under way would show (None: no call under way; "" for
        taking an old message's buttons off, which never goes stale)."""
        shows = self._showing.get((chat_id, thread_id, seat))
        return None if shows == "" else shows

    async def shows(
        self, chat_id: int, thread_id: int | None, seat: int, game_id: str, message_id: int
    ) -> bool:
        """Whether `message_id` is the seat's hand message of this game: the one its record
        names, or one sent after a send that got no answer (it may be a copy of ours)."""
        _, stored = await self.records.read_hand(chat_id, thread_id, seat)
        shown = stored.value
        if shown is None or shown.game_id != game_id:
            return False
        if message_id == shown.message_id:
            return True
        return shown.uncertain_after is not None and message_id > shown.uncertain_after

    async def stray(
        self, chat_id: int, thread_id: int | None, seat: int, game_id: str, message_id: int
    ) -> bool:
        """A press came from an older hand message of this seat that still shows buttons
        (a copy of an unanswered send, say): it is noted to be deleted. False if it is the
        seat's current message (that one is brought up to date anyway)."""
        noted = False

        def apply(shown: HandDelivery | None) -> HandDelivery | None:
            nonlocal noted
            noted = False
            if shown is None or shown.game_id != game_id or message_id == shown.message_id:
                return shown
            if message_id not in shown.old:
                shown.old.append(message_id)
                shown.rev += 1
            noted = True
            return shown

        await self.records.hand(chat_id, thread_id, seat).change(apply)
        return noted

    async def _rating_change(self, match: Match, game: Game | None, user_id: int) -> int | None:
        """What the finished match changed of this person's rating (None: not rated)."""
        changes = await self.service.tally.final_changes(Current(match, game))
        return None if changes is None else changes.get(user_id)

    async def _group_record(self, match: Match) -> GroupDelivery | None:
        """What the group's messages of this match show (None: nothing of it yet)."""
        _, stored = await self.records.read_group(match.chat_id, match.thread_id)
        shown = stored.value
        return None if shown is None or shown.game_id != match.id else shown

    async def _record(
        self,
        record: DeliveryRecord[HandDelivery],
        claimed: Stored[HandDelivery],
        match: Match,
        seat: int,
        step: HandStep,
        want: HandWant | None,
        result: Result,
        version: int,
    ) -> tuple[float | None, HandDelivery | None]:
        """Store what the call did and end our claim: a time to come back if it failed, and
        the record as written."""
        requests = match.seats[seat].hand_requests

        def apply(shown: HandDelivery) -> None:
            apply_result(shown, step, want, requests, result)

        recorded = await self.claims.record(record, claimed, match.id, apply)
        now = self.clock()
        outcome = result.outcome
        metrics.note_retry(outcome.value)
        if result.ok and step.call is HandCall.REMIND:
            event(log, "remind", chat=match.chat_id, game=match.id, seat=seat, v=version)
        elif result.ok and not _tidying(step) and want is not None:
            metrics.LAG.shown("hand", match.id, match.rev)
            event(
                log,
                "hand",
                chat=match.chat_id,
                game=match.id,
                seat=seat,
                live=want.live,
                v=version,
                call=step.call.value,
            )
        retry = retry_at(result, recorded.failures if recorded is not None else 1, now)
        if retry is not None:
            return retry, recorded
        if outcome is CallOutcome.FORBIDDEN:
            await self.service.player_blocked(match.chat_id, match.thread_id, match.id, seat)
            return None, recorded
        return None, recorded


def _tidying(step: HandStep) -> bool:
    """A call that only takes something away (buttons, an old message, a reminder)."""
    return step.call is HandCall.STRIP or step.call in TIDY_CALLS
