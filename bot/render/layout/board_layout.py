"""Where each tile of the table lies in the board picture: pure geometry, no drawing.

The grid layout (`bot.render.layout.stable_layout`) places every tile once, when it is
laid; here it is scaled and centred on the board (`bot.render.layout.fitting`) and
turned into pixels: every tile's box, the open ends' marks.
"""

from __future__ import annotations

from bot.render.layout.board_geometry import (
    BOARD_HEIGHT,
    BOARD_WIDTH,
    GAP,
    BoardLayout,
    EndMark,
    TileBox,
)
from bot.render.layout.fitting import MARK_ROOM, Fit, fit
from bot.render.layout.snake import Box
from bot.render.layout.stable_layout import TableGrid, TableKey, grid_of, table_shape
from engine.table import Table
from engine.tiles import End
from engine.variants import ruleset

__all__ = ["TableKey", "board_layout", "layout_board", "picture_extent", "table_shape"]


def layout_board(table: Table, variant: str = "fives") -> list[TileBox]:
    """Each table tile's rectangle: one box per `table.placements()` tile."""
    return list(board_layout(table, variant).boxes)


def board_layout(
    table: Table, variant: str, width: int = BOARD_WIDTH, height: int = BOARD_HEIGHT
) -> BoardLayout:
    """The full layout in pixels: tile boxes, the open ends' marks, each arm's tiles."""
    grid = grid_of(table, variant)
    if not grid.spots:
        return BoardLayout((), (), {}, None, width, height, 0)
    lanes = ruleset(variant).lanes
    f = fit(picture_extent(grid), width, height, lanes)
    last = table.moves
    boxes: dict[object, TileBox] = {}
    for spot in grid.spots:
        boxes[spot.placed] = TileBox(
            placed=spot.placed,
            x=f.x(spot.box[0]) + GAP // 2,
            y=f.y(spot.box[1]) + GAP // 2,
            w=f.tile // 2 if spot.vertical else f.tile,
            h=f.tile if spot.vertical else f.tile // 2,
            first=spot.first,
            second=spot.second,
            arm=spot.arm,
            index=spot.index,
            hub=spot.hub,
            last=spot.placed.seq == last,
            travel=spot.travel,
        )
    marks = tuple(
        EndMark(e.end, f.x(e.slot.mark[0]), f.y(e.slot.mark[1]), e.slot.travel, _pixels(f, box))
        for e in grid.ends
        for box in (e.slot.box,)
    )
    ordered = tuple(boxes[p] for p in table.placements())
    rays = {end: tuple(boxes[p] for p in table.arm(end)) for end in End if table.arm(end)}
    corners = sum(1 for s in grid.spots if s.corner)
    assert table.opening is not None
    return BoardLayout(
        ordered,
        marks,
        rays,
        boxes[table.opening],
        width,
        height,
        f.tile,
        corners,
        (f.left, f.top),
        f.unit,
    )


def picture_extent(grid: TableGrid) -> Box:
    """What the picture must hold, in grid units: the tiles and the ends' marks."""
    boxes = [s.box for s in grid.spots]
    for e in grid.ends:
        x, y = e.slot.mark
        boxes.append((x - MARK_ROOM, y - MARK_ROOM, x + MARK_ROOM, y + MARK_ROOM))
    return (
        min(b[0] for b in boxes),
        min(b[1] for b in boxes),
        max(b[2] for b in boxes),
        max(b[3] for b in boxes),
    )


def _pixels(f: Fit, box: Box) -> tuple[int, int, int, int]:
    return (f.x(box[0]), f.y(box[1]), f.x(box[2]), f.y(box[3]))
