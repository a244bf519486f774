"""What one seat (or an onlooker) may see of a game: no other hand, no boneyard order."""

from __future__ import annotations

from dataclasses import dataclass

from engine.game import Game, MoveEntry, Round
from engine.moves import Move
from engine.results import Standings, standings
from engine.table import Table
from engine.tiles import Tile


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
    players: tuple[str, ...]
    seat: int | None
    version: int
    target: int | None
    round_number: int
    starter: int
    turn: int | None  # None once the game is over
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

    `round_number` shows an earlier, finished round as it ended (totals stay the
    match's current ones).
    """
    if seat is not None and not 0 <= seat < len(game.players):
        raise ValueError(f"no seat {seat} in this game")
    if round_number is not None and not 1 <= round_number <= len(game.rounds):
        raise ValueError(f"no round {round_number} in this game")
    rnd = game.rounds[-1 if round_number is None else round_number - 1]
    terms = game.rules.count_terms(rnd.table)
    turn = game.turn if rnd is game.rounds[-1] else None
    return SeatView(
        variant=game.variant,
        players=tuple(game.players),
        seat=seat,
        version=game.version,
        target=game.target,
        round_number=rnd.number,
        starter=rnd.starter,
        turn=turn,
        # Highest tile first, whatever order the tiles came in: easy to scan.
        hand=() if seat is None else tuple(sorted(rnd.hands[seat], reverse=True)),
        hand_sizes=tuple(len(hand) for hand in rnd.hands),
        boneyard_size=len(rnd.boneyard),
        table=rnd.table.copy(),
        totals=tuple(game.totals),
        round_points=tuple(rnd.points),
        penalties=tuple(rnd.penalties),
        moves=tuple(rnd.moves),
        drew=rnd.drew,
        out=tuple(rnd.out),
        count_terms=None if terms is None else tuple(terms),
        legal=game.legal_moves() if seat is not None and seat == turn else (),
        standings=standings(game),
        finished_rounds=tuple(summarize(r) for r in game.rounds[: rnd.number] if r.end is not None),
    )
