"""The table as the board lays it out: a centre tile and the rays running from it.

The centre is the hub (the `fives` spinner or the `muggins` house, drawn across
the line) once there is one, else the opening. From it run four rays: the line
westward and eastward, and the hub's N and S arms.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.table import Placed, Table
from engine.tiles import End


@dataclass(frozen=True, slots=True)
class RayTile:
    """A tile of a ray (or the centre tile), with its pips named from the centre out."""

    placed: Placed
    arm: End | None
    index: int
    near: int  # the half touching the tile nearer the centre
    far: int


def table_rays(table: Table) -> tuple[RayTile, dict[End, list[RayTile]], int]:
    """The centre tile, the tiles of each ray from the centre out, and how many
    tiles along the line the centre lies from the opening (negative: westward)."""
    opening = table.opening
    assert opening is not None
    west_arm, east_arm = table.arm(End.W), table.arm(End.E)
    # The line from its W end to its E end, each tile with its west and east halves.
    line: list[tuple[Placed, End | None, int, int, int]] = [
        (p, End.W, i, p.outer, p.inner) for i, p in reversed(list(enumerate(west_arm)))
    ]
    line.append((opening, None, 0, opening.inner, opening.outer))
    line.extend((p, End.E, i, p.inner, p.outer) for i, p in enumerate(east_arm))
    middle = len(west_arm)
    if table.hub is None:
        c = middle
    else:
        side, index = table.hub
        c = middle if side is None else middle - 1 - index if side is End.W else middle + 1 + index
    placed, arm, index, west, east = line[c]
    if table.hub is None:
        center = RayTile(placed, arm, index, west, east)
    else:
        center = RayTile(placed, arm, index, placed.inner, placed.outer)
    rays: dict[End, list[RayTile]] = {
        End.W: [RayTile(p, a, i, e, w) for p, a, i, w, e in reversed(line[:c])],
        End.E: [RayTile(p, a, i, w, e) for p, a, i, w, e in line[c + 1 :]],
    }
    if table.hub is not None:
        for end in (End.N, End.S):
            rays[end] = [RayTile(p, end, i, p.inner, p.outer) for i, p in enumerate(table.arm(end))]
    return center, rays, c - middle


def ray_lengths(table: Table) -> dict[End, int]:
    """How many tiles each ray holds (as `table_rays` lays them out, but counted only)."""
    west, east = len(table.arm(End.W)), len(table.arm(End.E))
    if table.hub is None:
        return {End.W: west, End.E: east}
    side, index = table.hub
    # The hub's place along the line, counted from the opening (W negative).
    at = 0 if side is None else -1 - index if side is End.W else 1 + index
    return {
        End.W: west + at,
        End.E: east - at,
        End.N: len(table.arm(End.N)),
        End.S: len(table.arm(End.S)),
    }
