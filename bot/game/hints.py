"""Hints for practice games: the strong computer's next move, and the main reason for it.

Pure logic: the move comes from the expert player, which sees only the seat's view,
and the reason is worked out from that same view (never from hidden tiles), so
everything a hint says can be read off the position the player sees.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any

from bot.game.computer import LEVELS
from engine import ALL_TILES, Doubles, Draw, End, Game, Move, Pass, Play, SeatView, Tile, view_for
from engine.ai import make_player
from engine.ai.greedy import laid
from engine.table import Table
from engine.variants import Ruleset, ruleset

# A tile this heavy is worth getting rid of (pips count against the holder at the end).
HEAVY_PIPS = 8


class Reason(Enum):
    """Why the move is good, one main reason each; `explain` tries them in this order."""

    DRAW = "draw"  # nothing fits: take from the boneyard
    PASS = "pass"  # nothing fits and nothing may be drawn
    GOES_OUT = "goes_out"  # the last tile: the hand is empty
    SCORES = "scores"  # the play scores `points`
    ONLY_MOVE = "only_move"  # the only tile that can be played
    BLOCKS = "blocks"  # no tile left unseen fits any end: the others cannot play
    SHEDS_DOUBLE = "sheds_double"  # gets rid of a double (several, for a doubles move)
    DENIES = "denies"  # no unseen tile scores next, where another play would let one
    FOLLOW_UP = "follow_up"  # a tile kept in hand fits the end this play opens
    SHEDS_HEAVY = "sheds_heavy"  # the heaviest tile that can be played
    BEST = "best"  # no simple reason: the computer's reckoning


@dataclass(frozen=True, slots=True)
class Hint:
    """The move to make and why.

    `end`/`end_value`: the end to press, set only when the tile fits several ends.
    `points`, `terms`, `spinner`: what the play scores (SCORES), the ends the game
    counts after it and whether the points include the fives spinner's 2.
    `tiles`: the tiles the reason names (the doubles shed, the heavy tile, the
    follow-up tiles kept in hand). `pips`: the end values the reason names (the
    follow-up end, the ends nobody else can play on). `penalty`: a twolane pass's cost.
    """

    move: Move
    reason: Reason
    end: End | None = None
    end_value: int | None = None
    points: int = 0
    terms: tuple[int, ...] = ()
    spinner: bool = False
    tiles: tuple[Tile, ...] = ()
    pips: tuple[int, ...] = ()
    penalty: int = 0


def hint_for(game: Game, seat: int, seed: int, time_cap: float = 0.4) -> Hint:
    """The move the strong computer would make now for `seat`, and its main reason.

    `game` is not changed: the computer and the reason see only `view_for(game, seat)`.
    """
    if game.turn is None or game.turn != seat:
        raise ValueError(f"it is not seat {seat}'s turn")
    view = view_for(game, seat)
    player = make_player(LEVELS["strong"], seed=seed, time_cap=time_cap, clock=time.perf_counter)
    return explain(view, player.choose(view))


def explain(view: SeatView, move: Move) -> Hint:
    """The main reason for `move` (one of `view.legal`), worked out from the view alone."""
    if move not in view.legal:
        raise ValueError(f"{move} is not a legal move now")
    rules = ruleset(view.variant)
    if isinstance(move, Draw):
        return Hint(move, Reason.DRAW)
    if isinstance(move, Pass):
        return Hint(move, Reason.PASS, penalty=rules.pass_penalty)
    end, end_value = _end_to_press(view, move)
    after = laid(rules, view.table, move)
    points = rules.after_place(after) if rules.scores_plays else 0
    placed = _tiles_of(move)
    kept = [t for t in view.hand if t not in placed]

    base = Hint(move, Reason.BEST, end, end_value)

    def hint(reason: Reason, **fields: Any) -> Hint:
        return replace(base, reason=reason, **fields)

    if not kept and not (rules.refill_empty_hand and view.boneyard_size > 0):
        return hint(Reason.GOES_OUT, tiles=placed)
    if points > 0:
        terms = tuple(rules.count_terms(after) or ())
        spinner = rules.hub_kind == "spinner" and _laid_hub(after)
        return hint(Reason.SCORES, points=points, terms=terms, spinner=spinner)
    played = {p.tile for p in view.legal if isinstance(p, Play)}
    if isinstance(move, Play) and played == {move.tile}:
        return hint(Reason.ONLY_MOVE, tiles=placed)
    unseen = _unseen(view)
    values = tuple(sorted({value for _, value in after.open_ends()}))
    if not any(t.has(v) for t in unseen for v in values):
        return hint(Reason.BLOCKS, pips=values)
    doubles = tuple(t for t in placed if t.is_double)
    if doubles:
        return hint(Reason.SHEDS_DOUBLE, tiles=doubles)
    # Only while nobody else can go out next: going out scores by itself.
    rivals = [size for other, size in enumerate(view.hand_sizes) if other != view.seat and size]
    if rules.scores_plays and min(rivals, default=0) > 1 and not _lets_score(rules, after, unseen):
        others = [m for m in view.legal if m != move and isinstance(m, Play | Doubles)]
        if any(_lets_score(rules, laid(rules, view.table, m), unseen) for m in others):
            return hint(Reason.DENIES)
    for value in _opened(after):
        fitting = tuple(t for t in kept if t.has(value))
        if fitting:
            return hint(Reason.FOLLOW_UP, pips=(value,), tiles=fitting)
    heaviest = max(t.pips for t in played)
    if isinstance(move, Play) and move.tile.pips == heaviest and heaviest >= HEAVY_PIPS:
        return hint(Reason.SHEDS_HEAVY, tiles=placed)
    return hint(Reason.BEST)


def _tiles_of(move: Play | Doubles) -> tuple[Tile, ...]:
    return (move.tile,) if isinstance(move, Play) else tuple(p.tile for p in move.plays)


def _end_to_press(view: SeatView, move: Play | Doubles) -> tuple[End | None, int | None]:
    """The end to name: only for a tile that fits several ends (the player picks one)."""
    if not isinstance(move, Play) or move.end is None:
        return None, None
    ends = {m.end for m in view.legal if isinstance(m, Play) and m.tile == move.tile}
    if len(ends) < 2:
        return None, None
    return move.end, dict(view.table.open_ends())[move.end]


def _laid_hub(table: Table) -> bool:
    """The play just made laid the hub (in fives the spinner, worth 2 by itself)."""
    hub = table.hub_tile()
    return hub is not None and hub.seq == table.moves


def _unseen(view: SeatView) -> list[Tile]:
    """Tiles the seat cannot see: in other hands or the boneyard (the same after any play)."""
    seen = {*view.hand, *view.table.tiles()}
    return [t for t in ALL_TILES if t not in seen]


def _lets_score(rules: Ruleset, table: Table, unseen: list[Tile]) -> bool:
    """Whether one unseen tile, laid on some end of `table`, would score."""
    for end, value in table.open_ends():
        for tile in unseen:
            if tile.has(value) and rules.after_place(laid(rules, table, Play(tile, end))) > 0:
                return True
    return False


def _opened(after: Table) -> list[int]:
    """The values of the ends the move just made: each laid tile's free half (both
    halves of the opening); a spinner's new sides show its own value, the same."""
    values: list[int] = []
    for placed in after.last_placed():
        if after.opening is not None and placed == after.opening:
            values.append(placed.inner)
        values.append(placed.outer)
    return list(dict.fromkeys(values))
