"""The one name of every open end, for every picture, button, caption and history line.

An end is named by its colour and an arrow: «🔵⬅️». The colour belongs to the end
for the whole round (W blue, E orange, N white, S black), so no two open ends ever
share a name, whatever their arrows. The arrow is the way the next tile laid there
is drawn: the slot the layout keeps for that end (`bot.render.layout.stable_layout`), which
is where any tile laid there goes, since a laid tile never moves.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

from bot.render.kit.theme import RGB
from bot.render.layout.stable_layout import TableKey, grid_of, table_shape
from engine.table import Table
from engine.tiles import End, Tile


@dataclass(frozen=True, slots=True)
class Colour:
    """An end's colour: its disc, the arrow drawn on it, and the emoji that texts show."""

    disc: RGB
    ink: RGB  # the arrow on the disc: dark on the light discs, white on the black one
    emoji: str


# Four hues colour-blind players tell apart too (blue and orange by hue, white and
# black by lightness), matching the emoji as Telegram draws them.
COLOURS: dict[End, Colour] = {
    End.W: Colour((58, 140, 232), (12, 30, 58), "🔵"),
    End.E: Colour((246, 142, 30), (48, 24, 4), "🟠"),
    End.N: Colour((238, 238, 232), (30, 34, 38), "⚪"),
    End.S: Colour((34, 36, 40), (246, 246, 240), "⚫"),
}
# The arrows texts show, by the way they point.
ARROWS: dict[End, str] = {End.W: "⬅️", End.E: "➡️", End.N: "⬆️", End.S: "⬇️"}


@dataclass(frozen=True, slots=True)
class EndName:
    """What an open end is called: `end`'s colour, and the arrow of `direction` (the way
    the next tile there is drawn, which after a corner is not the end's own)."""

    end: End
    direction: End

    @property
    def colour(self) -> RGB:
        return COLOURS[self.end].disc

    @property
    def ink(self) -> RGB:
        return COLOURS[self.end].ink

    @property
    def emoji(self) -> str:
        return COLOURS[self.end].emoji

    @property
    def arrow(self) -> str:
        return ARROWS[self.direction]

    @property
    def text(self) -> str:
        """«🔵⬅️»: the colour, then the arrow."""
        return self.emoji + self.arrow


def own_name(end: End) -> EndName:
    """An end's name with its own arrow: for a move whose table is not known."""
    return EndName(end, end)


def end_names(table: Table, variant: str) -> dict[End, EndName]:
    """The name of each end open on `table`, in the table's order of ends."""
    if table.opening is None:
        return {}
    return dict(_names(TableKey(table, table_shape(table)), variant))


def label(name: EndName, value: int | Tile) -> str:
    """An end and what it shows (its number, or a double's tile): «🔵⬅️ 5», «🔵⬅️ 3:3»."""
    return f"{name.text} {value}"


# Sized for a few hundred games at once: each one's table now, and the tables its
# latest moves are named from (a grid is a few kilobytes).
@lru_cache(maxsize=2048)
def _names(key: TableKey, variant: str) -> tuple[tuple[End, EndName], ...]:
    # Cached: the board, its caption, the hands and the buttons all name the same table.
    grid = grid_of(key.table, variant)
    return tuple((end.end, EndName(end.end, end.slot.travel)) for end in grid.ends)


def names_or_own(names: Mapping[End, EndName] | None, end: End) -> EndName:
    """`end`'s name in `names`, or its own name if it has none there."""
    found = names.get(end) if names is not None else None
    return found if found is not None else own_name(end)
