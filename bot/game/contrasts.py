"""How a play compares with the others the seat could make: counts taken just after each.

Pure, and worked out from the seat's view only. What the opponents could do is reckoned
over the tiles the seat cannot see (not in his hand, not on the table) and what their
own draws and passes showed they lack, with the game's own rules.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from engine import ALL_TILES, Doubles, Move, Play, SeatView, Tile
from engine.ai.greedy import expected_others_pips, laid, move_key, play_outcome
from engine.ai.hidden import knowledge_from_view
from engine.game import double_combinations
from engine.table import Table
from engine.variants import Ruleset

ALL_VALUES = (1 << 7) - 1  # a bit per pip value 0-6


class Measure(Enum):
    """A count on which two plays are compared, each taken just after the play."""

    RISK = "risk"  # the most unseen tiles could score next, in one move (fewer is better)
    POINTS = "points"  # what the play scores
    BLOCKS = "blocks"  # 1: no unseen tile fits any end
    STUCK = "stuck"  # the opponents sure to hold nothing for the ends (by their draws, passes)
    FOLLOW_UPS = "follow_ups"  # the tiles kept in hand that fit an end
    OPEN_TO_OTHERS = "open_to_others"  # the unseen tiles that fit an end (fewer is better)
    PIPS_KEPT = "pips_kept"  # the pips left in hand (fewer is better)
    SUITS_KEPT = "suits_kept"  # the numbers the tiles left in hand show
    SAME = "same"  # the same numbers on the ends, every count the same: either will do
    EVEN = "even"  # other numbers on the ends, but every count the same


FEWER_IS_BETTER = frozenset({Measure.RISK, Measure.OPEN_TO_OTHERS, Measure.PIPS_KEPT})
COUNTED = tuple(m for m in Measure if m not in (Measure.SAME, Measure.EVEN))


@dataclass(frozen=True, slots=True)
class Other:
    """A play the player could make instead, and its count on the contrast's measure.

    `end_value`: the value of the end it goes on, when that end is to be named.
    """

    move: Play | Doubles
    figure: int
    end_value: int | None = None


@dataclass(frozen=True, slots=True)
class Contrast:
    """The hinted play against others: `figure` is its count, `others` the plays it beats
    on `measure` (SAME, EVEN: the plays it is no better than)."""

    measure: Measure
    figure: int
    others: tuple[Other, ...]


@dataclass(frozen=True, slots=True)
class Sight:
    """What the seat sees, as the counts need it.

    `voids`: for each other seat holding tiles, the values (a bit each) it surely
    lacks: it drew or passed while they were open, holding every tile it holds now.
    """

    rules: Ruleset
    view: SeatView
    unseen: tuple[Tile, ...]
    voids: tuple[int, ...]

    @staticmethod
    def of(view: SeatView) -> Sight:
        seen = {*view.hand, *view.table.tiles()}
        knowledge = knowledge_from_view(view, read_plays=False)  # the certain part only
        voids = []
        for seat, slots in enumerate(knowledge.slots):
            if seat != view.seat and slots:
                lacks = ALL_VALUES
                for slot in slots:
                    lacks &= slot.lacks
                voids.append(lacks)
        unseen = tuple(t for t in ALL_TILES if t not in seen)
        return Sight(view.rules, view, unseen, tuple(voids))


@dataclass(slots=True)
class PlayCounts:
    """A play and the counts just after it; `terms`: the ends the game counts then, sorted."""

    move: Play | Doubles
    after: Table = field(repr=False)
    counts: dict[Measure, int]
    terms: list[int] | None

    def values(self) -> list[int]:
        """The numbers on the open ends after the play, as many as there are ends."""
        return sorted(value for _, value in self.after.open_ends())


def outcome(sight: Sight, move: Play | Doubles) -> PlayCounts:
    """The counts just after `move`: what it scores, risks and leaves to each side."""
    rules = sight.rules
    after = laid(rules, sight.view.table, move)
    placed = tiles_of(move)
    kept = [t for t in sight.view.hand if t not in placed]
    values = {value for _, value in after.open_ends()}
    wanted = sum(1 << value for value in values)
    open_to_others = sum(1 for t in sight.unseen if t.high in values or t.low in values)
    counts = {
        Measure.RISK: risk(rules, after, sight.unseen) if rules.scores_plays else 0,
        Measure.POINTS: rules.after_place(after) if rules.scores_plays else 0,
        Measure.BLOCKS: int(open_to_others == 0),
        Measure.STUCK: sum(1 for lacks in sight.voids if wanted & lacks == wanted),
        Measure.FOLLOW_UPS: sum(1 for t in kept if t.high in values or t.low in values),
        Measure.OPEN_TO_OTHERS: open_to_others,
        Measure.PIPS_KEPT: sum(t.pips for t in kept),
        Measure.SUITS_KEPT: len({half for t in kept for half in t}),
    }
    terms = rules.count_terms(after)
    return PlayCounts(move, after, counts, None if terms is None else sorted(terms))


def risk(rules: Ruleset, table: Table, unseen: Sequence[Tile]) -> int:
    """The most an opponent's next move could score at once with tiles the seat cannot
    see: one tile on some end of `table`, or (muggins) several doubles laid together."""
    best = 0
    ends = list(table.open_ends())
    for end, value in ends:
        for tile in unseen:
            if tile.has(value):
                points, _ = play_outcome(rules, table, Play(tile, end))
                best = max(best, points)
    if rules.multi_doubles:
        for move in double_combinations([t for t in unseen if t.is_double], ends):
            assert isinstance(move, Doubles)
            best = max(best, play_outcome(rules, table, move)[0])
    return best


def contrast(
    chosen: PlayCounts,
    groups: Sequence[Sequence[PlayCounts]],
    measures: Sequence[Measure],
    tempting: Callable[[Play | Doubles], Any],
    limit: int,
) -> Contrast | None:
    """The first measure the chosen play does best on (ties allowed) and beats some group
    on; failing that, the first it beats some group on. A group (one tile on its several
    ends) counts by its best outcome. At most `limit` groups beaten are named, the most
    tempting first, each by its best play."""
    for best_only in (True, False):
        for measure in measures:
            sign = -1 if measure in FEWER_IS_BETTER else 1
            mine = sign * chosen.counts[measure]
            figures = [(sign * best(group, measure), group) for group in groups]
            if best_only and any(figure > mine for figure, _ in figures):
                continue
            beaten = [group for figure, group in figures if figure < mine]
            if beaten:
                beaten.sort(key=lambda group: tempting(group[0].move), reverse=True)
                others = tuple(
                    Other(best_of(group, measure).move, best(group, measure))
                    for group in beaten[:limit]
                )
                return Contrast(measure, chosen.counts[measure], others)
    return None


def alike(
    chosen: PlayCounts, others: Sequence[PlayCounts], measures: Sequence[Measure]
) -> Contrast | None:
    """SAME or EVEN when no count tells the plays apart (None: some does). SAME: the
    ends come to the same numbers, and the game counts them alike."""
    if any(o.counts[m] != chosen.counts[m] for o in others for m in measures):
        return None
    looks = (chosen.values(), chosen.terms)
    same = all((o.values(), o.terms) == looks for o in others)
    return Contrast(
        Measure.SAME if same else Measure.EVEN, 0, tuple(Other(o.move, 0) for o in others)
    )


def best_of(group: Sequence[PlayCounts], measure: Measure) -> PlayCounts:
    if measure in FEWER_IS_BETTER:
        return min(group, key=lambda o: o.counts[measure])
    return max(group, key=lambda o: o.counts[measure])


def best(group: Sequence[PlayCounts], measure: Measure) -> int:
    return best_of(group, measure).counts[measure]


def other_tiles(sight: Sight, move: Play | Doubles) -> list[list[PlayCounts]]:
    """The plays of the other tiles (or sets of doubles), a group each."""
    mine = frozenset(tiles_of(move))
    groups: dict[frozenset[Tile], list[PlayCounts]] = {}
    for other in sight.view.legal:
        if isinstance(other, Play | Doubles) and frozenset(tiles_of(other)) != mine:
            groups.setdefault(frozenset(tiles_of(other)), []).append(outcome(sight, other))
    return list(groups.values())


def other_ends(sight: Sight, move: Play) -> list[PlayCounts]:
    """The same tile on each other end it fits."""
    legal = sight.view.legal
    return [
        outcome(sight, m)
        for m in legal
        if isinstance(m, Play) and m.tile == move.tile and m.end != move.end
    ]


def temptation(sight: Sight) -> Callable[[Play | Doubles], Any]:
    """How tempting a play looks: as the easy computer ranks it (the best score now, ...)."""
    view = sight.view
    others_pips = expected_others_pips(view)

    def key(move: Play | Doubles) -> Any:
        return move_key(sight.rules, view.table, view.hand, move, view.boneyard_size, others_pips)

    return key


def button_order(legal: tuple[Move, ...]) -> Callable[[Play | Doubles], Any]:
    """The ends of one tile in the order their buttons come."""
    return lambda move: -legal.index(move)


def tiles_of(move: Play | Doubles) -> tuple[Tile, ...]:
    return (move.tile,) if isinstance(move, Play) else tuple(p.tile for p in move.plays)
