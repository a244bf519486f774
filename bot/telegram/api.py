"""Every call to Telegram goes through here, so each failure is handled in one place.

Nothing raises: each call comes back as a `Result` whose outcome the caller acts on.

- "message is not modified" is success;
- a message that is gone, a user who blocked the bot, a group that became a
  supergroup are outcomes of their own;
- a 429 comes back as RETRY with Telegram's wait (the call budget has already
  paused that chat), a timeout as UNCERTAIN: the call may have taken effect;
- the delivery layer retries later itself; a `patient` caller (a handler
  answering someone) waits a short 429 out, or tries once more after a network
  error that happened before anything was sent;
- a button press is answered a second time after a 5xx or no answer in time, while the
  press is fresh (see `answer`).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import timedelta
from enum import Enum
from typing import Any

from telegram import Bot as Bot  # the delivery layer names the bot by this, not by telegram
from telegram import CallbackQuery, InlineKeyboardMarkup, InputMediaPhoto, Message
from telegram.error import (
    BadRequest,
    ChatMigrated,
    Forbidden,
    NetworkError,
    RetryAfter,
    TelegramError,
    TimedOut,
)
from telegram.ext import ExtBot

from bot import metrics
from bot.render import Picture
from bot.telegram.budget_dispatcher import Superseded
from bot.telegram.call_priority import Priority, Ticket

log = logging.getLogger(__name__)

PATIENT_WAIT = 10.0  # a patient caller waits out a 429 this long at most
# answerCallbackQuery is small and Telegram answers it at once; a press can be answered
# only for some seconds (about 15 in practice). An answer unanswered after ANSWER_TIMEOUT,
# or refused by a 5xx, is tried once more if that first try ended within
# ANSWER_RETRY_WITHIN seconds of the update's arrival: the second ends in time too.
ANSWER_TIMEOUT = 4.0
ANSWER_RETRY_WITHIN = 8.0


class CallOutcome(Enum):
    OK = "ok"
    GONE = "gone"  # the message (or chat) is not there any more
    FORBIDDEN = "forbidden"  # blocked by the user, or removed from the group
    MIGRATED = "migrated"  # the group became a supergroup: see `new_chat_id`
    RETRY = "retry"  # flood control: try again after `retry_after`
    UNCERTAIN = "uncertain"  # no answer in time: the call may or may not have taken effect
    SUPERSEDED = "superseded"  # given up before it was made: what it would show changed
    FAILED = "failed"  # refused, or not sent at all


@dataclass(frozen=True)
class Result:
    outcome: CallOutcome
    message: Message | None = None
    new_chat_id: int | None = None
    retry_after: float = 0.0  # RETRY: seconds Telegram asked us to wait
    unsent: bool = False  # FAILED before anything reached Telegram (safe to try again)

    @property
    def ok(self) -> bool:
        return self.outcome is CallOutcome.OK

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
    # A press answered already (a first answer that timed out but arrived), or too old.
    "query is too old",
    "query id is invalid",
)

_update_began: ContextVar[float | None] = ContextVar("update_began", default=None)


def update_began(at: float | None = None) -> None:
    """The update this task handles arrived now (or `at`, `time.monotonic()`): the time a
    button press is answered from (see `answer`)."""
    _update_began.set(time.monotonic() if at is None else at)


async def call(action: Callable[[], Awaitable[Any]], what: str, patient: bool = False) -> Result:
    """Run one Bot API call with the project's error policy."""
    result = await _once(action, what)
    if patient and (
        (result.outcome is CallOutcome.RETRY and result.retry_after <= PATIENT_WAIT)
        or result.unsent
    ):
        await asyncio.sleep(max(result.retry_after, 0.5))
        metrics.TELEGRAM_RETRIES.inc()
        result = await _once(action, what)
    return result


async def _once(action: Callable[[], Awaitable[Any]], what: str) -> Result:
    try:
        answer = await action()
        return Result(CallOutcome.OK, answer if isinstance(answer, Message) else None)
    except RetryAfter as exc:
        wait = exc.retry_after
        seconds = wait.total_seconds() if isinstance(wait, timedelta) else float(wait)
        log.info("%s: flood control, %.1f s", what, seconds)
        return Result(CallOutcome.RETRY, retry_after=seconds)
    except ChatMigrated as exc:
        return Result(CallOutcome.MIGRATED, new_chat_id=exc.new_chat_id)
    except Forbidden as exc:
        log.info("%s: forbidden (%s)", what, exc.message)
        return Result(CallOutcome.FORBIDDEN)
    except BadRequest as exc:
        text = exc.message.lower()
        if "not modified" in text:
            return Result(CallOutcome.OK)
        if any(marker in text for marker in GONE_MARKERS):
            return Result(CallOutcome.GONE)
        log.warning("%s: bad request: %s", what, exc.message)
        return Result(CallOutcome.FAILED)
    except Superseded:
        return Result(CallOutcome.SUPERSEDED)
    except TimedOut as exc:
        log.warning("%s: no answer in time (%s)", what, exc.message)
        return Result(CallOutcome.UNCERTAIN)
    except NetworkError as exc:
        log.warning("%s: network error (%s)", what, exc.message)
        return Result(CallOutcome.FAILED, unsent=True)
    except TelegramError as exc:
        log.warning("%s: %s", what, exc.message)
        return Result(CallOutcome.FAILED)


def _ext(bot: Bot) -> ExtBot[Any]:  # the budget takes a Priority or a Ticket
    """The application's bot: only it takes the call budget's priority (`rate_limit_args`)."""
    assert isinstance(bot, ExtBot)
    return bot


async def send_text(
    bot: Bot,
    chat_id: int,
    text: str,
    *,
    thread_id: int | None = None,
    markup: InlineKeyboardMarkup | None = None,
    reply_to: int | None = None,
    priority: Priority | Ticket = Priority.ANSWER,
    patient: bool = True,
) -> Result:
    return await call(
        lambda: _ext(bot).send_message(
            chat_id,
            text,
            parse_mode="HTML",
            message_thread_id=thread_id,
            reply_markup=markup,
            reply_to_message_id=reply_to,
            allow_sending_without_reply=True,
            disable_web_page_preview=True,
            rate_limit_args=priority,
        ),
        f"sendMessage to {chat_id}",
        patient,
    )


async def send_photo(
    bot: Bot,
    chat_id: int,
    picture: Picture,
    caption: str,
    *,
    thread_id: int | None = None,
    markup: InlineKeyboardMarkup | None = None,
    priority: Priority | Ticket = Priority.BOARD,
) -> Result:
    return await call(
        lambda: _ext(bot).send_photo(
            chat_id,
            picture.data,
            caption=caption,
            parse_mode="HTML",
            message_thread_id=thread_id,
            reply_markup=markup,
            filename=picture.filename,
            rate_limit_args=priority,
        ),
        f"sendPhoto to {chat_id}",
    )


async def edit_photo(
    bot: Bot,
    chat_id: int,
    message_id: int,
    picture: Picture,
    caption: str,
    *,
    markup: InlineKeyboardMarkup | None = None,
    priority: Priority | Ticket = Priority.BOARD,
) -> Result:
    media = InputMediaPhoto(
        picture.data, caption=caption, parse_mode="HTML", filename=picture.filename
    )
    return await call(
        lambda: _ext(bot).edit_message_media(
            media,
            chat_id=chat_id,
            message_id=message_id,
            reply_markup=markup,
            rate_limit_args=priority,
        ),
        f"editMessageMedia in {chat_id}",
    )


async def edit_caption(
    bot: Bot,
    chat_id: int,
    message_id: int,
    caption: str,
    *,
    markup: InlineKeyboardMarkup | None = None,
    priority: Priority | Ticket = Priority.BOARD,
) -> Result:
    return await call(
        lambda: _ext(bot).edit_message_caption(
            chat_id=chat_id,
            message_id=message_id,
            caption=caption,
            parse_mode="HTML",
            reply_markup=markup,
            rate_limit_args=priority,
        ),
        f"editMessageCaption in {chat_id}",
    )


async def edit_text(
    bot: Bot,
    chat_id: int,
    message_id: int,
    text: str,
    *,
    markup: InlineKeyboardMarkup | None = None,
    priority: Priority | Ticket = Priority.ANSWER,
    patient: bool = False,
) -> Result:
    return await call(
        lambda: _ext(bot).edit_message_text(
            text,
            chat_id=chat_id,
            message_id=message_id,
            parse_mode="HTML",
            reply_markup=markup,
            disable_web_page_preview=True,
            rate_limit_args=priority,
        ),
        f"editMessageText in {chat_id}",
        patient,
    )


async def edit_markup(
    bot: Bot,
    chat_id: int,
    message_id: int,
    markup: InlineKeyboardMarkup | None,
    *,
    priority: Priority | Ticket = Priority.ANSWER,
) -> Result:
    return await call(
        lambda: _ext(bot).edit_message_reply_markup(
            chat_id=chat_id, message_id=message_id, reply_markup=markup, rate_limit_args=priority
        ),
        f"editMessageReplyMarkup in {chat_id}",
    )


async def delete(
    bot: Bot, chat_id: int, message_id: int, *, priority: Priority | Ticket = Priority.OTHER
) -> Result:
    return await call(
        lambda: _ext(bot).delete_message(chat_id, message_id, rate_limit_args=priority),
        f"deleteMessage in {chat_id}",
    )


async def send_document(
    bot: Bot, chat_id: int, data: bytes, filename: str, caption: str, thread_id: int | None
) -> Result:
    return await call(
        lambda: _ext(bot).send_document(
            chat_id,
            data,
            filename=filename,
            caption=caption,
            message_thread_id=thread_id,
            rate_limit_args=Priority.ANSWER,
        ),
        f"sendDocument to {chat_id}",
        patient=True,
    )


async def answer(query: CallbackQuery, text: str | None = None, alert: bool = False) -> None:
    """Answer a button press (not counted by Telegram); a press too old to answer is no error.

    After a 5xx or no answer in time it is answered once more if the press is still fresh,
    so its spinner stops. Telegram takes one answer a press: when the first one arrived
    after all, the second is refused ("query is too old"), which is done, not an error.
    """
    began = _update_began.get()
    if began is None:
        began = time.monotonic()

    def attempt() -> Awaitable[Any]:
        return query.answer(text, show_alert=alert, read_timeout=ANSWER_TIMEOUT)

    result = await call(attempt, "answerCallbackQuery")
    failed = result.outcome is CallOutcome.UNCERTAIN or result.unsent  # no answer, or a 5xx
    if failed and time.monotonic() - began <= ANSWER_RETRY_WITHIN:
        metrics.TELEGRAM_RETRIES.inc()
        await call(attempt, "answerCallbackQuery")
