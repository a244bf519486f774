"""Engine speed: random games and legal-move generation, beside the `dominoes` package.

    python bench/engine.py [--seconds 1.0] [--repeats 5]

For each variant and player count it plays whole random games (random legal
moves to the end of the match) and prints games per second, tiles placed per
second and legal-move generations per second. It then runs the `dominoes`
package's own game (four players, seven tiles each, random moves) and ours
(`twolane`, four players) in alternation, several times, and prints the median
tiles-per-second ratio: timing them side by side keeps a busy machine from
favouring either. CPU time of this process is measured, not wall time.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections.abc import Callable

# Run as a script, this file's folder comes first on sys.path and its name would
# hide the `engine` package it measures.
_here = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != _here]

from engine import VARIANTS, Game  # noqa: E402

PLAYERS = {2: ["a", "b"], 3: ["a", "b", "c"], 4: ["a", "b", "c", "d"]}
clock = time.process_time
TARGET_RATIO = 1.5  # ours over theirs, tiles placed per second


def our_games(variant: str, players: int, seconds: float, seed: int) -> tuple[float, float]:
    """(games per second, tiles placed per second) of random games."""
    rng = random.Random(seed)
    names = PLAYERS[players]
    games = tiles = 0
    start = clock()
    while clock() - start < seconds:
        game = Game.new(variant, names, seed=rng.getrandbits(32))
        while not game.over:
            game.push(rng.choice(game.legal_moves()))
        tiles += sum(len(rnd.table.placements()) for rnd in game.rounds)
        games += 1
    elapsed = clock() - start
    return games / elapsed, tiles / elapsed


def our_generations(variant: str, players: int, seconds: float, seed: int) -> float:
    """Legal-move generations per second over positions from random games.

    The cache of `legal_moves` is emptied first: each call generates afresh.
    """
    rng = random.Random(seed)
    positions: list[Game] = []
    while len(positions) < 2000:
        game = Game.new(variant, PLAYERS[players], seed=rng.getrandbits(32))
        while not game.over and len(positions) < 2000:
            positions.append(game.copy())
            game.push(rng.choice(game.legal_moves()))
    count = 0
    start = clock()
    while clock() - start < seconds:
        for position in positions:
            position._legal = None
            position.legal_moves()
        count += len(positions)
    return count / (clock() - start)


def their_tiles(seconds: float, seed: int) -> float:
    """Tiles per second placed in the `dominoes` package's random games."""
    import dominoes

    rng = random.Random(seed)
    tiles = 0
    start = clock()
    while clock() - start < seconds:
        game = dominoes.Game.new()
        while game.result is None:
            game.make_move(*rng.choice(game.valid_moves))
        tiles += len(game.board)
    return tiles / (clock() - start)


def median_of(repeats: int, run: Callable[[int], float]) -> float:
    return statistics.median(run(i) for i in range(repeats))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="per measurement")
    parser.add_argument("--pairs", type=int, default=40, help="alternating runs to compare")
    parser.add_argument("--pair-seconds", type=float, default=0.25, help="per run of a pair")
    args = parser.parse_args(argv)

    print(f"{'variant':8} {'players':>7} {'games/s':>9} {'tiles/s':>9} {'legal gens/s':>13}")
    for variant in VARIANTS:
        for players in (2, 3, 4):
            games, tiles = our_games(variant, players, args.seconds, seed=players)
            gens = our_generations(variant, players, args.seconds, seed=players)
            print(f"{variant:8} {players:>7} {games:>9.0f} {tiles:>9.0f} {gens:>13.0f}")

    try:
        import dominoes  # noqa: F401
    except ImportError:
        print("the dominoes package is not installed: pip install dominoes", file=sys.stderr)
        return 1
    # Many short runs in alternation: a neighbour's load or a frequency change hits
    # both sides of a pair alike, and the median of the pairs' ratios shrugs off the rest.
    ours, theirs, ratios = [], [], []
    for i in range(args.pairs):
        _, mine = our_games("twolane", 4, args.pair_seconds, seed=100 + i)
        other = their_tiles(args.pair_seconds, seed=100 + i)
        ours.append(mine)
        theirs.append(other)
        ratios.append(mine / other)
    low, middle, high = statistics.quantiles(ratios, n=4)
    print()
    print(f"tiles placed per second, four players, random moves ({args.pairs} alternating pairs):")
    print(f"  {'':46} {'median':>9} {'best':>9}")
    for label, speeds in (
        ("ours, twolane (boneyard, penalties, records)", ours),
        ("dominoes package, its own game", theirs),
    ):
        print(f"  {label:46} {statistics.median(speeds):>9.0f} {max(speeds):>9.0f}")
    print(f"  ratio (median of pairs): {middle:.2f}x   quartiles {low:.2f}x - {high:.2f}x")
    verdict = "met" if middle >= TARGET_RATIO else "NOT met"
    print(f"  target {TARGET_RATIO}x: {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
