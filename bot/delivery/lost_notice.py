"""Telling a chat that its game could not be read and was set aside."""

from __future__ import annotations

import logging
from html import escape

from bot.game.service import GameService
from bot.i18n import translator
from bot.telegram import api, texts
from bot.telegram.call_priority import Priority

log = logging.getLogger(__name__)


async def tell_lost(
    bot: api.Bot, service: GameService, chat_id: int, thread_id: int | None
) -> None:
    """Say in the chat that its game could not be read and was set aside."""
    try:
        tr = translator(await service.chat_language(chat_id))
        text = escape(texts.refusal(tr, "game_lost"))
        result = await api.send_text(
            bot, chat_id, text, thread_id=thread_id, priority=Priority.BOARD
        )
        if not result.ok:
            log.warning("chat %s: could not say its game was lost (%s)", chat_id, result)
    except Exception:  # a notice must never take the process down
        log.exception("chat %s: could not say its game was lost", chat_id)
