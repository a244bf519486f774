"""What one seat (or an onlooker) may see of a game: no other hand, no boneyard order."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.game import Game, MoveEntry, Round
from engine.moves import Move
from engine.results import Standings, standings, standings_after
from engine.table import Table
from engine.tiles import Tile
from engine.variants import Ruleset


@dataclass(frozen=True, slots=True)
class RoundSummary:
    """A finished round as everyone saw it end; the hands left are shown then."""

    number: int
    starter: int
    end: str
    out: int | None
    points: tuple[int, ...]
    penalties: tuple[int, ...]
    hands_left: tuple[tuple[Tile, ...], ...]


@dataclass(frozen=True, slots=True)
class SeatView:
    """A snapshot of a game as `seat` sees it (`seat=None`: the table, as onlookers see it)."""

    variant: str
    # The game's rules: what the pictures, texts and players ask instead of its name.
    rules: Ruleset = field(repr=False, compare=False)
    players: tuple[str, ...]
    seat: int | None
    version: int
    target: int | None
    round_number: int
    starter: int
    turn: int | None  # None once the game is over (and in an earlier round's view)
    hand: tuple[Tile, ...]  # highest first; empty for onlookers
    hand_sizes: tuple[int, ...]
    boneyard_size: int
    table: Table
    totals: tuple[int, ...]
    round_points: tuple[int, ...]
    penalties: tuple[int, ...]
    moves: tuple[MoveEntry, ...]  # this round's actions, as the record writes them
    drew: bool  # the seat to act has drawn this turn (twolane: one draw only)
    out: tuple[int, ...]  # seats that emptied their hands this round, in order
    count_terms: tuple[int, ...] | None  # the ends this game adds up now, if any
    legal: tuple[Move, ...]  # the seat's own legal moves when it is to act
    standings: Standings
    finished_rounds: tuple[RoundSummary, ...]

    @property
    def over(self) -> bool:
        return self.standings.finished

    @property
    def my_turn(self) -> bool:
        return self.seat is not None and self.seat == self.turn

    @property
    def last_round(self) -> RoundSummary | None:
        return self.finished_rounds[-1] if self.finished_rounds else None


def summarize(rnd: Round) -> RoundSummary:
    assert rnd.end is not None
    return RoundSummary(
        number=rnd.number,
        starter=rnd.starter,
        end=rnd.end,
        out=rnd.out[0] if rnd.out else None,
        points=tuple(rnd.points),
        penalties=tuple(rnd.penalties),
        hands_left=tuple(tuple(hand) for hand in rnd.hands),
    )


def view_for(game: Game, seat: int | None = None, round_number: int | None = None) -> SeatView:
    """The game as `seat` sees it; `None` for the public view the group is shown.

    `round_number` shows an earlier, finished round as it ended: its table, hands
    and moves, and the totals, standings and version the game had at that moment.
    """
    if seat is not None and not 0 <= seat < len(game.players):
        raise ValueError(f"no seat {seat} in this game")
    if round_number is not None and not 1 <= round_number <= len(game.rounds):
        raise ValueError(f"no round {round_number} in this game")
    index = len(game.rounds) - 1 if round_number is None else round_number - 1
    rnd = game.rounds[index]
    later = game.rounds[index + 1 :]
    if later:
        totals = totals_before(game.totals, later)
        version = game.version - sum(len(r.moves) for r in later)
        result = standings_after(game, rnd, totals)
        turn = None
    else:
        totals, version, result, turn = list(game.totals), game.version, standings(game), game.turn
    terms = game.rules.count_terms(rnd.table)
    return SeatView(
        variant=game.variant,
        rules=game.rules,
        players=tuple(game.players),
        seat=seat,
        version=version,
        target=game.target,
        round_number=rnd.number,
        starter=rnd.starter,
        turn=turn,
        # Highest tile first, whatever order the tiles came in: easy to scan.
        hand=() if seat is None else tuple(sorted(rnd.hands[seat], reverse=True)),
        hand_sizes=tuple(len(hand) for hand in rnd.hands),
        boneyard_size=len(rnd.boneyard),
        table=rnd.table.copy(),
        totals=tuple(totals),
        round_points=tuple(rnd.points),
        penalties=tuple(rnd.penalties),
        moves=tuple(rnd.moves),
        drew=rnd.drew,
        out=tuple(rnd.out),
        count_terms=None if terms is None else tuple(terms),
        legal=game.legal_moves() if seat is not None and seat == turn else (),
        standings=result,
        finished_rounds=tuple(summarize(r) for r in game.rounds[: index + 1] if r.end is not None),
    )


def totals_before(totals: list[int], later: list[Round]) -> list[int]:
    """The totals before the `later` rounds: each seat's points and penalties there taken off.

    Taking off rather than adding up the rounds before: the two agree for a game
    played from its first round, and a game set up mid-match (its totals carried
    in, its earlier rounds not kept) still comes out right.
    """
    then = list(totals)
    for rnd in later:
        for seat, (points, penalties) in enumerate(zip(rnd.points, rnd.penalties, strict=True)):
            then[seat] -= points + penalties
    return then
