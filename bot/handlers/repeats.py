"""Answers to informational commands (/score, /rules, /help, /stats) that a repeat re-uses.

Each answer in a group spends one of the group's 20 calls a minute, which the board
needs. So within `WINDOW` seconds of an answer (per chat, topic and command) a repeat
that would say the same sends nothing new: the first such repeat of the window gets
one short note, a reply to the answer above ("My answer is above ↑"), and every later
one is not answered. However often a command is typed, it costs a group at most two
calls a window while what it says stays the same. An answer that would say something
else (a move was made, the chat's language changed, a game ended) is news: it is
answered anew, and the window starts again from it. In private chats every command is
answered (the group's budget is not spent there).

What was answered is kept in Redis under the chat's hash tag (`Keys.answer`), with the
window as its TTL, so every bot process sees it.

While Redis does not answer, neither does that record, and each command in a group would
be told «storage is not answering» anew. So each process also keeps, in memory, when it
last told a group's chat (or topic) so for a command: an outage costs one answer per
command per chat (topic) per `OUTAGE_WINDOW` and process (`OutageAnswers`).
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections import OrderedDict
from collections.abc import Callable

from telegram import InlineKeyboardMarkup, Message, Update
from telegram.ext import ContextTypes

from bot.handlers.common import deps, is_group, reply, thread_of
from bot.i18n import Translator
from bot.telegram import api, command_texts
from bot.telegram.api import CallOutcome
from bot.telegram.call_priority import Priority

log = logging.getLogger(__name__)

WINDOW = 60.0  # seconds an answer is re-used for
OUTAGE_WINDOW = 30.0  # seconds a group's chat is told once per command that storage is down


def digest(text: str, markup: InlineKeyboardMarkup | None) -> str:
    shown = text + "\0" + ("" if markup is None else repr(markup.to_dict()))
    return hashlib.sha1(shown.encode(), usedforsecurity=False).hexdigest()[:16]


async def answer(
    update: Update,
    context: ContextTypes.DEFAULT_TYPE,
    tr: Translator,
    command: str,
    text: str,
    markup: InlineKeyboardMarkup | None = None,
) -> None:
    """Reply `text` to the command, unless it was answered in this chat a moment ago."""
    message, chat = update.effective_message, update.effective_chat
    if message is None or chat is None:
        return
    if not is_group(chat):
        await reply(update, text, markup=markup)
        return
    repeated = deps(context).repeats
    thread_id = thread_of(message)
    shows = digest(text, markup)
    bot = message.get_bot()
    for _ in range(2):  # a second time only after a changed answer was forgotten
        if await repeated.claim(chat.id, thread_id, command, WINDOW):
            sent = await api.send_text(
                bot, chat.id, text, thread_id=thread_id, reply_to=message.message_id, markup=markup
            )
            if sent.message_id is not None:
                await repeated.answered(chat.id, thread_id, command, sent.message_id, shows)
            elif sent.outcome is not CallOutcome.UNCERTAIN:  # not sent: the next one tries again
                await repeated.forget(chat.id, thread_id, command)
            return
        shown = await repeated.answer(chat.id, thread_id, command)
        if shown is None:  # the answer is on its way (or its sending was given up)
            return
        answer_id, before = shown
        if before == shows:
            break
        # What it says has changed (a move, another language): that is news, answered anew.
        await repeated.forget(chat.id, thread_id, command)
    else:
        return
    if not await repeated.take_note(chat.id, thread_id, command, WINDOW):
        return  # this window's one note is spent
    await api.send_text(
        bot,
        chat.id,
        tr(command_texts.ANSWER_ABOVE),
        thread_id=thread_id,
        reply_to=answer_id,
        priority=Priority.OTHER,
        patient=False,
    )


class OutageAnswers:
    """In this process: when each group's chat (topic) was last told, for a command, that
    the storage is not answering (see the module's doc)."""

    KEPT = 10_000  # places remembered (the oldest are forgotten first)

    def __init__(
        self, clock: Callable[[], float] = time.monotonic, window: float = OUTAGE_WINDOW
    ) -> None:
        self.clock = clock
        self.window = window
        self._told: OrderedDict[tuple[int, int | None, str], float] = OrderedDict()

    def claim(self, chat_id: int, thread_id: int | None, command: str) -> bool:
        """True if that place was not told for that command within the window (it is now)."""
        now = self.clock()
        place = (chat_id, thread_id, command)
        told = self._told.get(place)
        if told is not None and now - told < self.window:
            return False
        self._told[place] = now
        self._told.move_to_end(place)
        while len(self._told) > self.KEPT:
            self._told.popitem(last=False)
        return True


def outage_answers(context: ContextTypes.DEFAULT_TYPE) -> OutageAnswers:
    """The application's (one a bot process)."""
    data = context.application.bot_data
    found = data.get("outage_answers")
    if not isinstance(found, OutageAnswers):
        found = data["outage_answers"] = OutageAnswers()
    return found


def tell_of_outage(update: Update, context: ContextTypes.DEFAULT_TYPE) -> bool:
    """Whether to tell this update's chat that the storage is not answering: a button press
    or a private chat always; a group's command once per `OUTAGE_WINDOW`."""
    message, chat = update.effective_message, update.effective_chat
    if update.callback_query is not None or message is None or chat is None:
        return True
    if not is_group(chat):
        return True
    return outage_answers(context).claim(chat.id, thread_of(message), command_of(message))


def command_of(message: Message) -> str:
    """The command a message gives («/score@domino_bot 5» -> "score"); "" for none."""
    text = message.text or ""
    if not text.startswith("/"):
        return ""
    return text.split(maxsplit=1)[0][1:].partition("@")[0].lower()
