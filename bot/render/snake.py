"""How one ray of the board snakes from the centre tile towards the board's edge.

A ray runs straight until it nears the edge of the board, then turns a corner
and snakes back in rows (W, E rays) or columns (N, S rays):

- W turns up, N turns right, E turns down, S turns left (a pinwheel), so each
  ray snakes in its own quarter of the board;
- a ray's later rows keep away from the centre's column or row, where the
  neighbouring ray runs, as far as the rows of one ray lie apart: a ray folds
  back only beside itself, never beside another ray.

The slots worked out here are where a ray's tiles go, in order from the centre.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.render.board_geometry import Geometry
from engine.tiles import End

# Travel and advance (turn) directions of each ray, in picture coordinates (y down).
TRAVEL = {End.W: (-1, 0), End.E: (1, 0), End.N: (0, -1), End.S: (0, 1)}
ADVANCE = {End.W: (0, -1), End.E: (0, 1), End.N: (1, 0), End.S: (-1, 0)}
DIRECTION = {step: end for end, step in TRAVEL.items()}


@dataclass(frozen=True, slots=True)
class Slot:
    """Where one tile of a ray goes, in picture coordinates."""

    left: int
    top: int
    w: int
    h: int
    travel: tuple[int, int]  # which way the ray runs through this slot
    corner: bool = False  # laid across, joining two rows
    # Where the slot's row runs (its centre line) and which way: for marks.
    line: tuple[int, int] = (0, 0)


def center_halves(g: Geometry, hub: bool) -> tuple[int, int]:
    """The centre tile's half-extents across (x) and along (y) the picture."""
    return (g.short // 2, g.short) if hub else (g.short, g.short // 2)


def capacity(end: End, geometry: Geometry, hub: bool, center: tuple[int, int]) -> int:
    """How many tiles the ray towards `end` holds with the centre at `center`
    (the last slot stays free for its mark)."""
    g = geometry
    half_w, half_h = center_halves(g, hub)
    return ray_room(g, end, center[0], center[1], half_w, half_h, None) - 1


@dataclass(frozen=True, slots=True)
class Frame:
    """A ray's snake in its own frame: `u` runs along the first row, away from the
    centre; `v` across it, towards the side the ray turns to."""

    start: int  # the centre tile's half-extent along u
    k_hi: int  # the last tile place of every row (room is kept for the corner)
    k_lo: int  # the first tile place of the rows after the first one
    rows: int


def ray_frame(
    g: Geometry, end: End, hx: int, hy: int, half_w: int, half_h: int, max_rows: int | None
) -> Frame:
    tx, ty = TRAVEL[end]
    ax, ay = ADVANCE[end]
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
) -> Frame:
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
    return Frame(start, k_hi, k_lo, rows)


def ray_room(
    g: Geometry, end: End, hx: int, hy: int, half_w: int, half_h: int, max_rows: int | None
) -> int:
    """How many slots the ray has (as `len(ray_slots(...))` with no limit, but quicker)."""
    f = ray_frame(g, end, hx, hy, half_w, half_h, max_rows)
    if f.rows == 0:
        return 0
    # Each later row: a corner, then its tiles.
    return f.k_hi + 1 + (f.rows - 1) * (f.k_hi - f.k_lo + 2)


def ray_slots(
    g: Geometry,
    end: End,
    hx: int,
    hy: int,
    half_w: int,
    half_h: int,
    wanted: int,
    max_rows: int | None,
) -> list[Slot]:
    """Up to `wanted` slots of the ray towards `end`, in order from the centre out.

    Row r lies at v = r * pitch; even rows run outward (+u), odd rows back (-u);
    a corner tile, laid across, joins each row to the next, sticking out past
    the rows' ends by a short side.
    """
    tx, ty = TRAVEL[end]
    ax, ay = ADVANCE[end]
    long, short, gap, pitch = g.tile, g.short, g.gap, g.pitch
    f = ray_frame(g, end, hx, hy, half_w, half_h, max_rows)

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
            Slot(
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
