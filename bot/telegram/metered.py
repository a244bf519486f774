"""Counts Bot API requests (by method and answer) and updates (by kind) into bot.metrics.

Kept out of bot.metrics, which the game and storage layers import: those never load
python-telegram-bot.
"""

from __future__ import annotations

import re
from typing import Any

from telegram import Update
from telegram.error import NetworkError, TimedOut
from telegram.request import BaseRequest

from bot import metrics

METHOD = re.compile(r"/([A-Za-z]{1,64})$")


def update_kind(update: object) -> str:
    if not isinstance(update, Update):
        return "other"
    if update.callback_query is not None:
        return "callback"
    if update.my_chat_member is not None:
        return "my_chat_member"
    if update.edited_message is not None:
        return "edited_message"
    message = update.message
    if message is not None:
        entities = message.entities or ()
        if any(e.type == "bot_command" and e.offset == 0 for e in entities):
            return "command"
        return "message"
    return "other"


class MeteredRequest(BaseRequest):
    """A python-telegram-bot HTTP transport (`inner`: bot.telegram.transport's, or any other
    `BaseRequest`) that counts every request by method and answer: getUpdates and the
    start-up calls too, which pass no rate limiter."""

    def __init__(self, inner: BaseRequest) -> None:
        self.inner = inner

    @property
    def read_timeout(self) -> float | None:
        return self.inner.read_timeout

    async def initialize(self) -> None:
        await self.inner.initialize()

    async def shutdown(self) -> None:
        await self.inner.shutdown()

    async def do_request(
        self, url: str, method: str, *args: Any, **kwargs: Any
    ) -> tuple[int, bytes]:
        # The request and its timeouts go to `inner` as python-telegram-bot gave them.
        found = METHOD.search(url)  # the URL's last part; never the token
        name = found.group(1) if found else "other"
        try:
            status, payload = await self.inner.do_request(url, method, *args, **kwargs)
        except TimedOut:
            metrics.telegram_unanswered(name, timed_out=True)
            raise
        except NetworkError:
            metrics.telegram_unanswered(name, timed_out=False)
            raise
        metrics.telegram_answered(name, status)
        return status, payload
