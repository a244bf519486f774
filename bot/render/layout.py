"""Where each tile of the table lies in the board picture: pure geometry, no drawing.

The board is a cross around a centre tile: the hub (the `fives` spinner or the
`muggins` house, drawn across the line) once there is one, else the opening.
From the centre run four *rays*: the line westward and eastward, and the hub's
N and S arms. A ray runs straight until it nears the edge of the board, then
turns a corner and snakes back in rows (W, E rays) or columns (N, S rays):

- W turns up, N turns right, E turns down, S turns left (a pinwheel), so each
  ray snakes in its own quarter of the board;
- a ray's later rows keep away from the centre's column or row, where the
  neighbouring ray runs, as far as the rows of one ray lie apart: a ray folds
  back only beside itself, never beside another ray.

The board fits its content: the tiles are drawn as large as `TILE_MAX` and no
smaller than `TILE_MIN` (readable on a phone), as large as the table allows
with as few corners as can be; the centre goes wherever the rays fit best, and
the whole drawing is then moved to the middle of the board. The board's size
never changes, so the photo keeps its shape as the game grows.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from engine.table import Placed, Table
from engine.tiles import End

# The board part of the picture (the panel lies below it).
BOARD_WIDTH = 1280
BOARD_HEIGHT = 1152
# Tile sizes in pixels (the long side; the short side is half of it). At the
# smallest, a pip is still 4 px wide when a phone shows the picture 400 px wide.
TILE_MAX = 192
TILE_MIN = 128
TILE_STEP = 16
TILE_SIZES = tuple(range(TILE_MAX, TILE_MIN - 1, -TILE_STEP))
MIN_TILE_LONG = TILE_MIN
# Sizes below the minimum, tried only if a table fits nowhere else: no table the
# tests build (the worst shapes, random games) needs them; they keep the bot drawing.
FALLBACK_SIZES = (112, 96, 76)
ROWS_BEFORE_SHRINK = 2  # rows a ray may take before the tiles get smaller than need be
GAP = 2  # between tiles laid end to end
MARGIN = 14  # between the tiles and the board's edge
LANE_TAB = 52  # twolane: room for a lane's label next to the opening

# Travel and advance (turn) directions of each ray, in picture coordinates (y down).
_TRAVEL = {End.W: (-1, 0), End.E: (1, 0), End.N: (0, -1), End.S: (0, 1)}
_ADVANCE = {End.W: (0, -1), End.E: (0, 1), End.N: (1, 0), End.S: (-1, 0)}
_DIRECTION = {step: end for end, step in _TRAVEL.items()}


@dataclass(frozen=True, slots=True)
class TileBox:
    """One table tile's rectangle in the picture, and how it is drawn there.

    `first` is the pip count on the left half (horizontal tile) or the top half
    (vertical tile), `second` the other one. `arm` and `index` say where the tile
    lies on the table (`arm` None: the opening). `hub`: the spinner or house,
    drawn across the line; `last`: laid by the latest move. `travel`: the way the
    line runs through the tile, from the centre out (a corner: the way it turns);
    None for the centre tile.
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
    travel: End | None = None

    @property
    def vertical(self) -> bool:
        return self.h > self.w

    @property
    def box(self) -> tuple[int, int, int, int]:
        """(left, top, right, bottom), right and bottom exclusive."""
        return (self.x, self.y, self.x + self.w, self.y + self.h)

    def moved(self, dx: int, dy: int) -> TileBox:
        return TileBox(
            self.placed,
            self.x + dx,
            self.y + dy,
            self.w,
            self.h,
            self.first,
            self.second,
            self.arm,
            self.index,
            self.hub,
            self.last,
            self.travel,
        )


@dataclass(frozen=True, slots=True)
class EndMark:
    """Where an open end is marked: the spot the next tile of that end goes to.

    `travel` is the way the ray runs through that slot in this layout (before a
    corner: the way the corner turns). The arrow drawn there is the end's name
    (`bot.render.ends`), worked out from the layout after a tile is laid: the
    layout may change with that tile, and the arrow says where it will be drawn.
    """

    end: End
    x: int  # centre of the mark
    y: int
    travel: End
    slot: tuple[int, int, int, int]  # where the next tile goes: (left, top, right, bottom)

    def moved(self, dx: int, dy: int) -> EndMark:
        left, top, right, bottom = self.slot
        slot = (left + dx, top + dy, right + dx, bottom + dy)
        return EndMark(self.end, self.x + dx, self.y + dy, self.travel, slot)


@dataclass(frozen=True, slots=True)
class BoardLayout:
    boxes: tuple[TileBox, ...]
    marks: tuple[EndMark, ...]
    rays: dict[End, tuple[TileBox, ...]]  # the tiles of each ray, from the centre outward
    center: TileBox | None
    width: int
    height: int
    tile: int  # the long side of the tiles, in pixels
    corners: int = 0  # how many times the rays turn
    # Where the centre was laid out, before the drawing moved to the middle: the
    # rays' corners depend on it (the tests compare layouts by it).
    origin: tuple[int, int] = (0, 0)


@dataclass(frozen=True, slots=True)
class Geometry:
    """The sizes a layout is computed with (the defaults are the product's)."""

    width: int = BOARD_WIDTH
    height: int = BOARD_HEIGHT
    tile: int = TILE_MIN
    gap: int = GAP
    margin: int = MARGIN

    @property
    def short(self) -> int:
        return self.tile // 2

    @property
    def pitch(self) -> int:
        return self.tile + self.gap

    @property
    def separation(self) -> int:
        """Between different rays: as far as the rows of one ray lie apart, no closer."""
        return self.pitch - self.short


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
    corner: bool = False  # laid across, joining two rows
    # Where the slot's row runs (its centre line) and which way: for marks.
    line: tuple[int, int] = (0, 0)


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
    center, rays, _ = _rays(table)
    counts = tuple(sorted((end, len(tiles)) for end, tiles in rays.items()))
    g, place, limit = _fit(counts, table.hub is not None, width, height, sizes, lanes)
    return _layout(table, g, center, rays, place, limit, lanes)


Fit = tuple[Geometry, tuple[int, int], int | None]


@lru_cache(maxsize=512)
def _fit(
    counts: tuple[tuple[End, int], ...],
    hub: bool,
    width: int,
    height: int,
    sizes: tuple[int, ...],
    lanes: bool,
) -> Fit:
    """The tile size, the centre's place and the rows allowed a ray, for rays of these
    lengths: they depend on nothing else, so tables of one shape share them (and the
    names of the ends, which lay out the table one tile longer, find the next table's)."""
    rays = {end: count for end, count in counts}
    fallback = tuple(s for s in FALLBACK_SIZES if s < sizes[-1])
    for limit, tried in ((ROWS_BEFORE_SHRINK, sizes), (None, sizes), (None, fallback)):
        found = _largest(tried, width, height, rays, hub, limit, lanes) if tried else None
        if found is not None:
            g, place = found
            return g, place, limit
    raise ValueError(f"{sum(rays.values()) + 1} tiles do not fit a {width}x{height} board")


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
    counts = _ray_lengths(table)
    hub = table.hub is not None
    g, place, limit = _fit(tuple(sorted(counts.items())), hub, width, height, sizes, lanes)
    half_w, half_h = _halves_of_center(g, hub)
    count = counts[end]
    slots = _slots(g, end, place[0], place[1], half_w, half_h, count, limit)
    return _DIRECTION[slots[count - 1].travel]


def _ray_lengths(table: Table) -> dict[End, int]:
    """How many tiles each ray holds (as `_rays` lays them out, but counted only)."""
    west, east = len(table.arm(End.W)), len(table.arm(End.E))
    if table.hub is None:
        return {End.W: west, End.E: east}
    side, index = table.hub
    # The hub's place along the line, counted from the opening (W negative).
    at = 0 if side is None else -1 - index if side is End.W else 1 + index
    return {
        End.W: west + at,
        End.E: east - at,
        End.N: len(table.arm(End.N)),
        End.S: len(table.arm(End.S)),
    }


def _largest(
    sizes: tuple[int, ...],
    width: int,
    height: int,
    rays: dict[End, int],
    hub: bool,
    limit: int | None,
    lanes: bool,
) -> tuple[Geometry, tuple[int, int]] | None:
    """The largest of `sizes` (largest first) at which the rays fit, and where the centre goes.

    Smaller tiles leave more room, so the sizes are searched by halves; the
    smallest is tried first, as most tables past the opening need it.
    """

    def attempt(tile: int) -> tuple[Geometry, tuple[int, int]] | None:
        g = Geometry(width, height, tile)
        place = _place(g, rays, hub, limit, lanes)
        return None if place is None else (g, place)

    best = attempt(sizes[-1])
    if best is None:
        return None
    low, high = 0, len(sizes) - 1  # sizes[high] fits; find the smallest index that does
    while low < high:
        mid = (low + high) // 2
        found = attempt(sizes[mid])
        if found is not None:
            best, high = found, mid
        else:
            low = mid + 1
    return best


def _halves_of_center(g: Geometry, hub: bool) -> tuple[int, int]:
    """The centre tile's half-extents across (x) and along (y) the picture."""
    return (g.short // 2, g.short) if hub else (g.short, g.short // 2)


def _layout(
    table: Table,
    g: Geometry,
    center: _RayTile,
    rays: dict[End, list[_RayTile]],
    place: tuple[int, int],
    limit: int | None,
    lanes: bool,
) -> BoardLayout:
    hub = table.hub is not None
    half_w, half_h = _halves_of_center(g, hub)
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
        slots = _slots(g, end, hx, cy, half_w, half_h, len(tiles) + 1, limit)
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
                    travel=_DIRECTION[slot.travel],
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


def mark_radius(tile: int) -> int:
    """Half the end marks' diameter (the board draws them `round(0.4 * tile)` wide)."""
    return round(tile * 0.4) // 2


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


def capacity(end: End, geometry: Geometry, hub: bool, center: tuple[int, int]) -> int:
    """How many tiles the ray towards `end` holds with the centre at `center`
    (the last slot stays free for its mark)."""
    g = geometry
    half_w, half_h = _halves_of_center(g, hub)
    return _room(g, end, center[0], center[1], half_w, half_h, None) - 1


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


def _place(
    g: Geometry,
    rays: dict[End, int],
    hub: bool,
    limit: int | None,
    lanes: bool,
) -> tuple[int, int] | None:
    """Where the centre goes for every ray to fit in at most `limit` rows, with
    as few rows in all as can be (ties: nearest the middle). None: nowhere.

    A ray's room along its first row depends on one coordinate of the centre and
    its room across on the other, so each ray's needs are worked out once per
    coordinate and the places are then only compared.
    """
    half_w, half_h = _halves_of_center(g, hub)
    step = max(1, g.pitch // 2)
    m = g.margin
    xs = range(m + half_w, g.width - m - half_w + 1, step)
    low, high = m + half_h, g.height - m - half_h
    if lanes:
        low, high = low + LANE_TAB, high - LANE_TAB
    ys = range(low, high + 1, step)
    slots = {end: count + 1 for end, count in rays.items()}

    long, short, gap, pitch = g.tile, g.short, g.gap, g.pitch
    most = 10_000 if limit is None else limit

    def need(end: End, start: int, u_room: int) -> int | None:
        """Rows the ray needs with `u_room` along, as `_slots` lays them (None: too many)."""
        k_hi = (u_room - start - 2 * gap - long - short) // pitch
        if k_hi < 0:
            return None
        first = k_hi + 1
        wanted = slots[end]
        if wanted <= first:
            return 1
        k_lo = -((start - short - (start + g.separation)) // pitch)
        per_row = k_hi - k_lo + 2
        if k_lo > k_hi or per_row <= 0:
            return None
        rows = 1 + -(-(wanted - first) // per_row)
        return None if rows > most else rows

    def rows_across(v_room: int) -> int:
        return (v_room - g.short // 2) // g.pitch + 1 if v_room >= g.short // 2 else 0

    lines = []  # (index, west rows, east rows) for each place of the centre's column
    for i, hx in enumerate(xs):
        west_rows = need(End.W, half_w, hx - m)
        east_rows = need(End.E, half_w, g.width - m - hx)
        if west_rows is not None and east_rows is not None:
            lines.append((i, west_rows, east_rows))
    arms = []  # (index, north rows, south rows) for each place of the centre's row
    for j, cy in enumerate(ys):
        if End.N not in rays:
            arms.append((j, 0, 0))
            continue
        north_rows = need(End.N, half_h, cy - m)
        south_rows = need(End.S, half_h, g.height - m - cy)
        if north_rows is not None and south_rows is not None:
            arms.append((j, north_rows, south_rows))
    right = [rows_across(g.width - m - hx) for hx in xs]
    left = [rows_across(hx - m) for hx in xs]
    up = [rows_across(cy - m) for cy in ys]
    down = [rows_across(g.height - m - cy) for cy in ys]
    off_x = [abs(hx - g.width // 2) for hx in xs]
    off_y = [abs(cy - g.height // 2) for cy in ys]
    best: tuple[int, int, int, int] | None = None
    for i, west, east in lines:
        for j, north, south in arms:
            if west > up[j] or east > down[j] or north > right[i] or south > left[i]:
                continue
            score = (west + east + north + south, off_x[i] + off_y[j])
            if best is None or score < best[:2]:
                best = (*score, i, j)
    return None if best is None else (xs[best[2]], ys[best[3]])


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
    return _frame_from_room(g, start, u_max, v_max, max_rows)


def _frame_from_room(
    g: Geometry, start: int, u_max: int, v_max: int, max_rows: int | None
) -> _Frame:
    long, short, gap, pitch = g.tile, g.short, g.gap, g.pitch
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

    # u0, v0, du, dv, direction (0: a corner), v of the row the slot continues
    local: list[tuple[int, int, int, int, int, int]] = []
    for row in range(f.rows):
        if len(local) >= wanted:
            break
        v = row * pitch
        if row:
            # The corner, across, joining the previous row to this one: past the
            # outer end of an outward row, before the inner end of a row coming back.
            u_corner = u_of(f.k_hi) + long + gap if row % 2 else u_of(f.k_lo) - gap - short
            local.append((u_corner, v - pitch + gap // 2, short, long, 0, v - pitch))
        if row == 0:
            ks = range(0, f.k_hi + 1)
        elif row % 2:
            ks = range(f.k_hi, f.k_lo - 1, -1)
        else:
            ks = range(f.k_lo, f.k_hi + 1)
        direction = 1 if row % 2 == 0 else -1
        for k in ks:
            local.append((u_of(k), v - short // 2, long, short, direction, v))
    slots = []
    for u0, v0, du, dv, direction, v_line in local[:wanted]:
        # Map the local rectangle [u0, u0+du] x [v0, v0+dv] to the picture.
        x1 = hx + tx * u0 + ax * v0
        y1 = hy + ty * u0 + ay * v0
        x2 = hx + tx * (u0 + du) + ax * (v0 + dv)
        y2 = hy + ty * (u0 + du) + ay * (v0 + dv)
        travel = (ax, ay) if direction == 0 else (tx * direction, ty * direction)
        # The point on the row's centre line, in the middle of the slot along u.
        u_mid = u0 + du // 2
        line = (hx + tx * u_mid + ax * v_line, hy + ty * u_mid + ay * v_line)
        slots.append(
            _Slot(
                min(x1, x2),
                min(y1, y2),
                abs(x2 - x1),
                abs(y2 - y1),
                travel,
                corner=direction == 0,
                line=line,
            )
        )
    return slots


def _halves(tile: _RayTile, slot: _Slot) -> tuple[int, int]:
    """(left or top pips, right or bottom pips) of a ray tile laid in `slot`."""
    tx, ty = slot.travel
    forward = tx > 0 if slot.w > slot.h else ty > 0
    return (tile.near, tile.far) if forward else (tile.far, tile.near)


def _mark(end: End, slot: _Slot, g: Geometry) -> EndMark:
    """The mark sits where the next tile goes, on the half that touches the end.

    Before a corner it stays on the line, just past its last tile (where the line
    visibly ends and bends): on the line just past the last tile in either case.
    """
    travel = _DIRECTION[slot.travel]
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
