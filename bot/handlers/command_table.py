"""The bot's commands, each listed once: its handler, where it works, its menu and /help lines.

The handlers are registered from `COMMANDS` (bot.handlers), Telegram's command menu is
set from it (`menu`, bot.app) and /help written from it (`help_text`). A new command is
a row here, its handler, and its lines (bot.telegram.command_texts and the catalogs).
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from enum import Flag, auto
from functools import partial
from typing import Any

from telegram import Update
from telegram.ext import ContextTypes

from bot.handlers import commands, notify
from bot.i18n import Translator
from bot.telegram import command_texts as lines
from bot.telegram.command_texts import CommandLines

Handler = Callable[[Update, ContextTypes.DEFAULT_TYPE], Coroutine[Any, Any, None]]


class Chats(Flag):
    """Where a command does its job; Telegram's menu offers it there. (It is answered
    everywhere: elsewhere it says where it works.)"""

    PRIVATE = auto()
    GROUPS = auto()


ANYWHERE = Chats.PRIVATE | Chats.GROUPS


@dataclass(frozen=True)
class Command:
    """One command: `/name` is answered by `handler`, offered in the menus of `works_in`,
    and listed in the menu and /help with `lines`."""

    name: str
    handler: Handler
    works_in: Chats
    lines: CommandLines


def help_text(tr: Translator) -> str:
    """/help's answer (/start says it too)."""
    return lines.help_text(tr, [command.lines for command in COMMANDS])


def menu(tr: Translator, chats: Chats) -> list[tuple[str, str]]:
    """(command, what it does) for Telegram's command menu in `chats`."""
    return [
        (command.name, lines.line(tr, command.lines.menu))
        for command in COMMANDS
        if command.lines.menu is not None and chats in command.works_in
    ]


# In the order the menu and /help list them. /start and /help answer with `help_text`,
# handed to them here (their module cannot import this one: it imports theirs).
COMMANDS = (
    Command("start", partial(commands.cmd_start, help_text=help_text), ANYWHERE, lines.START),
    Command("newgame", commands.cmd_newgame, ANYWHERE, lines.NEWGAME),
    # In a group it points to the private chat: the group's menu is where players find it.
    Command("practice", commands.cmd_practice, ANYWHERE, lines.PRACTICE),
    Command("rules", commands.cmd_rules, ANYWHERE, lines.RULES),
    Command("score", commands.cmd_score, ANYWHERE, lines.SCORE),
    Command("leave", commands.cmd_leave, ANYWHERE, lines.LEAVE),
    Command("stop", commands.cmd_stop, ANYWHERE, lines.STOP),
    # A private chat has no stats: practice counts toward none.
    Command("stats", commands.cmd_stats, Chats.GROUPS, lines.STATS),
    Command("top", commands.cmd_top, Chats.GROUPS, lines.TOP),
    Command("notify", notify.cmd_notify, Chats.GROUPS, lines.NOTIFY),
    Command("export", commands.cmd_export, ANYWHERE, lines.EXPORT),
    Command("lang", commands.cmd_lang, ANYWHERE, lines.LANG),
    Command("help", partial(commands.cmd_help, help_text=help_text), ANYWHERE, lines.HELP),
)
