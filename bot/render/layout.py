"""Where each tile of the table lies in the board picture: pure geometry, no drawing.

The board is a cross around a centre tile, with four rays running from it
(`bot.render.rays`); each ray snakes towards its own quarter of the board
(`bot.render.snake`), at the tile size and with the centre where the table fits
best (`bot.render.fitting`). Here the pieces are put together: every tile's box,
the open ends' marks, and the whole drawing moved to the middle of the board.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from bot.render.board_geometry import (
    BOARD_HEIGHT,
    BOARD_WIDTH,
    LANE_TAB,
    TILE_SIZES,
    BoardLayout,
    EndMark,
    Geometry,
    TileBox,
    mark_radius,
)
from bot.render.fitting import fit
from bot.render.rays import RayTile, ray_lengths, table_rays
from bot.render.snake import DIRECTION, Slot, center_halves, ray_slots
from engine.table import Table
from engine.tiles import End


def layout_board(
    table: Table,
    width: int = BOARD_WIDTH,
    height: int = BOARD_HEIGHT,
    sizes: tuple[int, ...] = TILE_SIZES,
) -> list[TileBox]:
    """Each table tile's rectangle: one box per `table.placements()` tile."""
    return list(board_layout(table, width, height, sizes).boxes)


def board_layout(
    table: Table,
    width: int = BOARD_WIDTH,
    height: int = BOARD_HEIGHT,
    sizes: tuple[int, ...] = TILE_SIZES,
    lanes: bool = False,
) -> BoardLayout:
    """The full layout: tile boxes, the open ends' marks and the rays.

    The largest size at which no ray turns more than once (a short table runs
    straight at the largest size); else the largest at which the table fits at
    all. `lanes` (twolane) keeps room for the lanes' labels by the opening.
    """
    if table.opening is None:
        return BoardLayout((), (), {}, None, width, height, sizes[0])
    # The board's picture and the hand's both need the layout of the same table:
    # worked out once (a full table takes about 1.5 ms).
    return _cached_layout(TableKey(table, table_shape(table)), width, height, sizes, lanes)


def table_shape(table: Table) -> tuple[object, ...]:
    """A table as a hashable value: equal when the same tiles lie the same way."""
    return (table.opening, tuple(map(tuple, table.arms)), table.hub)


@dataclass(frozen=True, slots=True)
class TableKey:
    """A table as a cache key: equal when the same tiles lie the same way."""

    table: Table = field(compare=False, hash=False)
    shape: tuple[object, ...]


@lru_cache(maxsize=128)
def _cached_layout(
    key: TableKey, width: int, height: int, sizes: tuple[int, ...], lanes: bool
) -> BoardLayout:
    table = key.table
    center, rays, _ = table_rays(table)
    counts = tuple(sorted((end, len(tiles)) for end, tiles in rays.items()))
    g, place, limit = fit(counts, table.hub is not None, width, height, sizes, lanes)
    return _layout(table, g, center, rays, place, limit, lanes)


def next_travel(
    table: Table,
    end: End,
    lanes: bool = False,
    width: int = BOARD_WIDTH,
    height: int = BOARD_HEIGHT,
    sizes: tuple[int, ...] = TILE_SIZES,
) -> End:
    """The way the tile at the outer end of `end`'s ray is drawn (its box's `travel`),
    without laying out the rest: `table` is a table just after a tile was laid at `end`.

    Raises ValueError if the table does not fit the board.
    """
    counts = ray_lengths(table)
    hub = table.hub is not None
    g, place, limit = fit(tuple(sorted(counts.items())), hub, width, height, sizes, lanes)
    half_w, half_h = center_halves(g, hub)
    count = counts[end]
    slots = ray_slots(g, end, place[0], place[1], half_w, half_h, count, limit)
    return DIRECTION[slots[count - 1].travel]


def _layout(
    table: Table,
    g: Geometry,
    center: RayTile,
    rays: dict[End, list[RayTile]],
    place: tuple[int, int],
    limit: int | None,
    lanes: bool,
) -> BoardLayout:
    hub = table.hub is not None
    half_w, half_h = center_halves(g, hub)
    hx, cy = place
    last_seq = table.moves
    center_box = TileBox(
        placed=center.placed,
        x=hx - half_w,
        y=cy - half_h,
        w=2 * half_w,
        h=2 * half_h,
        first=center.near,
        second=center.far,
        arm=center.arm,
        index=center.index,
        hub=hub,
        last=center.placed.seq == last_seq,
    )
    boxes = [center_box]
    marks = []
    by_ray: dict[End, tuple[TileBox, ...]] = {}
    open_ends = {end for end, _ in table.ends}
    corners = 0
    for end, tiles in rays.items():
        slots = ray_slots(g, end, hx, cy, half_w, half_h, len(tiles) + 1, limit)
        corners += sum(1 for s in slots[: len(tiles)] if s.corner)
        ray_boxes = []
        for tile, slot in zip(tiles, slots, strict=False):
            first, second = _halves(tile, slot)
            ray_boxes.append(
                TileBox(
                    placed=tile.placed,
                    x=slot.left,
                    y=slot.top,
                    w=slot.w,
                    h=slot.h,
                    first=first,
                    second=second,
                    arm=tile.arm,
                    index=tile.index,
                    hub=False,
                    last=tile.placed.seq == last_seq,
                    travel=DIRECTION[slot.travel],
                )
            )
        boxes.extend(ray_boxes)
        by_ray[end] = tuple(ray_boxes)
        if end in open_ends:
            marks.append(_mark(end, slots[len(tiles)], g))
    # Crop to the content: the drawing goes to the middle of the board.
    dx, dy = _centring(g, boxes, marks, center_box if lanes else None)
    boxes = [b.moved(dx, dy) for b in boxes]
    marks = [m.moved(dx, dy) for m in marks]
    by_ray = {end: tuple(b.moved(dx, dy) for b in ray) for end, ray in by_ray.items()}
    # Stable order: the table's own order (opening, then W, E, N, S arms).
    order = {p.tile: i for i, p in enumerate(table.placements())}
    boxes.sort(key=lambda b: order[b.placed.tile])
    moved_center = center_box.moved(dx, dy)
    return BoardLayout(
        tuple(boxes), tuple(marks), by_ray, moved_center, g.width, g.height, g.tile, corners, place
    )


def _centring(
    g: Geometry, boxes: list[TileBox], marks: list[EndMark], lanes_at: TileBox | None
) -> tuple[int, int]:
    """How far to move the drawing so that it sits in the middle of the board."""
    r = mark_radius(g.tile)
    lefts = [b.x for b in boxes] + [m.x - r for m in marks]
    tops = [b.y for b in boxes] + [m.y - r for m in marks]
    rights = [b.x + b.w for b in boxes] + [m.x + r for m in marks]
    bottoms = [b.y + b.h for b in boxes] + [m.y + r for m in marks]
    if lanes_at is not None:  # the lanes' labels, above and below the opening
        tops.append(lanes_at.y - LANE_TAB)
        bottoms.append(lanes_at.y + lanes_at.h + LANE_TAB)
    dx = (g.width - min(lefts) - max(rights)) // 2
    dy = (g.height - min(tops) - max(bottoms)) // 2
    return dx, dy


def _halves(tile: RayTile, slot: Slot) -> tuple[int, int]:
    """(left or top pips, right or bottom pips) of a ray tile laid in `slot`."""
    tx, ty = slot.travel
    forward = tx > 0 if slot.w > slot.h else ty > 0
    return (tile.near, tile.far) if forward else (tile.far, tile.near)


def _mark(end: End, slot: Slot, g: Geometry) -> EndMark:
    """The mark sits where the next tile goes, on the half that touches the end.

    Before a corner it stays on the line, just past its last tile (where the line
    visibly ends and bends): on the line just past the last tile in either case.
    """
    travel = DIRECTION[slot.travel]
    box = (slot.left, slot.top, slot.left + slot.w, slot.top + slot.h)
    if slot.corner:
        return EndMark(end, slot.line[0], slot.line[1], travel, box)
    tx, ty = slot.travel
    cx = slot.left + slot.w // 2
    cy = slot.top + slot.h // 2
    quarter = g.short // 2
    if slot.w > slot.h:
        cx -= tx * quarter
    else:
        cy -= ty * quarter
    return EndMark(end, cx, cy, travel, box)
