"""The board's positions as plain data, for the web table: the picture's layout, JSON as
it is, a tile never moving, and the landing spot of a tile being chosen."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from bot.render.board.board_positions import board_positions, landing
from bot.render.layout.board_layout import board_layout
from bot.render.words.ends import end_names
from engine.game import Game
from engine.moves import Doubles, Move, Play
from engine.table import Table
from engine.tiles import End, Tile
from tests.support.samples import full_table

VARIANTS = ("fives", "muggins", "twolane")
PLACE = ("x", "y", "w", "h", "tile", "pips", "across", "corner", "end", "travel")


def moves(variant: str, seed: int) -> Iterator[tuple[Table, Move, Table]]:
    """Each move of a random game that lays tiles: the table before it, the move, after."""
    game = Game.new(variant, ["Андрей", "Ирина", "Ольга"], seed)
    rng = random.Random(seed)
    while not game.over:
        before = game.round.table.copy()
        legal = game.legal_moves()
        plays = [m for m in legal if isinstance(m, Play | Doubles)]
        move = rng.choice(plays or list(legal))
        number = game.round.number
        game.push(move)
        if plays and before.opening is not None:
            yield before, move, game.rounds[number - 1].table


@pytest.mark.parametrize("variant", VARIANTS)
def test_positions_are_plain_json_and_agree_with_the_picture(variant: str) -> None:
    for seed in range(3):
        for table in (full_table(variant, "random", seed), full_table(variant, "cross", seed)):
            data = board_positions(table, variant)
            assert json.loads(json.dumps(data)) == data
            layout = board_layout(table, variant)
            boxes = {str(b.placed.tile): b for b in layout.boxes}
            assert len(data["tiles"]) == len(boxes) == 28
            for tile in data["tiles"]:
                box = boxes[tile["tile"]]
                x = layout.origin[0] + tile["x"] * layout.unit
                y = layout.origin[1] + tile["y"] * layout.unit
                assert abs(box.x - 1 - x) <= 1 and abs(box.y - 1 - y) <= 1
                assert tile["pips"] == [box.first, box.second]
                assert (tile["h"] > tile["w"]) == box.vertical
                assert tile["hub"] == box.hub
            names = end_names(table, variant)
            marks = {m.end.name: m for m in layout.marks}
            for end in data["ends"]:
                name = names[End[end["end"]]]
                assert end["arrow"] == name.direction.name == marks[end["end"]].travel.name
                assert end["name"] == name.text
                assert end["colour"] == "#{:02x}{:02x}{:02x}".format(*name.colour)
            extent = data["extent"]
            for item in data["tiles"] + [e["next"] for e in data["ends"]]:
                assert (
                    extent["x"] <= item["x"] and item["x"] + item["w"] <= extent["x"] + extent["w"]
                )
                assert (
                    extent["y"] <= item["y"] and item["y"] + item["h"] <= extent["y"] + extent["h"]
                )


def _places(data: dict[str, Any]) -> list[tuple[Any, ...]]:
    return [tuple(t[k] for k in PLACE) for t in data["tiles"]]


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_laid_tile_keeps_its_position_and_lands_where_the_end_showed(variant: str) -> None:
    """The positions after a move begin with those before it, unchanged; the tiles the
    move laid are where `landing` said, and their ends' "next" (or "double") place."""
    landed = 0
    for seed in range(4):
        for before, move, after in moves(variant, seed):
            old, new = board_positions(before, variant), board_positions(after, variant)
            assert _places(new)[: len(old["tiles"])] == _places(old)
            plays = move.plays if isinstance(move, Doubles) else (move,)
            for play in plays:
                assert isinstance(play, Play) and play.end is not None
                spot = landing(before, variant, play.tile, play.end)
                laid = next(t for t in new["tiles"] if t["tile"] == str(play.tile))
                assert {k: laid[k] for k in spot} == spot
                end = next(e for e in old["ends"] if e["end"] == play.end.name)
                place = end["double"] if play.tile.is_double else end["next"]
                assert {k: laid[k] for k in ("x", "y", "w", "h")} == place
                assert laid["travel"] == end["arrow"]
                landed += 1
    assert landed > 60


def test_landing_refuses_a_closed_end_and_a_tile_that_does_not_fit() -> None:
    table = Table()
    table.open_with(Tile.of(6, 4), 6)
    with pytest.raises(ValueError, match="N is not an open end"):
        landing(table, "fives", Tile.of(6, 1), End.N)
    with pytest.raises(ValueError, match="cannot be laid"):
        landing(table, "fives", Tile.of(2, 1), End.W)
    spot = landing(table, "fives", Tile.of(6, 1), End.W)
    assert spot["pips"] == [1, 6] and spot["travel"] == "W"
    assert board_positions(Table(), "fives") == {
        "tile": [4, 2],
        "extent": {"x": 0, "y": 0, "w": 0, "h": 0},
        "tiles": [],
        "ends": [],
    }
