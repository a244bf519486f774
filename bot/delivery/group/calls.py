"""The group's calls: what each one shows (the lobby, a round's board, the final table),
drawn and made within the call budget."""

from __future__ import annotations

import html
from collections.abc import Callable

from bot.delivery.drawing import draw
from bot.delivery.group.caption import board_caption, with_line
from bot.delivery.group.plan import FINAL_CALLS, ROUND_OPENINGS, GroupCall, GroupStep
from bot.game import forfeits, ratings, score_lines, takeovers
from bot.game.match_records import Current
from bot.game.service import GameService
from bot.i18n import Translator, translator
from bot.render import Picture, board_text, final_text, render_board, render_final
from bot.settings import Settings
from bot.storage.models import GroupDelivery, Match
from bot.storage.store import Store
from bot.telegram import api, clock_texts, endings, keyboards, texts
from bot.telegram.api import CallOutcome, Result
from bot.telegram.call_priority import Priority, Ticket
from engine import view_for


class GroupCalls:
    """Makes the group call a pass of `GroupConverger` has claimed."""

    def __init__(
        self,
        bot: api.Bot,
        store: Store,
        service: GameService,
        settings: Settings,
        clock: Callable[[], float],
    ) -> None:
        self.bot = bot
        self.store = store
        self.service = service
        self.settings = settings
        self.clock = clock

    async def perform(
        self, current: Current, shown: GroupDelivery, step: GroupStep, ticket: Ticket
    ) -> Result:
        match = current.match
        tr = translator(match.lang)
        if step.call in (GroupCall.POST_LOBBY, GroupCall.EDIT_LOBBY):
            return await self._show_lobby(match, shown, step, tr, ticket)
        if step.call is GroupCall.CLOSE_LOBBY:
            return await self._close_lobby(match, shown, tr, ticket)
        if step.call is GroupCall.RETIRE_FINAL:
            # What can wait: the chat's answers and boards go first.
            assert shown.old_final is not None
            later = Ticket(Priority.OTHER, ticket.since, ticket.abandon)
            return await api.edit_markup(
                self.bot, match.chat_id, shown.old_final, None, priority=later
            )
        assert current.game is not None
        if step.call is GroupCall.STOP_BOARD:
            # The picture too: it must not go on showing whose turn it was.
            board_id = shown.board.message_id
            number = step.round_number if board_id is None else shown.board.round_number
            view = endings.as_ended(view_for(current.game, None, number))
            taken = takeovers.taken_seats(match)
            caption = with_line(board_text(view, tr, taken), endings.ending_line(match, tr))
            banner = endings.ending_words(match, tr)
            picture = await draw(render_board, view, tr, banner, taken)
            # Posted when it ended before its first board went out.
            return await self._photo(match, board_id, picture, caption, None, ticket)
        if step.call is GroupCall.FINAL and not score_lines.played(current.game):
            # Ended by its silence before anyone moved: no winner, no places, no table.
            return await api.send_text(
                self.bot,
                match.chat_id,
                endings.unplayed_text(tr, clock_texts.silence_end(tr, self.settings)),
                thread_id=match.thread_id,
                markup=keyboards.final(match, tr),
                priority=ticket,
                patient=False,
            )
        if step.call in FINAL_CALLS:
            # A seat given up with /leave is last, whatever the computer made of it.
            left = forfeits.left_seats(match)
            view = forfeits.shown_view(view_for(current.game), left)
            # As the service stored them (it rates a match before we hear it ended).
            rated = await self.service.tally.final_changes(current)
            changes = ratings.seat_changes(match, rated)
            notes = []
            if match.ended == "silence":  # the standings as the game was left
                silence = html.escape(clock_texts.silence_end(tr, self.settings))
                notes.append(f"<b>{silence}</b>")
            if match.practice:
                used = await self.store.hints.hints_used(match.chat_id, match.thread_id, match.id)
                notes.append(texts.hints_used(tr, used))
            picture = await draw(render_final, view, tr, changes, left)
            caption = final_text(view, tr, changes, left, notes, takeovers.taken_seats(match))
            # At the table the game's one board becomes the final table; else it is posted.
            board_id = shown.board.message_id if step.call is GroupCall.BOARD_FINAL else None
            markup = keyboards.final(match, tr)
            return await self._photo(match, board_id, picture, caption, markup, ticket)
        return await self._show_board(current, shown, step, tr, ticket)

    async def _show_lobby(
        self, match: Match, shown: GroupDelivery, step: GroupStep, tr: Translator, ticket: Ticket
    ) -> Result:
        called = await self.store.subscriptions.called(match.chat_id, match.thread_id, match.id)
        text = texts.lobby_text(match, tr, self._clock_note(match, tr), called)
        markup = keyboards.with_table(
            keyboards.lobby(match, tr, self.bot.username),
            match,
            tr,
            self.settings.webapp_url,
            self.bot.username,
        )
        if step.call is GroupCall.POST_LOBBY:
            return await api.send_text(
                self.bot,
                match.chat_id,
                text,
                thread_id=match.thread_id,
                markup=markup,
                priority=ticket,
                patient=False,
            )
        assert shown.lobby_message_id is not None
        return await api.edit_text(
            self.bot, match.chat_id, shown.lobby_message_id, text, markup=markup, priority=ticket
        )

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
        if result.outcome is CallOutcome.FAILED:  # no right to delete: say it started instead
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
            step.call in ROUND_OPENINGS and round_over
        )
        view = forfeits.match_view(view_for(game, None, number), match)
        clock = "" if finishing else clock_texts.turn_line(tr, match, view, self.clock())
        caption = board_caption(match, game, view, tr, shown, number, finishing, clock)
        picture = await draw(render_board, view, tr, "", takeovers.taken_seats(match))
        markup = None if finishing else keyboards.board(match, tr)
        markup = keyboards.with_table(
            markup, match, tr, self.settings.webapp_url, self.bot.username
        )
        board_id = None if step.call is GroupCall.NEW_BOARD else shown.board.message_id
        assert board_id is not None or step.call is GroupCall.NEW_BOARD
        return await self._photo(match, board_id, picture, caption, markup, ticket)

    async def _photo(
        self,
        match: Match,
        message_id: int | None,
        picture: Picture,
        caption: str,
        markup: keyboards.Markup | None,
        ticket: Ticket,
    ) -> Result:
        """`picture` posted to the group (`message_id` None), or put in that message's place."""
        if message_id is None:
            return await api.send_photo(
                self.bot,
                match.chat_id,
                picture,
                caption,
                thread_id=match.thread_id,
                markup=markup,
                priority=ticket,
            )
        return await api.edit_photo(
            self.bot, match.chat_id, message_id, picture, caption, markup=markup, priority=ticket
        )
