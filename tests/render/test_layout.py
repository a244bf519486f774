"""The board picture's layout: the grid layout scaled and centred, every tile inside the
board, none overlapping, and a tile laid never moving as the game goes on."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.render import layout_board
from bot.render.layout.board_geometry import (
    BOARD_HEIGHT,
    BOARD_WIDTH,
    FALLBACK_SIZES,
    GAP,
    TILE_MAX,
    TILE_SIZES,
    BoardLayout,
    mark_radius,
)
from bot.render.layout.board_layout import board_layout
from bot.render.layout.stable_layout import grid_of
from bot.render.words.ends import end_names
from engine.game import Game
from engine.moves import Doubles, Play
from engine.table import Table
from engine.tiles import ALL_TILES, End, Tile
from engine.variants import VARIANTS, ruleset
from tests.support.samples import FULL_TABLES, full_table, play

FULL_SET = len(ALL_TILES)
SMALLEST = FALLBACK_SIZES[-1]

Box = tuple[int, int, int, int]


def _distance(a: Box, b: Box) -> float:
    dx = max(0, a[0] - b[2], b[0] - a[2])
    dy = max(0, a[1] - b[3], b[1] - a[3])
    return float((dx * dx + dy * dy) ** 0.5)


def check_layout(table: Table, variant: str) -> BoardLayout:
    """The invariants every picture layout keeps; returns the layout."""
    layout = board_layout(table, variant)
    boxes = layout.boxes
    # One box per table tile, in the table's order.
    assert [b.placed for b in boxes] == table.placements()
    assert layout.tile in TILE_SIZES + FALLBACK_SIZES and SMALLEST <= layout.tile <= TILE_MAX
    for b in boxes:
        assert b.x >= 0 and b.x + b.w <= BOARD_WIDTH, b
        assert b.y >= 0 and b.y + b.h <= BOARD_HEIGHT, b
        assert min(b.w, b.h) * 2 == max(b.w, b.h) == layout.tile, b
    ordered = sorted(boxes, key=lambda b: b.x)
    for i, a in enumerate(ordered):
        for b in ordered[i + 1 :]:
            if b.x >= a.x + a.w:
                break
            assert a.y + a.h <= b.y or b.y + b.h <= a.y, (a, b)
    # Each box is its grid place, scaled: the picture is the grid, as a whole.
    grid = grid_of(table, variant)
    by_tile = {s.placed: s for s in grid.spots}
    for b in boxes:
        spot = by_tile[b.placed]
        assert abs(b.x - GAP // 2 - (layout.origin[0] + spot.box[0] * layout.unit)) <= 1
        assert abs(b.y - GAP // 2 - (layout.origin[1] + spot.box[1] * layout.unit)) <= 1
        assert (b.first, b.second, b.travel, b.hub) == (
            spot.first,
            spot.second,
            spot.travel,
            spot.hub,
        )
    # The marks: one per open end, in its name's arrow, on free felt, inside the board.
    names = end_names(table, variant)
    assert [m.end for m in layout.marks] == [end for end, _ in table.ends]
    r = mark_radius(layout.tile)
    for m in layout.marks:
        assert m.travel is names[m.end].direction
        assert r <= m.x <= BOARD_WIDTH - r and r <= m.y <= BOARD_HEIGHT - r, m
        for b in boxes:
            assert _distance((m.x, m.y, m.x, m.y), b.box) >= r - 2, (m, b)
    return layout


@pytest.mark.parametrize(("variant", "shape"), FULL_TABLES)
@pytest.mark.parametrize("seed", range(3))
def test_full_tables_fit(variant: str, shape: str, seed: int) -> None:
    table = full_table(variant, shape, seed)
    assert len(table.placements()) == FULL_SET
    check_layout(table, variant)


def test_the_worst_shapes_are_built() -> None:
    """The builder really makes the shapes the guarantee is about."""
    assert len(full_table("twolane", "east").arm(End.E)) == FULL_SET - 1
    assert len(full_table("fives", "west").arm(End.W)) == FULL_SET - 1
    north = full_table("fives", "north", opening=Tile.of(6, 6))
    assert north.hub == (None, 0) and len(north.arm(End.N)) == FULL_SET - 1
    cross = full_table("fives", "cross")
    assert all(len(cross.arm(end)) >= 5 for end in End)


def spinner_at_the_end_of_a_long_west_arm() -> Table:
    """fives: a long W arm without doubles, then the first double: the spinner, far out."""
    rules = ruleset("fives")
    rng = random.Random(4)
    for _ in range(10_000):
        table = Table()
        table.open_with(Tile.of(6, 5), 6)
        left = [t for t in ALL_TILES if t != Tile.of(6, 5)]
        ok = True
        while len(table.arm(End.W)) < 12:
            value = table.end_value(End.W)
            fits = [t for t in left if t.has(value) and not t.is_double]
            if not fits:
                ok = False
                break
            tile = rng.choice(fits)
            table.attach(tile, End.W)
            left.remove(tile)
        double = Tile.of(table.end_value(End.W), table.end_value(End.W))
        if not ok or double not in left:
            continue
        table.attach(double, End.W)
        rules.claim_hub(table, End.W)
        left.remove(double)
        # Everything else on N and S as far as it goes, then anywhere.
        while left:
            options = [(e, t) for e, v in table.ends for t in left if t.has(v)]
            if not options:
                break
            options.sort(key=lambda o: (o[0] not in (End.N, End.S), rng.random()))
            end, tile = options[0]
            table.attach(tile, end)
            left.remove(tile)
        if table.hub == (End.W, 12):
            return table
    raise AssertionError("no such table")  # pragma: no cover


def test_spinner_at_the_end_of_a_long_line() -> None:
    table = spinner_at_the_end_of_a_long_west_arm()
    layout = check_layout(table, "fives")
    hub = next(b for b in layout.boxes if b.hub)
    assert hub.placed == table.hub_tile()


def test_empty_table_has_no_boxes() -> None:
    assert layout_board(Table()) == []


def test_a_short_game_is_drawn_large_in_the_middle() -> None:
    """The board fits its content: a short line at the largest size, centred."""
    table = Table()
    table.open_with(Tile.of(6, 4), 6)
    table.attach(Tile.of(4, 2), End.E)
    layout = check_layout(table, "fives")
    assert layout.tile == TILE_MAX and layout.corners == 0
    r = mark_radius(layout.tile)
    left = min([b.x for b in layout.boxes] + [m.x - r for m in layout.marks])
    right = max([b.x + b.w for b in layout.boxes] + [m.x + r for m in layout.marks])
    tops = [b.y for b in layout.boxes]
    bottoms = [b.y + b.h for b in layout.boxes]
    assert abs((left + right) - BOARD_WIDTH) <= 2 * r
    assert abs((min(tops) + max(bottoms)) - BOARD_HEIGHT) <= 2
    assert all(not b.vertical for b in layout.boxes)


def _relative(boxes: list, pitch: int) -> dict[Tile, tuple[float, float, bool]]:  # type: ignore[type-arg]
    """Each tile's place relative to the opening, in tile lengths (and how it lies)."""
    o = boxes[0]
    return {b.placed.tile: ((b.x - o.x) / pitch, (b.y - o.y) / pitch, b.vertical) for b in boxes}


@pytest.mark.parametrize("seed", range(4))
def test_a_placed_tile_never_moves_between_moves(seed: int) -> None:
    """Issue 28: the board picture keeps every tile where it was laid, relative to the
    others; the drawing only zooms out as a whole (the tiles never grow again in a round)."""
    game = play("fives", seed=seed, moves=0)
    rng = random.Random(seed)
    before: dict[Tile, tuple[float, float, bool]] = {}
    size = 0
    compared = 0
    number = game.round.number
    while not game.over and game.round.number == number:
        boxes = layout_board(game.round.table)
        if boxes:
            tile = max(min(b.w, b.h) * 2 for b in boxes)
            now = _relative(boxes, tile + 2)
            for t, (x, y, vertical) in before.items():
                bx, by, bv = now[t]
                # A pixel or two of rounding, at most.
                assert abs(bx - x) < 0.03 and abs(by - y) < 0.03 and bv == vertical, t
                compared += 1
            assert size == 0 or tile <= size  # zooms out, never in
            before, size = now, tile
        legal = game.legal_moves()
        plays = [m for m in legal if isinstance(m, Play | Doubles)]
        game.push(rng.choice(plays or list(legal)))
    assert compared > 20


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    variant=st.sampled_from(list(VARIANTS)),
    players=st.integers(min_value=2, max_value=4),
    seed=st.integers(min_value=0, max_value=2**31),
)
def test_every_move_of_random_games(variant: str, players: int, seed: int) -> None:
    """At every move of a random game, the picture's layout keeps its invariants, and
    its tiles only get smaller as the round goes on."""
    names = ["Андрей", "Ирина", "Ольга", "Вадим"][:players]
    game = Game.new(variant, names, seed)
    rng = random.Random(seed)
    size, number = 0, game.round.number
    for _ in range(400):
        if game.over:
            break
        if game.round.number != number:
            size, number = 0, game.round.number
        table = game.round.table
        if table.opening is not None:
            layout = check_layout(table, variant)
            assert size == 0 or layout.tile <= size
            size = layout.tile
        legal = game.legal_moves()
        plays = [m for m in legal if isinstance(m, Play | Doubles)]
        game.push(rng.choice(plays or list(legal)))
