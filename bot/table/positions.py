"""The board as plain data for the page's SVG: each tile's box and pips, each open end's
mark with its name (colour and arrow), in the board picture's own coordinates.

It converts the board picture's layout (bot.render.layout.board_layout), so the page and the picture
lay the tiles alike; the one function to change when the layout changes.
"""

from __future__ import annotations

from typing import Any

from bot.render import RGB, board_layout, end_names, mark_radius, names_or_own
from engine import SeatView


def board_positions(view: SeatView) -> dict[str, Any]:
    """{"width", "height", "tile", "tiles": [...], "marks": [...]} of the view's table."""
    layout = board_layout(view.table, view.variant)
    names = end_names(view.table, view.variant)
    radius = mark_radius(layout.tile)
    tiles = [
        {
            "x": box.x,
            "y": box.y,
            "w": box.w,
            "h": box.h,
            "a": box.first,  # the left (or top) half's pips
            "b": box.second,
            "hub": box.hub,
            "last": box.last,
        }
        for box in layout.boxes
    ]
    values = dict(view.table.ends)
    marks = []
    for mark in layout.marks:
        name = names_or_own(names, mark.end)
        marks.append(
            {
                "end": mark.end.name,
                "x": mark.x,
                "y": mark.y,
                "r": radius,
                "colour": _hex(name.colour),
                "ink": _hex(name.ink),
                "arrow": name.direction.name,  # the way the next tile there is drawn
                "name": name.text,
                "value": values.get(mark.end),  # the pips a tile laid there must match
            }
        )
    return {
        "width": layout.width,
        "height": layout.height,
        "tile": layout.tile,
        "tiles": tiles,
        "marks": marks,
    }


def _hex(colour: RGB) -> str:
    return "#{:02x}{:02x}{:02x}".format(*colour)
