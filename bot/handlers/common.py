"""What every handler needs: the app's services, who is asking, in which language."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from telegram import Chat, Message, Update, User
from telegram.constants import ChatMemberStatus, ChatType
from telegram.error import TelegramError
from telegram.ext import ContextTypes

from bot.delivery.scheduler import Delivery
from bot.game.lobby_calls import LobbyCalls
from bot.game.people import Person, visible_name
from bot.game.profiles import Profiles
from bot.game.repeated_commands import RepeatedCommands
from bot.game.service import GameService
from bot.i18n import Translator, normalize, translator
from bot.settings import Settings
from bot.telegram import api, texts

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Deps:
    """The application's services, kept in `application.bot_data["deps"]`."""

    settings: Settings
    service: GameService
    delivery: Delivery
    profiles: Profiles
    calls: LobbyCalls
    repeats: RepeatedCommands


def deps(context: ContextTypes.DEFAULT_TYPE) -> Deps:
    found = context.application.bot_data["deps"]
    assert isinstance(found, Deps)
    return found


def shown_name(user: User) -> str:
    """The user's own name as Telegram gives it ("" if he has none that shows)."""
    return visible_name(user.first_name, user.last_name, user.username)


def display_name(user: User, seat: int | None = None, lang: str | None = None) -> str:
    """How to call a Telegram user: his name, else his username, else "Player N" (his seat,
    counted from 1, in `lang`: the chat's language). Whatever Telegram sends, never fails."""
    name = shown_name(user)
    if name:
        return name
    return texts.unnamed_player(translator(lang or normalize(user.language_code)), seat)


def person(user: User, seat: int | None = None, lang: str | None = None) -> Person:
    """The service's view of a user; `seat` and `lang` name one who has no name (see
    `display_name`)."""
    return Person(user.id, display_name(user, seat, lang), normalize(user.language_code))


def is_group(chat: Chat) -> bool:
    return chat.type in (ChatType.GROUP, ChatType.SUPERGROUP)


def thread_of(message: Message | None) -> int | None:
    """The forum topic a message belongs to (None outside topics)."""
    if message is None or not message.is_topic_message:
        return None
    return message.message_thread_id


async def language_for(update: Update, context: ContextTypes.DEFAULT_TYPE) -> Translator:
    """The chat's language in groups; in private, the user's choice or Telegram's."""
    chat = update.effective_chat
    user = update.effective_user
    d = deps(context)
    if chat is not None and is_group(chat):
        return translator(await d.service.chat_language(chat.id))
    if user is not None:
        prefs = await d.profiles.of(user.id)
        return translator(prefs.lang or normalize(user.language_code, d.settings.default_language))
    return translator(d.settings.default_language)


async def is_admin(context: ContextTypes.DEFAULT_TYPE, chat_id: int, user_id: int) -> bool:
    try:
        member = await context.bot.get_chat_member(chat_id, user_id)
    except TelegramError as exc:
        log.warning("getChatMember failed: %s", exc.message)
        return False
    return member.status in (ChatMemberStatus.ADMINISTRATOR, ChatMemberStatus.OWNER)


async def reply(update: Update, text: str, **kwargs: object) -> None:
    message = update.effective_message
    chat = update.effective_chat
    if message is None or chat is None:
        return
    await api.send_text(
        message.get_bot(),
        chat.id,
        text,
        thread_id=thread_of(message),
        reply_to=message.message_id,
        **kwargs,  # type: ignore[arg-type]
    )


async def refuse(update: Update, tr: Translator, code: str) -> None:
    """Tell the user, briefly, why nothing happened: an alert for a button, a reply otherwise."""
    text = texts.refusal(tr, code)
    if update.callback_query is not None:
        await api.answer(update.callback_query, text, alert=True)
    else:
        await reply(update, text)
