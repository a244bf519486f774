"""The one name of every open end, for every picture, button, caption and history line.

An end is named by its colour and an arrow: «🔵⬅️». The colour belongs to the end
for the whole round (W blue, E orange, N white, S black), so no two open ends ever
share a name, whatever their arrows. The arrow is the way the next tile laid there
is drawn. It is read from the layout of the table *with* that tile, not from the
slot the current layout keeps for it: a tile can change the layout (a smaller size,
the centre moved, a corner sooner or later, the muggins house closed), and the arrow
has to say where the tile will really go.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

from bot.render.layout import TableKey, next_travel, table_shape
from bot.render.theme import RGB
from engine.ai.greedy import laid
from engine.moves import Play
from engine.table import Table
from engine.tiles import MAX_PIP, End, Tile
from engine.variants import ruleset


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


@lru_cache(maxsize=256)
def _names(key: TableKey, variant: str) -> tuple[tuple[End, EndName], ...]:
    # Cached: the board, its caption, the hands and the buttons all name the same table.
    table = key.table
    return tuple(
        (end, EndName(end, _direction(table, variant, end, value))) for end, value in table.ends
    )


def _direction(table: Table, variant: str, end: End, value: int) -> End:
    """The way an ordinary tile (not a double) laid at `end` now is drawn.

    It is laid as the game lays it (a muggins tile may close the house, which then
    becomes the board's centre). A double is drawn the same way, but for the `fives`
    spinner, which lies across the centre; a move of several doubles lays more
    tiles at once, which can move the board more.
    """
    ordinary = Tile.of(value, (value + 1) % (MAX_PIP + 1))
    rules = ruleset(variant)
    after = laid(rules, table, Play(ordinary, end))
    try:
        return next_travel(after, end, rules.lanes)
    except ValueError:  # a table too large to draw (none a game can reach)
        return end


def names_or_own(names: Mapping[End, EndName] | None, end: End) -> EndName:
    """`end`'s name in `names`, or its own name if it has none there."""
    found = names.get(end) if names is not None else None
    return found if found is not None else own_name(end)
