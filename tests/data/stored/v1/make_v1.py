"""Writes stored games of the first release (format 1) for the next release's tests.

Run with the first release's code, not this one's (its harness and service):

    git worktree add /tmp/first-release cfbffe5
    cp tests/data/stored/v1/make_v1.py /tmp/first-release/tests/bot/test_make_v1.py
    cd /tmp/first-release && OUT=$OLDPWD/tests/data/stored/v1 \
        $OLDPWD/.venv/bin/python -m pytest -q tests/bot/test_make_v1.py
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bot.game import computer
from bot.storage.store import Tx
from tests.bot.conftest import Harness

OUT = Path(os.environ["OUT"])


async def _dump(h: Harness, chat: int, name: str) -> None:
    await h.settle()
    raw = await h.raw(chat)
    assert raw is not None
    OUT.joinpath(f"{name}.json").write_bytes(raw)


@pytest.mark.parametrize(
    ("variant", "people", "computers"),
    [("fives", 2, ""), ("muggins", 1, "es"), ("twolane", 3, "")],
)
async def test_make(h: Harness, variant: str, people: int, computers: str) -> None:
    table = await h.table(variant, people=people, computers=computers, start=False)
    await _dump(h, table.chat, f"{variant}-lobby")
    await table.start()
    await h.settle()

    def apply(tx: Tx) -> None:
        assert tx.game is not None
        game = tx.game.game()
        for turn in range(5):
            if game.over or game.turn is None:
                break
            computer.turn_moves(game, "easy", turn, 0.01)
        tx.game.store_game(game)

    await h.store.change(table.chat, None, apply)
    await h.store.schedule(table.chat, None, h.clock())
    await h.settle(1.0)
    await _dump(h, table.chat, f"{variant}-playing")
    await h.finish(table.chat)
    await _dump(h, table.chat, f"{variant}-over")
