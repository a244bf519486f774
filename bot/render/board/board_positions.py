"""The board's layout as plain JSON data, for a page that draws the table itself (SVG).

The same grid layout as the board picture (`bot.render.layout.stable_layout`), so the
page and the picture never disagree about where a tile lies or which way an end
points; a laid tile keeps its place for the whole round, so a page only pans or
zooms as the table grows.
"""

from __future__ import annotations

from typing import Any

from bot.render.kit.theme import RGB
from bot.render.layout.snake import LONG, SHORT, Box
from bot.render.layout.stable_layout import OpenEnd, TableGrid, grid_of
from bot.render.words.ends import COLOURS, end_names, names_or_own
from engine.table import Table
from engine.tiles import End, Tile


def board_positions(table: Table, variant: str) -> dict[str, Any]:
    """Where everything on `table` lies, as plain data (`json.dumps` takes it as it is).

    Coordinates are grid units: a unit is a quarter of a tile's length, x runs
    right and y down, and (0, 0) is the opening's centre. A box is
    ``{"x": left, "y": top, "w": width, "h": height}``; a tile lying along x is 4 x 2,
    one standing along y 2 x 4. Tiles touch: a page leaves its own gap inside each box.

    ::

        {
          "tile": [4, 2],                 # a tile's length and width, in units
          "extent": {"x", "y", "w", "h"}, # holds every tile and every next tile's place
          "tiles": [                      # in the order they were laid
            {
              "x", "y", "w", "h",         # the tile's box
              "tile": "6:4",
              "pips": [6, 4],             # left then right half, or top then bottom
              "double": false,
              "across": false,            # a double laid across the line
              "hub": false,               # the spinner or the house (drawn with a ring)
              "corner": false,            # laid across to turn the line
              "end": "W",                 # the arm it lies in; null: the opening
              "index": 0,                 # its place in that arm, from the opening or hub out
              "seq": 2,                   # the move that laid it (a doubles move lays several)
              "travel": "W",              # the way the line runs through it; null: the opening
              "last": false               # laid by the latest move
            }
          ],
          "ends": [                       # the open ends, in the table's order
            {
              "end": "W",
              "value": 5,                 # what a tile must show to be laid there
              "next": {"x", "y", "w", "h"},    # where an ordinary tile laid there goes
              "double": {"x", "y", "w", "h"},  # where a double laid there goes
              "mark": [x, y],             # the centre of the end's mark, by its last tile
              "arrow": "N",               # the way the next tile goes (the name's arrow)
              "colour": "#3a8ce8", "ink": "#0c1e3a",  # the end's disc, and its arrow
              "name": "🔵⬆️"             # as the buttons and captions name it
            }
          ]
        }
    """
    grid = grid_of(table, variant)
    names = end_names(table, variant)
    last = table.moves
    tiles = [
        {
            **_box(spot.box),
            "tile": str(spot.placed.tile),
            "pips": [spot.first, spot.second],
            "double": spot.placed.tile.is_double,
            "across": spot.across,
            "hub": spot.hub,
            "corner": spot.corner,
            "end": _name(spot.arm),
            "index": spot.index,
            "seq": spot.placed.seq,
            "travel": _name(spot.travel),
            "last": spot.placed.seq == last,
        }
        for spot in grid.spots
    ]
    ends = []
    for open_end in grid.ends:
        name = names_or_own(names, open_end.end)
        colour = COLOURS[open_end.end]
        ends.append(
            {
                "end": open_end.end.name,
                "value": open_end.value,
                "next": _box(open_end.slot.box),
                "double": _box(open_end.double),
                "mark": list(open_end.slot.mark),
                "arrow": open_end.slot.travel.name,
                "colour": _hex(colour.disc),
                "ink": _hex(colour.ink),
                "name": name.text,
            }
        )
    return {"tile": [LONG, SHORT], "extent": _box(grid.extent()), "tiles": tiles, "ends": ends}


def landing(table: Table, variant: str, tile: Tile, end: End) -> dict[str, Any]:
    """Where `tile` would lie if laid on `end` now: the place to highlight while a
    player chooses. The same shape as a tile of `board_positions` (its box, "pips" in
    drawing order, "across", "corner", "travel"), and "end".

    Raises ValueError if `end` is not open or `tile` does not show its value.
    """
    open_end = _open_end(grid_of(table, variant), end)
    value = open_end.value
    if not tile.has(value):
        raise ValueError(f"{tile} cannot be laid on {end.name}, which shows {value}")
    far = tile.other(value)
    travel = open_end.slot.travel
    first, second = (value, far) if travel in (End.E, End.S) else (far, value)
    double = tile.is_double
    box = open_end.double if double else open_end.slot.box
    return {
        **_box(box),
        "tile": str(tile),
        "pips": [first, second],
        "double": double,
        "across": double and open_end.across,
        "corner": open_end.slot.corner,
        "end": end.name,
        "travel": travel.name,
    }


def _open_end(grid: TableGrid, end: End) -> OpenEnd:
    found = grid.end(end)
    if found is None:
        raise ValueError(f"{end.name} is not an open end")
    return found


def _box(box: Box) -> dict[str, int]:
    left, top, right, bottom = box
    return {"x": left, "y": top, "w": right - left, "h": bottom - top}


def _name(end: End | None) -> str | None:
    return None if end is None else end.name


def _hex(colour: RGB) -> str:
    return "#{:02x}{:02x}{:02x}".format(*colour)
