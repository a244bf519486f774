"""Benchmark the computer players against each other.

    python bench/ai.py [--matches 400] [--workers 2] [--rollouts 300] [--time-cap S]

Two-player matches — fives to 25, muggins to 51, twolane one game — in pairs dealt
from the same seed with the seats swapped, so each player gets the other's tiles
and the other's turn to start. Every seed is fixed: a run reproduces exactly
(the expert plays by its rollout count, without a time cap, unless told otherwise).
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import os
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

# Run as a script, this file's folder comes first on sys.path, and bench/engine.py
# would hide the `engine` package.
_here = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != _here]

from engine.ai import ExpertPlayer, GreedyPlayer, Player, RandomPlayer  # noqa: E402
from engine.ai.expert import DEFAULT_ROLLOUTS  # noqa: E402
from engine.game import Game  # noqa: E402
from engine.results import standings  # noqa: E402
from engine.variants import VARIANTS, ruleset  # noqa: E402
from engine.view import view_for  # noqa: E402

PAIRINGS = (("expert", "greedy"), ("greedy", "random"))


@dataclass(frozen=True, slots=True)
class Task:
    variant: str
    first: str  # the player being measured
    second: str
    index: int  # match number; pairs (2k, 2k+1) share a deal with the seats swapped
    seed: int
    rollouts: int | None
    time_cap: float | None


@dataclass(slots=True)
class Result:
    variant: str
    first: str
    second: str
    outcome: int  # 1: first won, 0: shared, -1: second won
    first_total: int
    second_total: int
    times: list[float] = field(default_factory=list)  # the expert's decisions with a choice
    instant: int = 0  # the expert's moves with one legal move


def build(name: str, seed: int, task: Task) -> Player:
    if name == "expert":
        clock = None if task.time_cap is None else time.perf_counter
        return ExpertPlayer(seed, rollouts=task.rollouts, time_cap=task.time_cap, clock=clock)
    if name == "greedy":
        return GreedyPlayer(seed)
    return RandomPlayer(seed)


def play_match(task: Task) -> Result:
    deal = task.seed + task.index // 2
    first_seat = task.index % 2
    names = {first_seat: task.first, 1 - first_seat: task.second}
    players = {seat: build(name, deal * 2 + seat, task) for seat, name in names.items()}
    game = Game.new(task.variant, ["A", "B"], seed=deal)
    result = Result(task.variant, task.first, task.second, 0, 0, 0)
    while not game.over:
        seat = game.turn
        assert seat is not None
        view = view_for(game, seat)
        started = time.perf_counter()
        move = players[seat].choose(view)
        spent = time.perf_counter() - started
        if names[seat] == "expert":
            if len(view.legal) > 1:
                result.times.append(spent)
            else:
                result.instant += 1
        game.push(move, seat)
    winners = standings(game).winners
    second_seat = 1 - first_seat
    if len(winners) == 1:
        result.outcome = 1 if winners[0] == first_seat else -1
    result.first_total = game.totals[first_seat]
    result.second_total = game.totals[second_seat]
    return result


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval for a proportion (shared wins count as half a win)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    margin = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return (centre - margin, centre + margin)


def tasks(args: argparse.Namespace) -> Iterator[Task]:
    for variant in args.variants:
        for first, second in PAIRINGS:
            if f"{first}-{second}" not in args.pairings:
                continue
            for index in range(args.matches):
                yield Task(variant, first, second, index, args.seed, args.rollouts, args.time_cap)


def report(results: list[Result], variant: str, first: str, second: str) -> list[str]:
    mine = [r for r in results if r.variant == variant and r.first == first and r.second == second]
    if not mine:
        return []
    n = len(mine)
    wins = sum(1 for r in mine if r.outcome == 1)
    losses = sum(1 for r in mine if r.outcome == -1)
    shared = n - wins - losses
    score = wins + shared / 2
    low, high = wilson(score, n)
    unit = "penalties" if ruleset(variant).penalty_scoring else "points"
    lines = [
        f"{variant:8} {first} vs {second}: {n} matches, "
        f"{wins} won / {losses} lost / {shared} shared",
        f"    win rate {score / n:.1%}  (95% Wilson CI {low:.1%} – {high:.1%})",
        f"    mean {unit}: {first} {sum(r.first_total for r in mine) / n:.2f}, "
        f"{second} {sum(r.second_total for r in mine) / n:.2f}",
    ]
    times = [t for r in mine for t in r.times]
    if times:
        instant = sum(r.instant for r in mine)
        lines.append(
            f"    expert time per move: mean {sum(times) / len(times) * 1000:.1f} ms, "
            f"max {max(times) * 1000:.1f} ms over {len(times)} decisions "
            f"(+{instant} forced moves)"
        )
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=400, help="per variant and pairing")
    parser.add_argument(
        "--workers", type=int, default=multiprocessing.cpu_count(), help="processes"
    )
    parser.add_argument("--seed", type=int, default=1, help="the first deal's seed")
    parser.add_argument("--variants", nargs="+", default=list(VARIANTS), choices=list(VARIANTS))
    parser.add_argument(
        "--pairings",
        nargs="+",
        default=[f"{a}-{b}" for a, b in PAIRINGS],
        choices=[f"{a}-{b}" for a, b in PAIRINGS],
    )
    parser.add_argument(
        "--rollouts",
        type=int,
        default=DEFAULT_ROLLOUTS,
        help="expert budget per move, in playouts of a whole round",
    )
    parser.add_argument(
        "--time-cap",
        type=float,
        default=None,
        help="expert's wall-clock cap per move in seconds (default: none, reproducible)",
    )
    args = parser.parse_args(argv)
    if args.matches % 2:
        parser.error("--matches must be even: matches are played in seat-swapped pairs")
    started = time.perf_counter()
    work = list(tasks(args))
    if args.workers > 1:
        with multiprocessing.Pool(args.workers) as pool:
            results = list(pool.imap_unordered(play_match, work, chunksize=4))
    else:
        results = [play_match(task) for task in work]
    print(
        f"{args.matches} matches per variant and pairing, seed {args.seed}, "
        f"expert rollouts {args.rollouts}, time cap {args.time_cap}, "
        f"{args.workers} workers"
    )
    for variant in args.variants:
        for first, second in PAIRINGS:
            for line in report(results, variant, first, second):
                print(line)
    print(f"wall time {time.perf_counter() - started:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
