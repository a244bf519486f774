"""The board layout: every table tile drawn once, inside the board, never overlapping."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.render import layout_board
from bot.render.board_geometry import (
    BOARD_HEIGHT,
    BOARD_WIDTH,
    MIN_TILE_LONG,
    TILE_MAX,
    TILE_MIN,
    TILE_SIZES,
    BoardLayout,
    Geometry,
    TileBox,
    mark_radius,
)
from bot.render.layout import board_layout
from bot.render.samples import SHAPES, full_table, play
from bot.render.snake import capacity, ray_room, ray_slots
from engine.moves import Doubles, Play
from engine.table import Table
from engine.tiles import ALL_TILES, End, Tile
from engine.variants import ruleset

VARIANTS = ("fives", "muggins", "twolane")
FULL_SET = len(ALL_TILES)


def check_layout(table: Table, lanes: bool = False) -> BoardLayout:
    """The invariants every layout keeps; returns the layout for further checks."""
    layout = board_layout(table, lanes=lanes)
    boxes = layout.boxes
    placements = table.placements()
    # One box per table tile, in the table's order, each tile exactly once.
    assert [b.placed for b in boxes] == placements
    assert len({b.placed.tile for b in boxes}) == len(boxes)
    assert TILE_MIN <= layout.tile <= TILE_MAX
    for b in boxes:
        # Inside the board (the panel lies below it), never below the readable size.
        assert b.x >= 0 and b.x + b.w <= BOARD_WIDTH, b
        assert b.y >= 0 and b.y + b.h <= BOARD_HEIGHT, b
        assert min(b.w, b.h) * 2 == max(b.w, b.h) == layout.tile >= MIN_TILE_LONG, b
    # No two tiles overlap (boxes are half-open rectangles).
    ordered = sorted(boxes, key=lambda b: b.x)
    for i, a in enumerate(ordered):
        for b in ordered[i + 1 :]:
            if b.x >= a.x + a.w:
                break
            assert a.y + a.h <= b.y or b.y + b.h <= a.y, (a, b)
    # The marks: one per open end, on free felt, inside the board.
    assert sorted(m.end for m in layout.marks) == sorted(end for end, _ in table.ends)
    r = mark_radius(layout.tile)
    for m in layout.marks:
        assert r <= m.x <= BOARD_WIDTH - r and r <= m.y <= BOARD_HEIGHT - r, m
        for b in boxes:
            assert _distance((m.x, m.y, m.x, m.y), b.box) >= r - 1, (m, b)
    check_lines(layout)
    check_marks(layout)
    check_travel(layout)
    return layout


def check_travel(layout: BoardLayout) -> None:
    """Each ray tile's `travel` is the way its line goes on from it: along a row the way
    the row runs, at a corner the way it turns (the names of the ends read it)."""
    for end, ray in layout.rays.items():
        mark = next((m for m in layout.marks if m.end is end), None)
        following: list[Box] = [b.box for b in ray[1:]] + ([mark.slot] if mark else [])
        for box, after in zip(ray, following, strict=False):
            assert box.travel is not None
            assert (box.travel in (End.W, End.E)) == (not box.vertical), box
            dx, dy = ARROW[box.travel]
            here = (box.x + box.w / 2) * dx + (box.y + box.h / 2) * dy
            there = (after[0] + after[2]) / 2 * dx + (after[1] + after[3]) / 2 * dy
            assert there > here, (box, after)
    if layout.center is not None:
        assert layout.center.travel is None


# -- folded arms read as one line ---------------------------------------------------

Box = tuple[int, int, int, int]


def _distance(a: Box, b: Box) -> float:
    """The shortest distance between two rectangles (0 if they touch or overlap)."""
    dx = max(0, a[0] - b[2], b[0] - a[2])
    dy = max(0, a[1] - b[3], b[1] - a[3])
    return float((dx * dx + dy * dy) ** 0.5)


def _touch(a: Box, b: Box, tile: int) -> bool:
    """Whether `b` lies against a side of `a`: a gap of at most GAP and a real overlap
    along that side (at least a quarter tile: a corner overlaps half a short side)."""
    gap_x = max(a[0] - b[2], b[0] - a[2])
    gap_y = max(a[1] - b[3], b[1] - a[3])
    overlap_x = min(a[2], b[2]) - max(a[0], b[0])
    overlap_y = min(a[3], b[3]) - max(a[1], b[1])
    side = tile // 4 - 1
    return (0 <= gap_x <= 2 and overlap_y >= side) or (0 <= gap_y <= 2 and overlap_x >= side)


def _line_of(box: TileBox) -> tuple[bool, int]:
    """Which way a tile lies, and the centre line it lies on."""
    return (box.vertical, box.x + box.w // 2 if box.vertical else box.y + box.h // 2)


def _runs(ray: tuple[TileBox, ...]) -> list[list[TileBox]]:
    """The ray's straight stretches: consecutive tiles lying along one line."""
    runs: list[list[TileBox]] = []
    for box in ray:
        if runs and _line_of(runs[-1][-1]) == _line_of(box):
            runs[-1].append(box)
        else:
            runs.append([box])
    return runs


def check_lines(layout: BoardLayout) -> None:
    """Each ray is one unbroken line, and no two rays can be taken for one.

    - every tile lies against the one before it (the first against the centre):
      no tile, the end one least of all, drops out of its line;
    - tiles of different rays keep at least the distance between the folded
      rows of one ray (only the first tiles meet, at the centre);
    - a ray's straight stretch never runs beside another ray's: two parallel
      stretches of different rays never lie side by side.
    """
    center = layout.center
    if center is None:
        return
    separation = Geometry(tile=layout.tile).separation
    for end, ray in layout.rays.items():
        for before, box in zip((center, *ray), ray, strict=False):
            assert _touch(before.box, box.box, layout.tile), (end, before, box)
    rays = list(layout.rays.items())
    for i, (end_a, ray_a) in enumerate(rays):
        for end_b, ray_b in rays[i + 1 :]:
            for a in ray_a:
                for b in ray_b:
                    if a is ray_a[0] and b is ray_b[0]:
                        continue
                    assert _distance(a.box, b.box) >= separation, (end_a, a, end_b, b)
            for run_a in _runs(ray_a):
                for run_b in _runs(ray_b):
                    if len(run_a) < 2 or len(run_b) < 2 or run_a[0].vertical != run_b[0].vertical:
                        continue
                    axis = 1 if run_a[0].vertical else 0
                    lo_a = min(b.box[axis] for b in run_a)
                    hi_a = max(b.box[axis + 2] for b in run_a)
                    lo_b = min(b.box[axis] for b in run_b)
                    hi_b = max(b.box[axis + 2] for b in run_b)
                    assert hi_a <= lo_b or hi_b <= lo_a, (end_a, run_a, end_b, run_b)


ARROW = {End.W: (-1, 0), End.E: (1, 0), End.N: (0, -1), End.S: (0, 1)}


def check_marks(layout: BoardLayout) -> None:
    """The end mark sits at the ray's real open end and points the way the next tile goes.

    The mark's slot (where the next tile goes at this size) is free and lies
    against the end tile; the arrow runs along the slot's long side, away from the
    end tile; and the mark itself is right by the end tile.
    """
    center = layout.center
    for mark in layout.marks:
        assert center is not None
        ray = layout.rays.get(mark.end, ())
        end_tile = ray[-1] if ray else center
        slot = mark.slot
        for b in layout.boxes:
            assert not _overlap(slot, b.box), (mark, b)
        assert _touch(end_tile.box, slot, layout.tile), (mark, end_tile)
        dx, dy = ARROW[mark.travel]
        w, h = slot[2] - slot[0], slot[3] - slot[1]
        assert (dx != 0) == (w > h), mark  # along the next tile's long side
        # Away from the end tile: the slot's far end lies beyond the end tile that way.
        if dx:
            beyond = slot[2] > end_tile.box[2] if dx > 0 else slot[0] < end_tile.box[0]
        else:
            beyond = slot[3] > end_tile.box[3] if dy > 0 else slot[1] < end_tile.box[1]
        assert beyond, (mark, end_tile)
        assert _distance((mark.x, mark.y, mark.x, mark.y), end_tile.box) <= layout.tile // 2


def _overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


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


def test_the_smallest_size_holds_a_whole_set_in_one_ray() -> None:
    """27 tiles and the end's mark fit any ray at the smallest size, the centre
    placed towards the opposite corner (as the layout places it for one long arm)."""
    g = Geometry(tile=TILE_MIN)
    assert TILE_SIZES[-1] == TILE_MIN == MIN_TILE_LONG
    corner = {  # the far corner from where each ray snakes
        End.W: (BOARD_WIDTH - 3 * g.tile, BOARD_HEIGHT - 2 * g.tile),
        End.E: (3 * g.tile, 2 * g.tile),
        End.N: (2 * g.tile, BOARD_HEIGHT - 3 * g.tile),
        End.S: (BOARD_WIDTH - 2 * g.tile, 3 * g.tile),
    }
    for end in End:
        assert capacity(end, g, hub=True, center=corner[end]) >= FULL_SET, end
    for end in (End.W, End.E):
        assert capacity(end, g, hub=False, center=corner[end]) >= FULL_SET, end


def test_room_counts_the_slots() -> None:
    for tile in (*TILE_SIZES, 64, 110):
        g = Geometry(tile=tile)
        for hub in (True, False):
            half_w, half_h = (g.short // 2, g.short) if hub else (g.short, g.short // 2)
            for hx in range(200, 1100, 77):
                for end in End:
                    for rows in (None, 1, 2, 3):
                        slots = ray_slots(g, end, hx, g.height // 2, half_w, half_h, 10_000, rows)
                        room = ray_room(g, end, hx, g.height // 2, half_w, half_h, rows)
                        assert room == len(slots)


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
    layout = check_layout(table, lanes=variant == "twolane")
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


def test_a_short_game_is_drawn_large_in_the_middle() -> None:
    """The board fits its content: a short line at the largest size, centred."""
    table = Table()
    table.open_with(Tile.of(6, 4), 6)
    table.attach(Tile.of(4, 2), End.E)
    layout = check_layout(table)
    assert layout.tile == TILE_MAX and layout.corners == 0
    r = mark_radius(layout.tile)
    left = min([b.x for b in layout.boxes] + [m.x - r for m in layout.marks])
    right = max([b.x + b.w for b in layout.boxes] + [m.x + r for m in layout.marks])
    tops = [b.y for b in layout.boxes]
    bottoms = [b.y + b.h for b in layout.boxes]
    assert abs((left + right) - BOARD_WIDTH) <= 1
    assert abs((min(tops) + max(bottoms)) - BOARD_HEIGHT) <= 1
    assert all(not b.vertical for b in layout.boxes)


def test_a_growing_table_shrinks_its_tiles_before_it_folds_twice() -> None:
    """Tiles get smaller as the line grows; no ray turns twice above the smallest size."""
    game = play("muggins", seed=5, moves=0)
    rng = random.Random(5)
    sizes = []
    while game.round.number == 1 and not game.over:
        layout = check_layout(game.round.table)
        sizes.append(layout.tile)
        if layout.tile > TILE_MIN:
            for ray in layout.rays.values():
                assert len(_runs(ray)) <= 3  # a row, a corner, a row
        legal = game.legal_moves()
        plays = [m for m in legal if isinstance(m, Play | Doubles)]
        game.push(rng.choice(plays or list(legal)))
    assert sizes[0] == TILE_MAX and min(sizes) < TILE_MAX


def _relative(layout: BoardLayout) -> dict[Tile, tuple[int, int, int, int]]:
    """Each tile's box relative to the centre tile (the drawing moves as a whole)."""
    assert layout.center is not None
    cx, cy = layout.center.x, layout.center.y
    return {b.placed.tile: (b.x - cx, b.y - cy, b.w, b.h) for b in layout.boxes}


@pytest.mark.parametrize("variant", VARIANTS)
def test_tiles_stay_put_while_the_centre_and_size_do(variant: str) -> None:
    """A new tile never moves the others (but for the whole drawing moving to stay
    in the middle), unless the size or the centre's place changes; and it goes
    where its end's mark showed."""
    moves = landed = 0
    for seed in range(6):
        game = play(variant, seed=seed, moves=0)
        rng = random.Random(seed)
        before = board_layout(game.round.table)
        while not game.over and game.round.number == 1:
            legal = game.legal_moves()
            plays = [m for m in legal if isinstance(m, Play | Doubles)]
            move = rng.choice(plays or list(legal))
            game.push(move)
            if game.round.number != 1:
                break
            after = board_layout(game.round.table)
            if before.center is not None and after.center is not None:
                old, new = _relative(before), _relative(after)
                same = after.tile == before.tile and after.center.placed == before.center.placed
                same_origin = after.origin == before.origin
                if same and all(new[t] == box for t, box in old.items() if t in new):
                    moves += 1
                    if isinstance(move, Play) and move.end is not None and same_origin:
                        landed += _check_landing(before, after, move)
            before = after
    assert moves > 20 and landed > 10


def _check_landing(before: BoardLayout, after: BoardLayout, move: Play) -> int:
    """The tile played at an end lies where that end's mark said the next tile goes."""
    mark = next((m for m in before.marks if m.end is move.end), None)
    assert mark is not None and before.center is not None and after.center is not None
    dx = after.center.x - before.center.x
    dy = after.center.y - before.center.y
    box = next(b for b in after.boxes if b.placed.tile == move.tile)
    left, top, right, bottom = mark.slot
    assert box.box == (left + dx, top + dy, right + dx, bottom + dy), (mark, box)
    return 1


FOLDED = [
    ("twolane", "east"),
    ("twolane", "random"),
    ("fives", "cross"),
    ("fives", "north"),
    ("muggins", "west"),
    ("muggins", "south"),
]


def _folded_layouts() -> list[BoardLayout]:
    layouts = []
    for seed in range(6):
        for variant, shape in FOLDED:
            layouts.append(check_layout(full_table(variant, shape, seed), variant == "twolane"))
    return layouts


def test_an_end_in_a_row_running_back_points_back() -> None:
    """A line that turned and runs back: its mark points back too, past its last tile."""
    back = 0
    for layout in _folded_layouts():
        for mark in layout.marks:
            ray = layout.rays.get(mark.end, ())
            if len(ray) < 2 or _line_of(ray[-1]) != _line_of(ray[-2]):
                continue
            last, previous = ray[-1], ray[-2]
            if last.vertical:
                way = End.S if last.y > previous.y else End.N
            else:
                way = End.E if last.x > previous.x else End.W
            slot_w = mark.slot[2] - mark.slot[0]
            slot_h = mark.slot[3] - mark.slot[1]
            if (slot_w > slot_h) == (not last.vertical):  # the row goes on
                assert mark.travel is way, (mark, last)
                back += way is not mark.end
    assert back >= 2  # ends whose rows run against the end's own name


def test_before_a_corner_the_mark_stays_on_the_line_and_turns() -> None:
    """Right before a corner the arrow points the way the corner tile goes, and the
    mark sits on the line of the last row, just past its last tile."""
    turns = 0
    for layout in _folded_layouts():
        for mark in layout.marks:
            ray = layout.rays.get(mark.end, ())
            if len(ray) < 2 or _line_of(ray[-1]) != _line_of(ray[-2]):
                continue  # only ends of a straight row
            last = ray[-1]
            slot_w = mark.slot[2] - mark.slot[0]
            slot_h = mark.slot[3] - mark.slot[1]
            if (slot_w > slot_h) == (last.w > last.h):
                continue  # the row goes on
            turns += 1
            vertical_arrow = mark.travel in (End.N, End.S)
            assert vertical_arrow == (not last.vertical), (mark, last)
            line = _line_of(last)[1]
            assert (mark.x if last.vertical else mark.y) == line, (mark, last)
    assert turns >= 3


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
        table = game.round.table
        check_pips(table, check_layout(table, lanes=variant == "twolane"))
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
    check_pips(table, check_layout(table, lanes=variant == "twolane"))
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
    return partial, check_layout(partial, lanes=variant == "twolane")
