"""Every refusal code the engine and the bot can raise has its own words, in both languages.

The codes are read from the code itself, never from a list kept by hand: the `code` of
every error class (the engine's errors, the storage's), each `code = "…"` the error
handler picks, and the code of every `Refusal(…)`, `refuse(…, code)` and
`texts.refusal(tr, code)` call in bot/, and of every engine error made with a code of
its own (`IllegalMoveError("…", "no_round")`). A code that reaches the people without
words of its own falls back to «That is not possible right now.», which tells nobody
what happened (issue 27, point 15); a text no code can reach is dead (`private_only`
was one).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

from bot.i18n import translator
from bot.telegram.texts import REFUSALS, UNKNOWN_REFUSAL

ROOT = Path(__file__).resolve().parents[3]
PACKAGES = ("bot", "engine")
CYRILLIC = frozenset("абвгдеёжзийклмнопрстуфхцчшщъыьэюя")


@dataclass(frozen=True)
class Found:
    code: str
    where: str


def modules() -> Iterator[tuple[str, ast.Module]]:
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            yield str(path.relative_to(ROOT)), ast.parse(path.read_text(), str(path))


def module_values(tree: ast.Module) -> dict[str, ast.expr]:
    """Names bound at a module's top level to a value (a dict of codes, say)."""
    bound: dict[str, ast.expr] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            if isinstance(target, ast.Name):
                bound[target.id] = node.value
        elif (
            isinstance(node, ast.AnnAssign)
            and isinstance(node.target, ast.Name)
            and node.value is not None
        ):
            bound[node.target.id] = node.value
    return bound


class Unreadable(Exception):
    """A code given in a way this test cannot follow: teach it, rather than miss codes."""


def strings(node: ast.expr, bound: dict[str, ast.expr]) -> set[str] | None:
    """The codes an expression can give; None for one taken from elsewhere at run time (an
    error's `.code`, a parameter named `code`), whose codes are collected where they are
    made."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value}
    if isinstance(node, ast.IfExp):
        return (strings(node.body, bound) or set()) | (strings(node.orelse, bound) or set())
    if isinstance(node, ast.Attribute) and node.attr == "code":
        return None
    if isinstance(node, ast.Name) and node.id == "code":
        return None
    if isinstance(node, ast.Name) and node.id in bound:
        return strings(bound[node.id], bound)
    if isinstance(node, ast.Dict):  # a table of codes: its values
        found: set[str] = set()
        for value in node.values:
            found |= strings(value, bound) or set()
        return found
    if (  # TABLE.get(key, default)
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "get"
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id in bound
    ):
        found = strings(node.func.value, bound) or set()
        for arg in node.args[1:]:
            found |= strings(arg, bound) or set()
        return found
    raise Unreadable(ast.unparse(node))


def call_name(call: ast.Call) -> str:
    func = call.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return ""


def engine_errors() -> set[str]:
    """The engine's error classes (DominoError and everything built on it)."""
    tree = ast.parse((ROOT / "engine" / "errors.py").read_text())
    found = {"DominoError"}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            bases = {base.id for base in node.bases if isinstance(base, ast.Name)}
            if bases & found:
                found.add(node.name)
    return found


# The bot's ways of refusing: the code's place among the arguments.
BOT_REFUSING = {"Refusal": 0, "refuse": 2, "refusal": 1}  # texts.refusal(tr, code)


def code_argument(call: ast.Call, errors: set[str], package: str) -> ast.expr | None:
    """The argument that carries the code of a refusal made by this call, if it makes one."""
    name = call_name(call)
    position = BOT_REFUSING.get(name) if package == "bot" else None
    func = call.func
    texts_refusal = isinstance(func, ast.Name) or (
        isinstance(func, ast.Attribute)
        and isinstance(func.value, ast.Name)
        and func.value.id == "texts"
    )
    if name == "refusal" and not texts_refusal:  # the engine's game.refusal(move, seat)
        position = None
    if name in errors:  # IllegalMoveError(message, code)
        position = 1
    for keyword in call.keywords:
        if keyword.arg == "code" and position is not None:
            return keyword.value
    if position is None or len(call.args) <= position:
        return None
    return call.args[position]


@cache
def raised_codes() -> tuple[Found, ...]:
    errors = engine_errors()
    found: list[Found] = []
    for where, tree in modules():
        bound = module_values(tree)
        for node in ast.walk(tree):
            at = f"{where}:{getattr(node, 'lineno', 0)}"
            if isinstance(node, ast.Assign):  # code = "busy"; an error class's code
                names = [t.id for t in node.targets if isinstance(t, ast.Name)]
                if "code" in names:
                    codes = strings(node.value, bound) or set()
                    found += [Found(code, at) for code in codes]
            elif isinstance(node, ast.Call):
                argument = code_argument(node, errors, where.split("/")[0])
                if argument is None:
                    continue
                try:
                    codes = strings(argument, bound)
                except Unreadable as exc:
                    raise AssertionError(f"{at}: cannot tell the code of {exc}") from None
                found += [Found(code, at) for code in codes or ()]
    return tuple(found)


def test_the_codes_are_found_in_the_code() -> None:
    codes = {found.code for found in raised_codes()}
    # One of each way a code is given, so that the walk cannot quietly find nothing.
    assert {"illegal", "bad_notation", "no_round", "does_not_fit"} <= codes  # the engine
    assert {"broken_game", "newer_game", "game_lost"} <= codes  # storage error classes
    assert {"busy", "storage_down", "internal_error"} <= codes  # the error handler
    assert {"lobby_full", "bot_removed", "lobby_closed", "not_started"} <= codes  # the bot


def raised() -> list[str]:
    return sorted({found.code for found in raised_codes()})


@pytest.mark.parametrize("code", raised())
def test_every_code_raised_has_its_own_words_in_both_languages(code: str) -> None:
    where = sorted({found.where for found in raised_codes() if found.code == code})
    assert code in REFUSALS, f"{code!r} (raised at {where}) has no text in texts.REFUSALS"
    for lang in ("ru", "en"):
        tr = translator(lang)
        words = tr(REFUSALS[code])
        assert words and words != tr(UNKNOWN_REFUSAL), (code, lang)
    russian = translator("ru")(REFUSALS[code])
    assert CYRILLIC & set(russian.lower()), f"{code!r} is not translated into Russian: {russian}"


def test_no_two_codes_share_their_words() -> None:
    by_words: dict[str, list[str]] = {}
    for code, words in REFUSALS.items():
        by_words.setdefault(words, []).append(code)
    assert [codes for codes in by_words.values() if len(codes) > 1] == []


def test_every_text_is_for_a_code_that_can_be_raised() -> None:
    codes = {found.code for found in raised_codes()}
    assert sorted(set(REFUSALS) - codes) == []
