"""Refusals reach one handler: a handler raises what the rules refuse (or a game it cannot
read, or too many writers at once), and the error handler answers it at once, in the
user's language — a reply to a command, an alert for a button — without counting or
logging a refusal as an error."""

from __future__ import annotations

import ast
import logging
from pathlib import Path

import pytest
from telegram import Update
from telegram.ext import CommandHandler, ContextTypes

from bot import metrics
from bot.game.outcomes import Refusal
from bot.i18n import translator
from bot.telegram.texts import REFUSALS
from tests.bot.conftest import Harness

HANDLERS = Path(__file__).resolve().parents[3] / "bot" / "handlers"
CAUGHT = {"Refusal", "BrokenGameError", "ConflictError", "GameLostError"}

# The handlers' functions that still catch one of those, and why: each does something
# other than answering it (the error handler answers what they let through).
MAY_CATCH = {
    # Tries as the user first; only a refusal that an admin could lift asks Telegram.
    ("buttons.py", "_as_admin_if_needed"): {"Refusal"},
    # A press from an older hand message: that message's buttons go, then it is refused.
    ("buttons.py", "_hand_button"): {"Refusal"},
    ("buttons.py", "_stray"): {"Refusal"},  # the clean-up above, done if it can be
    # /rules opens on the chat's game: without one it can read, on the first game.
    ("commands.py", "_chat_variant"): {"BrokenGameError"},
    # /score's answer, a refusal too, is re-used for a repeat in a group (repeats.py).
    ("commands.py", "cmd_score"): {"BrokenGameError"},
    # /stop clears a game it cannot read (an admin in a group); a lost one it lets by.
    ("commands.py", "cmd_stop"): {"GameLostError", "BrokenGameError"},
    # Where a game cannot be read, the list of his games elsewhere leaves it out.
    ("commands.py", "_games_elsewhere"): {"BrokenGameError"},
    ("commands.py", "_next_seat"): {"BrokenGameError"},  # a Join names no seat then
    ("notify.py", "call_all"): {"BrokenGameError"},  # the calls stop: nobody to answer
}


def caught_names(node: ast.expr | None) -> set[str]:
    """The exception classes an `except` clause (or a `suppress(...)`) names."""
    if node is None:
        return set()
    parts = node.elts if isinstance(node, ast.Tuple) else [node]
    return {getattr(part, "id", getattr(part, "attr", "")) for part in parts}


def catches() -> dict[tuple[str, str], set[str]]:
    """(module, function) -> the refusals and game errors it catches."""
    found: dict[tuple[str, str], set[str]] = {}
    for path in sorted(HANDLERS.glob("*.py")):
        if path.name == "error_handler.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for function in ast.walk(tree):
            if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for node in ast.walk(function):
                names: set[str] = set()
                if isinstance(node, ast.ExceptHandler):
                    names = caught_names(node.type)
                elif isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "suppress":
                    names = {n for arg in node.args for n in caught_names(arg)}
                if names & CAUGHT:
                    found.setdefault((path.name, function.name), set()).update(names & CAUGHT)
    return found


def test_the_handlers_catch_a_refusal_only_to_do_something_else() -> None:
    assert catches() == MAY_CATCH


def test_only_the_error_handler_answers_a_refusal() -> None:
    answering = []
    for path in sorted(HANDLERS.glob("*.py")):
        if path.name in ("error_handler.py", "common.py"):  # common.py: `refuse` itself
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            name = ""
            if isinstance(node, ast.Call):
                name = getattr(node.func, "id", getattr(node.func, "attr", ""))
            if name == "refuse":
                answering.append(f"{path.name}:{node.lineno}")
    assert answering == []


async def refused(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    raise Refusal("not_your_turn")


def errors_counted() -> float:
    kinds = ("not_your_turn", "internal_error")
    return sum(metrics.value("domino_errors_total", kind=kind) for kind in kinds)


@pytest.mark.parametrize("lang", ["ru", "en"])
async def test_a_raised_refusal_is_answered_in_the_users_language_and_not_counted(
    h: Harness, lang: str, caplog: pytest.LogCaptureFixture
) -> None:
    h.running[0].app.add_handler(CommandHandler("refused", refused))
    (user,) = h.people("Андрей" if lang == "ru" else "Andrew", lang=lang)
    group = h.group(user)
    before = errors_counted()
    with caplog.at_level(logging.WARNING, logger="bot"):
        in_private = await h.say(user, user, "/refused")
        in_group = await h.say(user, group, "/refused")  # the chat's language: Russian
    assert in_private.text == translator(lang)(REFUSALS["not_your_turn"])
    assert in_group.text == translator("ru")(REFUSALS["not_your_turn"])
    assert errors_counted() == before
    assert [r for r in caplog.records if r.name.startswith("bot.handlers")] == []
