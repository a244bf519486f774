"""Forfeits: a seat given up with /leave is last, whatever the computer made of it.

docs/rules.md ("Leaving", "Ratings"): a person who leaves a running game forfeits it.
The engine knows nothing of people, so it ranks the computer's play in that seat like
any other; the standings the bot shows, rates and counts are these instead.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection

from bot.storage.models import Match
from engine.results import Standings
from engine.view import SeatView


def left_seats(match: Match) -> frozenset[int]:
    """The seats whose person gave them up with /leave."""
    return frozenset(index for index, seat in enumerate(match.seats) if seat.left)


def shown_standings(view: SeatView, left: Collection[int]) -> Standings:
    """The standings as the bot shows them: every seat in `left` shares the last place
    and wins nothing; places, the winners, the fives record and the muggins losers are
    worked out among the other seats.

    The seats keep the engine's order among themselves (a seat's rank depends on its
    own points alone). The record stays the winner's points minus every other seat's,
    the left ones' included: those points were scored at the table (docs/rules.md).
    Applying it twice changes nothing.
    """
    standings = view.standings
    seats = range(len(view.players))
    gone = {seat for seat in seats if seat in left}
    staying = [seat for seat in seats if seat not in gone]
    if not gone:
        return standings
    if not staying:
        # Everyone left (the bot ends such a game as "everyone_left" before it can
        # finish): they all share the last place, and nobody wins.
        return Standings(standings.finished, (), tuple(1 for _ in seats), None, ())
    last = len(staying) + 1
    places = tuple(
        last
        if seat in gone
        else 1 + sum(1 for other in staying if standings.places[other] < standings.places[seat])
        for seat in seats
    )
    if not standings.finished:
        return dataclasses.replace(standings, places=places)
    winners = tuple(seat for seat in staying if places[seat] == 1)
    rules = view.rules
    record = None
    if rules.keeps_record and len(winners) == 1:
        best = winners[0]
        record = view.totals[best] - sum(view.totals[seat] for seat in seats if seat != best)
    losers: tuple[int, ...] = ()
    if rules.names_losers:
        behind = [seat for seat in staying if seat not in winners]
        if behind:
            fewest = min(view.totals[seat] for seat in behind)
            losers = tuple(seat for seat in behind if view.totals[seat] == fewest)
    return Standings(True, winners, places, record, losers)


def shown_view(view: SeatView, left: Collection[int]) -> SeatView:
    """`view` with the standings as the bot shows them (`shown_standings`)."""
    standings = shown_standings(view, left)
    return view if standings == view.standings else dataclasses.replace(view, standings=standings)


def match_view(view: SeatView, match: Match) -> SeatView:
    """`view` of `match`'s game, with its forfeits applied."""
    return shown_view(view, left_seats(match))
