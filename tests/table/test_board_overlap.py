"""No two tiles of the table's board ever overlap, however long a round runs: random
rounds of every game, played to their end, checked after every move (an overlap late in a
long round was seen once on the page)."""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any

import pytest

from bot.table.positions import board_positions
from engine import Game, view_for
from engine.variants import VARIANTS


def overlap(a: dict[str, Any], b: dict[str, Any]) -> float:
    """The area two tile boxes share."""
    wide = min(a["x"] + a["w"], b["x"] + b["w"]) - max(a["x"], b["x"])
    high = min(a["y"] + a["h"], b["y"] + b["h"]) - max(a["y"], b["y"])
    return max(0, wide) * max(0, high)


@pytest.mark.parametrize("variant", list(VARIANTS))
@pytest.mark.parametrize("players", [2, 4])
def test_no_two_tiles_of_a_board_overlap(variant: str, players: int) -> None:
    for seed in range(6):  # whole games: every round to its last tile
        rng = random.Random(seed)
        game = Game.new(variant, [f"P{n}" for n in range(players)], seed=seed)
        while not game.over:
            game.push(rng.choice(game.legal_moves()))
            tiles = board_positions(view_for(game))["tiles"]
            for a, b in combinations(tiles, 2):
                assert overlap(a, b) == 0, (variant, seed, len(tiles), a, b)
