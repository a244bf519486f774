"""bot/delivery/turns.py: the turn target plays for the seat to act from the latest state
this process noted, and never loses one noted while it worked on an older one."""

from __future__ import annotations

from typing import Any, cast

from bot.delivery.turns import TurnTarget
from bot.game.match_records import Current
from bot.game.service import GameService
from engine import Game
from tests.bot.delivery.matches import a_match
from tests.support.clocks import ManualClock

CHAT = (-100, None)


def due(rev: int, deadline: float) -> Current:
    match = a_match(Game.new("fives", ["A", "B"], seed=1), status="playing", rev=rev)
    match.deadline = deadline
    return Current(match, None)


class ChangedMeanwhile:
    """A service whose due turn was changed by someone else while it was being played:
    the change is noted on the target (as the process's own change or the sweep's read
    of another's would be), and the play finds nothing to do."""

    def __init__(self, turns: TurnTarget, newer: Current) -> None:
        self.turns = turns
        self.newer = newer
        self.played: list[int] = []

    async def run_due(self, chat_id: int, thread_id: int | None, found: Current) -> Any:
        self.played.append(found.match.rev)
        if found is not self.newer:
            self.turns.note(CHAT, self.newer)
        return None


async def test_a_state_noted_while_an_older_one_was_played_is_played_next() -> None:
    clock = ManualClock(1000.0)
    turns = TurnTarget(cast(GameService, None), clock)
    newer = due(rev=2, deadline=999.0)
    service = ChangedMeanwhile(turns, newer)
    turns.service = cast(GameService, service)
    turns.note(CHAT, due(rev=1, deadline=999.0))

    assert await turns.run(CHAT) == 1000.0  # look again at once: a newer state is noted
    assert await turns.run(CHAT) is None
    assert service.played == [1, 2]


async def test_a_play_someone_else_made_is_forgotten() -> None:
    clock = ManualClock(1000.0)
    current = due(rev=1, deadline=999.0)
    turns = TurnTarget(cast(GameService, None), clock)
    service = ChangedMeanwhile(turns, current)
    turns.service = cast(GameService, service)
    turns.note(CHAT, current)

    assert await turns.run(CHAT) is None
    assert await turns.run(CHAT) is None  # nothing noted: nothing to play
    assert service.played == [1]
