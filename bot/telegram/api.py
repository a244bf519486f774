"""Every call to Telegram goes through here, so each failure is handled in one place.

- "message is not modified" is success;
- a message that is gone, a user who blocked the bot, a group that became a
  supergroup come back as outcomes the caller acts on;
- `RetryAfter` waits and tries again, passing network trouble is retried once;
- anything else is logged and reported as a failure; nothing raises.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import timedelta
from enum import Enum
from typing import Any

from telegram import Bot, CallbackQuery, InlineKeyboardMarkup, InputMediaPhoto, Message
from telegram.error import (
    BadRequest,
    ChatMigrated,
    Forbidden,
    NetworkError,
    RetryAfter,
    TelegramError,
)

from bot.render import Picture

log = logging.getLogger(__name__)

ATTEMPTS = 3
MAX_RETRY_WAIT = 30.0


class Outcome(Enum):
    OK = "ok"
    GONE = "gone"  # the message (or chat) is not there any more
    FORBIDDEN = "forbidden"  # blocked by the user, or removed from the group
    MIGRATED = "migrated"  # the group became a supergroup: see `new_chat_id`
    FAILED = "failed"


@dataclass(frozen=True)
class Result:
    outcome: Outcome
    message: Message | None = None
    new_chat_id: int | None = None

    @property
    def ok(self) -> bool:
        return self.outcome is Outcome.OK

    @property
    def message_id(self) -> int | None:
        return None if self.message is None else self.message.message_id


GONE_MARKERS = (
    "message to edit not found",
    "message to delete not found",
    "message_id_invalid",
    "message can't be deleted",
    "message can't be edited",
    "chat not found",
    "there is no media in the message",
    "there is no text in the message",
)


async def call(action: Callable[[], Awaitable[Any]], what: str) -> Result:
    """Run one Bot API call with the project's error policy."""
    for attempt in range(ATTEMPTS):
        try:
            answer = await action()
            return Result(Outcome.OK, answer if isinstance(answer, Message) else None)
        except RetryAfter as exc:
            wait = exc.retry_after
            seconds = wait.total_seconds() if isinstance(wait, timedelta) else float(wait)
            log.warning("%s: flood control, waiting %.1f s", what, seconds)
            await asyncio.sleep(min(seconds, MAX_RETRY_WAIT) + 0.1)
        except ChatMigrated as exc:
            return Result(Outcome.MIGRATED, new_chat_id=exc.new_chat_id)
        except Forbidden as exc:
            log.info("%s: forbidden (%s)", what, exc.message)
            return Result(Outcome.FORBIDDEN)
        except BadRequest as exc:
            text = exc.message.lower()
            if "not modified" in text:
                return Result(Outcome.OK)
            if any(marker in text for marker in GONE_MARKERS):
                return Result(Outcome.GONE)
            log.warning("%s: bad request: %s", what, exc.message)
            return Result(Outcome.FAILED)
        except NetworkError as exc:  # includes TimedOut
            log.warning("%s: network error (%s), attempt %d", what, exc.message, attempt + 1)
            await asyncio.sleep(0.5 * (attempt + 1))
        except TelegramError as exc:
            log.warning("%s: %s", what, exc.message)
            return Result(Outcome.FAILED)
    return Result(Outcome.FAILED)


async def send_text(
    bot: Bot,
    chat_id: int,
    text: str,
    *,
    thread_id: int | None = None,
    markup: InlineKeyboardMarkup | None = None,
    reply_to: int | None = None,
) -> Result:
    return await call(
        lambda: bot.send_message(
            chat_id,
            text,
            parse_mode="HTML",
            message_thread_id=thread_id,
            reply_markup=markup,
            reply_to_message_id=reply_to,
            allow_sending_without_reply=True,
            disable_web_page_preview=True,
        ),
        f"sendMessage to {chat_id}",
    )


async def send_photo(
    bot: Bot,
    chat_id: int,
    photo: bytes,
    caption: str,
    *,
    thread_id: int | None = None,
    markup: InlineKeyboardMarkup | None = None,
    filename: str = "board.png",
) -> Result:
    return await call(
        lambda: bot.send_photo(
            chat_id,
            photo,
            caption=caption,
            parse_mode="HTML",
            message_thread_id=thread_id,
            reply_markup=markup,
            filename=filename,
        ),
        f"sendPhoto to {chat_id}",
    )


async def edit_photo(
    bot: Bot,
    chat_id: int,
    message_id: int,
    photo: bytes,
    caption: str,
    *,
    markup: InlineKeyboardMarkup | None = None,
    filename: str = "board.png",
) -> Result:
    media = InputMediaPhoto(photo, caption=caption, parse_mode="HTML", filename=filename)
    return await call(
        lambda: bot.edit_message_media(
            media, chat_id=chat_id, message_id=message_id, reply_markup=markup
        ),
        f"editMessageMedia in {chat_id}",
    )


async def show_photo(
    bot: Bot,
    chat_id: int,
    message_id: int | None,
    picture: Picture,
    caption: str,
    *,
    thread_id: int | None = None,
    markup: InlineKeyboardMarkup | None = None,
) -> Result:
    """A picture as a new message (`message_id` None), or in place of an existing one's."""
    if message_id is None:
        return await send_photo(
            bot,
            chat_id,
            picture.data,
            caption,
            thread_id=thread_id,
            markup=markup,
            filename=picture.filename,
        )
    return await edit_photo(
        bot, chat_id, message_id, picture.data, caption, markup=markup, filename=picture.filename
    )


async def edit_text(
    bot: Bot,
    chat_id: int,
    message_id: int,
    text: str,
    *,
    markup: InlineKeyboardMarkup | None = None,
) -> Result:
    return await call(
        lambda: bot.edit_message_text(
            text,
            chat_id=chat_id,
            message_id=message_id,
            parse_mode="HTML",
            reply_markup=markup,
            disable_web_page_preview=True,
        ),
        f"editMessageText in {chat_id}",
    )


async def edit_markup(
    bot: Bot, chat_id: int, message_id: int, markup: InlineKeyboardMarkup | None
) -> Result:
    return await call(
        lambda: bot.edit_message_reply_markup(
            chat_id=chat_id, message_id=message_id, reply_markup=markup
        ),
        f"editMessageReplyMarkup in {chat_id}",
    )


async def delete(bot: Bot, chat_id: int, message_id: int) -> Result:
    return await call(
        lambda: bot.delete_message(chat_id, message_id), f"deleteMessage in {chat_id}"
    )


async def send_document(
    bot: Bot, chat_id: int, data: bytes, filename: str, caption: str, thread_id: int | None
) -> Result:
    return await call(
        lambda: bot.send_document(
            chat_id, data, filename=filename, caption=caption, message_thread_id=thread_id
        ),
        f"sendDocument to {chat_id}",
    )


async def answer(query: CallbackQuery, text: str | None = None, alert: bool = False) -> None:
    """Answer a button press; a press too old to answer is not worth an error."""
    await call(lambda: query.answer(text, show_alert=alert), "answerCallbackQuery")
