"""A seat's calls: his hand (sent, edited, its buttons taken off), the turn's reminder,
and tidying away what is over, drawn and made within the call budget."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Callable

from bot.delivery.drawing import draw
from bot.delivery.hand.plan import TIDY_CALLS, HandCall, HandStep, HandWant
from bot.i18n import Translator, translator
from bot.render import render_hand
from bot.storage.models import Match
from bot.telegram import api, clock_texts, endings, keyboards, texts
from bot.telegram.api import CallOutcome, Result
from bot.telegram.call_priority import Priority, Ticket
from engine import Game, Table, view_for


class HandCalls:
    """Makes the hand call a pass of `HandConverger` has claimed."""

    def __init__(self, bot: api.Bot, clock: Callable[[], float], webapp_url: str = "") -> None:
        self.bot = bot
        self.clock = clock
        self.webapp_url = webapp_url  # the live table's, for its button (empty: none)

    async def perform(
        self,
        match: Match,
        game: Game | None,
        seat: int,
        user_id: int,
        step: HandStep,
        want: HandWant | None,
        since: float,
        abandon: asyncio.Event | None,
        final_id: int | None = None,
        rating: int | None = None,
    ) -> Result:
        """`rating`: a finished game's change of this seat's rating (None: not rated)."""
        if step.call is HandCall.STRIP:
            assert step.message_id is not None
            ticket = Ticket(Priority.HAND, since, abandon)
            return await api.edit_markup(self.bot, user_id, step.message_id, None, priority=ticket)
        tr = translator(match.seats[seat].lang)
        if step.call in TIDY_CALLS:
            return await self._tidy(
                match, user_id, step, tr, Ticket(Priority.OTHER, since, abandon)
            )
        assert want is not None
        if want.text:
            ticket = Ticket(Priority.HAND, since, abandon)
            if game is None:
                text = endings.lobby_closed_line(match, tr, seat)
            else:  # a finished game's result
                link = endings.message_link(match.chat_id, match.thread_id, final_id)
                text = texts.result_text(match, view_for(game, seat), tr, link, rating)
            return await api.send_text(self.bot, user_id, text, priority=ticket, patient=False)
        assert game is not None
        if step.call is HandCall.REMIND:
            text = clock_texts.reminder(tr, match, self.clock())
            ticket = Ticket(Priority.HAND, since, abandon)
            return await api.send_text(
                self.bot, user_id, text, reply_to=step.message_id, priority=ticket, patient=False
            )
        view = view_for(game, seat)
        if not want.live:
            # A hand that waits is not edited at every move: it shows only what stays true
            # until his turn (his tiles), not whose turn it is or the ends.
            view = dataclasses.replace(view, turn=None, table=Table(), legal=())
        link = endings.message_link(match.chat_id, match.thread_id, final_id)
        caption = texts.hand_caption(match, view, tr, want.live, link)
        if want.live:  # the time left, as it is when the picture goes
            caption = "\n".join(
                filter(None, [caption, clock_texts.hand_line(tr, match, self.clock())])
            )
        picture = await draw(render_hand, view, tr)
        markup = keyboards.hand(match, view, tr) if want.live else None
        markup = keyboards.table_in_private(markup, match.id, tr, self.webapp_url)
        # A hand that waits is what the player's own move leaves him with, as soon as it is
        # made: as urgent as the hand of a player who must act (and in line by age).
        priority = Ticket(Priority.HAND, since, abandon)
        if step.call is HandCall.SEND:
            return await api.send_photo(
                self.bot, user_id, picture, caption, markup=markup, priority=priority
            )
        assert step.message_id is not None
        return await api.edit_photo(
            self.bot, user_id, step.message_id, picture, caption, markup=markup, priority=priority
        )

    async def _tidy(
        self, match: Match, user_id: int, step: HandStep, tr: Translator, ticket: Ticket
    ) -> Result:
        """Delete an earlier hand message or a reminder that is over. Telegram refuses to
        delete a message older than two days: it is then cut down to one line instead."""
        assert step.message_id is not None
        result = await api.delete(self.bot, user_id, step.message_id, priority=ticket)
        if result.outcome is not CallOutcome.GONE:
            return result
        # Gone already, or too old to delete: an edit tells which (and does the rest).
        if step.call is HandCall.UNREMIND:
            line = clock_texts.reminder_over(tr)
            return await api.edit_text(self.bot, user_id, step.message_id, line, priority=ticket)
        line = texts.old_hand_line(match, tr)
        return await api.edit_caption(self.bot, user_id, step.message_id, line, priority=ticket)
