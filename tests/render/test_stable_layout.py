"""The grid layout: a laid tile never moves, no two tiles overlap, every end points out.

Random legal games of the three games (the engine's legal moves), every round of them,
and full tables of every shape the samples build.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from itertools import pairwise

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.render.layout.snake import SEPARATION, SHORT, STEP, Box
from bot.render.layout.stable_layout import (
    OpenEnd,
    Spot,
    TableGrid,
    forget_replays,
    grid_of,
    lay_out,
    rules_of,
)
from engine.game import Game
from engine.moves import Doubles, Move, Play
from engine.table import Table
from engine.tiles import ALL_TILES, End
from engine.variants import VARIANTS
from tests.support.samples import FULL_TABLES, full_table

NAMES = ["Андрей", "Ирина", "Ольга", "Вадим"]
# A random legal game: which one, how many play, the seed of its deal and moves.
RANDOM_GAMES = given(
    variant=st.sampled_from(list(VARIANTS)),
    players=st.integers(min_value=2, max_value=4),
    seed=st.integers(min_value=0, max_value=2**31),
)


def rounds(variant: str, players: int, seed: int) -> Iterator[list[tuple[Table, Move | None]]]:
    """Each round of a random legal game: its tables from the opening on, each with the
    move played next (None: the round's last table)."""
    game = Game.new(variant, NAMES[:players], seed)
    rng = random.Random(seed)
    current: list[tuple[Table, Move | None]] = []
    number = game.round.number
    while not game.over:
        table = game.round.table.copy()
        legal = game.legal_moves()
        plays = [m for m in legal if isinstance(m, Play | Doubles)]
        move = rng.choice(plays or list(legal))
        if table.opening is not None:
            current.append((table, move))
        game.push(move)
        if game.round.number != number or game.over:
            if game.over:
                current.append((game.rounds[-1].table.copy(), None))
            yield current
            current = []
            number = game.round.number


def _overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _distance(a: Box, b: Box) -> int:
    """The distance between two boxes along the grid (0: they touch or overlap)."""
    return max(0, a[0] - b[2], b[0] - a[2], a[1] - b[3], b[1] - a[3])


def _touch(a: Box, b: Box) -> bool:
    """Whether the boxes share a stretch of an edge, at least a unit long."""
    gap_x = max(a[0] - b[2], b[0] - a[2])
    gap_y = max(a[1] - b[3], b[1] - a[3])
    overlap_x = min(a[2], b[2]) - max(a[0], b[0])
    overlap_y = min(a[3], b[3]) - max(a[1], b[1])
    return (gap_x == 0 and overlap_y >= 1) or (gap_y == 0 and overlap_x >= 1)


def _placed_part(spot: Spot) -> tuple[object, ...]:
    """What must never change once a tile is laid: everything but the house's ring,
    which a `muggins` double gets when it is closed."""
    return (spot.placed, spot.box, spot.first, spot.second, spot.travel, spot.across, spot.corner)


def check_grid(table: Table, variant: str) -> TableGrid:
    """The invariants of one layout."""
    grid = grid_of(table, variant)
    spots = grid.spots
    # Every tile once, in the order laid.
    assert sorted(s.placed for s in spots) == sorted(table.placements())
    assert [s.placed.seq for s in spots] == sorted(s.placed.seq for s in spots)
    for spot in spots:
        x0, y0, x1, y1 = spot.box
        assert sorted((x1 - x0, y1 - y0)) == [2, 4], spot
    # No two tiles overlap.
    for i, a in enumerate(spots):
        for b in spots[i + 1 :]:
            assert not _overlap(a.box, b.box), (a, b)
    check_chains(table, grid)
    check_ends(table, grid)
    return grid


def _chain(table: Table, grid: TableGrid, end: End) -> list[Spot]:
    """An arm's tiles from the tile it leaves (the opening, or the hub) out."""
    by_placed = {s.placed: s for s in grid.spots}
    opening = table.opening
    assert opening is not None
    start = opening if end in (End.W, End.E) else table.hub_tile()
    assert start is not None
    return [by_placed[start]] + [by_placed[p] for p in table.arm(end)]


def _halves(spot: Spot) -> list[tuple[Box, int]]:
    x0, y0, x1, y1 = spot.box
    if spot.vertical:
        return [((x0, y0, x1, y0 + 2), spot.first), ((x0, y0 + 2, x1, y1), spot.second)]
    return [((x0, y0, x0 + 2, y1), spot.first), ((x0 + 2, y0, x1, y1), spot.second)]


def check_chains(table: Table, grid: TableGrid) -> None:
    """Each arm is one unbroken line: every tile touches the one before it, the halves
    that touch show the same pips, and the line runs through each tile the way its
    `travel` says. Tiles of different arms keep apart but where they meet."""
    hub = table.hub_tile()
    chains = {end: _chain(table, grid, end) for end in End if table.arm(end)}
    for end, chain in chains.items():
        for before, spot in pairwise(chain):
            assert _touch(before.box, spot.box), (end, before, spot)
            near = {p for box, p in _halves(spot) if _touch(box, before.box)}
            far = {p for box, p in _halves(before) if _touch(box, spot.box)}
            assert near & far, (end, before, spot)
            assert spot.travel is not None
            dx, dy = STEP[spot.travel]
            # The tile lies beyond the one before it, the way it travels.
            assert (spot.box[2] if dx > 0 else -spot.box[0] if dx < 0 else 0) > (
                before.box[2] if dx > 0 else -before.box[0] if dx < 0 else 0
            ) or (spot.box[3] if dy > 0 else -spot.box[1] if dy < 0 else 0) > (
                before.box[3] if dy > 0 else -before.box[1] if dy < 0 else 0
            ), (end, before, spot)
    # Where arms meet: the opening, the hub, and the tiles that touch those.
    junctions = [s.box for s in grid.spots if s.placed in (table.opening, hub)]
    arms = {s.placed: s.arm for s in grid.spots}
    for i, a in enumerate(grid.spots):
        for b in grid.spots[i + 1 :]:
            if arms[a.placed] == arms[b.placed] or a.placed == hub or b.placed == hub:
                continue
            if a.placed == table.opening or b.placed == table.opening:
                continue
            # A double left across its line (never the hub) sticks out of it by a unit.
            allowed = SEPARATION - (1 if a.across or b.across else 0)
            if _distance(a.box, b.box) < allowed:
                near = [
                    j for j in junctions if _distance(j, a.box) == 0 and _distance(j, b.box) == 0
                ]
                assert near, (a, b)


def check_ends(table: Table, grid: TableGrid) -> None:
    """Each open end has one slot, free, against its last tile, and its arrow points
    out of the line: the slot lies beyond the last tile the way the arrow points."""
    assert [e.end for e in grid.ends] == [end for end, _ in table.ends]
    spots = grid.spots
    for open_end in grid.ends:
        last = _chain(table, grid, open_end.end)[-1]
        for box in (open_end.slot.box, open_end.double):
            for spot in spots:
                assert not _overlap(box, spot.box), (open_end, spot)
            assert _touch(last.box, box), (open_end, last)
        check_arrow(open_end, last.box)
        x, y = open_end.slot.mark
        # The mark lies just past the last tile, where the next one goes.
        assert _distance((x, y, x, y), last.box) <= 1, (open_end, last)
        assert not any(s.box[0] < x < s.box[2] and s.box[1] < y < s.box[3] for s in spots)


def check_arrow(open_end: OpenEnd, last: Box) -> None:
    """The cell the arrow points to, from the mark, is the slot's and is free: the
    arrow points away from the line, never back into it."""
    dx, dy = STEP[open_end.slot.travel]
    x, y = open_end.slot.mark
    ahead = (x + dx, y + dy)
    sx0, sy0, sx1, sy1 = open_end.slot.box
    assert sx0 <= ahead[0] <= sx1 and sy0 <= ahead[1] <= sy1, open_end
    # The slot reaches further that way than the last tile does.
    far = (sx1 * dx if dx > 0 else -sx0 if dx < 0 else 0) + (
        sy1 if dy > 0 else -sy0 if dy < 0 else 0
    )
    near = (last[2] if dx > 0 else -last[0] if dx < 0 else 0) + (
        last[3] if dy > 0 else -last[1] if dy < 0 else 0
    )
    assert far > near, (open_end, last)


def check_landing(before: TableGrid, after: TableGrid, move: Move) -> int:
    """Each tile the move laid lies exactly where its end's slot was: for a double the
    slot's double place, for any other tile its ordinary one."""
    plays = move.plays if isinstance(move, Doubles) else (move,) if isinstance(move, Play) else ()
    landed = 0
    for play in plays:
        if play.end is None:
            continue
        open_end = before.end(play.end)
        assert open_end is not None
        spot = next(s for s in after.spots if s.placed.tile == play.tile)
        expected = open_end.double if play.tile.is_double else open_end.slot.box
        assert spot.box == expected, (play, open_end, spot)
        assert spot.travel is open_end.slot.travel, (play, open_end, spot)
        landed += 1
    return landed


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@RANDOM_GAMES
def test_random_games_lay_every_tile_once_and_for_all(
    variant: str, players: int, seed: int
) -> None:
    """(a) The layout after k moves is the first tiles of the layout after any later
    move of the round; (b) no two tiles overlap; (c) every end's arrow points out,
    to a free slot, and the tile laid there lands in it."""
    for tables in rounds(variant, players, seed):
        final = check_grid(tables[-1][0], variant)
        for (table, move), (after, _) in pairwise(tables):
            grid = check_grid(table, variant)
            count = len(grid.spots)
            assert [_placed_part(s) for s in grid.spots] == [
                _placed_part(s) for s in final.spots[:count]
            ]
            assert move is not None
            check_landing(grid, grid_of(after, variant), move)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@RANDOM_GAMES
def test_a_table_grown_move_by_move_is_laid_out_as_from_scratch(
    variant: str, players: int, seed: int
) -> None:
    """The replay goes on from the table of a move ago (kept), and a muggins house that
    closes changes how the earlier tiles are read: each table laid out as the rounds go
    on is the same grid as laying it out with nothing kept."""
    rules = rules_of(variant)
    grown: list[tuple[Table, TableGrid]] = []
    for tables in rounds(variant, players, seed):
        grown += [(table, lay_out(table, rules)) for table, _ in tables]
    for table, grid in grown:
        forget_replays()
        assert lay_out(table, rules) == grid


@pytest.mark.parametrize(("variant", "shape"), FULL_TABLES)
@pytest.mark.parametrize("seed", range(4))
def test_full_tables_are_laid_out_without_overlap(variant: str, shape: str, seed: int) -> None:
    """(d) All 28 tiles down, in the hardest shapes: every tile laid, none overlapping,
    and each of the table's beginnings (replayed in the order laid) a prefix."""
    table = full_table(variant, shape, seed)
    assert len(table.placements()) == len(ALL_TILES)
    final = check_grid(table, variant)
    for moves in range(1, table.moves):
        part = check_grid(_prefix(variant, table, moves), variant)
        assert [_placed_part(s) for s in part.spots] == [
            _placed_part(s) for s in final.spots[: len(part.spots)]
        ]


def _prefix(variant: str, table: Table, moves: int) -> Table:
    """The table as it stood after its first `moves` moves (replayed in seq order)."""
    from engine.variants import ruleset

    rules = ruleset(variant)
    placed = sorted((p.seq, end, p) for end in End for p in table.arm(end))
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
    return partial


def test_the_hub_lies_across_and_the_line_goes_on_through_it() -> None:
    """A spinner laid far out on the line lies across it where it was laid; its arms
    leave its two free sides, and nothing laid before it moved."""
    from tests.render.test_layout import spinner_at_the_end_of_a_long_west_arm

    table = spinner_at_the_end_of_a_long_west_arm()
    grid = check_grid(table, "fives")
    hub = next(s for s in grid.spots if s.hub)
    assert hub.placed == table.hub_tile() and hub.across
    for end in (End.N, End.S):
        first = _chain(table, grid, end)[1]
        assert _touch(hub.box, first.box)
    before = check_grid(_prefix("fives", table, hub.placed.seq - 1), "fives")
    assert [_placed_part(s) for s in before.spots] == [
        _placed_part(s) for s in grid.spots[: len(before.spots)]
    ]


def test_a_lone_opening_lies_in_the_middle_along_the_line() -> None:
    table = Table()
    table.open_with(ALL_TILES[1], ALL_TILES[1].high)
    grid = grid_of(table, "fives")
    (spot,) = grid.spots
    assert spot.box == (-2, -1, 2, 1) and spot.travel is None
    assert [e.slot.travel for e in grid.ends] == [End.W, End.E]
    assert grid_of(Table(), "fives") == TableGrid((), ())
    assert SHORT == 2
