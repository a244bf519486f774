"""Moves as small immutable values that read and write the record notation."""

from __future__ import annotations

from dataclasses import dataclass

from engine.errors import NotationError, quoted
from engine.tiles import ALL_ENDS, ALL_TILES, End, Tile, parse_halves


@dataclass(frozen=True, slots=True)
class Play:
    """One tile laid on an end.

    The opening has no end; `west` then says which half faces W (`3:2` puts 3 on
    W). A play parsed without `@END` also has `end=None` until the game resolves
    it against the table (see `Game.parse_move`).
    """

    tile: Tile
    end: End | None = None
    west: int | None = None

    def __str__(self) -> str:
        if self.end is None:
            first = self.tile.high if self.west is None else self.west
            return f"{first}:{self.tile.other(first)}"
        return f"{self.tile}@{self.end}"


@dataclass(frozen=True, slots=True)
class Doubles:
    """`muggins`: 2 to 4 doubles laid at once, each on its own end (kept in W, E, N, S order)."""

    plays: tuple[Play, ...]

    @staticmethod
    def of(plays: list[Play] | tuple[Play, ...]) -> Doubles:
        return Doubles(tuple(sorted(plays, key=lambda p: -1 if p.end is None else p.end)))

    def __str__(self) -> str:
        return "+".join(str(p) for p in self.plays)


@dataclass(frozen=True, slots=True)
class Draw:
    """Take the boneyard's next tile; the same player acts again."""

    def __str__(self) -> str:
        return "draw"


@dataclass(frozen=True, slots=True)
class Pass:
    """End the turn with nothing played."""

    def __str__(self) -> str:
        return "pass"


Move = Play | Doubles | Draw | Pass

DRAW = Draw()
PASS = Pass()


def parse_move(text: str) -> Move:
    """Read a move in record notation: `a:b`, `a:b@E`, `3:3@W+2:2@E`, `draw`, `pass`."""
    if not isinstance(text, str):
        raise NotationError(f"{quoted(text)} is not a move")
    word = text.strip()
    if word == "draw":
        return DRAW
    if word == "pass":
        return PASS
    if "+" in word:
        parts = [_parse_play(part) for part in word.split("+")]
        if any(p.end is None for p in parts):
            raise NotationError(f"{quoted(text)}: each double of a combined move must name its end")
        return Doubles.of(parts)
    return _parse_play(word)


def _parse_play(text: str) -> Play:
    tile_text, sep, end_text = text.strip().partition("@")
    a, b = parse_halves(tile_text)
    if not sep:
        return Play(Tile.of(a, b), None, west=a)
    if end_text.strip() not in End.__members__:
        raise NotationError(f"{quoted(text)}: the end must be one of W, E, N, S")
    return PLAYS_BY_END[End[end_text.strip()]][Tile.of(a, b)]


# Every play on an end, made once: legal-move generation hands out these shared
# values instead of building new ones (a frozen dataclass costs over a microsecond).
PLAYS_BY_END: tuple[dict[Tile, Play], ...] = tuple(
    {tile: Play(tile, end) for tile in ALL_TILES} for end in ALL_ENDS
)
OPENINGS: dict[tuple[Tile, int], Play] = {
    (tile, west): Play(tile, None, west) for tile in ALL_TILES for west in {tile.high, tile.low}
}
