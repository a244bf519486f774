"""Tiles of the double-six set and the ends of the table they are laid on."""

from __future__ import annotations

from collections.abc import Sequence
from enum import IntEnum
from typing import NamedTuple

from engine.errors import NotationError, quoted

MAX_PIP = 6
_DIGITS = frozenset("0123456789")


class End(IntEnum):
    """Where a tile goes: the two ends of the line (W, E) and the spinner's sides (N, S).

    An IntEnum so that it indexes the table's per-end lists directly; it prints,
    and is read back, by its letter.
    """

    W = 0
    E = 1
    N = 2
    S = 3

    @staticmethod
    def parse(letter: str) -> End:
        try:
            return End[letter]
        except KeyError:
            raise NotationError(f"{quoted(letter)} is not an end (W, E, N or S)") from None

    def __str__(self) -> str:
        return self.name

    def __format__(self, spec: str) -> str:
        return format(self.name, spec)

    def __repr__(self) -> str:
        return f"End.{self.name}"


ALL_ENDS: tuple[End, ...] = (End.W, End.E, End.N, End.S)
LINE_ENDS: tuple[End, ...] = (End.W, End.E)


class Tile(NamedTuple):
    """One domino, kept canonical: the higher half first (`Tile(6, 4)` is 6:4 and 4:6).

    A NamedTuple rather than a dataclass because tiles are hashed and compared in
    every legal-move generation; tuple equality runs in C.
    """

    high: int
    low: int

    @staticmethod
    def of(a: int, b: int) -> Tile:
        """The tile with halves `a` and `b`, in either order."""
        if not (0 <= a <= MAX_PIP and 0 <= b <= MAX_PIP):
            raise NotationError(f"{a}:{b} is not a tile of the double-six set")
        return _TILES[a][b]

    @staticmethod
    def parse(text: str) -> Tile:
        """Read `a:b` (either order)."""
        return Tile.of(*parse_halves(text))

    @property
    def is_double(self) -> bool:
        return self.high == self.low

    @property
    def pips(self) -> int:
        return self.high + self.low

    def has(self, pip: int) -> bool:
        return self.high == pip or self.low == pip

    def other(self, pip: int) -> int:
        """The half left free when the half showing `pip` is attached."""
        return self.low if self.high == pip else self.high

    def __str__(self) -> str:
        return f"{self.high}:{self.low}"

    def __repr__(self) -> str:
        return f"Tile.parse({str(self)!r})"


def pips_held_by_others(hands: Sequence[Sequence[Tile]], seat: int) -> int:
    """The pips in every hand but `seat`'s: what going out can score."""
    others = 0
    for holder, hand in enumerate(hands):
        if holder != seat:
            for tile in hand:
                others += tile[0] + tile[1]  # not .pips: this runs in every rollout
    return others


def parse_halves(text: str) -> tuple[int, int]:
    """Read `a:b` keeping the written order (the opening's order matters)."""
    left, sep, right = text.strip().partition(":")
    # Not str.isdigit(): it also passes "³" and "٣", which are no pips of ours.
    if not sep or left not in _DIGITS or right not in _DIGITS:
        raise NotationError(f"{quoted(text)} is not a tile (write it as a:b)")
    a, b = int(left), int(right)
    if a > MAX_PIP or b > MAX_PIP:
        raise NotationError(f"{quoted(text)} is not a tile of the double-six set")
    return a, b


_TILES: list[list[Tile]] = [
    [Tile(max(a, b), min(a, b)) for b in range(MAX_PIP + 1)] for a in range(MAX_PIP + 1)
]
# Interned canonical instances, in a fixed order (0:0, 1:0, 1:1, ... 6:6).
ALL_TILES: tuple[Tile, ...] = tuple(_TILES[a][b] for a in range(MAX_PIP + 1) for b in range(a + 1))
