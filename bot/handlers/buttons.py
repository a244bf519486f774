"""Inline buttons: the lobby, the board, the hand keyboards, stop, rematch, rules.

Every press is answered at once (a refusal as a short alert) before any slow
work such as rendering and sending pictures.
"""

from __future__ import annotations

import logging

from telegram import CallbackQuery, Update
from telegram.ext import ContextTypes

from bot.game import rulebook
from bot.game.service import Refusal
from bot.handlers.common import deps, is_admin, language_for, person, refuse, thread_of
from bot.i18n import Translator, translator
from bot.storage.models import ChatGame
from bot.storage.store import BrokenGameError, ConflictError
from bot.telegram import api, keyboards, texts
from bot.telegram import callbacks as cb
from engine import DRAW, PASS, Doubles, End, Move, Play, SeatView, view_for

log = logging.getLogger(__name__)


async def on_button(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    query = update.callback_query
    if query is None:
        return
    tr = await language_for(update, context)
    button = cb.decode(query.data)
    if button is None:
        await api.answer(query, texts.refusal(tr, "stale_button"), alert=True)
        return
    try:
        await _dispatch(update, context, query, button, tr)
    except Refusal as refusal:
        await refuse(update, tr, refusal.code)
    except BrokenGameError:
        await refuse(update, tr, "broken_game")
    except ConflictError:
        await refuse(update, tr, "busy")


async def _dispatch(
    update: Update,
    context: ContextTypes.DEFAULT_TYPE,
    query: CallbackQuery,
    button: cb.Callback,
    tr: Translator,
) -> None:
    if button.kind == cb.RULES:
        await _show_rules(query, button.arg, tr)
    elif button.kind in (cb.LOBBY, cb.STOP, cb.HAND_REQUEST, cb.REMATCH):
        await _group_button(update, context, query, button, tr)
    else:
        await _hand_button(update, context, query, button)


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
    button: cb.Callback,
    tr: Translator,
) -> None:
    message = query.message
    user = update.effective_user
    if message is None or user is None:
        return
    chat_id = message.chat.id
    thread_id = thread_of(message)  # type: ignore[arg-type]
    d = deps(context)
    who = person(user)
    if button.kind == cb.LOBBY:
        game = await d.store.load(chat_id, thread_id)
        admin = False
        if button.arg == "cx" and game is not None and game.creator_id != user.id:
            admin = await is_admin(context, chat_id, user.id)
        await d.service.lobby_action(chat_id, thread_id, button, who, admin)
        await api.answer(query, _lobby_answer(tr, button.arg))
    elif button.kind == cb.STOP:
        game = await d.store.load(chat_id, thread_id)
        admin = False
        if game is not None and game.creator_id != user.id:
            admin = await is_admin(context, chat_id, user.id)
        game = await d.service.confirm_stop(chat_id, thread_id, button, who, admin)
        stopped = button.arg == "y"
        await api.answer(query)
        text = tr("The game was stopped.") if stopped else tr("The game goes on.")
        await api.edit_text(query.get_bot(), chat_id, message.message_id, text)
    elif button.kind == cb.HAND_REQUEST:
        await d.service.resend_hand(chat_id, thread_id, button.game_id, who)
        await api.answer(query, tr("Your tiles are in our private chat."))
    elif button.kind == cb.REMATCH:
        game = await d.service.rematch(chat_id, thread_id, button.game_id, who)
        await api.answer(query, tr("A new lobby is open."))
        result = await api.send_text(
            query.get_bot(),
            chat_id,
            texts.lobby_text(game, tr),
            thread_id=thread_id,
            markup=keyboards.lobby(game, tr, query.get_bot().username),
        )
        await d.service.lobby_posted(
            chat_id, thread_id, game.id, result.message_id, message.chat.title or ""
        )
    await d.syncer.sync(chat_id, thread_id)


def _lobby_answer(tr: Translator, action: str) -> str:
    return {
        "ce": tr("A computer player joined."),
        "cs": tr("A computer player joined."),
        "lv": tr("You left the lobby."),
        "st": tr("The game starts!"),
        "cx": tr("The game was cancelled."),
    }.get(action, tr("Done."))


async def _hand_button(
    update: Update,
    context: ContextTypes.DEFAULT_TYPE,
    query: CallbackQuery,
    button: cb.Callback,
) -> None:
    user = update.effective_user
    if user is None:
        return
    d = deps(context)
    game = await d.service.find(button.chat_id, button.thread_id, button.game_id)
    seat = game.seat_of(user.id)
    tr = (
        translator(game.seats[seat].lang)
        if seat is not None
        else await language_for(update, context)
    )
    if seat is None:
        raise Refusal("not_in_game")
    if game.status != "playing":
        raise Refusal("game_over" if game.status == "over" else "game_gone")
    if button.version != game.version:
        raise Refusal("stale_button")
    view = view_for(game.game(), seat)
    move = _chosen_move(button, view)
    if move is None:  # only the keyboard changes: choosing an end, picking doubles
        await _show_choice(query, game, view, button, tr)
        return
    played = await d.service.play(button, person(user), move)
    entry = played.entries[-1] if played.entries else None
    if entry is not None:
        points = tr(" (+{points})").format(points=entry.points) if entry.points else ""
        # A draw or a pass is not a tile played: say what happened in the user's words.
        done = {"draw": tr("drew a tile"), "pass": tr("passed")}.get(entry.text)
        text = done[:1].upper() + done[1:] if done else tr("Played {move}").format(move=entry.text)
        await api.answer(query, text + points)
    else:
        await api.answer(query)
    await d.syncer.sync(button.chat_id, button.thread_id)


def _chosen_move(button: cb.Callback, view: SeatView) -> Move | None:
    """The move a button makes, or None when the player still has to choose.

    Raises Refusal for a tile that cannot be played now, with the reason.
    """
    if button.kind == cb.DRAW:
        return DRAW
    if button.kind == cb.PASS:
        return PASS
    if button.kind == cb.PLAY:
        tile = cb.parse_tile(button.arg[:2])
        assert tile is not None
        return Play(tile, End[button.arg[2:]])
    if button.kind == cb.DOUBLES_PLAY:
        picked = cb.parse_doubles(button.arg) or []
        return Doubles.of([Play(tile, end) for tile, end in picked])
    if button.kind == cb.TILE:
        tile = cb.parse_tile(button.arg)
        assert tile is not None
        if view.turn != view.seat:
            raise Refusal("not_your_turn")
        plays = [m for m in view.legal if isinstance(m, Play) and m.tile == tile]
        if not plays:
            raise Refusal("not_in_hand" if tile not in view.hand else "does_not_fit")
        ends = {m.end for m in plays}
        if len(ends) == 1:
            # One place only (or the opening): play it, the opening with its high half west.
            return plays[0]
        return None
    return None


async def _show_choice(
    query: CallbackQuery, game: ChatGame, view: SeatView, button: cb.Callback, tr: Translator
) -> None:
    message = query.message
    if message is None:
        return
    if button.kind == cb.TILE:
        tile = cb.parse_tile(button.arg)
        assert tile is not None
        markup = keyboards.ends_for(game, view, tile, tr)
        await api.answer(query, tr("Which end?"))
    elif button.kind == cb.DOUBLES:
        picked = cb.parse_doubles(button.arg) or []
        markup = keyboards.doubles(game, view, picked, tr)
        await api.answer(query, tr("Pick 2 to 4 doubles and their ends."))
    else:  # back to the tiles
        markup = keyboards.hand(game, view, tr)
        await api.answer(query)
    await api.edit_markup(query.get_bot(), message.chat.id, message.message_id, markup)
