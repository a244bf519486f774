"""The turn clock: how long the seat to act has, and when its player is reminded.

A game with a clock gives each move `Match.turn_seconds`; its player is reminded
once when a third of that is left. A game without one (the lobby's NO_CLOCK) has
no time per move: its player is reminded once after `no_clock_reminder_hours`,
and the game ends after `no_clock_end_hours` without a move. Both keep one time in
the match, `Match.deadline` (the move made for him, or the end), and the reminder
is counted back from it, so it needs nothing stored of its own.
"""

from __future__ import annotations

from bot.game.options import has_clock
from bot.settings import Settings
from bot.storage.models import Match

HOUR = 3600.0
REMINDER_SHARE = 1 / 3  # a clocked player is reminded when this share of his time is left


def human_delay(turn_seconds: int, settings: Settings) -> float:
    """Seconds from the start of a person's turn to its deadline (the end, without a clock)."""
    return turn_seconds if has_clock(turn_seconds) else settings.no_clock_end_hours * HOUR


def reminder_at(match: Match, settings: Settings) -> float | None:
    """When the person to act is reminded (None: no turn is running against a deadline).

    Only meaningful while a person is to act; the caller knows whether one is.
    """
    if match.status != "playing" or match.deadline is None:
        return None
    if has_clock(match.turn_seconds):
        return match.deadline - match.turn_seconds * REMINDER_SHARE
    return match.deadline - (settings.no_clock_end_hours - settings.no_clock_reminder_hours) * HOUR
