"""The lobby's options and actions: what a lobby button may ask for, and the values offered."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from engine.variants import ruleset

MAX_SEATS = 4
MIN_SEATS = 2
# The lobby's time per move: after the longest comes "no clock" (for friends who play
# across a day: no deadline; a reminder, and an end after a long silence, see Settings).
NO_CLOCK = 0
TURN_CHOICES = (30, 60, 90, 180, 300, NO_CLOCK)


class LobbyAction(StrEnum):
    """What a lobby button asks for (its code in callback data: bot.telegram.callbacks)."""

    ADD_EASY = "add_easy"
    ADD_STRONG = "add_strong"
    REMOVE_COMPUTER = "remove_computer"  # the computer player added last
    LEAVE = "leave"
    START = "start"
    CANCEL = "cancel"
    VARIANT = "variant"  # with the game to switch to
    TARGET = "target"  # with the target to set
    TIME = "time"  # with the seconds per move to set (NO_CLOCK: none)


# Options whose button carries the value it sets: a press on a lobby that had not
# caught up yet sets what the user saw offered, and pressing twice changes nothing.
LOBBY_OPTIONS = {LobbyAction.VARIANT, LobbyAction.TARGET, LobbyAction.TIME}


def target_choices(variant: str, players: int) -> tuple[int, ...]:
    """The targets the lobby offers (the rules' default first); () if the game's is fixed."""
    return ruleset(variant).target_choices(min(max(players, MIN_SEATS), MAX_SEATS))


def has_clock(turn_seconds: int) -> bool:
    """Whether a game with this time per move has a deadline for each move."""
    return turn_seconds != NO_CLOCK


def next_option(choices: tuple[Any, ...], current: Any) -> Any:
    """The option after `current` (the first one if `current` is not offered)."""
    if current not in choices:
        return choices[0]
    return choices[(choices.index(current) + 1) % len(choices)]
