"""The tiles on the table: the line through the opening, and the spinner's arms."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from typing import Any, NamedTuple

from engine.errors import StateError, quoted
from engine.tiles import ALL_ENDS, End, Tile


class Placed(NamedTuple):
    """A tile on the table.

    `inner` is the half touching the tile it was attached to (for the opening: the
    half facing W), `outer` the free one. `seq` numbers the moves that laid tiles
    in the round, from 1 (the opening); a muggins doubles move shares one number.
    """

    tile: Tile
    inner: int
    outer: int
    seq: int

    def to_json(self) -> list[int]:
        return [self.inner, self.outer, self.seq]

    @staticmethod
    def from_json(data: Any) -> Placed:
        inner, outer, seq = (int(x) for x in data)
        return Placed(Tile.of(inner, outer), inner, outer, seq)


# Builds a Placed from a tuple in C, skipping the generated __new__ (hot path).
new_placed = partial(tuple.__new__, Placed)

# Where the spinner (fives) or the house (muggins) lies: the opening (None, 0), or
# an index into the W or E arm.
Hub = tuple[End | None, int]
OPENING_HUB: Hub = (None, 0)


def _empty_arms() -> list[list[Placed]]:
    return [[], [], [], []]


@dataclass(slots=True)
class Table:
    """The layout of a round.

    The W and E arms run outward from the opening; the N and S arms run outward
    from the hub (the spinner or house), which lies in the line.
    """

    opening: Placed | None = None
    arms: list[list[Placed]] = field(default_factory=_empty_arms)  # indexed by End
    hub: Hub | None = None
    moves: int = 0  # moves that laid tiles, so the next one gets seq moves + 1
    # (end, value) of every end open now; kept up to date on each placement.
    ends: list[tuple[End, int]] = field(default_factory=list, compare=False, repr=False)

    # -- reading the table -------------------------------------------------

    def arm(self, end: End) -> list[Placed]:
        return self.arms[end]

    def hub_tile(self) -> Placed | None:
        if self.hub is None or self.opening is None:
            return None
        side, index = self.hub
        return self.opening if side is None else self.arm(side)[index]

    def outermost(self, end: End) -> Placed | None:
        """The tile whose free half is this end (None: an empty N/S arm, or no opening)."""
        arm = self.arm(end)
        if arm:
            return arm[-1]
        return self.opening if end in (End.W, End.E) else None

    def end_value(self, end: End) -> int:
        """The pips a tile must show to be attached at `end` (which must exist)."""
        if end < len(self.ends):
            return self.ends[end][1]
        return self._compute_end_value(end)

    def _compute_end_value(self, end: End) -> int:
        arm = self.arm(end)
        if arm:
            return arm[-1].outer
        opening = self.opening
        assert opening is not None, "no tile on the table"
        if end is End.W:
            return opening.inner
        if end is End.E:
            return opening.outer
        hub = self.hub_tile()
        assert hub is not None, f"no {end} end"
        return hub.inner

    def open_ends(self) -> list[tuple[End, int]]:
        """Each end a tile may be attached to now, with its value."""
        return self.ends

    def arm_occupied(self, end: End) -> bool:
        """Whether a tile lies beyond the hub in this direction (the line counts)."""
        if self.hub is None:
            return False
        arm = self.arm(end)
        if end in (End.N, End.S):
            return bool(arm)
        side, index = self.hub
        if side is None:
            return bool(arm)
        if side is end:
            return len(arm) > index + 1
        return True  # the line itself lies on the side the hub was reached from

    def tiles(self) -> list[Tile]:
        found = [] if self.opening is None else [self.opening.tile]
        for arm in self.arms:
            found.extend(p.tile for p in arm)
        return found

    def placements(self) -> list[Placed]:
        return ([] if self.opening is None else [self.opening]) + [
            p for arm in self.arms for p in arm
        ]

    def last_placed(self) -> list[Placed]:
        """The tiles laid by the latest play (several for a muggins doubles move)."""
        return [p for p in self.placements() if p.seq == self.moves]

    # -- changing the table ------------------------------------------------

    def open_with(self, tile: Tile, west: int) -> Placed:
        self.moves += 1
        self.opening = Placed(tile, west, tile.other(west), self.moves)
        self._refresh_ends()
        return self.opening

    def attach(self, tile: Tile, end: End, new_move: bool = True) -> Placed:
        """Lay `tile` at the open end `end`; the tiles of one move share its number.

        `Game._play` repeats these few steps inline for a single play: change both together.
        """
        if new_move:
            self.moves += 1
        value = self.ends[end][1]
        outer = tile[0] + tile[1] - value
        placed = new_placed((tile, value, outer, self.moves))
        self.arms[end].append(placed)
        self.ends[end] = (end, outer)
        return placed

    def set_hub(self, hub: Hub) -> None:
        self.hub = hub
        self._refresh_ends()

    def _refresh_ends(self) -> None:
        ends = (End.W, End.E) if self.hub is None else ALL_ENDS
        self.ends = [(end, self._compute_end_value(end)) for end in ends]

    def copy(self) -> Table:
        # `ends` is changed in place by `attach`: the copy needs its own list.
        return Table(
            self.opening, [list(arm) for arm in self.arms], self.hub, self.moves, list(self.ends)
        )

    # -- plain data ----------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return {
            "opening": None if self.opening is None else self.opening.to_json(),
            "arms": {end.name: [p.to_json() for p in self.arm(end)] for end in ALL_ENDS},
            "hub": None if self.hub is None else [_name(self.hub[0]), self.hub[1]],
            "moves": self.moves,
        }

    @staticmethod
    def from_json(data: Any) -> Table:
        try:
            opening = None if data["opening"] is None else Placed.from_json(data["opening"])
            arms = [[Placed.from_json(p) for p in data["arms"][end.name]] for end in ALL_ENDS]
            hub: Hub | None = None
            if data["hub"] is not None:
                side, index = data["hub"]
                hub = (None if side is None else End.parse(side), int(index))
            table = Table(opening, arms, hub, int(data["moves"]))
            if opening is not None:
                table._refresh_ends()
        except (KeyError, TypeError, ValueError, IndexError, AssertionError) as exc:
            raise StateError(f"table: {quoted(exc)}") from None
        return table


def _name(end: End | None) -> str | None:
    return None if end is None else end.name
