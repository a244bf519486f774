"""bot.render's wings: who may import whom inside the package, and that the rest of the
bot reaches render only through the package itself.

The wings, lowest first (a wing imports its own modules and those of the wings below):

    kit       colours, fonts, text in lines, sprites, the encoded picture
    layout    the board's sizes and the table's grid, in numbers
    words     names of people, ends and moves; rounds, marks, captions, message ids
    board, hand, final    the three pictures (none imports another)

Outside bot/render, `from bot.render import …` is the only way in: the names there
(`bot.render.__all__`) are render's vocabulary. Only render's own tests look inside.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import bot.render

ROOT = Path(__file__).resolve().parents[2]
RENDER = ROOT / "bot" / "render"

WINGS: dict[str, set[str]] = {
    "kit": set(),
    "layout": {"kit"},
    "words": {"kit", "layout"},
    "board": {"kit", "layout", "words"},
    "hand": {"kit", "layout", "words"},
    "final": {"kit", "layout", "words"},
}
# The longest chain of imports inside the package, counted in modules (the package's own
# __init__ left out): a new floor is a choice, made here.
MAX_FLOORS = 8

# Outside bot/render, the files that may look inside: render's own tests, and the sample
# positions they share with the docs (which re-encode a picture as a phone shows it).
MAY_LOOK_INSIDE = ("tests/render/", "tests/support/samples.py")
OUTSIDE = sorted(
    path
    for folder in ("bot", "bench", "docs", "tests")
    for path in (ROOT / folder).rglob("*.py")
    if not path.is_relative_to(RENDER)
    and not str(path.relative_to(ROOT)).startswith(MAY_LOOK_INSIDE)
)
INSIDE = sorted(RENDER.rglob("*.py"))


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def render_imports(path: Path) -> list[tuple[int, str]]:
    """(line, module) of every import of bot.render or inside it, nested ones too; `from
    bot.render.x import y` names bot.render.x.y where that is a module."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                inner = f"{node.module}.{alias.name}"
                is_module = (ROOT / (inner.replace(".", "/") + ".py")).exists() or (
                    ROOT / inner.replace(".", "/") / "__init__.py"
                ).exists()
                found.append((node.lineno, inner if is_module else node.module))
    return [(line, m) for line, m in found if m == "bot.render" or m.startswith("bot.render.")]


def wing_of(module: str) -> str:
    """The wing of a module inside the package (`bot.render.<wing>.<module>`)."""
    parts = module.split(".")
    assert len(parts) == 4 and parts[2] in WINGS, f"{module} is in no wing: put it in one"
    return parts[2]


def ids(paths: list[Path]) -> list[str]:
    return [str(p.relative_to(ROOT)) for p in paths]


def test_every_module_lies_in_a_wing() -> None:
    assert len(INSIDE) >= 30
    for path in INSIDE:
        name = module_name(path)
        if path.name == "__init__.py":
            assert name == "bot.render" or name.removeprefix("bot.render.") in WINGS, name
        else:
            wing_of(name)


@pytest.mark.parametrize("path", OUTSIDE, ids=ids(OUTSIDE))
def test_the_rest_of_the_bot_imports_only_the_package(path: Path) -> None:
    for line, module in render_imports(path):
        where = f"{path.relative_to(ROOT)}:{line}: {module}"
        assert module == "bot.render", f"{where}: import it from bot.render (add it to __all__)"


def test_the_package_exports_what_it_imports() -> None:
    # Every name the package imports is in __all__, and every name there is defined.
    tree = ast.parse((RENDER / "__init__.py").read_text(encoding="utf-8"))
    imported = {
        alias.asname or alias.name
        for node in tree.body
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }
    assert imported == set(bot.render.__all__)
    assert all(hasattr(bot.render, name) for name in bot.render.__all__)


WING_MODULES = [p for p in INSIDE if p.name != "__init__.py"]


@pytest.mark.parametrize("path", WING_MODULES, ids=ids(WING_MODULES))
def test_a_wing_imports_only_itself_and_the_wings_below(path: Path) -> None:
    wing = wing_of(module_name(path))
    for line, module in render_imports(path):
        where = f"{path.relative_to(ROOT)}:{line}: {module}"
        assert module != "bot.render", f"{where}: a wing imports modules, not the package"
        if module.count(".") == 2:  # a wing's package: `from bot.render.kit import theme`
            continue
        target = wing_of(module)
        assert target == wing or target in WINGS[wing], f"{where}: {wing} may not import {target}"


def test_the_wings_init_files_import_nothing() -> None:
    for wing in WINGS:
        assert render_imports(RENDER / wing / "__init__.py") == [], wing


def floors() -> dict[str, int]:
    """Each module's floor: 1 for a module that imports none of the package, else one
    more than the highest it imports. Raises on a cycle."""
    graph = {
        module_name(path): {m for _, m in render_imports(path) if m.count(".") == 3}
        for path in WING_MODULES
    }
    found: dict[str, int] = {}

    def floor(module: str, trail: tuple[str, ...]) -> int:
        if module in trail:
            raise AssertionError("an import cycle: " + " -> ".join([*trail, module]))
        if module not in found:
            below = [floor(target, (*trail, module)) for target in graph[module]]
            found[module] = 1 + max(below, default=0)
        return found[module]

    for module in graph:
        floor(module, ())
    return found


def test_no_cycle_and_few_floors() -> None:
    found = floors()
    highest = max(found.values())
    top = sorted(m for m, f in found.items() if f == highest)
    assert highest <= MAX_FLOORS, f"{highest} floors (at most {MAX_FLOORS}): {top}"
    assert found["bot.render.kit.theme"] == 1


def test_the_checks_see_what_they_should(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text(
        "from bot.render import board_text\n"
        "from bot.render.words import ends\n"
        "from bot.render.words.ends import end_names\n"
        "import bot.render.kit.theme\n"
        "def later() -> None:\n"
        "    from bot.render.board.panel import draw_panel\n"
    )
    assert [m for _, m in render_imports(bad)] == [
        "bot.render",
        "bot.render.words.ends",
        "bot.render.words.ends",
        "bot.render.kit.theme",
        "bot.render.board.panel",
    ]
    with pytest.raises(AssertionError, match="in no wing"):
        wing_of("bot.render.loose")
