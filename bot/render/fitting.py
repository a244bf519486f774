"""How large the board's tiles are drawn, and where the centre tile goes.

The board fits its content: the tiles are drawn as large as `TILE_MAX` and no
smaller than `TILE_MIN` (readable on a phone), as large as the table allows
with as few corners as can be; the centre goes wherever the rays fit best (the
whole drawing is then moved to the middle of the board, `bot.render.layout`).
The board's size never changes, so the photo keeps its shape as the game grows.
"""

from __future__ import annotations

from functools import lru_cache

from bot.render.board_geometry import LANE_TAB, Geometry
from bot.render.snake import center_halves
from engine.tiles import End

# Sizes below the minimum, tried only if a table fits nowhere else: no table the
# tests build (the worst shapes, random games) needs them; they keep the bot drawing.
FALLBACK_SIZES = (112, 96, 76)
ROWS_BEFORE_SHRINK = 2  # rows a ray may take before the tiles get smaller than need be

Fit = tuple[Geometry, tuple[int, int], int | None]


@lru_cache(maxsize=512)
def fit(
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
    half_w, half_h = center_halves(g, hub)
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
        """Rows the ray needs with `u_room` along, as `ray_slots` lays them (None: too many)."""
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
