"""The delivery lag is timed per match: a chat's next match starts its revisions again."""

from __future__ import annotations

from bot import metrics
from bot.metrics import DeliveryLag
from tests.support.clocks import ManualClock


class Clock(ManualClock):
    def __init__(self) -> None:
        super().__init__(100.0)


def observed(target: str) -> float:
    return metrics.value("domino_delivery_lag_seconds_count", target=target)


def test_a_chats_next_match_is_timed_after_a_long_one() -> None:
    clock = Clock()
    lag = DeliveryLag(clock)
    for rev in range(1, 60):  # a long first match in the chat
        lag.changed("first", rev)
    before = observed("board")
    lag.changed("second", 1)  # the rematch: its revisions count from the start
    clock.now += 0.5
    lag.shown("board", "second", 1)
    assert observed("board") == before + 1


def test_a_revision_not_changed_here_is_not_timed() -> None:
    lag = DeliveryLag(Clock())
    lag.changed("game", 3)
    before = observed("hand")
    lag.shown("hand", "game", 4)
    lag.shown("hand", "other", 3)
    assert observed("hand") == before
