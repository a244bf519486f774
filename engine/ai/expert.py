"""The expert player: determinized rollouts of the rest of the round.

For each decision it deals the hidden tiles many times, consistently with what the
seat has seen (`engine.ai.hidden`), and in each such world plays every candidate
move, then the rest of the round with everybody playing greedily (itself a little
more carefully, see `Sim`) on the fast simulation (`engine.ai.sim`). The move with
the best average outcome for the match wins: the chance of winning the match
that the round's end leaves (`match_chance`), plus a little for the points
themselves (twolane: the game won, and penalties). Each world is shared by all
the candidates, so luck in the deal cancels out of their comparison, and
candidates that trail clearly are dropped along the way (`race`) to spend the
budget on the close ones. Once nothing is hidden any more (no boneyard, one
rival with tiles) an exact search takes over (`engine.ai.endgame`).

Budget: `rollouts` playouts of a whole round per decision, counted as simulation
work, so that late in a round, where playouts are short, the same time buys
more of them; that makes play reproducible for a seed. `time_cap` is a hard
wall-clock cap for live play on top of that. The engine reads no clock of its
own: the caller hands one in (`clock=time.perf_counter`) to have the cap enforced.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

from engine.ai.endgame import is_endgame, solve
from engine.ai.greedy import expected_others_pips, move_key
from engine.ai.hidden import Knowledge, knowledge_from_view, sample_world, world_game
from engine.ai.player import decision_rng, legal_or_fail
from engine.ai.sim import Sim
from engine.moves import Move, Play
from engine.tiles import End
from engine.view import SeatView

DEFAULT_ROLLOUTS = 300
# The budget is counted in units of simulation work (see `Sim.play_out`): a
# rollout stands for REFERENCE_WORK of them, about a whole two-player round.
# Each playout costs its work plus PLAYOUT_OVERHEAD (copying the world, laying
# the candidate, judging the end), each world WORLD_OVERHEAD (dealing it).
REFERENCE_WORK = 80
PLAYOUT_OVERHEAD = 3
WORLD_OVERHEAD = 15
DEFAULT_TIME_CAP = 0.4  # seconds
# The value of the match won (its loss: minus this), in round points; the chance
# of it a rollout leaves counts in proportion (`match_chance`).
MATCH_BONUS = 20.0
# A round point in itself, besides what it does to the chance of winning the match.
POINT_WEIGHT = 0.5
# The spread of the match race: the standard deviation of the point difference
# still to come, per square root of the points still needed by both.
MATCH_SPREAD = 1.5
# twolane: the value of winning the game, in passes (10 penalty points each).
TWOLANE_WIN = 6.0
# Racing: after MIN_WORLDS worlds, and every CHECK_EVERY more, drop the candidates
# that trail the leader by more than DROP_Z standard errors.
MIN_WORLDS = 8
CHECK_EVERY = 4
DROP_Z = 2.5


class ExpertPlayer:
    """Plays the move with the best average rollout outcome.

    `rollouts` is the budget per decision, in playouts of a whole round (None:
    as many as `time_cap` allows); `time_cap` caps the time per decision in seconds, read
    from `clock` (seconds, e.g. `time.perf_counter`; without a clock there is no
    cap and play is fully reproducible). The default budget answers well within
    the cap on one core, so the cap only bites on a slow or busy machine.
    `careful`: in its own simulated turns the expert minds the next seat's
    chance to score (fives).
    """

    def __init__(
        self,
        seed: int = 0,
        rollouts: int | None = DEFAULT_ROLLOUTS,
        time_cap: float | None = DEFAULT_TIME_CAP,
        clock: Callable[[], float] | None = None,
        careful: bool = True,
    ) -> None:
        if rollouts is None and (time_cap is None or clock is None):
            raise ValueError("give a number of rollouts, or a time cap and a clock")
        self.seed = seed
        self.rollouts = rollouts
        self.time_cap = time_cap
        self.clock = clock
        self.careful = careful

    def choose(self, view: SeatView) -> Move:
        legal = legal_or_fail(view)
        candidates = distinct_moves(view, legal)
        if len(candidates) == 1:
            return candidates[0]
        clock = self.clock if self.time_cap is not None else None
        deadline = math.inf if clock is None else clock() + (self.time_cap or 0.0)
        budget = math.inf if self.rollouts is None else self.rollouts
        rng = decision_rng(self.seed, view)
        knowledge = knowledge_from_view(view)
        seat = knowledge.seat
        if view.boneyard_size == 0:
            exact = solve_endgame(view, knowledge, candidates, rng)
            if exact is not None:
                return exact
        # values[i][w]: candidate i's outcome in world w, for every world it was tried in.
        values: list[list[float]] = [[] for _ in candidates]
        alive = list(range(len(candidates)))
        spent = 0.0
        worlds = 0
        # The budget is counted in simulation work, so that short playouts late in a
        # round buy more worlds than long ones at its start, for about the same time.
        work_budget = budget * REFERENCE_WORK
        cost = float(REFERENCE_WORK)  # the last world's cost per candidate
        while spent + WORLD_OVERHEAD + cost * len(alive) <= work_budget or worlds == 0:
            base = Sim.from_game(world_game(view, sample_world(knowledge, rng)))
            base.careful = seat if self.careful else -1
            results = []
            work = 0
            for index in alive:
                if clock is not None and clock() >= deadline:
                    break
                sim = base.copy()
                sim.apply(candidates[index])
                work += sim.play_out() + PLAYOUT_OVERHEAD
                results.append(outcome(sim, seat))
            if len(results) < len(alive):
                break  # out of time: this world was not tried on every candidate
            for index, value in zip(alive, results, strict=True):
                values[index].append(value)
            spent += work + WORLD_OVERHEAD
            cost = work / len(alive)
            worlds += 1
            if worlds >= MIN_WORLDS and worlds % CHECK_EVERY == 0:
                alive = race(alive, values)
                if len(alive) == 1:
                    break
        if worlds == 0:
            return candidates[0]
        best = max(alive, key=lambda i: (sum(values[i]), -i))
        return candidates[best]


def solve_endgame(
    view: SeatView, knowledge: Knowledge, candidates: list[Move], rng: random.Random
) -> Move | None:
    """The best move by exact search, when nothing is hidden any more and the search
    is small enough (see `engine.ai.endgame`); None otherwise."""
    sim = Sim.from_game(world_game(view, sample_world(knowledge, rng)))
    if not is_endgame(sim, knowledge.seat):
        return None
    values = solve(sim, knowledge.seat, candidates, outcome)
    if values is None:
        return None
    best = max(range(len(candidates)), key=lambda i: (values[i], -i))
    return candidates[best]


def race(alive: list[int], values: list[list[float]]) -> list[int]:
    """The candidates not clearly worse than the leader, judged on the worlds all have seen.

    A candidate is dropped when its mean difference from the leader, world by
    world, is below zero by more than `DROP_Z` standard errors.
    """
    worlds = len(values[alive[0]])
    leader = max(alive, key=lambda i: (sum(values[i]), -i))
    kept = []
    for index in alive:
        if index == leader:
            kept.append(index)
            continue
        diffs = [a - b for a, b in zip(values[index], values[leader], strict=True)]
        mean = sum(diffs) / worlds
        spread = sum((d - mean) ** 2 for d in diffs) / (worlds - 1)
        if mean + DROP_Z * math.sqrt(spread / worlds) >= 0:
            kept.append(index)
    return kept


def distinct_moves(view: SeatView, legal: tuple[Move, ...]) -> list[Move]:
    """The legal moves that differ, best first by the greedy ranking.

    Mirror images are dropped: an opening and its reverse (W and E are alike), and
    a tile on S when it also fits an empty N arm (the hub's two sides are alike).
    """
    rules = view.rules
    table = view.table.copy()
    seen: set[object] = set()
    unique: list[Move] = []
    empty_sides = table.hub is not None and not table.arm(End.N) and not table.arm(End.S)
    for move in legal:
        key: object = move
        if isinstance(move, Play):
            if move.end is None:
                key = move.tile
            elif empty_sides and move.end in (End.N, End.S):
                key = (move.tile, End.N)
        if key not in seen:
            seen.add(key)
            unique.append(move)
    others = expected_others_pips(view)
    ranked = sorted(
        unique,
        key=lambda m: move_key(rules, table, view.hand, m, view.boneyard_size, others),
        reverse=True,
    )
    return ranked


def ranking(sim: Sim, seat: int) -> tuple[int, int, int, int]:
    """A penalty game's ranking key (see `engine.results.ranking_key`): smaller is better."""
    hand = sim.hands[seat]
    went_out = sim.out.index(seat) if seat in sim.out else sim.seats
    return (sim.totals[seat], went_out, len(hand), sum(t[0] + t[1] for t in hand))


def outcome(sim: Sim, seat: int) -> float:
    """How good the end of a simulated round is for `seat`'s match (larger is better)."""
    totals = sim.totals
    if sim.rules.ruleset.penalty_scoring:
        mine = ranking(sim, seat)
        best = min(ranking(sim, s) for s in range(sim.seats) if s != seat)
        win = 1.0 if mine < best else 0.5 if mine == best else 0.0
        rival = min(p for s, p in enumerate(totals) if s != seat)
        return TWOLANE_WIN * win + (rival - totals[seat]) / 10
    mine_points = totals[seat]
    rival_points = max(t for s, t in enumerate(totals) if s != seat)
    value = POINT_WEIGHT * (mine_points - rival_points)
    if sim.match_over:
        lead = mine_points - rival_points
        return value + MATCH_BONUS * ((lead > 0) - (lead < 0))
    target = sim.target
    if target is None:
        return value
    return value + MATCH_BONUS * match_chance(target - mine_points, target - rival_points)


def match_chance(need: int, rival_needs: int) -> float:
    """How likely the seat is to win the match, from -1 (lost) to 1 (won).

    A race to the target: the difference in what is still needed, against its
    spread over the points still to be scored (a normal approximation).
    """
    need = max(need, 1)
    rival_needs = max(rival_needs, 1)
    z = (rival_needs - need) / (MATCH_SPREAD * math.sqrt(need + rival_needs))
    return math.erf(z / math.sqrt(2))
