"""Bringing a group's messages in line with its match: the lobby, the round boards, the final table.

One pass makes the calls the pace allows, one at a time: plan the next call, claim
it in the group's delivery record (so no other process makes it too), draw what it
shows and make it within the call budget (`calls`), record what Telegram
confirmed (`results`). It returns when the next call may go, or None when the
group shows what it should.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import partial

from bot import metrics
from bot.delivery.claims import Converger, retry_at
from bot.delivery.group.calls import GroupCalls
from bot.delivery.group.plan import (
    ANSWER_CALLS,
    BOARD_BUCKET,
    BOARD_CALLS,
    FINAL_CALLS,
    FIRST_CALLS,
    ChatMinute,
    GroupCall,
    GroupStep,
    at_table_step,
    board_turn,
    group_step,
    next_group_call,
    shares_turns,
    table_board_at,
    table_paces,
    turn_stagger,
)
from bot.delivery.group.results import apply_result
from bot.game.match_records import Current
from bot.logs import event
from bot.settings import Settings
from bot.storage.delivery_records import DeliveryRecord
from bot.storage.models import BoardMessage, GroupDelivery, Match
from bot.storage.store import Store
from bot.storage.store_errors import BrokenGameError
from bot.storage.stored import Stored
from bot.telegram import api
from bot.telegram.api import CallOutcome, Result
from bot.telegram.call_priority import GROUP_WINDOW, Priority, Ticket, call_class, group_limit
from engine import Game

log = logging.getLogger(__name__)

CALLS_PER_PASS = 6
PRACTICE_INTERVAL = 1.5  # seconds between a practice game's board edits, at most
PRACTICE_PER_MINUTE = 40  # its chat's calls a minute (hands share it)


def _note_call(claimed: GroupDelivery, step: GroupStep, now: float) -> None:
    """A claimed call counts in the group's minute (and a board's in its pace) from now."""
    claimed.calls = [t for t in claimed.calls if now - t < 60]
    if step.call not in ANSWER_CALLS:
        # The lobby asked for is counted as an answer (`ChatMinute.answers`): our calls
        # are the routine ones, so that the board's pace does not count it twice.
        claimed.calls.append(now)
    if step.call in BOARD_CALLS:
        claimed.paced = [t for t in claimed.paced if now - t < 60] + [now]
    if step.call is GroupCall.NEW_BOARD and step.round_number != claimed.board.round_number:
        claimed.board = BoardMessage(round_number=step.round_number)


def earlier_final(shown: GroupDelivery | None) -> int | None:
    """The final table with a Rematch button that an earlier match left in the chat."""
    if shown is None:
        return None
    return shown.final_message_id or shown.old_final


class GroupConverger(Converger):
    def _begin(self, bot: api.Bot) -> None:
        self.store: Store = self.service.store
        self.settings: Settings = self.service.settings
        # What each call shows, drawn and made (on our clock, which tests replace).
        self.calls = GroupCalls(bot, self.store, self.service, self.settings, lambda: self.clock())
        # Told when a group's game moved to a new chat id (a supergroup), so that the
        # new chat is brought in line.
        self.on_moved: Callable[[int, list[int | None]], None] | None = None
        # Told when a call the hands may wait for is made (see _record).
        self.on_posted: Callable[[int, int | None], None] | None = None

    async def run(self, chat_id: int, thread_id: int | None) -> float | None:
        """Make the calls the group needs now; when to look again (None: nothing left).

        (A board waiting for the budget is not given up when more moves come: it goes
        as drawn, the next one shows the rest.)
        """
        record = self.store.deliveries.group(chat_id, thread_id)
        for _ in range(CALLS_PER_PASS):
            stored_match, stored = await self.store.deliveries.read_group(chat_id, thread_id)
            match = stored_match.value
            if match is None:
                return None
            shown = stored.value
            if shown is None or shown.game_id != match.id:
                # A new match: the final table of the one before it keeps no Rematch.
                shown = GroupDelivery(game_id=match.id, old_final=earlier_final(shown))
            game = self.service.engine_game(match)
            step = group_step(match, game, shown)
            if step is None:
                return None
            now = self.clock()
            # Every person seated at the live table (read when it matters): None, not read.
            everyone: bool | None = None
            table_step = at_table_step(step, match, shown)
            if table_step is not None:
                everyone = await self.at_table.everyone(match, now)
                step = table_step if everyone else step
            if shown.claim is not None and await self.liveness.holds(shown.claim, now):
                return now + 1.0  # another process is making a call: look again after it
            priority = Priority.ANSWER if step.call in ANSWER_CALLS else Priority.BOARD
            interval, per_minute = self._pace(match, priority)
            ours = ChatMinute(tuple(shown.calls), 0, GROUP_WINDOW)
            allowed = next_group_call(
                shown.calls, shown.paced, now, interval, per_minute, step, ours
            )
            table_at = table_board_at(shown.paced)
            if table_at > allowed and table_paces(step, match, shown):
                if everyone is None:
                    everyone = await self.at_table.everyone(match, now)
                allowed = table_at if everyone else allowed
            chat: ChatMinute | None = None
            if allowed <= now and chat_id < 0:
                # Our own pace (and the table's) lets it go; so must the chat's minute,
                # which its topics, the answers to its people and every process share.
                # (Read only now: most passes wait for their own pace.)
                chat = await self._chat_minute(chat_id, now)
                allowed = next_group_call(
                    shown.calls, shown.paced, now, interval, per_minute, step, chat
                )
            if allowed > now:
                return allowed
            if (
                chat is not None
                and step.call in BOARD_CALLS
                and shares_turns(chat, shown.calls, now)
            ):
                # Other boards too: one board call of the chat's at a time, and the next a
                # while later.
                turn = board_turn(per_minute, chat)
                wait = await self.store.budget.take_board_turn(chat_id, now, turn, BOARD_BUCKET)
                if wait > 0:
                    return now + wait + turn_stagger(shown.paced, now, turn)
            claimed = await self.claims.claim(
                record, stored, shown, step.key, now, partial(_note_call, step=step, now=now)
            )
            if claimed is None:
                continue  # someone else changed the record: plan again
            assert claimed.value is not None
            ticket = Ticket(priority, now, ahead=step.call in FIRST_CALLS)
            result = await self.calls.perform(Current(match, game), claimed.value, step, ticket)
            retry, recorded = await self._record(record, claimed, match, game, step, result)
            if retry is not None:
                return retry
            if recorded is not None and group_step(match, game, recorded) is None:
                return None  # all shown (a change since kicks us again)
        return self.clock()

    async def _chat_minute(self, chat_id: int, now: float) -> ChatMinute:
        found = await self.store.budget.group_calls(chat_id, now, GROUP_WINDOW)
        kinds = [call_class(name) for _, name in found]
        return ChatMinute(
            tuple(when for when, _ in found),
            kinds.count(Priority.ANSWER),
            GROUP_WINDOW,
            kinds.count(Priority.BOARD),
        )

    def _pace(self, match: Match, priority: Priority) -> tuple[float, int]:
        """The board's interval and how many of the chat's calls a minute our call of this
        class may fill: in a group, all but the last few, which are left to answers (as
        the budget does), unless it answers someone itself. A practice game's private chat
        is not held to a group's 20 a minute (Telegram asks for about a message a second
        there), and its one player waits for each board."""
        interval = self.settings.group_edit_interval_seconds
        per_minute = self.settings.group_messages_per_minute
        if match.practice:
            return min(interval, PRACTICE_INTERVAL), max(per_minute, PRACTICE_PER_MINUTE)
        return interval, group_limit(priority, per_minute)

    async def _record(
        self,
        record: DeliveryRecord[GroupDelivery],
        claimed: Stored[GroupDelivery],
        match: Match,
        game: Game | None,
        step: GroupStep,
        result: Result,
    ) -> tuple[float | None, GroupDelivery | None]:
        """Store what the call did and end our claim: a time to come back if it failed, and
        the record as written."""
        now = self.clock()
        actions = len(game.rounds[step.round_number - 1].moves) if game and step.round_number else 0

        def apply(shown: GroupDelivery) -> None:
            outcome = result.outcome
            if outcome in (CallOutcome.RETRY, CallOutcome.FAILED, CallOutcome.UNCERTAIN):
                if outcome is CallOutcome.RETRY and step.call not in ANSWER_CALLS:
                    shown.calls = shown.calls[:-1]  # refused: it did not count
                    if step.call in BOARD_CALLS:
                        shown.paced = shown.paced[:-1]
                shown.failures += 1
                return
            shown.failures = 0
            apply_result(shown, match, game, step, result, actions)

        recorded = await self.claims.record(record, claimed, match.id, apply)
        failures = recorded.failures if recorded is not None else 1
        metrics.note_retry(result.outcome.value)
        if result.ok:
            metrics.LAG.shown("board", match.id, match.rev)
            event(
                log,
                "group",
                chat=match.chat_id,
                game=match.id,
                call=step.call.value,
                v=-1 if game is None else game.version,
                round=step.round_number,
            )
        retry = retry_at(result, max(failures, 1), now)
        if retry is not None:
            return retry, recorded
        # The hands' next call may wait for this one: the last hand links to the final
        # table, and a practice game's hand comes below its round's board.
        posted = step.call in FINAL_CALLS or (match.practice and step.call is GroupCall.NEW_BOARD)
        if result.ok and posted and self.on_posted is not None:
            self.on_posted(match.chat_id, match.thread_id)
        if result.outcome is CallOutcome.FORBIDDEN:
            log.info("cannot write to chat %s: its game is abandoned", match.chat_id)
            await self.service.abandon(match.chat_id, match.thread_id, match.id)
            return None, recorded
        if result.outcome is CallOutcome.MIGRATED and result.new_chat_id is not None:
            log.info("chat %s moved to %s", match.chat_id, result.new_chat_id)
            threads = await self.service.move_chat(match.chat_id, result.new_chat_id)
            if self.on_moved is not None:
                self.on_moved(result.new_chat_id, threads)
            return None, recorded
        return None, recorded

    async def bot_returned(self, chat_id: int) -> list[int | None]:
        """The bot may write to the group again: the topics whose games were cut short when
        it left, noted so that their messages are brought in line (told as they ended)."""
        threads = []
        for thread_id in await self.store.games.game_threads(chat_id):
            try:
                match = await self.store.games.load(chat_id, thread_id)
            except BrokenGameError:
                continue
            if match is None or match.ended != "bot_removed":
                continue

            def apply(shown: GroupDelivery | None, game_id: str = match.id) -> GroupDelivery | None:
                if shown is None or shown.game_id != game_id or shown.returned:
                    return shown
                shown.returned = True
                shown.rev += 1
                return shown

            await self.store.deliveries.group(chat_id, thread_id).change(apply)
            threads.append(thread_id)
        return threads
