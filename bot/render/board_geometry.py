"""The board picture's sizes, and the shapes a board layout is made of.

The board (the tiles' part of the picture) lies above the panel. A layout
(`bot.render.layout`) gives every table tile a `TileBox` and every open end an
`EndMark`, worked out with the sizes of a `Geometry`.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.table import Placed
from engine.tiles import End

# The board part of the picture (the panel lies below it).
BOARD_WIDTH = 1280
BOARD_HEIGHT = 1152
# The whole picture: the board, and the panel with the game's state under it.
PANEL_HEIGHT = 380
PICTURE_WIDTH = BOARD_WIDTH
PICTURE_HEIGHT = BOARD_HEIGHT + PANEL_HEIGHT
PANEL_MARGIN = 28  # the panel's left and right margins
# Tile sizes in pixels (the long side; the short side is half of it). At the
# smallest, a pip is still 4 px wide when a phone shows the picture 400 px wide.
TILE_MAX = 192
TILE_MIN = 128
TILE_STEP = 16
TILE_SIZES = tuple(range(TILE_MAX, TILE_MIN - 1, -TILE_STEP))
MIN_TILE_LONG = TILE_MIN
GAP = 2  # between tiles laid end to end
MARGIN = 14  # between the tiles and the board's edge
LANE_TAB = 52  # twolane: room for a lane's label next to the opening


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


def mark_size(tile: int) -> int:
    """The end marks' diameter, for tiles `tile` pixels long."""
    return round(tile * 0.4)


def mark_radius(tile: int) -> int:
    """Half the end marks' diameter (the board draws them `round(0.4 * tile)` wide)."""
    return round(tile * 0.4) // 2
