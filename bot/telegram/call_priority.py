"""The classes of calls the budget tells apart, and each class's share of a group's minute.

A group's minute is one for the whole chat: every forum topic's board and every
answer in it count in the same window. Answers to people come first there: boards,
lobbies and notices never take the last few calls of the minute (`GROUP_HEADROOM`),
so an answer finds room at once however busy the chat's games are, and a board
waits while the minute is that full. A lobby someone's /newgame asked for is such an
answer; a stopped game's board is a board, sent ahead of the others (`Ticket.ahead`:
first in line, and it may take the last call but one).
(The delivery layer paces the boards, lobbies and final tables from the same window,
`BudgetStore.group_calls`, so that they wait before they are drawn, and leave room for
the answers still to come: `bot.delivery.group.plan.board_room_at`.)
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from enum import IntEnum


class Priority(IntEnum):
    ANSWER = 0  # a direct reply to someone's press or command
    HAND = 1  # a player's hand: of the one who must act, or as his move left it
    BOARD = 2  # a group's board, lobby and final table
    OTHER = 3  # what can wait: notices


@dataclass(frozen=True)
class Ticket:
    """What a call tells the budget (as python-telegram-bot's `rate_limit_args`).

    `since`: when the work this call is for began waiting (a call made again after
    its predecessor was given up keeps its place in line). `abandon`: set when the
    call is no longer worth making; it then leaves the line (`Superseded`). `ahead`:
    the call goes before the others of its class (a stopped game's board, which says
    the game is over, before the routine boards), and may take one call more of the
    group's minute than they (`AHEAD_HEADROOM`).
    """

    priority: Priority
    since: float | None = None
    abandon: asyncio.Event | None = None
    ahead: bool = False


# Of a group's calls a minute, how many each class leaves untaken: an answer to a person
# may take the last one; boards and lobbies leave the last two to answers (the boards of a
# busy forum would otherwise fill every minute, and answers wait for a call to leave it);
# notices ("my answer is above") leave two more, to the boards.
GROUP_HEADROOM = {Priority.ANSWER: 0, Priority.HAND: 2, Priority.BOARD: 2, Priority.OTHER: 4}
# A call sent ahead of its class (a stopped game's board: the game is over, the board must
# not go on naming whose turn it is) leaves only the last call to answers: it goes while
# the routine boards wait for the minute, and an answer still finds room.
AHEAD_HEADROOM = 1
GROUP_WINDOW = 61.0  # a second more than Telegram's minute


def call_name(prefix: str, number: int, priority: Priority) -> str:
    """A call's entry in the windows: unique, and naming its class (see `call_class`)."""
    return f"{prefix}:{number}:{priority.value}"


def call_class(name: str) -> Priority | None:
    """The class of the call of this entry (None: not known, as for an earlier release's)."""
    try:
        return Priority(int(name.rpartition(":")[2]))
    except ValueError:
        return None


def group_limit(priority: Priority, per_minute: int, ahead: bool = False) -> int:
    """How many calls a group may have had in its window for a call of this class (sent
    `ahead` of its class or not: see `Ticket`) to go."""
    headroom = GROUP_HEADROOM[priority]
    if ahead:
        headroom = min(headroom, AHEAD_HEADROOM)
    return max(1, per_minute - headroom)
