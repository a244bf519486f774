"""The command table: every command has its handler and its lines in every language, and
the registered handlers, Telegram's command menus and /help are all written from it."""

from __future__ import annotations

import inspect
import re
from functools import cache, partial
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po
from telegram import BotCommandScopeAllGroupChats, BotCommandScopeDefault
from telegram.ext import CommandHandler

from bot.handlers.command_table import ANYWHERE, COMMANDS, Chats, Command
from bot.i18n import DEFAULT_LANGUAGE, LANGUAGES, translator
from bot.telegram.command_texts import line
from tests.bot.conftest import Harness

LOCALES = Path(__file__).resolve().parents[3] / "bot" / "locales"
SOURCE = "en"  # the message ids' language: its catalog needs no translations

# The commands a place does not list, and why: Telegram's Start button sends /start (the
# greeting shows the help), and /help does not list itself.
NO_MENU_LINE = {"start"}
NO_HELP_LINE = {"start", "help"}


@cache
def catalog(lang: str) -> Catalog:
    with (LOCALES / lang / "LC_MESSAGES" / "messages.po").open("rb") as source:
        return read_po(source, locale=lang)


def ids(commands: tuple[Command, ...]) -> list[str]:
    return [command.name for command in commands]


def test_the_table_lists_each_command_once() -> None:
    names = ids(COMMANDS)
    assert len(names) == len(set(names)) >= 13
    for name in names:
        assert re.fullmatch(r"[a-z0-9_]{1,32}", name), name  # what Telegram takes


@pytest.mark.parametrize("command", COMMANDS, ids=ids(COMMANDS))
def test_every_command_has_a_handler(command: Command) -> None:
    handler = command.handler
    target = handler.func if isinstance(handler, partial) else handler
    assert inspect.iscoroutinefunction(target)
    # What the table binds leaves exactly (update, context) to python-telegram-bot.
    parameters = inspect.signature(handler).parameters.values()
    assert [p.name for p in parameters if p.default is inspect.Parameter.empty] == [
        "update",
        "context",
    ]
    assert command.works_in & ANYWHERE


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("command", COMMANDS, ids=ids(COMMANDS))
def test_every_command_has_its_lines_in_every_language(command: Command, lang: str) -> None:
    menu, help_line = command.lines.menu, command.lines.help
    assert (menu is None) == (command.name in NO_MENU_LINE)
    assert (help_line is None) == (command.name in NO_HELP_LINE)
    tr = translator(lang)
    for text in filter(None, (menu, help_line)):
        entry = catalog(lang).get(text)
        assert entry is not None, f"{text!r} is not in the {lang} catalog"
        if lang != SOURCE:
            assert entry.string and not entry.fuzzy, f"{text!r} is not translated to {lang}"
        assert line(tr, text).strip()
    if help_line is not None:
        assert line(tr, help_line).startswith(f"/{command.name} ")
    if menu is not None:
        assert 1 <= len(line(tr, menu)) <= 256  # a menu line Telegram takes


async def test_the_application_handles_exactly_the_tables_commands(h: Harness) -> None:
    registered = [
        handler
        for group in h.running[0].app.handlers.values()
        for handler in group
        if isinstance(handler, CommandHandler)
    ]
    assert sorted(name for handler in registered for name in handler.commands) == sorted(
        ids(COMMANDS)
    )
    by_name = {name: handler for handler in registered for name in handler.commands}
    for command in COMMANDS:
        assert by_name[command.name].callback is command.handler


def expected_menu(lang: str, chats: Chats) -> list[dict[str, str]]:
    tr = translator(lang)
    return [
        {"command": command.name, "description": line(tr, command.lines.menu)}
        for command in COMMANDS
        if command.lines.menu is not None and chats in command.works_in
    ]


async def test_the_menus_list_the_tables_commands_where_they_work(h: Harness) -> None:
    bot = h.running[0].app.bot
    scopes = {Chats.PRIVATE: BotCommandScopeDefault(), Chats.GROUPS: BotCommandScopeAllGroupChats()}
    for chats, scope in scopes.items():
        for lang in (*LANGUAGES, None):  # None: for users of other languages
            shown = await bot.get_my_commands(scope=scope, language_code=lang)
            wanted = expected_menu(lang or DEFAULT_LANGUAGE, chats)
            assert [c.to_dict() for c in shown] == wanted, (chats, lang)
    groups = await bot.get_my_commands(scope=scopes[Chats.GROUPS], language_code="en")
    private = await bot.get_my_commands(scope=scopes[Chats.PRIVATE], language_code="en")
    # Where a command does not work, its menu does not offer it: /notify is for groups.
    assert "notify" in [c.command for c in groups]
    assert "notify" not in [c.command for c in private]
    assert {"newgame", "practice", "help"} <= {c.command for c in private}


def help_lines(lang: str) -> list[str]:
    tr = translator(lang)
    return [line(tr, c.lines.help) for c in COMMANDS if c.lines.help is not None]


async def test_help_lists_the_tables_commands_in_its_order(h: Harness) -> None:
    ru_user, en_user = h.people("Андрей"), h.people("Andrew", lang="en")
    for user, lang in ((ru_user[0], "ru"), (en_user[0], "en")):
        answer = await h.say(user, user, "/help")
        assert answer.raw_text is not None
        shown = [row for row in answer.raw_text.splitlines() if row.startswith("/")]
        assert shown == help_lines(lang)
    # /start says the same after its greeting; in a group, /start answers as /help does.
    greeting = await h.start_bot(ru_user[0])
    assert greeting.raw_text is not None
    assert [row for row in greeting.raw_text.splitlines() if row.startswith("/")] == help_lines(
        "ru"
    )
    group = h.group(ru_user[0])
    in_group = await h.say(ru_user[0], group, "/start")
    assert in_group.raw_text is not None
    assert [row for row in in_group.raw_text.splitlines() if row.startswith("/")] == help_lines(
        "ru"
    )
