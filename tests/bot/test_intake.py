"""The update loop as /healthz sees it (bot.intake), on a clock the tests move: a stall is
updates waiting while nothing finishes, a poller gone is getUpdates no longer asked; an
idle bot, a busy one and a long-running handler are none of these."""

from __future__ import annotations

import pytest
from redis.asyncio import Redis

from bot.intake import LONGEST_PAUSE, POLL_LONGEST, POLL_SLACK, STALL_SECONDS, Intake
from bot.metrics import Contact
from bot.web import Health
from tests.support.clocks import ManualClock


class Clock(ManualClock):
    def __init__(self) -> None:
        super().__init__(1000.0)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def intake(clock: Clock) -> Intake:
    return Intake(clock)


OK = (True, {"updates": "ok"})


def test_an_idle_bot_is_healthy_for_ever(intake: Intake, clock: Clock) -> None:
    assert intake.check() == OK
    clock.now += 10 * 24 * 3600
    assert intake.check() == OK


def test_updates_waiting_while_none_is_handled_are_a_stall(intake: Intake, clock: Clock) -> None:
    intake.queued()
    clock.now += 5
    intake.queued()
    clock.now += STALL_SECONDS - 5  # the oldest has waited exactly the allowance
    assert intake.check() == OK
    clock.now += 0.5
    assert intake.check() == (
        False,
        {
            "updates": "stalled",
            "updates_waiting": 2,
            "oldest_waiting_seconds": 20.5,
            "last_handled_seconds": None,
        },
    )
    intake.started()  # the loop takes them up again
    intake.finished()
    assert intake.check() == OK


def test_a_busy_loop_that_moves_is_no_stall(intake: Intake, clock: Clock) -> None:
    for _ in range(100):  # a burst: each waits long, but updates keep being handled
        intake.queued()
    for _ in range(60):
        clock.now += 1
        intake.started()
        intake.finished()
    assert intake.check() == OK


def test_a_long_running_handler_is_no_stall_until_others_wait_with_nothing_done(
    intake: Intake, clock: Clock
) -> None:
    intake.queued()
    intake.started()  # ... and runs for minutes
    clock.now += 300
    assert intake.check() == OK  # nothing waits
    intake.queued()
    intake.started()
    intake.finished()  # others are taken up beside it and finish
    intake.queued()
    clock.now += STALL_SECONDS + 1  # this one waits, and nothing finished meanwhile
    ok, body = intake.check()
    assert not ok and body["updates"] == "stalled" and body["updates_waiting"] == 1
    assert body["last_handled_seconds"] == STALL_SECONDS + 1


def test_a_recently_finished_update_keeps_an_old_waiter_from_counting(
    intake: Intake, clock: Clock
) -> None:
    intake.queued()
    clock.now += 60
    intake.finished()  # another, taken up earlier, just finished
    assert intake.check() == OK
    clock.now += STALL_SECONDS + 0.1
    assert intake.check()[0] is False


def test_a_poller_that_stops_asking_is_gone(intake: Intake, clock: Clock) -> None:
    intake.poll_began()
    clock.now += 10  # a long poll with nothing to fetch
    assert intake.check() == OK
    intake.poll_ended(answered=True)
    intake.poll_began()
    intake.poll_ended(answered=True)  # the last one: its task died here
    clock.now += POLL_SLACK
    assert intake.check() == OK
    clock.now += 0.5
    assert intake.check() == (False, {"updates": "not fetched", "last_poll_seconds": 10.5})
    intake.poll_began()  # asking again (a new poller)
    assert intake.check() == OK


def test_after_failed_polls_the_library_pauses_longer(intake: Intake, clock: Clock) -> None:
    # 1 s, then 1.5 times longer each failure, up to 30 s (python-telegram-bot's loop).
    pauses = [1.0, 1.5, 2.25, 3.375, 5.0625, 7.59375, 11.390625, 17.0859375, 25.62890625, 30, 30]
    for pause in pauses:
        intake.poll_began()
        intake.poll_ended(answered=False)
        clock.now += pause + POLL_SLACK
        assert intake.check() == OK, pause
        clock.now += 0.01
        assert intake.check()[0] is False, pause
    for _ in range(5000):  # a long outage: no overflow, still the longest pause
        intake.poll_began()
        intake.poll_ended(answered=False)
    clock.now += LONGEST_PAUSE + POLL_SLACK
    assert intake.check() == OK


def test_a_poll_that_hangs_is_gone(intake: Intake, clock: Clock) -> None:
    intake.poll_began()
    clock.now += POLL_LONGEST
    assert intake.check() == OK
    clock.now += 1
    assert intake.check()[1] == {"updates": "not fetched", "last_poll_seconds": POLL_LONGEST + 1}


def test_a_webhook_bot_never_polls_and_is_never_gone(intake: Intake, clock: Clock) -> None:
    clock.now += 3600
    intake.queued()
    intake.started()
    intake.finished()
    assert intake.check() == OK


async def test_healthz_says_why_the_loop_is_not_taking_updates(
    redis_url: str, intake: Intake, clock: Clock
) -> None:
    redis = Redis.from_url(redis_url)
    try:
        contact = Contact(clock)
        contact.record(True)
        health = Health(redis, contact, intake=intake)
        assert (await health.check())[0] is True
        intake.queued()
        clock.now += 25
        ok, body = await health.check()
        assert ok is False
        assert body == {
            "redis": "ok",
            "telegram": "ok",
            "last_ok_seconds": 25.0,
            "updates": "stalled",
            "updates_waiting": 1,
            "oldest_waiting_seconds": 25.0,
            "last_handled_seconds": None,
        }
    finally:
        await redis.aclose()
