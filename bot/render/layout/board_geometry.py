"""The board picture's sizes, and the shapes a board layout is made of.

The board (the tiles' part of the picture) lies above the panel. A layout
(`bot.render.layout.board_layout`) gives every table tile a `TileBox` and every open end an
`EndMark`, in pixels: the grid layout (`bot.render.layout.stable_layout`) scaled and
centred to fit the board (`bot.render.layout.fitting`).
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
TILE_STEP = 8
TILE_SIZES = tuple(range(TILE_MAX, TILE_MIN - 1, -TILE_STEP))
MIN_TILE_LONG = TILE_MIN
# Below the minimum, only for a table that would not fit at it: a layout that never
# moves a tile cannot fold a long table as tightly as one laid out afresh each move.
FALLBACK_SIZES = tuple(range(TILE_MIN - TILE_STEP, 63, -TILE_STEP))
GAP = 2  # between tiles laid end to end
MARGIN = 14  # between the tiles and the board's edge
LANE_TAB = 52  # twolane: room for a lane's label next to the opening
LANE_TAB_WIDTH = 200  # and its width (the label's, with room to spare)


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

    `travel` is the way the ray runs through that slot (before a corner: the way
    the corner turns), which is the arrow of the end's name (`bot.render.words.ends`):
    a laid tile never moves, so the next one lands there, whatever it is.
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
    rays: dict[End, tuple[TileBox, ...]]  # each arm's tiles, from the opening or hub out
    center: TileBox | None  # the opening
    width: int
    height: int
    tile: int  # the long side of the tiles, in pixels
    corners: int = 0  # how many times the rays turn
    # Where the grid's (0, 0) lies (the opening's centre), and the pixels of a grid
    # unit (a quarter of a tile and the gap after it).
    origin: tuple[float, float] = (0.0, 0.0)
    unit: float = 0.0


def mark_size(tile: int) -> int:
    """The end marks' diameter, for tiles `tile` pixels long."""
    return round(tile * 0.4)


def mark_radius(tile: int) -> int:
    """Half the end marks' diameter (the board draws them `round(0.4 * tile)` wide)."""
    return round(tile * 0.4) // 2
