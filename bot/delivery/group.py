"""Bringing a group's messages in line with its match: the lobby, the round boards, the final table.

One pass makes the calls the pace allows, one at a time: plan the next call, claim
it in the group's delivery record (so no other process makes it too), draw what it
shows, make it within the call budget, record what Telegram confirmed. It returns
when the next call may go, or None when the group shows what it should.
"""

from __future__ import annotations

import html
import logging
from collections.abc import Callable
from dataclasses import dataclass

from bot import metrics
from bot.delivery.drawing import draw
from bot.delivery.liveness import Liveness
from bot.delivery.plan import (
    BOARD_BUCKET,
    BOARD_CALLS,
    ChatMinute,
    GroupCall,
    GroupStep,
    board_turn,
    group_step,
    next_group_call,
    shares_turns,
    turn_stagger,
)
from bot.game import forfeits, ratings
from bot.game.records import Current
from bot.game.service import GameService
from bot.i18n import Translator, translator
from bot.logs import event
from bot.render import board_text, final_text, render_board, render_final
from bot.render.history import names_before
from bot.settings import Settings
from bot.storage.errors import BrokenGameError
from bot.storage.models import BoardMessage, Claim, GroupDelivery, Match
from bot.storage.records import commit
from bot.storage.store import Store
from bot.storage.stored import LOST, Stored
from bot.telegram import api, clock_texts, endings, keyboards, texts
from bot.telegram.api import Outcome, Result
from bot.telegram.budget import GROUP_WINDOW, Priority, Ticket, call_class, group_limit
from bot.telegram.note_texts import note_text
from engine import Game, SeatView, view_for

log = logging.getLogger(__name__)

CAPTION_LIMIT = 1024
RECENT_SHOWN = 8  # moves listed in a caption at most
CALLS_PER_PASS = 6
PRACTICE_INTERVAL = 1.5  # seconds between a practice game's board edits, at most
PRACTICE_PER_MINUTE = 40  # its chat's calls a minute (hands share it)


@dataclass(frozen=True)
class Backoff:
    """When to try a failed call again: 1, 2, 4 ... seconds, at most `longest`."""

    longest: float = 60.0

    def after(self, failures: int) -> float:
        return float(min(self.longest, 2 ** max(0, failures - 1)))


BACKOFF = Backoff()


class GroupConverger:
    def __init__(
        self,
        bot: api.Bot,
        service: GameService,
        settings: Settings,
        liveness: Liveness,
        clock: Callable[[], float],
    ) -> None:
        self.bot = bot
        self.service = service
        self.store: Store = service.store
        self.settings = settings
        self.liveness = liveness
        self.clock = clock
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
        key = self.store.keys.group(chat_id, thread_id)
        for _ in range(CALLS_PER_PASS):
            stored_match, stored = await self.store.games.read_group(chat_id, thread_id)
            match = stored_match.value
            if match is None:
                return None
            shown = stored.value
            if shown is None or shown.game_id != match.id:
                shown = GroupDelivery(game_id=match.id)
            game = self.service.engine_game(match)
            step = group_step(match, game, shown)
            if step is None:
                return None
            now = self.clock()
            if shown.claim is not None and await self.liveness.holds(shown.claim, now):
                return now + 1.0  # another process is making a call: look again after it
            interval, per_minute = self._pace(match)
            ours = ChatMinute(tuple(shown.calls), 0, GROUP_WINDOW)
            allowed = next_group_call(
                shown.calls, shown.paced, now, interval, per_minute, step, ours
            )
            chat: ChatMinute | None = None
            if allowed <= now and chat_id < 0:
                # Our own pace lets it go; so must the chat's minute, which its topics, the
                # answers to its people and every process share. (Read only now: most
                # passes wait for their own pace.)
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
            claimed = await self._claim(key, stored, shown, step, now)
            if claimed is None:
                continue  # someone else changed the record: plan again
            assert claimed.value is not None
            ticket = Ticket(Priority.BOARD, now)
            result = await self._perform(Current(match, game), claimed.value, step, ticket)
            retry, recorded = await self._record(key, claimed, match, game, step, result)
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

    def _pace(self, match: Match) -> tuple[float, int]:
        """The board's interval and how many of the chat's calls a minute our calls may
        fill: in a group, all but the last few, which are left to answers (as the budget
        does). A practice game's private chat is not held to a group's 20 a minute
        (Telegram asks for about a message a second there), and its one player waits for
        each board."""
        interval = self.settings.group_edit_interval_seconds
        per_minute = self.settings.group_messages_per_minute
        if match.practice:
            return min(interval, PRACTICE_INTERVAL), max(per_minute, PRACTICE_PER_MINUTE)
        return interval, group_limit(Priority.BOARD, per_minute)

    async def _claim(
        self,
        key: str,
        stored: Stored[GroupDelivery],
        shown: GroupDelivery,
        step: GroupStep,
        now: float,
    ) -> Stored[GroupDelivery] | None:
        await self.liveness.beat()  # our claim must not look abandoned to others
        claimed = shown.model_copy(deep=True)
        claimed.rev += 1
        claimed.claim = Claim(key=step.key, by=self.liveness.process_id, since=now)
        claimed.calls = [t for t in claimed.calls if now - t < 60] + [now]
        if step.call in BOARD_CALLS:
            claimed.paced = [t for t in claimed.paced if now - t < 60] + [now]
        if step.call is GroupCall.NEW_BOARD and step.round_number != claimed.board.round_number:
            claimed.board = BoardMessage(round_number=step.round_number)
        written = await self.store.games.write(key, stored, claimed)
        if written is LOST:
            return None
        return Stored(claimed, written)

    async def _record(
        self,
        key: str,
        claimed: Stored[GroupDelivery],
        match: Match,
        game: Game | None,
        step: GroupStep,
        result: Result,
    ) -> tuple[float | None, GroupDelivery | None]:
        """Store what the call did and end our claim: a time to come back if it failed, and
        the record as written."""
        owner = self.liveness.process_id
        now = self.clock()
        actions = len(game.rounds[step.round_number - 1].moves) if game and step.round_number else 0

        def apply(current: GroupDelivery | None) -> GroupDelivery | None:
            shown = current or GroupDelivery(game_id=match.id)
            if shown.game_id != match.id:
                return shown  # a new match took over the chat meanwhile
            if shown.claim is not None and shown.claim.by == owner:
                shown.claim = None
            shown.rev += 1
            outcome = result.outcome
            if outcome in (Outcome.RETRY, Outcome.FAILED, Outcome.UNCERTAIN):
                if outcome is Outcome.RETRY:  # refused: it did not count
                    shown.calls = shown.calls[:-1]
                    if step.call in BOARD_CALLS:
                        shown.paced = shown.paced[:-1]
                shown.failures += 1
                return shown
            shown.failures = 0
            _apply_result(shown, match, game, step, result, actions)
            return shown

        recorded = await commit(self.store.games, key, claimed, GroupDelivery, apply)
        failures = recorded.failures if recorded is not None else 1
        metrics.note_retry(result.outcome.value)
        if result.ok:
            metrics.LAG.shown("board", match.chat_id, match.thread_id, match.rev)
            event(
                log,
                "group",
                chat=match.chat_id,
                game=match.id,
                call=step.call.value,
                v=-1 if game is None else game.version,
                round=step.round_number,
            )
        if result.outcome is Outcome.RETRY:
            return now + max(result.retry_after, 0.1), recorded
        if result.outcome in (Outcome.FAILED, Outcome.UNCERTAIN):
            return now + BACKOFF.after(max(failures, 1)), recorded
        # The hands' next call may wait for this one: the last hand links to the final
        # table, and a practice game's hand comes below its round's board.
        posted = step.call is GroupCall.FINAL or (
            match.practice and step.call is GroupCall.NEW_BOARD
        )
        if result.ok and posted and self.on_posted is not None:
            self.on_posted(match.chat_id, match.thread_id)
        if result.outcome is Outcome.FORBIDDEN:
            log.info("cannot write to chat %s: its game is abandoned", match.chat_id)
            await self.service.abandon(match.chat_id, match.thread_id, match.id)
            return None, recorded
        if result.outcome is Outcome.MIGRATED and result.new_chat_id is not None:
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

            await self.store.games.change(
                self.store.keys.group(chat_id, thread_id), GroupDelivery, apply
            )
            threads.append(thread_id)
        return threads

    # -- the calls ----------------------------------------------------------------------

    async def _perform(
        self, current: Current, shown: GroupDelivery, step: GroupStep, ticket: Ticket
    ) -> Result:
        match = current.match
        tr = translator(match.lang)
        if step.call is GroupCall.POST_LOBBY:
            return await api.send_text(
                self.bot,
                match.chat_id,
                await self._lobby_text(match, tr),
                thread_id=match.thread_id,
                markup=keyboards.lobby(match, tr, self.bot.username),
                priority=ticket,
                patient=False,
            )
        if step.call is GroupCall.EDIT_LOBBY:
            assert shown.lobby_message_id is not None
            return await api.edit_text(
                self.bot,
                match.chat_id,
                shown.lobby_message_id,
                await self._lobby_text(match, tr),
                markup=keyboards.lobby(match, tr, self.bot.username),
                priority=ticket,
            )
        if step.call is GroupCall.CLOSE_LOBBY:
            return await self._close_lobby(match, shown, tr, ticket)
        assert current.game is not None
        if step.call is GroupCall.STOP_BOARD:
            # The picture too: it must not go on showing whose turn it was.
            assert shown.board.message_id is not None
            view = endings.as_ended(view_for(current.game, None, shown.board.round_number))
            caption = _with_line(board_text(view, tr), endings.ending_line(match, tr))
            picture = await draw(render_board, view, tr, endings.ending_words(match, tr))
            return await api.edit_photo(
                self.bot, match.chat_id, shown.board.message_id, picture, caption, priority=ticket
            )
        if step.call is GroupCall.FINAL:
            # A seat given up with /leave is last, whatever the computer made of it.
            left = forfeits.left_seats(match)
            view = forfeits.shown_view(view_for(current.game), left)
            # As the service stored them (it rates a match before we hear it ended).
            rated = await self.service.standings.final_changes(current)
            changes = ratings.seat_changes(match, rated)
            notes = []
            if match.ended == "silence":  # the standings as the game was left
                silence = html.escape(clock_texts.silence_end(tr, self.settings))
                notes.append(f"<b>{silence}</b>")
            if match.practice:
                used = await self.store.hints.hints_used(match.chat_id, match.thread_id, match.id)
                notes.append(texts.hints_used(tr, used))
            picture = await draw(render_final, view, tr, changes, left)
            caption = final_text(view, tr, changes, left, notes)
            return await api.send_photo(
                self.bot,
                match.chat_id,
                picture,
                caption,
                thread_id=match.thread_id,
                markup=keyboards.final(match, tr),
                priority=ticket,
            )
        return await self._show_board(current, shown, step, tr, ticket)

    async def _lobby_text(self, match: Match, tr: Translator) -> str:
        called = await self.store.subscriptions.called(match.chat_id, match.thread_id, match.id)
        return texts.lobby_text(match, tr, self._clock_note(match, tr), called)

    def _clock_note(self, match: Match, tr: Translator) -> str:
        return clock_texts.lobby_note(tr, match.turn_seconds, self.settings)

    async def _close_lobby(
        self, match: Match, shown: GroupDelivery, tr: Translator, ticket: Ticket
    ) -> Result:
        assert shown.lobby_message_id is not None
        if match.status == "cancelled":
            minutes = endings.whole_minutes(self.settings.lobby_idle_seconds)
            text = endings.closed_lobby_text(match, tr, minutes)
            return await api.edit_text(
                self.bot, match.chat_id, shown.lobby_message_id, text, priority=ticket
            )
        result = await api.delete(self.bot, match.chat_id, shown.lobby_message_id, priority=ticket)
        if result.outcome is Outcome.FAILED:  # no right to delete: say it started instead
            result = await api.edit_text(
                self.bot,
                match.chat_id,
                shown.lobby_message_id,
                endings.lobby_started_text(tr),
                priority=ticket,
            )
        return result

    async def _show_board(
        self,
        current: Current,
        shown: GroupDelivery,
        step: GroupStep,
        tr: Translator,
        ticket: Ticket,
    ) -> Result:
        match, game = current.match, current.game
        assert game is not None
        number = step.round_number
        round_over = number < game.round.number or match.status == "over"
        finishing = step.call is GroupCall.FINISH_BOARD or (
            step.call is GroupCall.NEW_BOARD and round_over
        )
        view = forfeits.match_view(view_for(game, None, number), match)
        clock = "" if finishing else clock_texts.turn_line(tr, match, view, self.clock())
        caption = board_caption(match, game, view, tr, shown, number, finishing, clock)
        picture = await draw(render_board, view, tr)
        markup = None if finishing else keyboards.board(match, tr)
        if step.call is GroupCall.NEW_BOARD:
            return await api.send_photo(
                self.bot,
                match.chat_id,
                picture,
                caption,
                thread_id=match.thread_id,
                markup=markup,
                priority=ticket,
            )
        assert shown.board.message_id is not None
        return await api.edit_photo(
            self.bot,
            match.chat_id,
            shown.board.message_id,
            picture,
            caption,
            markup=markup,
            priority=ticket,
        )


def _apply_result(
    shown: GroupDelivery,
    match: Match,
    game: Game | None,
    step: GroupStep,
    result: Result,
    actions: int,
) -> None:
    """What a call that Telegram answered changed in the group's record."""
    gone = result.outcome is Outcome.GONE
    ok = result.ok
    call = step.call
    if call is GroupCall.POST_LOBBY and ok:
        shown.lobby_message_id = result.message_id
        shown.lobby_shows = match.lobby_rev
    elif call is GroupCall.EDIT_LOBBY:
        if gone:
            shown.lobby_message_id = None  # deleted by someone: post it again
        elif ok:
            shown.lobby_shows = max(shown.lobby_shows, match.lobby_rev)
    elif call is GroupCall.CLOSE_LOBBY and (ok or gone):
        shown.lobby_closed = True
    elif call is GroupCall.STOP_BOARD and (ok or gone):
        shown.board.finished = True
    elif call is GroupCall.FINAL and ok:
        shown.final_message_id = result.message_id or 0
    elif call in (GroupCall.NEW_BOARD, GroupCall.EDIT_BOARD, GroupCall.FINISH_BOARD):
        if gone:  # deleted by someone: post a new one
            shown.board.message_id = None
            return
        if not ok or game is None:
            return
        if call is GroupCall.NEW_BOARD:
            shown.board.message_id = result.message_id
        round_over = step.round_number < game.round.number or match.status == "over"
        shown.board.shows_version = game.version
        shown.board.shows_actions = actions
        shown.board.finished = call is GroupCall.FINISH_BOARD or (
            call is GroupCall.NEW_BOARD and round_over
        )
        shown.notes_shown = match.notes_total


def board_caption(
    match: Match,
    game: Game,
    view: SeatView,
    tr: Translator,
    shown: GroupDelivery,
    round_number: int,
    finishing: bool,
    clock: str = "",
) -> str:
    """The board text (with the `clock` line: whose turn, for how long), the moves since the
    last picture (of that round) and the events since."""
    base = "\n".join(filter(None, [board_text(view, tr), clock]))
    notes = match.notes_since(shown.notes_shown)
    extra = [html.escape(note_text(tr, note)) for note in notes]
    same_board = shown.board.round_number == round_number
    already = shown.board.shows_actions if same_board else 0
    moves = game.rounds[round_number - 1].moves
    entries = moves[already:]
    if len(entries) > 1 and not finishing:  # the board text already names the last one
        # Each move names its end as the buttons did just before it; a player's draws in
        # a row are one line, and the latest lines are kept.
        named = names_before(game.variant, [e.text for e in moves], already)
        described = texts.describe_entries(tr, view, entries, named)
        if len(described) > RECENT_SHOWN:
            described = ["…", *described[-RECENT_SHOWN:]]
        extra.insert(0, texts.since_last_picture(tr, described))
    # Whole lines only: cutting Telegram HTML mid-tag would break the caption.
    while extra and len(base) + sum(len(part) + 2 for part in extra) > CAPTION_LIMIT:
        extra.pop(0 if len(extra) > len(notes) else -1)
    return "\n\n".join([base, *extra])


def _with_line(caption: str, line: str) -> str:
    """`line` (HTML) first, then as much of the caption as still fits, in whole lines."""
    lines = [f"<b>{line}</b>", *caption.split("\n")]
    while len("\n".join(lines)) > CAPTION_LIMIT and len(lines) > 1:
        lines.pop()
    return "\n".join(lines)
