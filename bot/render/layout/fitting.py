"""How large the board's tiles are drawn, and where the drawing lies on the board.

The grid layout (`bot.render.layout.stable_layout`) never moves a tile; the picture
only scales it and moves it as a whole: the tiles as large as the table's
extent allows (at most `TILE_MAX`, and no smaller than `TILE_MIN` unless the
table cannot fit at it), the drawing in the middle of the board. The board's
size never changes, so the photo keeps its shape as the game grows.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.render.layout.board_geometry import (
    FALLBACK_SIZES,
    GAP,
    LANE_TAB,
    LANE_TAB_WIDTH,
    MARGIN,
    TILE_SIZES,
)
from bot.render.layout.snake import LONG, Box

MARK_ROOM = 1  # grid units around an end mark's centre that it covers (its radius is 0.8)


@dataclass(frozen=True, slots=True)
class Fit:
    """A tile size, and how grid units map to the board's pixels: x = left + u * unit."""

    tile: int
    unit: float
    left: float
    top: float

    def x(self, u: float) -> int:
        return round(self.left + u * self.unit)

    def y(self, v: float) -> int:
        return round(self.top + v * self.unit)


def fit(extent: Box, width: int, height: int, lanes: bool) -> Fit:
    """The largest tile size at which `extent` (grid units, with the marks) fits the
    board, and the drawing centred on it. `lanes` (twolane): room for the lanes'
    tabs, under and over the opening (whose centre is the grid's origin)."""
    x0, y0, x1, y1 = extent
    sizes = TILE_SIZES + FALLBACK_SIZES
    for tile in sizes:
        unit = (tile + GAP) / LONG
        left, top, right, bottom = x0 * unit, y0 * unit, x1 * unit, y1 * unit
        if lanes:
            # The opening lies along the line: its long sides one unit from its centre.
            top = min(top, -unit - LANE_TAB)
            bottom = max(bottom, unit + LANE_TAB)
            left = min(left, -LANE_TAB_WIDTH)
            right = max(right, LANE_TAB_WIDTH)
        fits = right - left <= width - 2 * MARGIN and bottom - top <= height - 2 * MARGIN
        if fits or tile == sizes[-1]:
            return Fit(tile, unit, (width - left - right) / 2, (height - top - bottom) / 2)
    raise AssertionError("unreachable")  # pragma: no cover
