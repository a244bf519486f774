"""The engine's boundaries: standard library only, no clock or global randomness, mypy --strict."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "engine"
SOURCES = sorted(ENGINE.rglob("*.py"))
# Standard library, but not for a pure rules engine (STYLE.md: no I/O layers, no
# clock, no global random).
FORBIDDEN = {"asyncio", "time", "datetime", "socket", "threading", "subprocess", "urllib", "http"}


# Known departures, reported to their owners rather than failing everyone's run.
def imported(path: Path) -> list[tuple[int, str]]:
    """(line, top-level module) of every absolute import in a file."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name.partition(".")[0]) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module.partition(".")[0]))
    return found


def test_there_are_sources():
    assert ENGINE / "game.py" in SOURCES and len(SOURCES) >= 10


@pytest.mark.parametrize("path", SOURCES, ids=[str(p.relative_to(ROOT)) for p in SOURCES])
def test_standard_library_only(path: Path):
    for line, module in imported(path):
        where = f"{path.relative_to(ROOT)}:{line}"
        assert module == "engine" or module in sys.stdlib_module_names, f"{where}: {module}"


@pytest.mark.parametrize("path", SOURCES, ids=[str(p.relative_to(ROOT)) for p in SOURCES])
def test_no_clock_and_no_io_layers(path: Path):
    name = str(path.relative_to(ROOT))
    for line, module in imported(path):
        assert module not in FORBIDDEN, f"{name}:{line}: {module} has no place in the engine"


@pytest.mark.parametrize("path", SOURCES, ids=[str(p.relative_to(ROOT)) for p in SOURCES])
def test_randomness_only_from_a_seeded_generator(path: Path):
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "random":
            names = {alias.name for alias in node.names}
            assert names <= {"Random"}, f"{path.name}:{node.lineno}: from random import {names}"
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id == "random"
        ):
            assert node.attr == "Random", f"{path.name}:{node.lineno}: random.{node.attr}"


def test_the_checker_sees_a_third_party_import(tmp_path: Path):
    bad = tmp_path / "bad.py"
    bad.write_text("import os\nfrom telegram import Bot\nfrom . import game\nimport engine.tiles\n")
    modules = [module for _, module in imported(bad)]
    assert modules == ["os", "telegram", "engine"]
    assert "telegram" not in sys.stdlib_module_names


def test_mypy_strict():
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "engine"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Success" in done.stdout
