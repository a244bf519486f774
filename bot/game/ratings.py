"""Skill ratings: each person's rating per variant in a chat, moved by every finished
match of two or more people (docs/rules.md, "Ratings").

The model is openskill's Plackett-Luce: it rates a finishing order of any number of
players, shared places included, which is what a domino table gives (two to four
seats, ties in points). The rating is kept as openskill's (mu, sigma); people see
`shown()`, the cautious estimate mu - 3 sigma scaled so that a newcomer has 1000 and
a strong regular about 2000.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass

from openskill.models import PlackettLuce, PlackettLuceRating

from bot.game import forfeits
from bot.storage.models import Level, Match, RatingLine
from bot.storage.scores import Scores
from bot.storage.store_errors import StoreError
from engine import Game, view_for
from engine.variants import VARIANTS

log = logging.getLogger(__name__)

MODEL = PlackettLuce()  # mu 25, sigma 25/3, beta 25/6: openskill's defaults
SHOWN_BASE = 1000  # what a newcomer's rating (ordinal 0) shows
SHOWN_SCALE = 40  # shown points per unit of ordinal: ordinal 25 shows 2000
# A computer seat plays as a known opponent of fixed strength: it is never updated,
# and its small sigma says how sure that strength is.
COMPUTER_RATINGS: dict[Level, tuple[float, float]] = {"easy": (20.0, 2.0), "strong": (30.0, 2.0)}
MIN_PEOPLE = 2


def shown(mu: float, sigma: float) -> int:
    """The friendly number: 1000 + 40 * (mu - 3 sigma), rounded."""
    return round(SHOWN_BASE + SHOWN_SCALE * (mu - 3 * sigma))


def newcomer() -> tuple[float, float]:
    rating = MODEL.rating()
    return rating.mu, rating.sigma


@dataclass(frozen=True)
class Rated:
    """A match's outcome for the ratings: the people's new lines and their shown changes."""

    lines: dict[int, RatingLine]
    changes: dict[int, int]  # by user id


def finishing_ranks(match: Match, game: Game) -> list[int] | None:
    """Each seat's place for the rating (1 best; equal for a shared place), or None if
    the match is not rated (unfinished, or fewer than two people).

    A seat its person gave up with /leave counts as the last place (a forfeit, shared by
    all who left), whatever the computer made of it.
    """
    if match.status != "over" or not game.over or match.practice:
        return None  # practice is never rated (docs/rules.md, "Practice")
    if sum(seat.user_id is not None for seat in match.seats) < MIN_PEOPLE:
        return None
    return list(forfeits.shown_standings(view_for(game), forfeits.left_seats(match)).places)


def rate(match: Match, ranks: list[int], before: dict[int, RatingLine | None], now: float) -> Rated:
    """The people's new lines after a match with these places (computers stay fixed)."""
    teams: list[list[PlackettLuceRating]] = []
    for seat in match.seats:
        if seat.user_id is None:
            mu, sigma = COMPUTER_RATINGS[seat.level]
        else:
            old = before.get(seat.user_id)
            mu, sigma = (old.mu, old.sigma) if old is not None else newcomer()
        teams.append([MODEL.rating(mu=mu, sigma=sigma)])
    after = MODEL.rate(teams, ranks=[float(rank) for rank in ranks])
    lines: dict[int, RatingLine] = {}
    changes: dict[int, int] = {}
    best = min(ranks)
    for index, seat in enumerate(match.seats):
        if seat.user_id is None:
            continue
        old = before.get(seat.user_id)
        new = after[index][0]
        won = ranks[index] == best and not seat.left
        lines[seat.user_id] = RatingLine(
            name=seat.name,
            mu=new.mu,
            sigma=new.sigma,
            games=(old.games if old else 0) + 1,
            wins=(old.wins if old else 0) + int(won),
            last=now,
        )
        was = shown(old.mu, old.sigma) if old is not None else shown(*newcomer())
        changes[seat.user_id] = shown(new.mu, new.sigma) - was
    return Rated(lines, changes)


async def rate_once(scores: Scores, match: Match, game: Game) -> dict[int, int] | None:
    """Rate a finished match exactly once; the people's shown changes by user id (the
    same ones on every call, by whoever calls first), or None if it is not rated."""
    ranks = finishing_ranks(match, game)
    if ranks is None:
        return None
    people = [seat.user_id for seat in match.seats if seat.user_id is not None]
    now = time.time()

    def compute(
        before: dict[int, RatingLine | None],
    ) -> tuple[dict[int, RatingLine], dict[int, int]]:
        rated = rate(match, ranks, before, now)
        return rated.lines, rated.changes

    try:
        return await scores.add_ratings(match.chat_id, match.variant, match.id, people, compute)
    except StoreError:
        log.warning("could not rate game %s of chat %s", match.id, match.chat_id)
        return None


def seat_changes(match: Match, changes: dict[int, int] | None) -> dict[int, int]:
    """The changes by seat index, for the final table."""
    if not changes:
        return {}
    return {
        index: changes[seat.user_id]
        for index, seat in enumerate(match.seats)
        if seat.user_id is not None and seat.user_id in changes
    }


async def chat_ratings(scores: Scores, chat_id: int) -> dict[str, dict[int, RatingLine]]:
    """The chat's ratings of every variant (one read each)."""
    return {variant: await scores.ratings(chat_id, variant) for variant in VARIANTS}
