"""The bot's layers: who may import whom, who python-telegram-bot, and where words are written.

The layers, lowest first (a layer may import its own modules and those below it):

    engine                      the rules (pure: tests/engine/test_purity.py)
    render, storage             pictures and captions; Redis. Neither knows the other.
    game                        the rules of a match in a chat (lobby, turns, ratings)
    telegram                    texts, callback codes, keyboards and the Bot API calls
    delivery                    bringing the chats' messages in line with the matches
    table                       the live table (a Mini App): its views, feed and routes
    handlers                    what an update does
    app, __main__, web, intake, collector   wiring the process together

Beside them the shared modules (i18n, settings, logs, metrics, background: stopping a
background task, and variants: what the bot shows of each game) import no layer but the
engine; SHARED says which layers use each, SHARED_USES which shared modules one may use
itself. Only the handlers, the keyboards and the Telegram I/O helpers import `telegram`
itself: the texts, the callback codes, the game, storage and delivery stay free of it.
What the bot says is written in the text modules of bot.telegram (and the keyboards'
labels) and in bot.render; everywhere else calls them.

Inside bot.render, its wings and who reaches into them: tests/render/test_wings.py.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BOT = ROOT / "bot"
SOURCES = sorted(BOT.rglob("*.py"))

# Each package's layer (the process's wiring: single modules), and the layers each may
# import (its own is always allowed).
LAYERS = {
    "bot.render": "render",
    "bot.storage": "storage",
    "bot.game": "game",
    "bot.telegram": "telegram",
    "bot.delivery": "delivery",
    "bot.table": "table",
    "bot.handlers": "handlers",
}
TOP = {"bot", "bot.app", "bot.__main__", "bot.web", "bot.intake", "bot.collector", "bot.event_loop"}
BELOW = {
    "render": {"engine"},
    "storage": {"engine"},
    "game": {"storage", "render", "engine"},
    "telegram": {"game", "storage", "render", "engine"},
    "delivery": {"telegram", "game", "storage", "render", "engine"},
    "table": {"telegram", "game", "storage", "render", "engine"},
    "handlers": {"delivery", "telegram", "game", "storage", "render", "engine"},
    "top": {"handlers", "table", "delivery", "telegram", "game", "storage", "render", "engine"},
}
# The shared modules, and which layers may use each.
SHARED = {
    "bot.i18n": {"render", "game", "telegram", "delivery", "table", "handlers", "top"},
    "bot.settings": {"storage", "game", "telegram", "delivery", "table", "handlers", "top"},
    "bot.logs": {"storage", "game", "telegram", "delivery", "table", "handlers", "top"},
    "bot.metrics": {"storage", "game", "telegram", "delivery", "table", "handlers", "top"},
    "bot.variants": {"render", "game", "telegram", "delivery", "handlers", "top"},
    "bot.background": {"telegram", "delivery", "table", "top"},
}
SHARED_USES = {
    "bot.variants": {"bot.i18n"},
    "bot.logs": {"bot.metrics"},
    "bot.settings": {"bot.i18n"},  # the languages it may be set to
}
# Who may import python-telegram-bot (`telegram`, `telegram.ext`, ...): these modules
# and packages.
TELEGRAM_USERS = (
    "bot.handlers",
    "bot.telegram.keyboards",
    "bot.telegram.api",
    "bot.telegram.transport",
    "bot.telegram.budget",
    "bot.telegram.budget_dispatcher",
    "bot.telegram.metered",
    "bot.app",
    "bot.__main__",
    "bot.web",
)


def within(module: str, names: tuple[str, ...]) -> bool:
    """Whether `module` is one of `names` or inside one of them."""
    return any(module == name or module.startswith(name + ".") for name in names)


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path) for path in SOURCES}


def imported(path: Path) -> list[tuple[int, str]]:
    """(line, module) of every absolute import in a file, nested ones too; `from bot.x
    import y` names bot.x.y where that is a module, else bot.x."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            assert node.level == 0, f"{path}:{node.lineno}: a relative import"
            for alias in node.names:
                inner = f"{node.module}.{alias.name}"
                found.append((node.lineno, inner if inner in MODULES else node.module))
    return found


def layer_of(module: str) -> str | None:
    """The layer of one of our modules (None: a shared one, or not ours)."""
    if module == "engine" or module.startswith("engine."):
        return "engine"
    if module in SHARED or not within(module, ("bot",)):
        return None
    if module in TOP:
        return "top"
    packages = [package for package in LAYERS if within(module, (package,))]
    assert packages, f"{module} is in no layer: give it one here"
    return LAYERS[packages[0]]


def ours(path: Path) -> list[tuple[int, str]]:
    """The imports of our own modules (bot's and the engine's)."""
    return [
        (line, module)
        for line, module in imported(path)
        if layer_of(module) is not None or module in SHARED
    ]


def ids(paths: list[Path]) -> list[str]:
    return [str(p.relative_to(ROOT)) for p in paths]


def test_there_are_sources() -> None:
    assert BOT / "handlers" / "buttons.py" in SOURCES and len(SOURCES) >= 60
    assert {layer_of(module_name(p)) for p in SOURCES} == set(BELOW) | {None}


@pytest.mark.parametrize("path", SOURCES, ids=ids(SOURCES))
def test_a_layer_imports_only_what_is_below_it(path: Path) -> None:
    name = module_name(path)
    layer = layer_of(name)
    for line, module in ours(path):
        where = f"{path.relative_to(ROOT)}:{line}: {module}"
        if module in SHARED:
            if layer is None:
                assert module in SHARED_USES.get(name, set()), f"{where}: not for {name}"
            else:
                assert layer in SHARED[module], f"{where}: not for the {layer} layer"
            continue
        target = layer_of(module)
        if layer is None:
            assert target == "engine", f"{where}: a shared module imports a layer"
        elif target != layer:
            assert target in BELOW[layer], f"{where}: {layer} may not import {target}"


# The handlers reach what is stored through the game layer (the game service, the small
# game modules that keep what else they ask for: bot.game.profiles, lobby_calls,
# repeated_commands; bot.game.match_errors): of storage they know only the records' shapes.
HANDLERS_MAY_USE_OF_STORAGE = {"bot.storage.models"}


HANDLERS = [p for p in SOURCES if within(module_name(p), ("bot.handlers",))]


@pytest.mark.parametrize("path", HANDLERS, ids=ids(HANDLERS))
def test_the_handlers_touch_no_storage(path: Path) -> None:
    for line, module in ours(path):
        if layer_of(module) == "storage":
            where = f"{path.relative_to(ROOT)}:{line}: {module}"
            assert module in HANDLERS_MAY_USE_OF_STORAGE, f"{where}: go through bot.game"


def test_the_handlers_deps_hold_no_store() -> None:
    from bot.handlers.common import Deps

    assert "store" not in Deps.__dataclass_fields__


@pytest.mark.parametrize("path", SOURCES, ids=ids(SOURCES))
def test_only_the_telegram_edge_imports_telegram(path: Path) -> None:
    if within(module_name(path), TELEGRAM_USERS):
        return
    for line, module in imported(path):
        top = module.partition(".")[0]
        assert top != "telegram", f"{path.relative_to(ROOT)}:{line}: imports {module}"


def test_the_game_and_storage_load_no_telegram() -> None:
    # What the imports above allow, as Python loads it (a third-party module could pull
    # telegram in too).
    below = sorted(
        name
        for name in MODULES
        if within(name, ("bot.game", "bot.storage", "bot.metrics", "bot.telegram.callbacks"))
    )
    script = (
        "import importlib, sys\n"
        f"for name in {below!r}: importlib.import_module(name)\n"
        "print(sorted(m for m in sys.modules if m.partition('.')[0] == 'telegram'))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "[]"


def test_the_telegram_edge_is_no_wider_than_it_needs() -> None:
    # Each allowed module really imports telegram: the list names no one it need not.
    users = {
        module_name(path)
        for path in SOURCES
        if any(module.partition(".")[0] == "telegram" for _, module in imported(path))
    }
    for allowed in TELEGRAM_USERS:
        assert any(within(user, (allowed,)) for user in users), allowed


# Where the bot's words are written (tr("…"), N_("…"), tr.n(…)): the texts and the
# keyboards' labels in bot.telegram, the pictures and captions in bot.render, the games'
# titles in bot.variants.
WORDED = (
    "bot.render",
    "bot.telegram.texts",
    "bot.telegram.endings",
    "bot.telegram.keyboards",
    "bot.variants",
)
TRANSLATING = {"tr", "N_", "n", "plural", "N_plural"}


def worded(path: Path) -> list[int]:
    """The lines that hand a translation function text of their own."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
        translates = name in TRANSLATING or (isinstance(name, str) and name.endswith("_tr"))
        texts = [a for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
        if translates and texts:
            found.append(node.lineno)
    return found


@pytest.mark.parametrize("path", SOURCES, ids=ids(SOURCES))
def test_words_are_written_in_the_text_modules(path: Path) -> None:
    name = module_name(path)
    if within(name, WORDED) or (within(name, ("bot.telegram",)) and name.endswith("_texts")):
        return
    lines = worded(path)
    assert not lines, f"{path.relative_to(ROOT)}:{lines}: wording belongs in a text module"


def test_the_word_finder_sees_every_way_of_wording(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text(
        'a = tr("Hello")\n'
        'b = N_("Bye")\n'
        'c = tr.n("one", "many", 2)\n'
        'd = group_tr("Hi")\n'
        "e = tr(TEXT)\n"
        'f = print("not words")\n'
    )
    assert worded(bad) == [1, 2, 3, 4]


# The delivery layer's targets, each in a package of its own: what one may import of the
# others is the protocol and the kit they share, and who is at the live table (the third
# target, whose pushes are bot.table's), never the other target.
TARGETS = ("bot.delivery.group", "bot.delivery.hand")
TARGETS_SHARE = {
    "bot.delivery.at_table",
    "bot.delivery.claims",
    "bot.delivery.backoff",
    "bot.delivery.drawing",
    "bot.delivery.liveness",
}


@pytest.mark.parametrize(
    "path",
    [p for p in SOURCES if within(module_name(p), TARGETS)],
    ids=ids([p for p in SOURCES if within(module_name(p), TARGETS)]),
)
def test_a_delivery_target_imports_no_other(path: Path) -> None:
    module = module_name(path)
    own = next(target for target in TARGETS if within(module, (target,)))
    strays = [
        f"{line}: {imported_}"
        for line, imported_ in ours(path)
        if within(imported_, ("bot.delivery",))
        and not within(imported_, (own,))
        and imported_ not in TARGETS_SHARE
    ]
    assert strays == [], f"{module} reaches into another target or the scheduler: {strays}"


# Keys (and their TTLs) are named in bot.storage only: each kind of record has its owner
# there (the match's `match_record`, bot.storage.delivery_records, ...), the process
# wiring builds its `Store` from the key prefix, and nothing else imports the key builder
# or reaches for a store's (`store.keys.game(...)`; a dict's `.keys()` is no key).
KEY_BUILDER = "bot.storage.keys"


def reached_keys(tree: ast.AST) -> list[int]:
    """The lines that reach for a `.keys` attribute other than to call it."""
    called = {id(node.func) for node in ast.walk(tree) if isinstance(node, ast.Call)}
    return [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute) and node.attr == "keys" and id(node) not in called
    ]


@pytest.mark.parametrize("path", SOURCES, ids=ids(SOURCES))
def test_only_storage_names_keys(path: Path) -> None:
    module = module_name(path)
    if within(module, ("bot.storage",)):
        return
    imports = [line for line, found in imported(path) if found == KEY_BUILDER]
    assert imports == [], f"{module} imports the key builder (line {imports})"
    reached = reached_keys(ast.parse(path.read_text(encoding="utf-8")))
    assert reached == [], f"{module} reaches for keys (lines {reached})"


def test_the_key_checks_see_a_key_named(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("from bot.storage.keys import Keys\nkey = store.keys.hand(1, None, 0)\n")
    assert [module for _, module in imported(bad)] == [KEY_BUILDER]
    assert reached_keys(ast.parse(bad.read_text())) == [2]
    assert reached_keys(ast.parse("names = sorted(found.keys())\n")) == []


def test_no_module_imports_itself_round_about() -> None:
    graph = {
        module_name(path): {
            module
            for _, module in ours(path)
            if module.startswith("bot") and module != module_name(path)
        }
        for path in SOURCES
    }
    # A package's __init__ re-exporting its modules is no cycle: it is left out as a target.
    packages = {module_name(p) for p in SOURCES if p.name == "__init__.py"}
    done: set[str] = set()

    def visit(module: str, trail: list[str]) -> None:
        if module in trail:
            cycle = " -> ".join([*trail[trail.index(module) :], module])
            raise AssertionError(f"an import cycle: {cycle}")
        if module in done:
            return
        for target in sorted(graph.get(module, set()) - packages):
            visit(target, [*trail, module])
        done.add(module)

    for module in sorted(graph):
        visit(module, [])


def test_the_checker_sees_imports_of_every_form(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text(
        "import telegram.ext\n"
        "from bot import metrics\n"
        "from bot.render import board_text\n"
        "from bot.telegram import api, texts\n"
        "def later() -> None:\n"
        "    from bot.handlers.common import deps\n"
    )
    assert [module for _, module in imported(bad)] == [
        "telegram.ext",
        "bot.metrics",
        "bot.render",
        "bot.telegram.api",
        "bot.telegram.texts",
        "bot.handlers.common",
    ]
    assert [layer_of(m) for _, m in imported(bad)] == [
        None,
        None,
        "render",
        "telegram",
        "telegram",
        "handlers",
    ]
