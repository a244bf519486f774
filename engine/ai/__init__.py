"""Computer players: each picks a move from a seat's view, never from the hidden game.

    player = make_player("expert", seed=7, clock=time.perf_counter)  # or "greedy", "random"
    move = player.choose(view_for(game, seat))                      # one of view.legal
    game.push(move, seat)

A player's move is a pure function of its seed and the view (the expert's time
cap aside: with a clock it may cut a search short on a slow or busy machine).
"""

from __future__ import annotations

from collections.abc import Callable

from engine.ai.expert import DEFAULT_ROLLOUTS, DEFAULT_TIME_CAP, ExpertPlayer
from engine.ai.greedy import GreedyPlayer
from engine.ai.hidden import (
    Knowledge,
    World,
    check_world,
    knowledge_from_view,
    sample_world,
    world_game,
)
from engine.ai.player import Player, RandomPlayer
from engine.ai.sim import Sim

PLAYERS: dict[str, type[RandomPlayer] | type[GreedyPlayer] | type[ExpertPlayer]] = {
    "random": RandomPlayer,
    "greedy": GreedyPlayer,
    "expert": ExpertPlayer,
}


def make_player(
    name: str,
    seed: int = 0,
    *,
    time_cap: float | None = DEFAULT_TIME_CAP,
    rollouts: int | None = DEFAULT_ROLLOUTS,
    clock: Callable[[], float] | None = None,
) -> Player:
    """The player called `name` (a key of `PLAYERS`).

    `rollouts` (playouts per move), `time_cap` (seconds per move) and `clock`
    (what the cap is read from, e.g. `time.perf_counter`; none: no cap) only
    concern the expert; see `ExpertPlayer`.
    """
    if name == "expert":
        return ExpertPlayer(seed, rollouts=rollouts, time_cap=time_cap, clock=clock)
    try:
        return PLAYERS[name](seed)
    except KeyError:
        raise ValueError(f"unknown player {name!r} (one of {', '.join(PLAYERS)})") from None


__all__ = [
    "DEFAULT_ROLLOUTS",
    "DEFAULT_TIME_CAP",
    "PLAYERS",
    "ExpertPlayer",
    "GreedyPlayer",
    "Knowledge",
    "Player",
    "RandomPlayer",
    "Sim",
    "World",
    "check_world",
    "knowledge_from_view",
    "make_player",
    "sample_world",
    "world_game",
]
