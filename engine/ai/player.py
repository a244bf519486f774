"""The one interface every computer player has, and the simplest of them."""

from __future__ import annotations

import random
from typing import Protocol

from engine.moves import Move
from engine.view import SeatView


class Player(Protocol):
    """Picks a move for the seat a view belongs to, from what that seat can see."""

    def choose(self, view: SeatView) -> Move:
        """One of `view.legal`; the view must be the turn of the seat it belongs to."""
        ...


def decision_rng(seed: int, view: SeatView) -> random.Random:
    """The randomness for one decision: fixed by the player's seed and the position.

    Seeding per decision (rather than keeping one generator across calls) makes a
    player's choice a pure function of its seed and the view, so a bot that
    rebuilds its players for every move still plays reproducibly.
    """
    return random.Random(f"{seed}:{view.variant}:{view.version}:{view.seat}")


def legal_or_fail(view: SeatView) -> tuple[Move, ...]:
    if not view.my_turn or not view.legal:
        raise ValueError("it is not this seat's turn to act")
    return view.legal


class RandomPlayer:
    """A uniformly random legal move."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, view: SeatView) -> Move:
        legal = legal_or_fail(view)
        return legal[decision_rng(self.seed, view).randrange(len(legal))]
