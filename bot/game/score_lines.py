"""What a finished match adds to its chat's table: each person's line, as data.

The game service adds the lines to the stats once per match and has the match rated
(bot.game.ratings); this module only says what they are.
"""

from __future__ import annotations

from bot.game import forfeits
from bot.storage.models import Match, StatLine
from engine import Game, view_for


def stat_lines(match: Match, game: Game | None) -> dict[int, StatLine] | None:
    """Each person's line for the stats, by user id; None if the match counts toward no
    table (not finished, or a practice game: docs/rules.md, "Practice").

    A player who gave his seat up with /leave forfeited: no win and no points, whatever
    the computer made of it, and the win goes to the best of the others (docs/rules.md);
    a game that counts penalties (twolane) adds its seat's penalties, which a forfeit
    does not take away.
    """
    if match.status != "over" or game is None or match.practice or not played(game):
        return None
    standings = forfeits.match_view(view_for(game), match).standings
    scored = not game.rules.penalty_scoring
    lines: dict[int, StatLine] = {}
    for seat_index, seat in enumerate(match.seats):
        if seat.user_id is None:
            continue
        won = seat_index in standings.winners
        # Only fives keeps records, and only a margin above zero counts as one.
        record = standings.record if won and (standings.record or 0) > 0 else None
        lines[seat.user_id] = StatLine(
            name=seat.name,
            games=1,
            wins=int(won),
            points=game.totals[seat_index] if scored and not seat.left else 0,
            best_record=record,
            penalties=0 if scored else game.totals[seat_index],
            penalty_games=0 if scored else 1,
        )
    return lines


def played(game: Game) -> bool:
    """Whether anyone made a move: a match nobody played has no winner, no places and
    counts toward no table (docs/rules.md, "No clock")."""
    return any(rnd.moves for rnd in game.rounds)
