"""The house rules the code itself keeps: lint clean and formatted. (Strict typing is
checked by `mypy --strict engine bot` in `.ci/run`: run here too, a cold mypy would cost
the suite half a minute of its two cores.)"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CODE = ["engine", "bot", "tests", "bench"]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, timeout=600
    )


def test_ruff_finds_nothing() -> None:
    result = run("ruff", "check", *CODE)
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_code_is_formatted() -> None:
    result = run("ruff", "format", "--check", *CODE)
    assert result.returncode == 0, result.stdout + result.stderr
