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

from bot.handlers import buttons, chat_events, commands, notify
from bot.handlers.errors import on_error

COMMANDS = {
    "start": commands.cmd_start,
    "newgame": commands.cmd_newgame,
    "practice": commands.cmd_practice,
    "rules": commands.cmd_rules,
    "help": commands.cmd_help,
    "score": commands.cmd_score,
    "stop": commands.cmd_stop,
    "leave": commands.cmd_leave,
    "stats": commands.cmd_stats,
    "top": commands.cmd_top,
    "notify": notify.cmd_notify,
    "lang": commands.cmd_lang,
    "export": commands.cmd_export,
}


def register(application: Application) -> None:  # type: ignore[type-arg]
    for name, callback in COMMANDS.items():
        application.add_handler(CommandHandler(name, callback))
    application.add_handler(CallbackQueryHandler(buttons.on_button))
    application.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, chat_events.on_migration))
    topics = filters.StatusUpdate.FORUM_TOPIC_CREATED | filters.StatusUpdate.FORUM_TOPIC_EDITED
    application.add_handler(MessageHandler(topics, chat_events.on_topic))
    application.add_handler(
        ChatMemberHandler(chat_events.on_my_membership, ChatMemberHandler.MY_CHAT_MEMBER)
    )
    application.add_error_handler(on_error)
