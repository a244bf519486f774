"""Who won: places, winners, the fives record and the muggins losers."""

from __future__ import annotations

from dataclasses import dataclass

from engine.game import Game, Round


@dataclass(frozen=True, slots=True)
class Standings:
    finished: bool
    winners: tuple[int, ...]  # empty until the game is over; several for a shared win
    places: tuple[int, ...]  # 1 best; equal standing shares a place (1, 1, 3)
    record: int | None  # fives: the single winner's points minus everyone else's
    losers: tuple[int, ...]  # muggins: the fewest points once someone reached 51


def ranking_key(game: Game, seat: int) -> tuple[int, ...]:
    """Smaller is better: points, or for twolane penalties, going out, tiles, pips."""
    return _key(game, game.totals, game.round, seat)


def _key(game: Game, totals: list[int], rnd: Round, seat: int) -> tuple[int, ...]:
    if not game.rules.penalty_scoring:
        return (-totals[seat],)
    went_out = rnd.out.index(seat) if seat in rnd.out else len(game.players)
    hand = rnd.hands[seat]
    return (totals[seat], went_out, len(hand), sum(t.pips for t in hand))


def places(game: Game) -> tuple[int, ...]:
    return _places(game, game.totals, game.round)


def _places(game: Game, totals: list[int], rnd: Round) -> tuple[int, ...]:
    keys = [_key(game, totals, rnd, seat) for seat in range(len(game.players))]
    return tuple(1 + sum(1 for other in keys if other < key) for key in keys)


def standings_after(game: Game, rnd: Round, totals: list[int]) -> Standings:
    """The standings as they were when `rnd`, a round before the current one, ended
    with `totals`: a later round was dealt, so the game was not over then."""
    return Standings(False, (), _places(game, totals, rnd), None, ())


def standings(game: Game) -> Standings:
    current = places(game)
    if not game.over:
        return Standings(False, (), current, None, ())
    winners = tuple(seat for seat, place in enumerate(current) if place == 1)
    record = None
    if game.rules.keeps_record and len(winners) == 1:
        best = winners[0]
        record = game.totals[best] - sum(t for s, t in enumerate(game.totals) if s != best)
    losers: tuple[int, ...] = ()
    if game.rules.names_losers:
        fewest = min(game.totals)
        losers = tuple(seat for seat, total in enumerate(game.totals) if total == fewest)
    return Standings(True, winners, current, record, losers)
