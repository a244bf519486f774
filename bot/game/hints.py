"""Hints for practice games: the strong computer's next move, and what makes it good.

Pure logic: the move comes from the expert player, which sees only the seat's view,
and every reason is worked out from that same view (never from hidden tiles), so
everything a hint says can be read off the position the player sees.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any

from bot.game.computer import LEVELS
from bot.game.contrasts import (
    Contrast,
    Measure,
    Other,
    PlayCounts,
    Sight,
    alike,
    best,
    button_order,
    contrast,
    other_ends,
    other_tiles,
    outcome,
    temptation,
    tiles_of,
)
from engine import Doubles, Draw, End, Game, Move, Pass, Play, SeatView, Tile, view_for
from engine.ai import make_player
from engine.table import Table

# A tile this heavy is worth getting rid of (pips count against the holder at the end).
HEAVY_PIPS = 8


class Reason(Enum):
    """Why the move is good, one main reason each; `explain` tries them in this order.

    The first three are the player's only move: the hint is then a short form.
    """

    DRAW = "draw"  # nothing fits: take from the boneyard
    PASS = "pass"  # nothing fits and nothing may be drawn
    ONLY_MOVE = "only_move"  # one tile fits, on one end only
    GOES_OUT = "goes_out"  # the last tile: the hand is empty
    SCORES = "scores"  # the play scores `points`
    ONLY_TILE = "only_tile"  # the only tile that can be played (on one of several ends)
    BLOCKS = "blocks"  # no tile left unseen fits any end: the others cannot play
    SHEDS_DOUBLE = "sheds_double"  # gets rid of a double (several, for a doubles move)
    DENIES = "denies"  # no unseen tile scores next, where another tile would let one
    FOLLOW_UP = "follow_up"  # a tile kept in hand fits the end this play opens
    SHEDS_HEAVY = "sheds_heavy"  # the heaviest tile that can be played
    BETTER = "better"  # better than another tile on one count (`contrast`)
    LEAVES = "leaves"  # what it leaves: the ends, and the tiles kept that fit them


ONLY_MOVES = frozenset({Reason.DRAW, Reason.PASS, Reason.ONLY_MOVE})
# Why one tile rather than another, when nothing above says it (BETTER), in this order.
TILE_MEASURES = (
    Measure.RISK,
    Measure.STUCK,
    Measure.FOLLOW_UPS,
    Measure.OPEN_TO_OTHERS,
    Measure.PIPS_KEPT,
    Measure.SUITS_KEPT,
)
# Why one end rather than another, in this order (those that apply to the game).
END_MEASURES = (
    Measure.RISK,
    Measure.POINTS,
    Measure.BLOCKS,
    Measure.STUCK,
    Measure.FOLLOW_UPS,
    Measure.OPEN_TO_OTHERS,
)
SCORING_MEASURES = frozenset({Measure.RISK, Measure.POINTS})


@dataclass(frozen=True, slots=True)
class Hint:
    """The move to make and why.

    `end`/`end_value`: the end to press, set only when the tile fits several ends;
    `end_contrast` then says why that end rather than the others (None: no count
    favours it). `points`, `terms`, `spinner`: what the play scores (SCORES,
    ONLY_MOVE), the ends the game counts after it and whether the points include
    the fives spinner's 2. `tiles`: the tiles the reason names (the doubles shed,
    the heavy tile, the tiles kept that fit the ends). `pips`: the end values the
    reason names (the follow-up end, the ends nobody else can play on, the ends
    left). `penalty`: a twolane pass's cost. `contrast`: the other tile the move is
    compared with (DENIES, BETTER).
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
    contrast: Contrast | None = None
    end_contrast: Contrast | None = None

    @property
    def only(self) -> bool:
        """The player has no other move (told in a short form)."""
        return self.reason in ONLY_MOVES


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
    if isinstance(move, Draw):
        return Hint(move, Reason.DRAW)
    if isinstance(move, Pass):
        return Hint(move, Reason.PASS, penalty=view.rules.pass_penalty)
    sight = Sight.of(view)
    rules = sight.rules
    chosen = outcome(sight, move)
    points = chosen.counts[Measure.POINTS]
    if len(_choices(view.legal)) == 1:
        return Hint(move, Reason.ONLY_MOVE, points=points)
    after = chosen.after
    placed = tiles_of(move)
    kept = [t for t in view.hand if t not in placed]
    goes_out = not kept and not (rules.refill_empty_hand and view.boneyard_size > 0)
    end, end_value = _end_to_press(view, move)
    end_contrast = None
    if end is not None:
        assert isinstance(move, Play)
        # Going out ends the round (but in twolane): then only the points count.
        ends_round = goes_out and not rules.play_on_after_out
        end_contrast = _end_contrast(sight, chosen, ends_round)
    base = Hint(move, Reason.LEAVES, end, end_value, end_contrast=end_contrast)

    def hint(reason: Reason, **fields: Any) -> Hint:
        return replace(base, reason=reason, **fields)

    if goes_out:
        return hint(Reason.GOES_OUT, tiles=placed)
    if points > 0:
        terms = tuple(rules.count_terms(after) or ())
        spinner = rules.hub_kind == "spinner" and _laid_hub(after)
        return hint(Reason.SCORES, points=points, terms=terms, spinner=spinner)
    played = {p.tile for p in view.legal if isinstance(p, Play)}
    if isinstance(move, Play) and played == {move.tile}:
        return hint(Reason.ONLY_TILE, tiles=placed)
    values = tuple(sorted(set(chosen.values())))
    if chosen.counts[Measure.BLOCKS]:
        return hint(Reason.BLOCKS, pips=values)
    doubles = tuple(t for t in placed if t.is_double)
    if doubles:
        return hint(Reason.SHEDS_DOUBLE, tiles=doubles)
    others = other_tiles(sight, move)
    tempting = temptation(sight)
    # "Nobody scores at once" only while nobody else can go out next: that scores by itself.
    rivals = [size for other, size in enumerate(view.hand_sizes) if other != view.seat and size]
    safe = rules.scores_plays and not chosen.counts[Measure.RISK]
    if safe and min(rivals, default=0) > 1:
        risky = [group for group in others if best(group, Measure.RISK) > 0]
        if risky:
            worst = max(risky, key=lambda group: tempting(group[0].move))
            other = Other(worst[0].move, best(worst, Measure.RISK))
            return hint(Reason.DENIES, contrast=Contrast(Measure.RISK, 0, (other,)))
    for value in _opened(after):
        fitting = tuple(t for t in kept if t.has(value))
        if fitting:
            return hint(Reason.FOLLOW_UP, pips=(value,), tiles=fitting)
    heaviest = max(t.pips for t in played)
    if isinstance(move, Play) and move.tile.pips == heaviest and heaviest >= HEAVY_PIPS:
        return hint(Reason.SHEDS_HEAVY, tiles=placed)
    # A risk of 0 is told only as DENIES, where it is sure to mean "nobody scores".
    risky_too = rules.scores_plays and chosen.counts[Measure.RISK] > 0
    measures = [m for m in TILE_MEASURES if m is not Measure.RISK or risky_too]
    found = contrast(chosen, others, measures, tempting, limit=1)
    if found is not None:
        return hint(Reason.BETTER, contrast=found)
    fitting = tuple(t for t in kept if any(t.has(v) for v in values))
    return hint(Reason.LEAVES, pips=values, tiles=fitting)


def _end_contrast(sight: Sight, chosen: PlayCounts, ends_round: bool) -> Contrast | None:
    """Why this end of the tile rather than another: the first count it does best on."""
    assert isinstance(chosen.move, Play)
    rules, view = sight.rules, sight.view
    others = other_ends(sight, chosen.move)
    if ends_round:
        measures = [Measure.POINTS] if rules.scores_plays else []
    else:
        measures = [m for m in END_MEASURES if rules.scores_plays or m not in SCORING_MEASURES]
    found = contrast(chosen, [[o] for o in others], measures, button_order(view.legal), limit=3)
    found = found or alike(chosen, others, measures)
    if found is None:
        return None
    values = dict(view.table.open_ends())

    def named(other: Other) -> Other:
        assert isinstance(other.move, Play) and other.move.end is not None
        return replace(other, end_value=values[other.move.end])

    return replace(found, others=tuple(named(o) for o in found.others))


def _choices(legal: tuple[Move, ...]) -> set[object]:
    """The different things the player may do: an opening laid either way round is one."""
    return {(m.tile, m.end) if isinstance(m, Play) else m for m in legal}


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


def _opened(after: Table) -> list[int]:
    """The values of the ends the move just made: each laid tile's free half (both
    halves of the opening); a spinner's new sides show its own value, the same."""
    values: list[int] = []
    for placed in after.last_placed():
        if after.opening is not None and placed == after.opening:
            values.append(placed.inner)
        values.append(placed.outer)
    return list(dict.fromkeys(values))
