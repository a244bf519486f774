"""The greedy player: best immediate score, then the heaviest tile, then the most options.

The ranking works on plain pieces of a position (table, hand, boneyard size) so
that the same code judges a seat's view and every move of a simulated game.
"""

from __future__ import annotations

from engine.ai.player import legal_or_fail
from engine.game import Game
from engine.moves import Doubles, Move, Play
from engine.table import Table
from engine.tiles import ALL_TILES, Tile, pips_held_by_others
from engine.variants import Ruleset
from engine.view import SeatView

# A move's standing, larger is better: (score, pips shed, tiles playable after, distinct pips kept).
Key = tuple[float, int, int, int]
NO_PLAY: Key = (0.0, 0, 0, 0)
# A game scored in penalties (twolane): no tile left that fits the ends the move leaves.
STUCK = -10.0


def play_outcome(rules: Ruleset, table: Table, move: Play | Doubles) -> tuple[int, list[int]]:
    """The points `move` scores by itself, and the values of the open ends after it.

    `table` is left as it was. A single play on an end (the common case, run for
    every candidate of every simulated move) is laid and taken back in place;
    openings and doubles moves are tried on a copy.
    """
    if isinstance(move, Play) and move.end is not None:
        end = move.end
        ends = table.ends
        before = ends[end]
        hub = table.hub
        table.attach(move.tile, end)
        if hub is None and rules.hub_kind is not None:
            rules.claim_hub(table, end)
        points = rules.after_place(table) if rules.scores_plays else 0
        values = [value for _, value in table.ends]
        table.arms[end].pop()
        table.moves -= 1
        ends[end] = before
        table.ends = ends
        table.hub = hub
        return points, values
    scratch = laid(rules, table, move)
    points = rules.after_place(scratch) if rules.scores_plays else 0
    return points, [value for _, value in scratch.ends]


def laid(rules: Ruleset, table: Table, move: Play | Doubles) -> Table:
    """A copy of `table` with `move` laid as the game lays it (`Game._lay`)."""
    scratch = table.copy()
    plays = move.plays if isinstance(move, Doubles) else (move,)
    for index, play in enumerate(plays):
        if play.end is None:
            scratch.open_with(play.tile, play.tile.high if play.west is None else play.west)
        else:
            scratch.attach(play.tile, play.end, index == 0)
        if scratch.hub is None and rules.hub_kind is not None:
            rules.claim_hub(scratch, play.end)
    return scratch


def going_out_points(rules: Ruleset, boneyard_size: int, others_pips: float) -> float:
    """What emptying one's hand scores at once (0 if the boneyard refills it)."""
    if rules.refill_empty_hand and boneyard_size:
        return 0.0
    return rules.going_out_points(others_pips)


def move_key(
    rules: Ruleset,
    table: Table,
    hand: list[Tile] | tuple[Tile, ...],
    move: Move,
    boneyard_size: int,
    others_pips: float,
) -> Key:
    """How the greedy player ranks `move`; draws and passes (never a choice) rank equal."""
    if not isinstance(move, Play | Doubles):
        return NO_PLAY
    laid = [move.tile] if isinstance(move, Play) else [p.tile for p in move.plays]
    points, values = play_outcome(rules, table, move)
    score = float(points)
    rest = [t for t in hand if t not in laid]
    if not rest:
        score += going_out_points(rules, boneyard_size, others_pips)
    fits = 0
    kept: set[int] = set()
    for tile in rest:
        if tile[0] in values or tile[1] in values:
            fits += 1
        kept.add(tile[0])
        kept.add(tile[1])
    if rules.penalty_scoring and rest and not fits:
        score += STUCK
    return (score, sum(t.pips for t in laid), fits, len(kept))


def best_move(
    rules: Ruleset,
    table: Table,
    hand: list[Tile] | tuple[Tile, ...],
    legal: tuple[Move, ...],
    boneyard_size: int,
    others_pips: float,
) -> Move:
    """The greedy choice among `legal`; ties go to the earliest in `legal`."""
    if len(legal) == 1:
        return legal[0]
    best = legal[0]
    best_key = move_key(rules, table, hand, best, boneyard_size, others_pips)
    for move in legal[1:]:
        key = move_key(rules, table, hand, move, boneyard_size, others_pips)
        if key > best_key:
            best, best_key = move, key
    return best


def expected_others_pips(view: SeatView) -> float:
    """The pips the other hands are expected to hold: unseen pips shared out by tile count."""
    seen = set(view.hand) | set(view.table.tiles())
    unseen = [t for t in ALL_TILES if t not in seen]
    if not unseen:
        return 0.0
    held = sum(n for seat, n in enumerate(view.hand_sizes) if seat != view.seat)
    return sum(t.pips for t in unseen) * held / len(unseen)


def greedy_move_in(game: Game) -> Move:
    """The greedy choice for the seat to act in `game`, a simulation whose hands are all known."""
    legal = game.legal_moves()
    if len(legal) == 1:
        return legal[0]
    rnd = game.rounds[-1]
    others = pips_held_by_others(rnd.hands, rnd.turn)
    return best_move(game.rules, rnd.table, rnd.hands[rnd.turn], legal, len(rnd.boneyard), others)


class GreedyPlayer:
    """Takes the best immediate score; needs no randomness (ties go to the first move)."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, view: SeatView) -> Move:
        legal = legal_or_fail(view)
        if len(legal) == 1:
            return legal[0]
        table = view.table.copy()
        return best_move(
            view.rules, table, view.hand, legal, view.boneyard_size, expected_others_pips(view)
        )
