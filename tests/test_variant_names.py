"""One registry: no game's name is tested outside `engine/variants.py` (STYLE.md).

A rule difference is a `Ruleset` flag or method, and a list of games is
`engine.VARIANTS`. So in the product's and the benchmarks' Python (bot/, engine/,
bench/), apart from engine/variants.py, a game's name («fives», «muggins»,
«twolane», as a string constant) may not be:

- compared: an operand of ==, !=, in, not in, is, is not, or an element of a
  literal tuple, list or set that something is tested `in`;
- a case of a `match` statement;
- a key of a dict literal (a table by game is a ruleset's attribute);
- one of two or more names in one tuple, list or set literal, or in a subscript
  such as Literal[...]: the list of games spelled out.

A name on its own as data stays allowed: a default value (a stored record's
default game), an argument (`Game.new("fives", ...)`, a benchmark's tables), a
docstring or message. Tests may use names freely, and rulebook pages are named by
their game (bot/rulebook/<lang>/<name>.html), which this does not look at.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
REGISTRY = ROOT / "engine" / "variants.py"
SOURCES = sorted(
    path
    for folder in ("bot", "engine", "bench")
    for path in (ROOT / folder).rglob("*.py")
    if path != REGISTRY
)


def registered_names() -> set[str]:
    """The names the registry's own rulesets give themselves (`name = "..."` in a class)."""
    names = set()
    for node in ast.walk(ast.parse(REGISTRY.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ClassDef):
            for statement in node.body:
                if (
                    isinstance(statement, ast.Assign)
                    and [getattr(t, "id", None) for t in statement.targets] == ["name"]
                    and isinstance(statement.value, ast.Constant)
                ):
                    names.add(statement.value.value)
    return names


NAMES = registered_names()


def name_constants(nodes: list[ast.expr | None]) -> list[ast.Constant]:
    return [n for n in nodes if isinstance(n, ast.Constant) and n.value in NAMES]


def name_uses(source: str, filename: str = "<source>") -> list[tuple[int, str]]:
    """(line, what) for every forbidden use of a game's name in `source`."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source, filename)):
        if isinstance(node, ast.Compare):
            operands: list[ast.expr | None] = [node.left, *node.comparators]
            for name in name_constants(operands):
                found.append((node.lineno, f"{name.value!r} compared"))
            for op, right in zip(node.ops, node.comparators, strict=True):
                if isinstance(op, ast.In | ast.NotIn) and isinstance(
                    right, ast.Tuple | ast.List | ast.Set
                ):
                    for name in name_constants(list(right.elts)):
                        found.append((node.lineno, f"tested to be in a list with {name.value!r}"))
        elif isinstance(node, ast.MatchValue):
            for name in name_constants([node.value]):
                found.append((node.lineno, f"case {name.value!r}"))
        elif isinstance(node, ast.Dict):
            for name in name_constants(list(node.keys)):
                found.append((node.lineno, f"dict keyed by {name.value!r}"))
        elif isinstance(node, ast.Tuple | ast.List | ast.Set):
            names = name_constants(list(node.elts))
            if len(names) >= 2:
                listed = ", ".join(repr(n.value) for n in names)
                found.append((node.lineno, f"the games listed: {listed}"))
    return found


def test_the_registry_names_the_three_games() -> None:
    assert {"fives", "muggins", "twolane"} == NAMES
    assert len(SOURCES) > 50 and ROOT / "bot" / "render" / "board" / "board_picture.py" in SOURCES


@pytest.mark.parametrize("path", SOURCES, ids=[str(p.relative_to(ROOT)) for p in SOURCES])
def test_no_game_is_told_apart_by_its_name(path: Path) -> None:
    uses = name_uses(path.read_text(encoding="utf-8"), str(path))
    where = str(path.relative_to(ROOT))
    assert [f"{where}:{line}: {what}" for line, what in uses] == []


def test_the_checker_sees_every_forbidden_use() -> None:
    source = "\n".join(
        [
            'if view.variant == "twolane": pass',  # 1
            'if "fives" != rules.name: pass',  # 2
            'if variant in ("muggins",): pass',  # 3
            'TITLES = {"fives": 1}',  # 4
            'match variant:\n    case "twolane": pass',  # 5, 6
            'Variant = Literal["fives", "muggins", "twolane"]',  # 7
            'GAMES = ["fives", "twolane"]',  # 8
        ]
    )
    lines = sorted({line for line, _ in name_uses(source)})
    assert lines == [1, 2, 3, 4, 6, 7, 8]


def test_the_checker_lets_a_name_be_data() -> None:
    source = "\n".join(
        [
            'variant: str = "fives"',
            'game = Game.new("twolane", players, seed=1)',
            'TABLES = (("twolane", "hhe"), ("fives", "hhe"))',
            'def f(variant: str = "muggins") -> None:\n    """Plays muggins."""',
            'if rules.hub_kind == "spinner": pass',
            'text = f"{variant} is not fives"',
        ]
    )
    assert name_uses(source) == []
