"""Where each tile of the table lies in the board picture: pure geometry, no drawing.

The board is a cross around a centre tile: the hub (the `fives` spinner or the
`muggins` house, drawn across the line) once there is one, else the opening.
From the centre run four *rays*: the line westward and eastward, and the hub's
N and S arms. A ray runs straight until it nears the edge of the board, then
turns a corner and snakes back in rows (W, E rays) or columns (N, S rays):

- W turns up, N turns right, E turns down, S turns left (a pinwheel), so each
  ray snakes in its own quarter of the board;
- a ray's later rows keep `SEPARATION` pixels away from the centre's column
  or row, where the neighbouring ray runs, so no two rays can touch.

At the smallest tile size every ray's quarter holds 27 tiles and the mark of
its end even with the centre in the middle of the board (`capacity`, checked by
the tests), so a full table always fits. Larger sizes are used while every ray
fits in two rows. The centre goes where the opening stays in the middle of the
board, unless moving the whole board towards the middle saves a corner.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.table import Placed, Table
from engine.tiles import End

# The board part of the picture (the panel lies below it).
BOARD_WIDTH = 1280
BOARD_HEIGHT = 820
# Tile sizes in pixels (the long side; the short side is half of it), largest
# first. A larger size is used while every ray fits in at most `ROWS_BEFORE_SHRINK`
# rows; the smallest always fits the whole set (see `capacity`).
TILE_SIZES = (100, 88, 76)
ROWS_BEFORE_SHRINK = 2
MIN_TILE_LONG = 76  # tiles are never drawn smaller (the tests hold the layout to it)
GAP = 2  # between tiles laid end to end
SEPARATION = 26  # between different rays
MARGIN = 14  # between the tiles and the board's edge

# Travel and advance (turn) directions of each ray, in picture coordinates (y down).
_TRAVEL = {End.W: (-1, 0), End.E: (1, 0), End.N: (0, -1), End.S: (0, 1)}
_ADVANCE = {End.W: (0, -1), End.E: (0, 1), End.N: (1, 0), End.S: (-1, 0)}


@dataclass(frozen=True, slots=True)
class TileBox:
    """One table tile's rectangle in the picture, and how it is drawn there.

    `first` is the pip count on the left half (horizontal tile) or the top half
    (vertical tile), `second` the other one. `arm` and `index` say where the tile
    lies on the table (`arm` None: the opening). `hub`: the spinner or house,
    drawn across the line; `last`: laid by the latest move.
    """

    placed: Placed
    x: int
    y: int
    w: int
    h: int
    first: int
    second: int
    arm: End | None
    index: int
    hub: bool
    last: bool

    @property
    def vertical(self) -> bool:
        return self.h > self.w

    @property
    def box(self) -> tuple[int, int, int, int]:
        """(left, top, right, bottom), right and bottom exclusive."""
        return (self.x, self.y, self.x + self.w, self.y + self.h)


@dataclass(frozen=True, slots=True)
class EndMark:
    """Where an open end is marked: the free spot next to its outermost tile."""

    end: End
    x: int  # centre of the mark
    y: int


@dataclass(frozen=True, slots=True)
class BoardLayout:
    boxes: tuple[TileBox, ...]
    marks: tuple[EndMark, ...]
    rays: dict[End, tuple[TileBox, ...]]  # the tiles of each ray, from the centre outward
    center: TileBox | None
    width: int
    height: int
    tile: int  # the long side of the tiles, in pixels


@dataclass(frozen=True, slots=True)
class Geometry:
    """The sizes a layout is computed with (the defaults are the product's)."""

    width: int = BOARD_WIDTH
    height: int = BOARD_HEIGHT
    tile: int = MIN_TILE_LONG
    gap: int = GAP
    separation: int = SEPARATION
    margin: int = MARGIN

    @property
    def short(self) -> int:
        return self.tile // 2

    @property
    def pitch(self) -> int:
        return self.tile + self.gap


@dataclass(frozen=True, slots=True)
class _RayTile:
    placed: Placed
    arm: End | None
    index: int
    near: int  # the half touching the tile nearer the centre
    far: int


@dataclass(frozen=True, slots=True)
class _Slot:
    left: int
    top: int
    w: int
    h: int
    travel: tuple[int, int]  # which way the ray runs through this slot


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
) -> BoardLayout:
    """The full layout: tile boxes, the open ends' marks and the rays.

    Tries the tile sizes from the largest, each but the last limited to two
    rows a ray; the last takes any table the rules allow (with the product's
    board and sizes: `capacity` says how much a size holds).
    """
    for i, tile in enumerate(sizes):
        last = i == len(sizes) - 1
        layout = _layout(table, Geometry(width, height, tile), None if last else ROWS_BEFORE_SHRINK)
        if layout is not None:
            return layout
    raise ValueError(f"{len(table.placements())} tiles do not fit a {width}x{height} board")


def _layout(table: Table, g: Geometry, max_rows: int | None) -> BoardLayout | None:
    opening = table.opening
    if opening is None:
        return BoardLayout((), (), {}, None, g.width, g.height, g.tile)
    center, rays, offset = _rays(table)
    hub = table.hub is not None
    # The centre tile's half-extents across and along the line.
    half_w, half_h = (g.short // 2, g.short) if hub else (g.short, g.short // 2)
    cx, cy = g.width // 2, g.height // 2
    hx = _choose_center_x(g, cx, cy, offset, half_w, half_h, rays, max_rows)
    if hx is None:
        return None
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
    for end, tiles in rays.items():
        slots = _slots(g, end, hx, cy, half_w, half_h, len(tiles) + 1, max_rows)
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
                )
            )
        boxes.extend(ray_boxes)
        by_ray[end] = tuple(ray_boxes)
        if end in open_ends:
            marks.append(_mark(end, slots[len(tiles)], g))
    # Stable order: the table's own order (opening, then W, E, N, S arms).
    order = {p.tile: i for i, p in enumerate(table.placements())}
    boxes.sort(key=lambda b: order[b.placed.tile])
    return BoardLayout(tuple(boxes), tuple(marks), by_ray, center_box, g.width, g.height, g.tile)


def capacity(end: End, geometry: Geometry, hub: bool, center_x: int | None = None) -> int:
    """How many tiles the ray towards `end` holds (the last slot stays free for its mark)."""
    g = geometry
    half_w, half_h = (g.short // 2, g.short) if hub else (g.short, g.short // 2)
    hx = g.width // 2 if center_x is None else center_x
    return _room(g, end, hx, g.height // 2, half_w, half_h, None) - 1


def _rays(table: Table) -> tuple[_RayTile, dict[End, list[_RayTile]], int]:
    """The centre tile, the tiles of each ray from the centre out, and how many
    tiles along the line the centre lies from the opening (negative: westward)."""
    opening = table.opening
    assert opening is not None
    west_arm, east_arm = table.arm(End.W), table.arm(End.E)
    # The line from its W end to its E end, each tile with its west and east halves.
    line: list[tuple[Placed, End | None, int, int, int]] = [
        (p, End.W, i, p.outer, p.inner) for i, p in reversed(list(enumerate(west_arm)))
    ]
    line.append((opening, None, 0, opening.inner, opening.outer))
    line.extend((p, End.E, i, p.inner, p.outer) for i, p in enumerate(east_arm))
    middle = len(west_arm)
    if table.hub is None:
        c = middle
    else:
        side, index = table.hub
        c = middle if side is None else middle - 1 - index if side is End.W else middle + 1 + index
    placed, arm, index, west, east = line[c]
    if table.hub is None:
        center = _RayTile(placed, arm, index, west, east)
    else:
        center = _RayTile(placed, arm, index, placed.inner, placed.outer)
    rays: dict[End, list[_RayTile]] = {
        End.W: [_RayTile(p, a, i, e, w) for p, a, i, w, e in reversed(line[:c])],
        End.E: [_RayTile(p, a, i, w, e) for p, a, i, w, e in line[c + 1 :]],
    }
    if table.hub is not None:
        for end in (End.N, End.S):
            rays[end] = [
                _RayTile(p, end, i, p.inner, p.outer) for i, p in enumerate(table.arm(end))
            ]
    return center, rays, c - middle


def _choose_center_x(
    g: Geometry,
    cx: int,
    cy: int,
    steps: int,
    half_w: int,
    half_h: int,
    rays: dict[End, list[_RayTile]],
    max_rows: int | None,
) -> int | None:
    """Where the centre goes: everything must fit, with as few corners as can be.

    The places tried run from where the hub would lie if the line ran straight
    from the opening in the middle, towards the middle itself; the first with
    the fewest rows wins, so the opening stays in the middle unless moving the
    whole board saves a corner. None: nothing fits (a smaller size will).
    """
    candidates = [cx]
    if steps:
        sign = 1 if steps > 0 else -1
        desired = cx + sign * (g.short + g.gap + (abs(steps) - 1) * g.pitch + half_w)
        candidates = [*range(desired, cx, -sign * g.pitch), cx]
    best: tuple[int, int] | None = None
    for hx in candidates:
        rows = 0
        for end, tiles in rays.items():
            needed = _rows_needed(_frame(g, end, hx, cy, half_w, half_h, max_rows), len(tiles) + 1)
            if needed is None:
                break
            rows += needed
        else:
            if best is None or rows < best[0]:
                best = (rows, hx)
    return None if best is None else best[1]


@dataclass(frozen=True, slots=True)
class _Frame:
    """A ray's snake in its own frame: `u` runs along the first row, away from the
    centre; `v` across it, towards the side the ray turns to."""

    start: int  # the centre tile's half-extent along u
    k_hi: int  # the last tile place of every row (room is kept for the corner)
    k_lo: int  # the first tile place of the rows after the first one
    rows: int


def _frame(
    g: Geometry, end: End, hx: int, hy: int, half_w: int, half_h: int, max_rows: int | None
) -> _Frame:
    tx, ty = _TRAVEL[end]
    ax, ay = _ADVANCE[end]
    long, short, gap, pitch = g.tile, g.short, g.gap, g.pitch
    start = half_w if tx else half_h
    # Room along u and across v, measured from the centre.
    if tx:
        u_max = hx - g.margin if tx < 0 else g.width - g.margin - hx
    else:
        u_max = hy - g.margin if ty < 0 else g.height - g.margin - hy
    if ax:
        v_max = hx - g.margin if ax < 0 else g.width - g.margin - hx
    else:
        v_max = hy - g.margin if ay < 0 else g.height - g.margin - hy
    u_min = start + g.separation  # later rows keep clear of the neighbouring ray
    # Tile place k spans u = start + gap + k * pitch ... + long. A row's outer
    # end keeps room for the corner (gap + short) within u_max; its inner end,
    # after the first row, keeps room for the corner beyond u_min.
    k_hi = (u_max - start - 2 * gap - long - short) // pitch
    k_lo = -((start - short - u_min) // pitch)  # ceil((u_min + short - start) / pitch)
    rows = (v_max - short // 2) // pitch + 1 if v_max >= short // 2 else 0
    if max_rows is not None:
        rows = min(rows, max_rows)
    if k_lo > k_hi:
        rows = min(rows, 1)
    if k_hi < 0:
        rows = 0
    return _Frame(start, k_hi, k_lo, rows)


def _rows_needed(f: _Frame, slots: int) -> int | None:
    """How many rows `slots` slots take in the frame (None: they do not fit)."""
    first = f.k_hi + 1
    if f.rows == 0:
        return None
    if slots <= first:
        return 1
    per_row = f.k_hi - f.k_lo + 2  # a corner, then the row's tiles
    rows = 1 + -(-(slots - first) // per_row)
    return rows if rows <= f.rows else None


def _room(
    g: Geometry, end: End, hx: int, hy: int, half_w: int, half_h: int, max_rows: int | None
) -> int:
    """How many slots the ray has (as `len(_slots(...))` with no limit, but quicker)."""
    f = _frame(g, end, hx, hy, half_w, half_h, max_rows)
    if f.rows == 0:
        return 0
    # Each later row: a corner, then its tiles.
    return f.k_hi + 1 + (f.rows - 1) * (f.k_hi - f.k_lo + 2)


def _slots(
    g: Geometry,
    end: End,
    hx: int,
    hy: int,
    half_w: int,
    half_h: int,
    wanted: int,
    max_rows: int | None,
) -> list[_Slot]:
    """Up to `wanted` slots of the ray towards `end`, in order from the centre out.

    Row r lies at v = r * pitch; even rows run outward (+u), odd rows back (-u);
    a corner tile, laid across, joins each row to the next, sticking out past
    the rows' ends by a short side.
    """
    tx, ty = _TRAVEL[end]
    ax, ay = _ADVANCE[end]
    long, short, gap, pitch = g.tile, g.short, g.gap, g.pitch
    f = _frame(g, end, hx, hy, half_w, half_h, max_rows)

    def u_of(k: int) -> int:  # where tile place k starts along u
        return f.start + gap + k * pitch

    local: list[tuple[int, int, int, int, int]] = []  # u0, v0, du, dv, direction
    for row in range(f.rows):
        if len(local) >= wanted:
            break
        v = row * pitch
        if row:
            # The corner, across, joining the previous row to this one: past the
            # outer end of an outward row, before the inner end of a row coming back.
            u_corner = u_of(f.k_hi) + long + gap if row % 2 else u_of(f.k_lo) - gap - short
            local.append((u_corner, v - pitch + gap // 2, short, long, 0))
        if row == 0:
            ks = range(0, f.k_hi + 1)
        elif row % 2:
            ks = range(f.k_hi, f.k_lo - 1, -1)
        else:
            ks = range(f.k_lo, f.k_hi + 1)
        direction = 1 if row % 2 == 0 else -1
        for k in ks:
            local.append((u_of(k), v - short // 2, long, short, direction))
    slots = []
    for u0, v0, du, dv, direction in local[:wanted]:
        # Map the local rectangle [u0, u0+du] x [v0, v0+dv] to the picture.
        x1 = hx + tx * u0 + ax * v0
        y1 = hy + ty * u0 + ay * v0
        x2 = hx + tx * (u0 + du) + ax * (v0 + dv)
        y2 = hy + ty * (u0 + du) + ay * (v0 + dv)
        travel = (ax, ay) if direction == 0 else (tx * direction, ty * direction)
        slots.append(_Slot(min(x1, x2), min(y1, y2), abs(x2 - x1), abs(y2 - y1), travel))
    return slots


def _halves(tile: _RayTile, slot: _Slot) -> tuple[int, int]:
    """(left or top pips, right or bottom pips) of a ray tile laid in `slot`."""
    tx, ty = slot.travel
    forward = tx > 0 if slot.w > slot.h else ty > 0
    return (tile.near, tile.far) if forward else (tile.far, tile.near)


def _mark(end: End, slot: _Slot, g: Geometry) -> EndMark:
    """The mark sits on the half of the next free slot that touches the end."""
    tx, ty = slot.travel
    cx = slot.left + slot.w // 2
    cy = slot.top + slot.h // 2
    quarter = g.short // 2
    if slot.w > slot.h:
        cx -= tx * quarter
    else:
        cy -= ty * quarter
    return EndMark(end, cx, cy)
