"""The endgame solver: exact play once nothing is hidden any more.

When the boneyard is empty and only one other seat still holds tiles, those
tiles are exactly the ones the deciding seat cannot see: the position is one of
perfect information. Then the rest of the round is searched to the end with
alpha-beta, every other seat assumed to answer at its best (minimax), so the
move found is sound against any opponent, not only a greedy one.

The search counts the positions it visits and gives up past a limit, so that
the expert can fall back on its rollouts; it reads no clock.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine.ai.sim import Sim
from engine.moves import Move

# Positions a search may visit before it gives up (about 0.1 s on one core).
NODE_LIMIT = 12_000


class OutOfNodes(Exception):
    """The search visited more positions than it was allowed."""


def is_endgame(sim: Sim, seat: int) -> bool:
    """Whether `sim` is a perfect-information position for `seat`: no boneyard and
    exactly one other seat with tiles (whose hand is then what `seat` cannot see)."""
    if sim.bone or sim.end is not None:
        return False
    others = sum(1 for other, hand in enumerate(sim.hands) if other != seat and hand)
    return others == 1


def solve(
    sim: Sim,
    seat: int,
    moves: Sequence[Move],
    value: Callable[[Sim, int], float],
    limit: int = NODE_LIMIT,
) -> list[float] | None:
    """The exact value for `seat` of each of `moves` (legal in `sim`), or None if the
    search needs more than `limit` positions.

    `value` judges a finished round for `seat` (larger is better); the other seat
    is taken to minimise it.
    """
    search = _Search(seat, value, limit)
    results: list[float] = []
    best = -float("inf")
    try:
        for move in moves:
            child = sim.copy()
            child.apply(move)
            # A window just above the best so far: a move that cannot beat it needs
            # no exact value, only a bound (ties keep the earlier move).
            found = search.value(child, best, float("inf"))
            results.append(found)
            best = max(best, found)
    except OutOfNodes:
        return None
    return results


class _Search:
    def __init__(self, seat: int, value: Callable[[Sim, int], float], limit: int) -> None:
        self.seat = seat
        self.judge = value
        self.left = limit

    def value(self, sim: Sim, alpha: float, beta: float) -> float:
        """Alpha-beta: exact inside (alpha, beta), a bound outside it."""
        self.left -= 1
        if self.left < 0:
            raise OutOfNodes
        if sim.end is not None:
            return self.judge(sim, self.seat)
        found = sim.candidates()
        if not found:
            child = sim.copy()
            child.pass_turn()
            return self.value(child, alpha, beta)
        mine = sim.turn == self.seat
        best = -float("inf") if mine else float("inf")
        for candidate in found:
            child = sim.copy()
            child.make(candidate)
            result = self.value(child, alpha, beta)
            if mine:
                best = max(best, result)
                alpha = max(alpha, result)
            else:
                best = min(best, result)
                beta = min(beta, result)
            if alpha >= beta:
                break
        return best
