"""Inline buttons: the lobby, the board, the hand keyboards, stop, rematch, rules.

Every press is answered at once (a refusal is raised: the error handler answers it
with a short alert); what the press changed reaches the chats through the delivery
layer, which the game service tells of every change.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Awaitable, Callable, Mapping

from telegram import CallbackQuery, Message, Update, User
from telegram.ext import ContextTypes

from bot.game import rulebook
from bot.game.hand_actions import DoublesChoice, EndChoice, HandResult
from bot.game.hints import Hint
from bot.game.match_records import Current
from bot.game.outcomes import Refusal
from bot.handlers.common import Deps, deps, is_admin, language_for, person, thread_of
from bot.i18n import Translator, translator
from bot.render import EndName
from bot.storage.models import practice_chat
from bot.telegram import api, keyboards, press_texts
from bot.telegram import callbacks as cb
from bot.telegram.hint_texts import hint_line
from engine import Doubles, End, Move, Play, SeatView, parse_move

log = logging.getLogger(__name__)


async def on_button(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    query = update.callback_query
    if query is None:
        return
    press = cb.decode(query.data)
    if press is None or not _carries(query, press):
        # Data we never make, or that the message it came from does not show: a forged or
        # stale press, refused before it can change that message (a group's board showing
        # someone's hand, say).
        raise Refusal("stale_button")
    tr = await language_for(update, context)
    await _dispatch(update, context, query, press, tr)


# Buttons that edit the message they are on: never pressed from one Telegram no longer shows.
EDITS_ITS_MESSAGE = cb.RulesPress | cb.StopPress | cb.DoublesPress | cb.BackPress | cb.TilePress


def _carries(query: CallbackQuery, press: cb.Press) -> bool:
    """Whether the message the press came from shows a button with exactly this data.

    Only the bot puts buttons on its messages, so this is the message the button was made
    for. Telegram leaves the markup out of a message too old to send (InaccessibleMessage):
    then only the buttons that never edit the message they are on may go on.
    """
    message = query.message
    if not isinstance(message, Message):
        return not isinstance(press, EDITS_ITS_MESSAGE)
    markup = message.reply_markup
    if markup is None:
        return False
    return any(b.callback_data == query.data for row in markup.inline_keyboard for b in row)


async def _dispatch(
    update: Update,
    context: ContextTypes.DEFAULT_TYPE,
    query: CallbackQuery,
    press: cb.Press,
    tr: Translator,
) -> None:
    if isinstance(press, cb.RulesPress):
        await _show_rules(query, press.variant, tr)
    elif isinstance(press, cb.LobbyPress | cb.StopPress | cb.HandRequestPress | cb.RematchPress):
        await _group_button(update, context, query, press, tr)
    else:
        await _hand_button(update, context, query, press)


async def _show_rules(query: CallbackQuery, variant: str, tr: Translator) -> None:
    await api.answer(query)
    message = query.message
    if message is None:
        return
    await api.edit_text(
        query.get_bot(),
        message.chat.id,
        message.message_id,
        rulebook.text(tr.lang, variant),
        markup=keyboards.rules(variant, tr),
    )


async def _group_button(
    update: Update,
    context: ContextTypes.DEFAULT_TYPE,
    query: CallbackQuery,
    press: cb.GroupPress,
    tr: Translator,
) -> None:
    message = query.message
    user = update.effective_user
    if message is None or user is None:
        return
    chat_id = message.chat.id
    thread_id = thread_of(message)  # type: ignore[arg-type]
    service = deps(context).service
    who = person(user)
    match press:
        case cb.LobbyPress(game_id, action, value):

            async def lobby(admin: bool) -> Current:
                return await service.lobby_action(
                    chat_id, thread_id, game_id, action, value, who, admin
                )

            await _as_admin_if_needed(context, chat_id, user, lobby)
            await api.answer(query, press_texts.lobby_answer(tr, action))
        case cb.StopPress(game_id, confirm):

            async def stop(admin: bool) -> Current:
                if not confirm:
                    return await service.may_stop(chat_id, thread_id, who, admin)
                return await service.stop(chat_id, thread_id, game_id, who, admin)

            await _as_admin_if_needed(context, chat_id, user, stop)
            await api.answer(query)
            text = press_texts.stop_answer(tr, confirm)
            await api.edit_text(query.get_bot(), chat_id, message.message_id, text)
        case cb.HandRequestPress(game_id):
            await service.note_hand_request(chat_id, thread_id, game_id, who)
            await api.answer(query, press_texts.hand_request_answer(tr, practice_chat(chat_id)))
        case cb.RematchPress(game_id):
            await service.rematch(chat_id, thread_id, game_id, who)
            await api.answer(query, tr(press_texts.REMATCH_OPEN))


async def _as_admin_if_needed(
    context: ContextTypes.DEFAULT_TYPE,
    chat_id: int,
    user: User,
    action: Callable[[bool], Awaitable[Current]],
) -> Current:
    """Try as the user; if only the creator or an admin may, ask Telegram whether he is one.

    (Asking first would cost a call for every press; most presses need no admin.)
    """
    try:
        return await action(False)
    except Refusal as refusal:
        if refusal.code != "creator_or_admin_only" or not await is_admin(context, chat_id, user.id):
            raise
    return await action(True)


async def _hand_button(
    update: Update,
    context: ContextTypes.DEFAULT_TYPE,
    query: CallbackQuery,
    press: cb.HandPress,
) -> None:
    """A hand button: its action to the game service, whose result is the answer."""
    user = update.effective_user
    message = query.message
    if user is None or message is None:
        return
    if message.chat.type != "private" or message.chat.id != user.id:
        # A hand button only works in its owner's private chat (not on a group's board).
        raise Refusal("stale_button")
    d = deps(context)
    hand = press.hand
    # Before the move: its delivery must know he plays with the buttons now.
    await d.delivery.buttons_pressed(hand.chat_id, hand.thread_id, hand.game_id, user.id)
    action = cb.hand_action(press, user.id)
    try:
        result = await d.service.hand_action(hand.chat_id, hand.thread_id, action, _hint_words)
    except Refusal as refusal:
        if refusal.code == "stale_button":
            await _stray(d, hand, user.id, message.message_id)
        raise
    tr = translator(result.lang)
    if result.hint is not None:
        await api.answer(query, result.hint, alert=True)
    elif result.choice is not None:
        await _show_choice(d, query, hand, result, tr)
    else:
        await _answer_move(query, result, tr)


async def _stray(d: Deps, hand: cb.Hand, user_id: int, message_id: int) -> None:
    """A press from a hand of an older version: if that message still has buttons, they go."""
    with contextlib.suppress(Refusal):
        current = await d.service.find(hand.chat_id, hand.thread_id, hand.game_id)
        seat = current.match.seat_of(user_id)
        if seat is not None:
            await d.delivery.stray_hand(
                hand.chat_id, hand.thread_id, seat, hand.game_id, message_id
            )


async def _answer_move(query: CallbackQuery, result: HandResult, tr: Translator) -> None:
    """His own move, in his words (the moves after it were made for those who had no
    choice), with the ends named as his buttons named them."""
    entry = result.entries[0] if result.entries else None
    if entry is None:
        await api.answer(query)
        return
    names = _end_names(result.view, parse_move(entry.text))
    penalty = result.before.rules.pass_penalty
    await api.answer(query, press_texts.played_answer(tr, entry.text, entry.points, penalty, names))


def _hint_words(hint: Hint, names: Mapping[End, EndName], lang: str) -> str:
    """A practice hint as the alert shows it, its ends named as the buttons name them."""
    return hint_line(translator(lang), hint, {end: name.text for end, name in names.items()})


def _end_names(view: SeatView, move: Move) -> dict[End, EndName] | None:
    """What the answer to `move` calls the ends it was laid on (None: it names none)."""
    laid_on_an_end = (isinstance(move, Play) and move.end is not None) or isinstance(move, Doubles)
    if not laid_on_an_end:
        return None
    return keyboards.end_names_for(view)


async def _show_choice(
    d: Deps, query: CallbackQuery, hand: cb.Hand, result: HandResult, tr: Translator
) -> None:
    """Only the keyboard changes (an end to choose, doubles to pick, the tiles again), and
    only on the hand message it was pressed on."""
    message = query.message
    if message is None:
        return
    shown = await d.delivery.shows_hand(
        hand.chat_id, hand.thread_id, result.seat, hand.game_id, message.message_id
    )
    if not shown:
        raise Refusal("stale_button")
    match, view, choice = result.current.match, result.view, result.choice
    if isinstance(choice, EndChoice):
        markup = keyboards.ends_for(match, view, choice.tile, tr)
        await api.answer(query, tr(press_texts.WHICH_END))
    elif isinstance(choice, DoublesChoice):
        markup = keyboards.doubles(match, view, choice.picked, tr)
        await api.answer(query, tr(press_texts.PICK_DOUBLES))
    else:  # back to the tiles
        markup = keyboards.hand(match, view, tr)
        await api.answer(query)
    await api.edit_markup(query.get_bot(), message.chat.id, message.message_id, markup)
