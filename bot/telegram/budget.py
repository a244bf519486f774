"""The bot token's call budget as python-telegram-bot's rate limiter.

Every call that sends, edits or deletes a message takes its place in the budget first
(python-telegram-bot hands each request to `process_request`); answers to button
presses and reads don't count, as on Telegram. How the budget is counted and handed
out: `bot.telegram.budget_dispatcher`; the classes of calls and their shares of a
group's minute: `bot.telegram.call_priority`.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from datetime import timedelta
from typing import Any

from telegram.error import RetryAfter
from telegram.ext import BaseRateLimiter

from bot.telegram.budget_dispatcher import BudgetDispatcher
from bot.telegram.call_priority import Priority, Ticket

# Every Bot API method that changes what a chat shows; all of them count, as on Telegram.
COUNTED_METHODS = frozenset(
    {
        "sendMessage",
        "sendPhoto",
        "sendDocument",
        "sendMediaGroup",
        "sendChatAction",
        "copyMessage",
        "forwardMessage",
        "editMessageText",
        "editMessageCaption",
        "editMessageMedia",
        "editMessageReplyMarkup",
        "deleteMessage",
        "deleteMessages",
        "pinChatMessage",
        "unpinChatMessage",
        "unpinAllChatMessages",
    }
)


class CallBudget(BudgetDispatcher, BaseRateLimiter[Ticket | Priority]):
    """python-telegram-bot's rate limiter, backed by the shared budget in Redis."""

    _closed = False

    async def initialize(self) -> None:
        self._closed = False

    async def shutdown(self) -> None:
        self._closed = True  # calls still made while shutting down go unmetered
        await self.stop()

    async def process_request(
        self,
        callback: Callable[..., Coroutine[Any, Any, bool | dict[str, Any] | list[dict[str, Any]]]],
        args: Any,
        kwargs: dict[str, Any],
        endpoint: str,
        data: dict[str, Any],
        rate_limit_args: Ticket | Priority | None,
    ) -> bool | dict[str, Any] | list[dict[str, Any]]:
        if endpoint not in COUNTED_METHODS or self.store is None or self._closed:
            return await callback(*args, **kwargs)
        chat_id = _chat_id(data.get("chat_id"))
        if isinstance(rate_limit_args, Ticket):
            ticket = rate_limit_args
        else:
            ticket = Ticket(Priority.ANSWER if rate_limit_args is None else rate_limit_args)
        grant = await self.acquire(chat_id, ticket)
        try:
            return await callback(*args, **kwargs)
        except RetryAfter as exc:
            await self.told_to_wait(chat_id, _seconds(exc.retry_after))
            raise
        finally:
            await self._restamp(chat_id, grant)


def _chat_id(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None  # a channel's @username: not one of ours


def _seconds(value: float | timedelta) -> float:
    return value.total_seconds() if isinstance(value, timedelta) else float(value)
