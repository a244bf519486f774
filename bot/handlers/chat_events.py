"""Things that happen to a chat: a group becoming a supergroup."""

from __future__ import annotations

import logging

from telegram import Update
from telegram.ext import ContextTypes

from bot.handlers.common import deps

log = logging.getLogger(__name__)


async def on_migration(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """The old group's service message names the new supergroup: the games move there."""
    message = update.effective_message
    if message is None or message.migrate_to_chat_id is None:
        return
    old, new = message.chat.id, message.migrate_to_chat_id
    log.info("group %s became supergroup %s", old, new)
    d = deps(context)
    for thread_id in await d.service.move_chat(old, new):
        d.delivery.kick(new, thread_id)
