"""The turn clock: how long the seat to act has, and when its player is reminded.

A game with a clock gives each move `Match.turn_seconds`; its player is reminded
once when a third of that is left. A game without one (the lobby's NO_CLOCK) has
no time per move: its player is reminded once after `no_clock_reminder_hours`,
and the game ends after `no_clock_end_hours` without a move. Both keep one time in
the match, `Match.deadline` (the move made for him, or the end), and the reminder
is counted back from it, so it needs nothing stored of its own.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.game.options import has_clock
from bot.settings import Settings
from bot.storage.models import Match
from engine import Game

HOUR = 3600.0
REMINDER_SHARE = 1 / 3  # a clocked player is reminded when this share of his time is left


@dataclass(frozen=True)
class Moment:
    """When a change is made: `at`, the clock's time, and `lag`, the seconds every turn
    deadline set now is pushed back while delivery lags (under load every game slows down
    evenly, and nobody's clock runs while his hand is still on its way)."""

    at: float
    lag: float = 0.0


def human_delay(turn_seconds: int, settings: Settings) -> float:
    """Seconds from the start of a person's turn to its deadline (the end, without a clock)."""
    return turn_seconds if has_clock(turn_seconds) else settings.no_clock_end_hours * HOUR


def turn_deadline(match: Match, game: Game, now: Moment, settings: Settings) -> float | None:
    """When the seat to act in `game` is played for (None: nobody is to act): a person's
    turn after his time per move, a computer's after its short delay."""
    turn = game.turn
    if turn is None:
        return None
    if match.seats[turn].human:
        delay = human_delay(match.turn_seconds, settings)
    else:
        delay = settings.computer_delay_seconds
    return now.at + delay + now.lag


def reminder_at(match: Match, settings: Settings) -> float | None:
    """When the person to act is reminded (None: no turn is running against a deadline).

    Only meaningful while a person is to act; the caller knows whether one is.
    """
    if match.status != "playing" or match.deadline is None:
        return None
    if has_clock(match.turn_seconds):
        return match.deadline - match.turn_seconds * REMINDER_SHARE
    return match.deadline - (settings.no_clock_end_hours - settings.no_clock_reminder_hours) * HOUR
