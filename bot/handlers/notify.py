"""/notify: be called in private whenever a game opens in a group (see docs/rules.md).

A subscription stands until `/notify off` (or until a call finds the bot blocked): the
regulars of a chat want every game, not only the next one. `/notify` answers in private,
so the group's budget (20 calls a minute, which the board needs) is not spent on it; only
someone the bot cannot write to yet is answered in the group, through `repeats` (a
repeat costs at most one short note a window).

The calls go one at a time at the budget's lowest priority (OTHER), after the lobby's
own message: a chat with many subscribers delays no board, hand or answer.
"""

from __future__ import annotations

import logging

from telegram import Bot, Chat, Update
from telegram.ext import ContextTypes

from bot.game.lobby_calls import MAX_SUBSCRIBERS, Subscribed
from bot.game.match_errors import BrokenGameError
from bot.game.service import GameService, new_game_id
from bot.handlers import repeats
from bot.handlers.common import Deps, deps, is_group, reply, thread_of
from bot.i18n import Translator, normalize, translator
from bot.storage.models import Match
from bot.telegram import api, endings, keyboards, notify_texts
from bot.telegram.api import CallOutcome
from bot.telegram.call_priority import Priority

log = logging.getLogger(__name__)


async def cmd_notify(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/notify (or /notify on) subscribes, /notify off unsubscribes; in a group only."""
    user, chat, message = update.effective_user, update.effective_chat, update.effective_message
    if user is None or chat is None or message is None:
        return
    d = deps(context)
    prefs = await d.profiles.of(user.id)
    own = prefs.lang or normalize(user.language_code, d.settings.default_language)
    if not is_group(chat):
        await reply(update, translator(own)(notify_texts.ONLY_IN_GROUPS))
        return
    group_tr = translator(await d.service.chat_language(chat.id))
    choice = context.args[0].lower() if context.args else "on"
    if choice not in ("on", "off") or len(context.args or ()) > 1:
        usage = group_tr(notify_texts.USAGE)
        await repeats.answer(update, context, group_tr, "notify:usage", usage)
        return
    calls = d.calls
    thread_id = thread_of(message)
    tr = translator(own)
    place = await _place(d.service, chat, thread_id, tr)
    if choice == "off":
        removed = await calls.unsubscribe(chat.id, thread_id, user.id)
        text = notify_texts.unsubscribed(tr, place, removed)
    elif not prefs.started:
        await _ask_to_start(update, context, group_tr)
        return
    else:
        found = await calls.subscribe(chat.id, thread_id, user.id, own)
        if found is Subscribed.FULL:
            full = notify_texts.full(group_tr, MAX_SUBSCRIBERS)
            await repeats.answer(update, context, group_tr, "notify:full", full)
            return
        text = notify_texts.subscribed(tr, place)
    sent = await api.send_text(context.bot, user.id, text)
    if sent.outcome is CallOutcome.FORBIDDEN:  # he blocked the bot, or never pressed Start
        await calls.unsubscribe(chat.id, thread_id, user.id)
        if choice != "off":
            await _ask_to_start(update, context, group_tr)
            return
        place = await _place(d.service, chat, thread_id, group_tr)
        done = notify_texts.unsubscribed(group_tr, place, True)
        await repeats.answer(update, context, group_tr, "notify:off", done)


async def _ask_to_start(update: Update, context: ContextTypes.DEFAULT_TYPE, tr: Translator) -> None:
    """The bot may not write first: he must press Start in its private chat."""
    text = tr(notify_texts.START_FIRST)
    markup = keyboards.open_private_chat(tr, context.bot.username)
    await repeats.answer(update, context, tr, "notify:start", text, markup)


async def _place(service: GameService, chat: Chat, thread_id: int | None, tr: Translator) -> str:
    """The group (and its forum topic) as private messages name it."""
    topic = await service.topic_name(chat.id, thread_id) if thread_id is not None else None
    return endings.group_place(tr, chat.title, topic)


async def prepare(
    context: ContextTypes.DEFAULT_TYPE, chat_id: int, thread_id: int | None, creator_id: int
) -> tuple[str, dict[int, str]]:
    """Before /newgame opens a lobby: its id, and the subscribers it calls (user id ->
    language; not its creator), noted under that id before its lobby message is posted."""
    game_id = new_game_id()
    return game_id, await deps(context).calls.to_call(chat_id, thread_id, game_id, creator_id)


async def not_opened(
    context: ContextTypes.DEFAULT_TYPE,
    chat_id: int,
    thread_id: int | None,
    game_id: str,
    calls: dict[int, str],
) -> None:
    """/newgame opened no lobby of that id: nobody is called to it."""
    if calls:
        await deps(context).calls.not_opened(chat_id, thread_id, game_id)


def call(context: ContextTypes.DEFAULT_TYPE, match: Match, calls: dict[int, str]) -> None:
    """Call them in the background: the /newgame handler does not wait for 50 messages."""
    if calls:
        context.application.create_task(
            call_all(context.bot, deps(context), match, calls), name=f"notify {match.id}"
        )


async def call_all(bot: Bot, d: Deps, match: Match, calls: dict[int, str]) -> int:
    """Send each call, one at a time at the lowest priority; how many went.

    Stops once the lobby is gone (started or closed: its Join link would only say so),
    skips whoever took a seat meanwhile, and drops a subscriber who blocked the bot.
    """
    made = 0
    for user_id, lang in calls.items():
        try:
            current = await d.service.current(match.chat_id, match.thread_id)
        except BrokenGameError:
            return made
        now = None if current is None else current.match
        if now is None or now.id != match.id or now.status != "lobby":
            return made
        if now.seat_of(user_id) is not None:
            continue
        tr = translator(lang)
        text = notify_texts.call(tr, now)
        markup = keyboards.call_to_lobby(now, tr, bot.username)
        sent = await api.send_text(
            bot, user_id, text, markup=markup, priority=Priority.OTHER, patient=False
        )
        if sent.outcome is CallOutcome.FORBIDDEN:
            await d.calls.unsubscribe(match.chat_id, match.thread_id, user_id)
            log.info("chat %s: a subscriber blocked the bot; dropped", match.chat_id)
        elif sent.ok:
            made += 1
    return made
