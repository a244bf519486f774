"""Inline buttons: the lobby, the board, the hand keyboards, stop, rematch, rules.

Every press is answered at once (a refusal as a short alert); what the press
changed reaches the chats through the delivery layer, which the game service
tells of every change.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from telegram import CallbackQuery, Message, Update, User
from telegram.ext import ContextTypes

from bot.game import hints, rulebook
from bot.game.errors import BrokenGameError, ConflictError
from bot.game.outcomes import Refusal
from bot.game.records import Current
from bot.handlers.common import deps, is_admin, language_for, person, refuse, thread_of
from bot.i18n import Translator, translator
from bot.render.ends import EndName
from bot.storage.models import practice_chat
from bot.telegram import api, keyboards, press_texts, texts
from bot.telegram import callbacks as cb
from bot.telegram.hint_texts import hint_line
from engine import DRAW, PASS, Doubles, End, Move, Play, SeatView, view_for

log = logging.getLogger(__name__)

HINT_SECONDS = 0.4  # the strong computer's thinking time for a hint: the answer is prompt


async def on_button(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    query = update.callback_query
    if query is None:
        return
    press = cb.decode(query.data)
    if press is None:
        tr = await language_for(update, context)
        await api.answer(query, texts.refusal(tr, "stale_button"), alert=True)
        return
    tr = await language_for(update, context)
    if not _carries(query, press):
        # Data the message it came from does not show: a forged or stale press, refused
        # before it can change that message (a group's board showing someone's hand, say).
        await api.answer(query, texts.refusal(tr, "stale_button"), alert=True)
        return
    try:
        await _dispatch(update, context, query, press, tr)
    except Refusal as refusal:
        await refuse(update, tr, refusal.code)
    except BrokenGameError as broken:
        await refuse(update, tr, broken.code)
    except ConflictError:
        await refuse(update, tr, "busy")


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
    user = update.effective_user
    message = query.message
    if user is None or message is None:
        return
    d = deps(context)
    hand = press.hand
    current = await d.service.find(hand.chat_id, hand.thread_id, hand.game_id)
    match = current.match
    seat = match.seat_of(user.id)
    tr = (
        translator(match.seats[seat].lang)
        if seat is not None
        else await language_for(update, context)
    )
    if seat is None:
        raise Refusal("not_in_game")
    if message.chat.type != "private" or message.chat.id != user.id:
        # A hand button only works in its owner's private chat (not on a group's board).
        raise Refusal("stale_button")
    if match.status != "playing":
        raise Refusal("game_over" if match.status == "over" else "game_gone")
    assert current.game is not None
    if hand.version != current.game.version:
        await d.delivery.stray_hand(
            hand.chat_id, hand.thread_id, seat, match.id, message.message_id
        )
        raise Refusal("stale_button")
    if isinstance(press, cb.HintPress):
        await _hint(context, query, current, seat, tr)
        return
    several = isinstance(press, cb.DoublesPress | cb.LayDoublesPress)
    if several and not current.game.rules.multi_doubles:
        raise Refusal("one_tile_only")  # several doubles at once: muggins only
    view = view_for(current.game, seat)
    if isinstance(press, cb.BackPress | cb.DoublesPress) and view.turn != seat:
        raise Refusal("not_your_turn")  # the choices of a turn are the seat to act's
    move = _chosen_move(press, view)
    if move is None:  # only the keyboard changes: choosing an end, picking doubles
        if not await d.delivery.shows_hand(
            match.chat_id, match.thread_id, seat, match.id, message.message_id
        ):
            raise Refusal("stale_button")
        await _show_choice(query, current, view, press, tr)
        return
    names = _end_names(view, move)  # as the buttons named them before the move
    played = await d.service.play(
        hand.chat_id,
        hand.thread_id,
        hand.game_id,
        hand.version,
        person(user),
        move,
        found=current,
    )
    # His own move (the moves after it were made for those who had no choice).
    entry = played.entries[0] if played.entries else None
    if entry is None:
        await api.answer(query)
        return
    penalty = current.game.rules.pass_penalty
    await api.answer(query, press_texts.played_answer(tr, entry.text, entry.points, penalty, names))


async def _hint(
    context: ContextTypes.DEFAULT_TYPE,
    query: CallbackQuery,
    current: Current,
    seat: int,
    tr: Translator,
) -> None:
    """«💡 Hint» in a practice game: what the strong computer would play now, and why, as
    an alert (nothing in the chat changes; the final table counts the hints)."""
    match, game = current.match, current.game
    assert game is not None
    if not match.practice:
        raise Refusal("practice_only")
    if game.turn != seat:
        raise Refusal("hint_not_now")
    memory = deps(context).memory
    where = (match.chat_id, match.thread_id, match.id, game.version)
    line = await memory.shown_hint(*where)
    if line is None:  # worked out once a move: asking again costs nothing
        hint = await asyncio.to_thread(
            hints.hint_for, game.copy(), seat, match.seed + game.version, HINT_SECONDS
        )
        # The ends as its buttons name them.
        named = keyboards.end_names_for(view_for(game, seat))
        names = {end: name.text for end, name in named.items()}
        line = await memory.note_hint(*where, hint_line(tr, hint, names))
    await api.answer(query, line, alert=True)


def _end_names(view: SeatView, move: Move) -> dict[End, EndName] | None:
    """What the answer to `move` calls the ends it was laid on (None: it names none)."""
    laid_on_an_end = (isinstance(move, Play) and move.end is not None) or isinstance(move, Doubles)
    if not laid_on_an_end:
        return None
    return keyboards.end_names_for(view)


def _chosen_move(press: cb.HandPress, view: SeatView) -> Move | None:
    """The move a button makes, or None when the player still has to choose.

    Raises Refusal for a tile that cannot be played now, with the reason.
    """
    match press:
        case cb.DrawPress():
            return DRAW
        case cb.PassPress():
            return PASS
        case cb.EndPress(_, tile, end):
            return Play(tile, end)
        case cb.LayDoublesPress(_, picked):
            return Doubles.of([Play(tile, end) for tile, end in picked])
        case cb.TilePress(_, tile):
            if view.turn != view.seat:
                raise Refusal("not_your_turn")
            plays = [m for m in view.legal if isinstance(m, Play) and m.tile == tile]
            if not plays:
                raise Refusal("not_in_hand" if tile not in view.hand else "does_not_fit")
            if len({m.end for m in plays}) == 1:
                # One place only (or the opening): play it, the opening with its high half west.
                return plays[0]
    return None


async def _show_choice(
    query: CallbackQuery, current: Current, view: SeatView, press: cb.HandPress, tr: Translator
) -> None:
    message = query.message
    if message is None:
        return
    match = current.match
    if isinstance(press, cb.TilePress):
        markup = keyboards.ends_for(match, view, press.tile, tr)
        await api.answer(query, tr(press_texts.WHICH_END))
    elif isinstance(press, cb.DoublesPress):
        markup = keyboards.doubles(match, view, press.picked, tr)
        await api.answer(query, tr(press_texts.PICK_DOUBLES))
    else:  # back to the tiles
        markup = keyboards.hand(match, view, tr)
        await api.answer(query)
    await api.edit_markup(query.get_bot(), message.chat.id, message.message_id, markup)
