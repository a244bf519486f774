"""Which seats of a match the computer took over from their people, and why."""

from __future__ import annotations

from bot.game.play_rules import MISSES_BEFORE_COMPUTER
from bot.render import Takeover
from bot.storage.models import Match


def taken_seats(match: Match) -> dict[int, Takeover]:
    """The seats of people the computer plays now, by seat: left with /leave, missed
    `MISSES_BEFORE_COMPUTER` turns in a row, or else blocked the bot (the three ways a
    seat changes hands, bot.game.play_rules; none is ever given back)."""
    taken: dict[int, Takeover] = {}
    for index, seat in enumerate(match.seats):
        if seat.user_id is None or not seat.computer:
            continue
        if seat.left:
            taken[index] = "left"
        elif seat.missed >= MISSES_BEFORE_COMPUTER:
            taken[index] = "missed_turns"
        else:
            taken[index] = "blocked_bot"
    return taken
