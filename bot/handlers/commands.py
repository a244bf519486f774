"""Slash commands: thin handlers that ask the service and reply."""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime
from html import escape

from telegram import Update
from telegram.ext import ContextTypes

from bot.game import rulebook
from bot.game.service import Current, Refusal
from bot.handlers.common import (
    deps,
    is_admin,
    is_group,
    language_for,
    person,
    refuse,
    reply,
    thread_of,
)
from bot.i18n import LANGUAGES, translator
from bot.render import board_text
from bot.storage.store import BrokenGameError
from bot.telegram import api, keyboards, texts
from bot.telegram.callbacks import VARIANTS
from engine import StateError, to_record, unpack, view_for

log = logging.getLogger(__name__)


async def cmd_start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/start in private, possibly from a Join deep link (`/start j_<chat>_<topic>_<game>`)."""
    user, chat = update.effective_user, update.effective_chat
    if user is None or chat is None:
        return
    d = deps(context)
    prefs = await d.store.user(user.id)
    if not prefs.started:
        prefs.started = True
        await d.store.save_user(user.id, prefs)
    tr = await language_for(update, context)
    if is_group(chat):
        await reply(update, texts.help_text(tr), markup=None)
        return
    payload = context.args[0] if context.args else ""
    target = keyboards.parse_join_payload(payload)
    if target is None:
        await reply(
            update,
            tr("Hello! Add me to a group and type /newgame there.") + "\n\n" + texts.help_text(tr),
        )
        return
    chat_id, thread_id, game_id = target
    try:
        game, joined = await d.service.join(chat_id, thread_id, game_id, person(user))
    except Refusal as refusal:
        await refuse(update, tr, refusal.code)
        return
    title = game.match.chat_title or tr("the group")
    if joined:
        text = tr("You joined the game in «{title}». Your tiles will come here.")
    else:
        text = tr("You are already in the game in «{title}».")
    await reply(update, text.format(title=escape(title)))  # the reply is HTML


async def cmd_newgame(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    user, chat, message = update.effective_user, update.effective_chat, update.effective_message
    if user is None or chat is None or message is None:
        return
    tr = await language_for(update, context)
    if not is_group(chat):
        await refuse(update, tr, "group_only")
        return
    variant = context.args[0].lower() if context.args else None
    if variant is not None and variant not in VARIANTS:
        await reply(
            update, tr("Unknown game. Choose one of: {games}.").format(games=", ".join(VARIANTS))
        )
        return
    d = deps(context)
    thread_id = thread_of(message)
    current, created = await d.service.new_game(
        chat.id, thread_id, person(user), variant, chat.title or ""
    )
    if not created:  # the lobby itself is posted by the delivery layer
        shown, _ = await d.store.read_delivery(chat.id, thread_id, 0)
        record = shown.value
        pointer = None
        if record is not None and record.game_id == current.match.id:
            pointer = record.board.message_id or record.lobby_message_id
        await api.send_text(
            context.bot,
            chat.id,
            texts.refusal(tr, "game_running") + " " + tr("It is here ↑ (or /stop it)."),
            thread_id=thread_id,
            reply_to=pointer or message.message_id,
        )


async def cmd_rules(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    tr = await language_for(update, context)
    variant = context.args[0].lower() if context.args else "fives"
    if variant not in VARIANTS:
        variant = "fives"
    await reply(update, rulebook.text(tr.lang, variant), markup=keyboards.rules(variant, tr))


async def cmd_help(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    tr = await language_for(update, context)
    await reply(update, texts.help_text(tr))


async def cmd_score(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    chat, message = update.effective_chat, update.effective_message
    if chat is None:
        return
    tr = await language_for(update, context)
    current = await _load(update, context, chat.id, thread_of(message))
    if current is None:
        return
    if current.game is None:
        status = current.match.status
        await refuse(update, tr, "not_started" if status == "lobby" else "no_game")
        return
    await reply(update, board_text(view_for(current.game), tr))  # Telegram HTML, names escaped


async def cmd_stop(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    user, chat, message = update.effective_user, update.effective_chat, update.effective_message
    if user is None or chat is None:
        return
    tr = await language_for(update, context)
    d = deps(context)
    thread_id = thread_of(message)
    try:
        stored = await d.service.current(chat.id, thread_id)
    except BrokenGameError:
        if is_group(chat) and not await is_admin(context, chat.id, user.id):
            await refuse(update, tr, "creator_or_admin_only")
            return
        await d.service.stop_broken(chat.id, thread_id)
        await reply(update, tr("The damaged game was cleared. Start a new one with /newgame."))
        return
    admin = False
    if stored is not None and stored.match.creator_id != user.id and is_group(chat):
        admin = await is_admin(context, chat.id, user.id)
    try:
        current = await d.service.may_stop(chat.id, thread_id, person(user), admin)
    except Refusal as refusal:
        await refuse(update, tr, refusal.code)
        return
    await reply(
        update,
        tr("End the game for everyone?"),
        markup=keyboards.stop_confirmation(current.match, tr),
    )


async def cmd_leave(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    user, chat, message = update.effective_user, update.effective_chat, update.effective_message
    if user is None or chat is None:
        return
    tr = await language_for(update, context)
    d = deps(context)
    thread_id = thread_of(message)
    try:
        current = await d.service.leave(chat.id, thread_id, person(user))
    except Refusal as refusal:
        await refuse(update, tr, refusal.code)
        return
    if current.match.status == "lobby":
        await reply(update, tr("You left the lobby."))
    else:
        await reply(update, tr("The computer plays your seat now."))


async def cmd_stats(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    chat = update.effective_chat
    if chat is None:
        return
    tr = await language_for(update, context)
    lines = await deps(context).store.stats(chat.id)
    if not lines:
        await reply(update, tr("No finished games in this chat yet."))
        return
    ranked = sorted(lines.values(), key=lambda s: (-s.wins, -s.points, s.name))[:15]
    rows = [tr("<b>Leaderboard</b>")]
    for place, line in enumerate(ranked, start=1):
        row = tr("{place}. {name} — wins {wins} of {games}, points {points}").format(
            place=place,
            name=escape(line.name),
            wins=line.wins,
            games=line.games,
            points=line.points,
        )
        if line.best_record is not None:
            row += " · " + tr("best fives record {record}").format(record=line.best_record)
        rows.append(row)
    await reply(update, "\n".join(rows))


async def cmd_lang(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    user, chat = update.effective_user, update.effective_chat
    if user is None or chat is None:
        return
    d = deps(context)
    choice = context.args[0].lower() if context.args else ""
    if choice not in LANGUAGES:
        tr = await language_for(update, context)
        await reply(update, tr("Choose a language: /lang ru or /lang en"))
        return
    if is_group(chat):
        if not await is_admin(context, chat.id, user.id):
            await refuse(update, await language_for(update, context), "admin_only")
            return
        await d.service.set_language(chat.id, choice)
    else:
        prefs = await d.store.user(user.id)
        prefs.lang = choice
        await d.store.save_user(user.id, prefs)
    tr = translator(choice)
    await reply(update, tr("Language: English"))


async def cmd_export(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    chat, message = update.effective_chat, update.effective_message
    if chat is None:
        return
    tr = await language_for(update, context)
    thread_id = thread_of(message)
    packed = await deps(context).store.last_record(chat.id, thread_id)
    try:
        record = None if packed is None else to_record(unpack(packed))
    except StateError:
        log.warning("chat %s: the last record is unreadable", chat.id)
        record = None
    if record is None:
        await reply(update, tr("No finished game to export yet."))
        return
    data = json.dumps(record, ensure_ascii=False, indent=1).encode()
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M")
    name = f"domino-{record.get('variant', 'game')}-{stamp}.json"
    caption = tr("The last finished game's record; replay it with domino-replay.")
    await api.send_document(context.bot, chat.id, data, name, caption, thread_id)


async def _load(
    update: Update, context: ContextTypes.DEFAULT_TYPE, chat_id: int, thread_id: int | None
) -> Current | None:
    tr = await language_for(update, context)
    try:
        current = await deps(context).service.current(chat_id, thread_id)
    except BrokenGameError:
        await refuse(update, tr, "broken_game")
        return None
    if current is None:
        await refuse(update, tr, "no_game")
    return current
