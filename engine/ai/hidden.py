"""What a seat can infer about the tiles it cannot see, and games built from guesses about them.

Everything here reads a `SeatView` only. The round's public log is replayed on a
scratch table: a seat that drew or passed could not match any open end at that
moment, so every tile it held then shows none of those values (tiles drawn later
are free of that). That is certain; what a seat's plays suggest is belief: a seat
that laid a move is taken to hold no tile that would have scored more then (nor
as much with more pips: it sheds heavy tiles first).
A *determinization* (`World`) deals the unseen tiles to the other hands and the
boneyard consistently with all of it, and `world_game` turns one into a `Game`
that plays on from the view's position.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import NamedTuple

from engine.ai.greedy import play_outcome
from engine.game import Game, Round
from engine.moves import OPENINGS, PLAYS_BY_END, Doubles, Draw, Pass, Play, parse_move
from engine.table import Table
from engine.tiles import ALL_TILES, Tile
from engine.variants import Ruleset
from engine.view import SeatView

# A set of pip values as a bit mask: bit v set means "shows no v".
Mask = int
TILE_BIT: dict[Tile, int] = {tile: 1 << index for index, tile in enumerate(ALL_TILES)}


def tile_mask(tile: Tile) -> Mask:
    return (1 << tile.high) | (1 << tile.low)


def values_of(mask: Mask) -> frozenset[int]:
    return frozenset(v for v in range(7) if mask >> v & 1)


class Slot(NamedTuple):
    """What is known of one tile a seat holds.

    `lacks`: values it cannot show, by the rules (its holder drew or passed while
    holding it). `shuns`: tiles (a bit per `ALL_TILES` index) it is unlikely to
    be, judging by play: its holder laid a move it would not have chosen over
    this tile. The first is certain; the second is belief, and is dropped when
    the two cannot be squared with the tiles left.
    """

    lacks: Mask
    shuns: int

    def allows(self, tile: Tile, believe: bool = True) -> bool:
        if tile_mask(tile) & self.lacks:
            return False
        return not (believe and self.shuns & TILE_BIT[tile])


FREE_SLOT = Slot(0, 0)


@dataclass(frozen=True, slots=True)
class Knowledge:
    """What `seat` knows of the hidden tiles now.

    `slots[s]` has one entry per tile seat `s` holds, oldest first. A slot opens
    free when its tile enters the hand (the deal, a draw, a fives refill) and
    gathers what every later draw, pass or play by that seat reveals, so each
    slot's constraints include those of every later one. A played tile closes
    the oldest slot the rules allow it in: of all the ways the tiles may have
    been held, that leaves the weakest (so never wrong) constraints on the rest.
    """

    seat: int
    unseen: tuple[Tile, ...]  # every tile that is neither in the seat's hand nor on the table
    slots: tuple[tuple[Slot, ...], ...]  # per seat; empty for the seat itself
    boneyard_size: int


def knowledge_from_view(view: SeatView, read_plays: bool = True) -> Knowledge:
    """Replay the round's public log to learn what each other seat may hold.

    With `read_plays`, a seat that laid a move is believed to hold no tile it would
    have rather laid by the greedy player's first two rules: none that would have
    scored more, nor as much with more pips (twolane scores nothing: none heavier
    that would have left it a play, see `_preferred_unstuck`). That is exact for
    the greedy player and a fair guess for people; what cannot be squared with the
    tiles left is dropped when sampling.
    """
    if view.seat is None:
        raise ValueError("an onlooker's view has no hand to reason from")
    rules = view.rules
    seats = len(view.players)
    me = view.seat
    size = rules.hand_size(seats)
    counts = [size] * seats
    boneyard = len(ALL_TILES) - size * seats
    slots: list[list[Slot]] = [[] if s == me else [FREE_SLOT] * size for s in range(seats)]
    seen = set(view.hand) | set(view.table.tiles())
    unseen = tuple(t for t in ALL_TILES if t not in seen)
    table = Table()
    for entry in view.moves:
        seat = entry.seat
        move = parse_move(entry.text)
        if isinstance(move, Draw | Pass):
            lacks = 0
            for _, value in table.ends:
                lacks |= 1 << value
            slots[seat] = [Slot(m.lacks | lacks, m.shuns) for m in slots[seat]]
            if isinstance(move, Draw):
                boneyard -= 1
                counts[seat] += 1
                if seat != me:
                    slots[seat].append(FREE_SLOT)
            continue
        plays = move.plays if isinstance(move, Doubles) else (move,)
        if seat != me and read_plays:
            opening_forced = not table.ends and rules.required_opening(view.round_number)
            if not opening_forced:
                if rules.penalty_scoring:
                    shuns = _preferred_unstuck(rules, table, unseen, plays[0].tile)
                else:
                    laid = sum(play.tile.pips for play in plays)
                    shuns = _preferred(rules, table, unseen, entry.points, laid)
                if shuns:
                    slots[seat] = [Slot(m.lacks, m.shuns | shuns) for m in slots[seat]]
        for index, play in enumerate(plays):
            if play.end is None:
                west = play.tile.high if play.west is None else play.west
                table.open_with(play.tile, west)
            else:
                table.attach(play.tile, play.end, index == 0)
            if table.hub is None and rules.hub_kind is not None:
                rules.claim_hub(table, play.end)
            if seat != me:
                _close_slot(slots[seat], play.tile)
        counts[seat] -= len(plays)
        if counts[seat] == 0 and rules.refill_empty_hand and boneyard > 0:
            boneyard -= 1
            counts[seat] += 1
            if seat != me:
                slots[seat].append(FREE_SLOT)
    # The log and the view agree unless the view is not the whole round's; then
    # fall back to what the sizes alone say.
    for seat in range(seats):
        if seat != me and len(slots[seat]) != view.hand_sizes[seat]:
            slots[seat] = [FREE_SLOT] * view.hand_sizes[seat]
    return Knowledge(
        seat=me,
        unseen=unseen,
        slots=tuple(tuple(s) for s in slots),
        boneyard_size=view.boneyard_size,
    )


def _preferred(
    rules: Ruleset, table: Table, tiles: tuple[Tile, ...], points: int, pips: int
) -> int:
    """The tiles (as `TILE_BIT`s) a greedy player would have laid rather than a move
    that scored `points` with `pips` pips: those scoring more, or as much with more pips."""
    found = 0
    ends = table.ends
    for tile in tiles:
        if ends:
            options: list[Play] = [PLAYS_BY_END[end][tile] for end, v in ends if tile.has(v)]
        else:
            options = [OPENINGS[tile, west] for west in {tile.high, tile.low}]
        for play in options:
            if (play_outcome(rules, table, play)[0], tile.pips) > (points, pips):
                found |= TILE_BIT[tile]
                break
    return found


def _preferred_unstuck(rules: Ruleset, table: Table, tiles: tuple[Tile, ...], laid: Tile) -> int:
    """twolane: the tiles (as `TILE_BIT`s) a greedy player would have laid rather than `laid`.

    Nothing scores there, so the greedy player sheds the heaviest tile that does
    not leave it stuck: a heavier tile is ruled out when some way of laying it
    leaves an end that `laid`, still in hand then, would have fitted.
    """
    found = 0
    ends = table.ends
    for tile in tiles:
        if tile.pips <= laid.pips:
            continue
        if ends:
            options: list[Play] = [PLAYS_BY_END[end][tile] for end, v in ends if tile.has(v)]
        else:
            options = [OPENINGS[tile, west] for west in {tile.high, tile.low}]
        for play in options:
            if any(laid.has(value) for value in play_outcome(rules, table, play)[1]):
                found |= TILE_BIT[tile]
                break
    return found


def _close_slot(slots: list[Slot], tile: Tile) -> None:
    """Remove the slot `tile` was held in: the oldest one the rules allow it in.

    Judged by the rules alone, not by belief: the oldest such slot is the most
    constrained, so what stays is the weakest in both respects and never rules
    out what really happened.
    """
    for index, slot in enumerate(slots):
        if slot.allows(tile, believe=False):
            del slots[index]
            return
    if slots:  # an inconsistent log (no real game makes one) loses the newest slot
        del slots[-1]


@dataclass(frozen=True, slots=True)
class World:
    """One guess at the hidden tiles: every other seat's hand and the boneyard, in order."""

    hands: tuple[tuple[Tile, ...], ...]  # the deciding seat's entry is empty
    boneyard: tuple[Tile, ...]


def sample_world(knowledge: Knowledge, rng: random.Random, tries: int = 12) -> World:
    """Deal the unseen tiles at random, consistently with what is known.

    The most constrained slots are filled first, each with a tile picked at random
    among those still free that it allows; a dead end starts again, and after
    `tries` of them a matching search finds an assignment if one exists. If what
    was read from play cannot be squared with the tiles left, only the rules'
    certainties are kept.
    """
    unseen = list(knowledge.unseen)
    chosen: dict[tuple[int, int], Tile] | None = None
    for believe in (True, False):
        constrained = [
            (seat, index, [t for t in unseen if slot.allows(t, believe)])
            for seat, seat_slots in enumerate(knowledge.slots)
            for index, slot in enumerate(seat_slots)
            if slot.lacks or (believe and slot.shuns)
        ]
        if not constrained:
            chosen = {}
            break
        for _ in range(tries):
            chosen = _fill_greedily(constrained, rng)
            if chosen is not None:
                break
        else:
            chosen = _fill_by_matching(constrained, rng)
        if chosen is not None:
            break
    chosen = chosen or {}  # only for a log no real game can produce
    taken = set(chosen.values())
    rest = [t for t in unseen if t not in taken]
    rng.shuffle(rest)
    hands: list[tuple[Tile, ...]] = []
    for seat, seat_slots in enumerate(knowledge.slots):
        hand = []
        for index in range(len(seat_slots)):
            tile = chosen.get((seat, index))
            hand.append(rest.pop() if tile is None else tile)
        hands.append(tuple(hand))
    return World(tuple(hands), tuple(rest))


Constrained = list[tuple[int, int, list[Tile]]]  # (seat, slot index, the tiles it allows)


def _fill_greedily(
    constrained: Constrained, rng: random.Random
) -> dict[tuple[int, int], Tile] | None:
    order = sorted(constrained, key=lambda c: (len(c[2]), rng.random()))
    chosen: dict[tuple[int, int], Tile] = {}
    taken: set[Tile] = set()
    for seat, index, options in order:
        fits = [t for t in options if t not in taken]
        if not fits:
            return None
        tile = fits[rng.randrange(len(fits))]
        chosen[seat, index] = tile
        taken.add(tile)
    return chosen


def _fill_by_matching(
    constrained: Constrained, rng: random.Random
) -> dict[tuple[int, int], Tile] | None:
    """Augmenting paths (Kuhn) in a random order; None if the constraints cannot all hold."""
    owner: dict[Tile, int] = {}

    def place(which: int, visited: set[Tile]) -> bool:
        fits = list(constrained[which][2])
        rng.shuffle(fits)
        for tile in fits:
            if tile in visited:
                continue
            visited.add(tile)
            if tile not in owner or place(owner[tile], visited):
                owner[tile] = which
                return True
        return False

    for which in range(len(constrained)):
        if not place(which, set()):
            return None
    return {(constrained[which][0], constrained[which][1]): tile for tile, which in owner.items()}


def passed_since_last_play(view: SeatView) -> set[int]:
    """The seats that passed since the last tile was laid, read off the log."""
    passed: set[int] = set()
    for entry in reversed(view.moves):
        if entry.text == "pass":
            passed.add(entry.seat)
        elif entry.text != "draw":
            break
    return passed


def world_game(view: SeatView, world: World) -> Game:
    """A game that plays on from the view's position with the guessed hidden tiles.

    Only the current round is built (finished rounds change nothing that is still
    to come) and the game has no seed, so it stops when the round ends: the match
    totals and target still say whether that ends the match.
    """
    if view.seat is None or view.turn is None:
        raise ValueError("the view must be a seat's, in a round still being played")
    hands = [
        list(view.hand) if seat == view.seat else list(h) for seat, h in enumerate(world.hands)
    ]
    rnd = Round(
        number=view.round_number,
        starter=view.starter,
        dealt=[],  # unknown and never read while playing on
        dealt_boneyard=[],
        hands=hands,
        boneyard=list(world.boneyard),
        table=view.table.copy(),
        turn=view.turn,
        moves=[],
        points=list(view.round_points),
        penalties=list(view.penalties),
        passed=passed_since_last_play(view),
        drew=view.drew,
        out=list(view.out),
    )
    return Game(
        variant=view.variant,
        players=list(view.players),
        target=view.target,
        seed=None,
        version=view.version,
        totals=list(view.totals),
        rounds=[rnd],
    )


def check_world(knowledge: Knowledge, world: World, believe: bool = False) -> list[str]:
    """Every way `world` breaks what is known (empty when it is a possible deal).

    By default only the rules' certainties are checked; `believe` adds what was
    read from play.
    """
    problems = []
    dealt = [t for hand in world.hands for t in hand] + list(world.boneyard)
    if sorted(dealt) != sorted(knowledge.unseen):
        problems.append("the unseen tiles are not each dealt exactly once")
    if len(world.boneyard) != knowledge.boneyard_size:
        problems.append("the boneyard has the wrong size")
    for seat, (hand, seat_slots) in enumerate(zip(world.hands, knowledge.slots, strict=True)):
        if len(hand) != len(seat_slots):
            problems.append(f"seat {seat} holds {len(hand)} tiles, not {len(seat_slots)}")
        elif not _can_hold(list(hand), seat_slots, believe):
            problems.append(f"seat {seat} holds a tile it showed it lacked")
    return problems


def _can_hold(hand: list[Tile], slots: tuple[Slot, ...], believe: bool) -> bool:
    """Whether the tiles can be matched to the slots (oldest, most constrained, first)."""
    free = list(hand)
    for slot in slots:
        # Each slot's constraints include every later one's, so a tile that fits
        # this slot fits every later one: whichever fitting tile it takes, the
        # rest are no worse off.
        fits = [t for t in free if slot.allows(t, believe)]
        if not fits:
            return False
        free.remove(fits[0])
    return True


__all__ = [
    "Knowledge",
    "Slot",
    "World",
    "check_world",
    "knowledge_from_view",
    "passed_since_last_play",
    "sample_world",
    "values_of",
    "world_game",
]
