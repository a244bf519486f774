"""Telegram update handlers, registered on the application in one place."""

from __future__ import annotations

from telegram.ext import (
    Application,
    CallbackQueryHandler,
    ChatMemberHandler,
    CommandHandler,
    MessageHandler,
    filters,
)

from bot.handlers import buttons, chat_events
from bot.handlers.command_table import COMMANDS
from bot.handlers.error_handler import on_error


def register(application: Application) -> None:  # type: ignore[type-arg]
    for command in COMMANDS:
        application.add_handler(CommandHandler(command.name, command.handler))
    application.add_handler(CallbackQueryHandler(buttons.on_button))
    application.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, chat_events.on_migration))
    topics = filters.StatusUpdate.FORUM_TOPIC_CREATED | filters.StatusUpdate.FORUM_TOPIC_EDITED
    application.add_handler(MessageHandler(topics, chat_events.on_topic))
    application.add_handler(
        ChatMemberHandler(chat_events.on_my_membership, ChatMemberHandler.MY_CHAT_MEMBER)
    )
    application.add_error_handler(on_error)
