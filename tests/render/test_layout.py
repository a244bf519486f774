"""The board layout: every table tile drawn once, inside the board, never overlapping."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.render import layout_board
from bot.render.layout import (
    BOARD_HEIGHT,
    BOARD_WIDTH,
    MIN_TILE_LONG,
    TILE_SIZES,
    BoardLayout,
    Geometry,
    TileBox,
    _room,
    _slots,
    board_layout,
    capacity,
)
from bot.render.samples import SHAPES, full_table, play
from engine.moves import Doubles, Play
from engine.table import Table
from engine.tiles import ALL_TILES, End, Tile
from engine.variants import ruleset

VARIANTS = ("fives", "muggins", "twolane")
FULL_SET = len(ALL_TILES)


def check_layout(table: Table) -> BoardLayout:
    """The invariants every layout keeps; returns the layout for further checks."""
    layout = board_layout(table)
    boxes = layout.boxes
    placements = table.placements()
    # One box per table tile, in the table's order, each tile exactly once.
    assert [b.placed for b in boxes] == placements
    assert len({b.placed.tile for b in boxes}) == len(boxes)
    for b in boxes:
        # Inside the board (the panel lies below it), never below the readable size.
        assert b.x >= 0 and b.x + b.w <= BOARD_WIDTH, b
        assert b.y >= 0 and b.y + b.h <= BOARD_HEIGHT, b
        assert min(b.w, b.h) * 2 == max(b.w, b.h) >= MIN_TILE_LONG, b
    # No two tiles overlap (boxes are half-open rectangles).
    ordered = sorted(boxes, key=lambda b: b.x)
    for i, a in enumerate(ordered):
        for b in ordered[i + 1 :]:
            if b.x >= a.x + a.w:
                break
            assert a.y + a.h <= b.y or b.y + b.h <= a.y, (a, b)
    # The marks: one per open end, on free felt, inside the board.
    assert sorted(m.end for m in layout.marks) == sorted(end for end, _ in table.ends)
    for m in layout.marks:
        assert 0 <= m.x < BOARD_WIDTH and 0 <= m.y < BOARD_HEIGHT
        for b in boxes:
            assert not (b.x <= m.x < b.x + b.w and b.y <= m.y < b.y + b.h), (m, b)
    return layout


def check_pips(table: Table, layout: BoardLayout) -> None:
    """Each ray shows touching halves equal, as on a real table, from the centre out."""
    center = layout.center
    if center is None:
        return
    if table.hub is not None:
        assert center.hub and center.vertical and center.placed == table.hub_tile()
    for end, ray in layout.rays.items():
        for inner, outer in zip((center, *ray), ray, strict=False):
            # The outer tile's near half (the one touching `inner`) matches.
            assert outer.placed.tile.has(_near(outer, inner))
        if ray:
            assert _far(ray[-1], ray[-2] if len(ray) > 1 else center) == table.end_value(end)
    last = {p.tile for p in table.last_placed()}
    assert {b.placed.tile for b in layout.boxes if b.last} == last


def _near(box: TileBox, previous: TileBox) -> int:
    """The half of `box` that faces `previous` (the tile before it in its ray)."""
    bx, by = box.x + box.w / 2, box.y + box.h / 2
    px, py = previous.x + previous.w / 2, previous.y + previous.h / 2
    if box.w > box.h:  # horizontal: left or right half
        return box.first if px < bx else box.second
    return box.first if py < by else box.second


def _far(box: TileBox, previous: TileBox) -> int:
    near = _near(box, previous)
    return box.second if near == box.first and box.first != box.second else box.first


def test_the_smallest_size_holds_a_whole_set_in_any_ray() -> None:
    """The guarantee: 27 tiles and the end's mark fit every ray, centre in the middle."""
    g = Geometry(tile=TILE_SIZES[-1])
    assert TILE_SIZES[-1] == MIN_TILE_LONG
    for end in End:
        assert capacity(end, g, hub=True) >= FULL_SET, end
    for end in (End.W, End.E):
        assert capacity(end, g, hub=False) >= FULL_SET, end


def test_room_counts_the_slots() -> None:
    for tile in (*TILE_SIZES, 64, 110):
        g = Geometry(tile=tile)
        for hub in (True, False):
            half_w, half_h = (g.short // 2, g.short) if hub else (g.short, g.short // 2)
            for hx in range(200, 1100, 77):
                for end in End:
                    for rows in (None, 1, 2, 3):
                        slots = _slots(g, end, hx, g.height // 2, half_w, half_h, 10_000, rows)
                        assert _room(g, end, hx, g.height // 2, half_w, half_h, rows) == len(slots)


# twolane has no N and S arms: those shapes exist only with a spinner or house.
FULL_TABLES = [
    (variant, shape)
    for variant in VARIANTS
    for shape in SHAPES
    if not (variant == "twolane" and shape in ("north", "south"))
]


@pytest.mark.parametrize(("variant", "shape"), FULL_TABLES)
@pytest.mark.parametrize("seed", range(3))
def test_full_tables_fit(variant: str, shape: str, seed: int) -> None:
    table = full_table(variant, shape, seed)
    assert len(table.placements()) == FULL_SET
    layout = check_layout(table)
    check_pips(table, layout)


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
    layout = check_layout(table)
    check_pips(table, layout)
    assert layout.center is not None and layout.center.placed == table.hub_tile()


def test_empty_table_has_no_boxes() -> None:
    assert layout_board(Table()) == []


def test_a_short_game_keeps_the_opening_in_the_middle() -> None:
    table = Table()
    table.open_with(Tile.of(6, 4), 6)
    table.attach(Tile.of(4, 2), End.E)
    layout = board_layout(table)
    assert layout.tile == TILE_SIZES[0]
    opening = layout.boxes[0]
    assert opening.x + opening.w // 2 == BOARD_WIDTH // 2
    assert not opening.vertical


@pytest.mark.parametrize("variant", VARIANTS)
def test_tiles_stay_put_while_the_centre_and_size_do(variant: str) -> None:
    """A new tile never moves the others, unless the size or the centre changes."""
    moves = 0
    for seed in range(6):
        game = play(variant, seed=seed, moves=0)
        rng = random.Random(seed)
        before = board_layout(game.round.table)
        while not game.over and game.round.number == 1:
            legal = game.legal_moves()
            plays = [m for m in legal if isinstance(m, Play | Doubles)]
            game.push(rng.choice(plays or list(legal)))
            if game.round.number != 1:
                break
            after = board_layout(game.round.table)
            if before.center is not None and after.center is not None:
                same = after.tile == before.tile and after.center.box == before.center.box
                old = {b.placed.tile: b.box for b in before.boxes}
                new = {b.placed.tile: b.box for b in after.boxes}
                if same and after.center.placed == before.center.placed:
                    assert all(new[t] == box for t, box in old.items())
                    moves += 1
            before = after
    assert moves > 20


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    variant=st.sampled_from(VARIANTS),
    players=st.integers(min_value=2, max_value=4),
    seed=st.integers(min_value=0, max_value=2**31),
)
def test_every_move_of_random_games(variant: str, players: int, seed: int) -> None:
    """At every move of a random game, the layout keeps its invariants."""
    names = ["Андрей", "Ирина", "Ольга", "Вадим"][:players]
    from engine.game import Game

    game = Game.new(variant, names, seed)
    rng = random.Random(seed)
    for _ in range(400):
        if game.over:
            break
        check_pips(game.round.table, check_layout(game.round.table))
        legal = game.legal_moves()
        plays = [m for m in legal if isinstance(m, Play | Doubles)]
        game.push(rng.choice(plays or list(legal)))


@settings(max_examples=40, deadline=None)
@given(
    variant=st.sampled_from(VARIANTS),
    shape=st.sampled_from(sorted(SHAPES)),
    seed=st.integers(min_value=0, max_value=10_000),
    cut=st.integers(min_value=1, max_value=FULL_SET),
)
def test_random_full_tables_and_their_beginnings(
    variant: str, shape: str, seed: int, cut: int
) -> None:
    """Full tables of every shape, and the same table as it stood after any move."""
    if variant == "twolane" and shape in ("north", "south"):
        shape = "random"
    table = full_table(variant, shape, seed)
    check_pips(table, check_layout(table))
    check_pips(*_prefix(variant, table, cut))


def _prefix(variant: str, table: Table, moves: int) -> tuple[Table, BoardLayout]:
    """The table as it stood after its first `moves` moves (replayed in seq order)."""
    rules = ruleset(variant)
    placed = sorted(
        [(p.seq, end, p) for end in End for p in table.arm(end)], key=lambda item: item[0]
    )
    opening = table.opening
    assert opening is not None
    partial = Table()
    partial.open_with(opening.tile, opening.inner)
    rules.claim_hub(partial, None)
    for seq, end, p in placed:
        if seq > moves:
            break
        partial.attach(p.tile, end)
        rules.claim_hub(partial, end)
    return partial, check_layout(partial)
