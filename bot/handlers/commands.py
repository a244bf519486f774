"""Slash commands: thin handlers that ask the service and reply.

A refusal is raised, not answered here: the error handler (bot.handlers.error_handler) answers
it, as a reply in the user's language.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from datetime import UTC, datetime

from telegram import Message, Update
from telegram.ext import ContextTypes

from bot.game import forfeits, rulebook
from bot.game.match_errors import BrokenGameError, GameLostError
from bot.game.outcomes import Refusal
from bot.handlers import notify, repeats
from bot.handlers.common import (
    deps,
    is_admin,
    is_group,
    language_for,
    person,
    reply,
    shown_name,
    thread_of,
)
from bot.i18n import LANGUAGES, Translator, translator
from bot.render import board_text, localized_name
from bot.storage.models import Match
from bot.telegram import (
    api,
    clock_texts,
    command_texts,
    endings,
    keyboards,
    rating_texts,
    texts,
)
from engine import VARIANTS, StateError, to_record, unpack, view_for

log = logging.getLogger(__name__)

# /help's answer, which the command table writes (bot.handlers.command_table).
HelpText = Callable[[Translator], str]


async def cmd_start(
    update: Update, context: ContextTypes.DEFAULT_TYPE, help_text: HelpText
) -> None:
    """/start in private, possibly from a Join deep link (`/start j_<chat>_<topic>_<game>`)."""
    user, chat = update.effective_user, update.effective_chat
    if user is None or chat is None:
        return
    d = deps(context)
    tr = await language_for(update, context)
    if is_group(chat):  # `/start@bot` there says nothing of whether the bot may write to him
        await repeats.answer(update, context, tr, "help", help_text(tr))
        return
    await d.profiles.opened_chat(user.id)  # he wrote to the bot in private: it may write back
    payload = context.args[0] if context.args else ""
    target = keyboards.parse_join_payload(payload)
    if target is None:
        await reply(update, tr(command_texts.GREETING) + "\n\n" + help_text(tr))
        return
    chat_id, thread_id, game_id = target
    seat, lang = None, None
    if not shown_name(user):  # he is named by the seat he is about to take
        seat, lang = await _next_seat(context, chat_id, thread_id, game_id)
    game, joined = await d.service.join(chat_id, thread_id, game_id, person(user, seat, lang))
    place = endings.place_name(game.match, tr)
    await reply(update, command_texts.joined(tr, place, joined))


async def cmd_newgame(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    user, chat, message = update.effective_user, update.effective_chat, update.effective_message
    if user is None or chat is None or message is None:
        return
    tr = await language_for(update, context)
    variant = await _asked_variant(update, context, tr, "newgame")
    if variant == "?":
        return
    if not is_group(chat):
        await _open_practice(update, context, variant, tr)
        return
    d = deps(context)
    thread_id = thread_of(message)
    seat = None  # a creator the bot can write to takes seat 1 at once
    if not shown_name(user) and (await d.profiles.of(user.id)).started:
        seat = 1
    topic = await _topic_name(context, message, chat.id, thread_id)
    game_id, calls = await notify.prepare(context, chat.id, thread_id, user.id)
    current, created = await d.service.new_game(
        chat.id,
        thread_id,
        person(user, seat, tr.lang),
        variant,
        chat.title or "",
        topic,
        game_id=game_id,
    )
    taken_over = created and current.match.lobby_rev > 0  # a new lobby has revision 0
    if created and not taken_over:
        notify.call(context, current.match, calls)
        return  # the lobby itself is posted by the delivery layer
    await notify.not_opened(context, chat.id, thread_id, game_id, calls)
    pointer = await deps(context).service.shown_at(current.match)
    if taken_over:
        text = tr(command_texts.LOBBY_TAKEN_OVER)
    else:
        text = await _running_here(context, current.match, user.id, tr)
    await api.send_text(
        context.bot, chat.id, text, thread_id=thread_id, reply_to=pointer or message.message_id
    )


async def cmd_practice(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/practice [game]: a game against the computer in the private chat, with hints."""
    chat = update.effective_chat
    if chat is None:
        return
    tr = await language_for(update, context)
    if is_group(chat):
        text = tr(command_texts.PRACTICE_IN_PRIVATE)
        await reply(update, text, markup=keyboards.open_private_chat(tr, context.bot.username))
        return
    variant = await _asked_variant(update, context, tr, "practice")
    if variant != "?":
        await _open_practice(update, context, variant, tr)


async def _asked_variant(
    update: Update, context: ContextTypes.DEFAULT_TYPE, tr: Translator, command: str
) -> str | None:
    """The game named after the command (None: none named); "?" once told it is unknown."""
    variant = context.args[0].lower() if context.args else None
    if variant is not None and variant not in VARIANTS:
        await reply(update, command_texts.unknown_game(tr, command, VARIANTS))
        return "?"
    return variant


async def _open_practice(
    update: Update, context: ContextTypes.DEFAULT_TYPE, variant: str | None, tr: Translator
) -> None:
    """A practice lobby in this private chat (the delivery layer posts it), or a pointer
    to the game already open here."""
    user, chat = update.effective_user, update.effective_chat
    if user is None or chat is None:
        return
    d = deps(context)
    await d.profiles.opened_chat(user.id)  # he wrote to the bot: it may write to him
    current, created = await d.service.new_game(
        chat.id, None, person(user, 1, tr.lang), variant, ""
    )
    if created:
        return
    text = tr(command_texts.PRACTICE_HERE)
    await api.send_text(
        context.bot, chat.id, text, reply_to=await deps(context).service.shown_at(current.match)
    )


async def _running_here(
    context: ContextTypes.DEFAULT_TYPE, match: Match, user_id: int, tr: Translator
) -> str:
    """/newgame where a game is under way: what this user can do about it."""
    may_stop = user_id == match.creator_id or await is_admin(context, match.chat_id, user_id)
    minutes = endings.whole_minutes(deps(context).settings.lobby_takeover_seconds)
    return command_texts.running_here(tr, match, may_stop, minutes)


async def _topic_name(
    context: ContextTypes.DEFAULT_TYPE, message: Message, chat_id: int, thread_id: int | None
) -> str:
    """The forum topic's name: as last announced, else from the topic's first message
    (every message in a topic answers it, unless it answers another one)."""
    if thread_id is None:
        return ""
    stored = await deps(context).service.topic_name(chat_id, thread_id)
    if stored:
        return stored
    root = message.reply_to_message
    created = root.forum_topic_created if root is not None else None
    return created.name if created is not None else ""


async def cmd_rules(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    tr = await language_for(update, context)
    asked = context.args[0].lower() if context.args else ""
    variant = rulebook.opening_variant(asked, await _chat_variant(update, context))
    # Each way of asking is repeated on its own (a few: the variants, none, another word):
    # a rules message's buttons may have switched it to another game since.
    way = asked if asked in VARIANTS or not asked else "?"
    text, markup = rulebook.text(tr.lang, variant), keyboards.rules(variant, tr)
    await repeats.answer(update, context, tr, f"rules:{way}", text, markup)


async def _chat_variant(update: Update, context: ContextTypes.DEFAULT_TYPE) -> str | None:
    """The game stored for this chat (and topic), if one can be read."""
    chat, message = update.effective_chat, update.effective_message
    if chat is None:
        return None
    try:  # in private: the person's practice game
        current = await deps(context).service.current(chat.id, thread_of(message))
    except BrokenGameError:
        return None
    return None if current is None else current.match.variant


async def cmd_help(update: Update, context: ContextTypes.DEFAULT_TYPE, help_text: HelpText) -> None:
    tr = await language_for(update, context)
    await repeats.answer(update, context, tr, "help", help_text(tr))


async def cmd_score(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    chat, message = update.effective_chat, update.effective_message
    if chat is None:
        return
    tr = await language_for(update, context)
    if await _games_elsewhere(update, context, tr, "score"):
        return
    markup = None
    try:
        current = await deps(context).service.current(chat.id, thread_of(message))
    except BrokenGameError as broken:
        text = texts.refusal(tr, broken.code)
    else:
        if current is not None and current.game is not None:
            webapp_url = deps(context).settings.webapp_url
            bot_username = context.bot.username
            markup = keyboards.with_table(None, current.match, tr, webapp_url, bot_username)
        if current is None or current.game is None:
            lobby = current is not None and current.match.status == "lobby"
            text = texts.refusal(tr, "not_started" if lobby else "no_game")
        elif current.match.status == "cancelled":
            # Ended before its end: how, as its board says, and nobody to move.
            view = endings.as_ended(view_for(current.game))
            ending = f"<b>{endings.ending_line(current.match, tr)}</b>"
            text = "\n".join([ending, board_text(view, tr)])
        else:
            view = forfeits.match_view(view_for(current.game), current.match)
            clock = clock_texts.turn_line(tr, current.match, view, deps(context).service.clock())
            # Telegram HTML, names escaped.
            text = "\n".join(filter(None, [board_text(view, tr), clock]))
    await repeats.answer(update, context, tr, "score", text, markup)


async def cmd_stop(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    user, chat, message = update.effective_user, update.effective_chat, update.effective_message
    if user is None or chat is None:
        return
    tr = await language_for(update, context)
    if await _games_elsewhere(update, context, tr, "stop"):
        return
    d = deps(context)
    thread_id = thread_of(message)
    try:
        stored = await d.service.current(chat.id, thread_id)
    except GameLostError:
        raise  # set aside just now: nothing left to stop (answered as a refusal)
    except BrokenGameError:
        # A newer release's game (a rolling deploy that was rolled back, say): an admin
        # may clear it.
        if is_group(chat) and not await is_admin(context, chat.id, user.id):
            raise Refusal("creator_or_admin_only") from None
        await d.service.stop_broken(chat.id, thread_id)
        await reply(update, tr(command_texts.DAMAGED_GAME_CLEARED))
        return
    admin = False
    if stored is not None and stored.match.creator_id != user.id and is_group(chat):
        admin = await is_admin(context, chat.id, user.id)
    current = await d.service.may_stop(chat.id, thread_id, person(user), admin)
    await reply(
        update,
        tr(command_texts.STOP_QUESTION),
        markup=keyboards.stop_confirmation(current.match, tr),
    )


async def cmd_leave(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    user, chat = update.effective_user, update.effective_chat
    if user is None or chat is None:
        return
    tr = await language_for(update, context)
    if await _games_elsewhere(update, context, tr, "leave"):
        return
    current = await deps(context).service.leave(
        chat.id, thread_of(update.effective_message), person(user)
    )
    await reply(update, command_texts.left(tr, current.match))


async def _games_elsewhere(
    update: Update, context: ContextTypes.DEFAULT_TYPE, tr: Translator, command: str
) -> bool:
    """In the private chat, with no game under way there: the user's games in groups,
    each named by its group (and topic), and where `command` works. False (nothing said)
    in a group, with his practice game under way here, or when he sits in no game."""
    user, chat = update.effective_user, update.effective_chat
    if user is None or chat is None or is_group(chat):
        return False
    d = deps(context)
    try:
        here = await d.service.current(chat.id, None)
    except BrokenGameError:
        return False  # the command says what became of it
    if here is not None and here.match.active:
        return False  # the practice game here is the one meant
    games = [m for m in await d.profiles.games_of(user.id) if m.chat_id != chat.id]
    if not games:
        return False
    lines = []
    for match in games:
        try:
            game = d.service.engine_game(match)
        except BrokenGameError:
            continue
        seat = match.seat_of(user.id)
        view = None
        if game is not None:
            view = forfeits.match_view(view_for(game, seat), match)
        link = endings.message_link(match.chat_id, match.thread_id, await d.service.shown_at(match))
        place = endings.place_name(match, tr)
        lines.append(command_texts.game_line(tr, match, view, link, place))
    if not lines:
        return False
    await reply(update, command_texts.your_games(tr, command, lines))
    return True


async def cmd_stats(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    chat = update.effective_chat
    if chat is None:
        return
    tr = await language_for(update, context)
    lines = await deps(context).service.tally.stats(chat.id)
    if not lines:
        await repeats.answer(update, context, tr, "stats", rating_texts.no_stats(tr))
        return
    found = await deps(context).service.tally.ratings(chat.id)
    await repeats.answer(update, context, tr, "stats", rating_texts.stats_text(tr, lines, found))


async def cmd_top(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/top: the chat's best players of each variant, by rating."""
    chat = update.effective_chat
    if chat is None:
        return
    tr = await language_for(update, context)
    found = await deps(context).service.tally.ratings(chat.id)
    await repeats.answer(update, context, tr, "top", rating_texts.top_text(tr, found))


async def cmd_lang(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    user, chat = update.effective_user, update.effective_chat
    if user is None or chat is None:
        return
    d = deps(context)
    choice = context.args[0].lower() if context.args else ""
    if choice not in LANGUAGES:
        tr = await language_for(update, context)
        await reply(update, command_texts.choose_language(tr))
        return
    if is_group(chat):
        if not await is_admin(context, chat.id, user.id):
            raise Refusal("admin_only")
        await d.service.set_language(chat.id, choice)
    else:
        await d.profiles.choose_language(user.id, choice)
    await reply(update, translator(choice)(command_texts.LANGUAGE_SET))


async def cmd_export(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    chat, message = update.effective_chat, update.effective_message
    if chat is None:
        return
    tr = await language_for(update, context)
    thread_id = thread_of(message)
    packed = await deps(context).service.last_record(chat.id, thread_id)
    try:
        record = None if packed is None else to_record(unpack(packed))
    except StateError:
        log.warning("chat %s: the last record is unreadable", chat.id)
        record = None
    if record is None:
        await reply(update, tr(command_texts.NOTHING_TO_EXPORT))
        return
    # The record names its computer players in words, as the chat reads them now.
    record["players"] = [localized_name(tr, name) for name in record["players"]]
    data = json.dumps(record, ensure_ascii=False, indent=1).encode()
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M")
    name = f"domino-{record.get('variant', 'game')}-{stamp}.json"
    caption = tr(command_texts.EXPORT_CAPTION)
    await api.send_document(context.bot, chat.id, data, name, caption, thread_id)


async def _next_seat(
    context: ContextTypes.DEFAULT_TYPE, chat_id: int, thread_id: int | None, game_id: str
) -> tuple[int | None, str | None]:
    """The seat (from 1) a joining user would take in that lobby, and the chat's language."""
    try:
        current = await deps(context).service.current(chat_id, thread_id)
    except BrokenGameError:
        return None, None
    if current is None or current.match.id != game_id:
        return None, None
    match = current.match
    taken = {seat.name for seat in match.seats}
    seat = len(match.seats) + 1
    while texts.unnamed_player(translator(match.lang), seat) in taken:
        seat += 1  # someone left: "Player 2" may sit in seat 1 now
    return seat, match.lang
