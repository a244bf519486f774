"""Computer players for the bot: the moves a computer makes for a whole turn."""

from __future__ import annotations

import time

from engine import Game, Move, view_for
from engine.ai import make_player

LEVELS = {"easy": "greedy", "strong": "expert"}


def turn_moves(game: Game, level: str, seed: int, time_cap: float) -> list[Move]:
    """The moves the seat to act makes until its turn passes (draws included).

    Works on (and changes) `game`, which must be the caller's own copy. Players
    see only the seat's view, never the hidden tiles.
    """
    seat = game.turn
    player = make_player(
        LEVELS.get(level, "greedy"), seed=seed, time_cap=time_cap, clock=time.perf_counter
    )
    moves: list[Move] = []
    while seat is not None and game.turn == seat:
        move = player.choose(view_for(game, seat))
        game.push(move, seat=seat)
        moves.append(move)
    return moves
