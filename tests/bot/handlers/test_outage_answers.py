"""Commands in a group while Redis does not answer: the shared record of answers is down
too, so each process keeps its own, and an outage costs one answer per command per chat
(topic) per half minute. Button presses and private chats are answered every time."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from redis.asyncio import Redis

from bot import metrics
from bot.handlers.repeats import OUTAGE_WINDOW, OutageAnswers
from tests.bot.conftest import Harness, ru
from tests.support.clocks import ManualClock


class Clock(ManualClock):
    def __init__(self) -> None:
        super().__init__(1000.0)


@pytest.fixture
async def outage(h: Harness) -> AsyncIterator[Clock]:
    """Redis does not answer (for every owner of the running bot); the bot's outage answers
    on a clock the test moves."""
    clock = Clock()
    app = h.running[0].app
    app.bot_data["outage_answers"] = OutageAnswers(clock)
    store = h.running[0].deps.service.store
    owners = [o for o in vars(store).values() if hasattr(o, "redis")]
    working = store.redis
    broken = Redis.from_url("redis://127.0.0.1:1/0", socket_connect_timeout=0.5)
    for owner in owners:
        owner.redis = broken
    yield clock
    for owner in owners:
        owner.redis = working
    await broken.aclose()


def storage_down() -> float:
    return metrics.value("domino_errors_total", kind="storage_down")


def handled() -> float:
    """Updates handled to their end (an error's answer, if any, sent)."""
    return metrics.value("domino_update_seconds_count")


async def test_six_scores_in_an_outage_post_one_answer(h: Harness, outage: Clock) -> None:
    (a,) = h.people("Андрей")
    group = h.group(a)
    before, done = storage_down(), handled()
    sent = [h.api.send_text(a, group, "/score") for _ in range(6)]
    await h.until(lambda: handled() >= done + 6, "six commands handled")
    assert storage_down() == before + 6
    replies = [m for m in h.api.messages(group, from_bot=True) if m.id > sent[0]]
    assert [(m.text, m.reply_to) for m in replies] == [(ru("storage_down"), sent[0])]

    # Another command is answered once too; /score again once half a minute has passed.
    assert (await h.say(a, group, "/stats")).text == ru("storage_down")
    outage.now += OUTAGE_WINDOW - 0.1
    h.api.send_text(a, group, "/score")
    await h.until(lambda: handled() >= done + 8, "the early /score handled")
    outage.now += 0.1
    assert (await h.say(a, group, "/score")).text == ru("storage_down")
    assert len(h.api.messages(group, from_bot=True)) == 3


async def test_in_an_outage_topics_private_chats_and_presses_are_told_each_time(
    h: Harness, outage: Clock
) -> None:
    (a,) = h.people("Андрей")
    forum = h.group(a, is_forum=True)
    topic = h.api.add_topic(forum, "Домино", by=a)
    assert (await h.say(a, forum, "/score")).text == ru("storage_down")
    assert (await h.say(a, forum, "/score", thread_id=topic)).text == ru("storage_down")
    h.api.start_bot(a)
    for _ in range(2):
        assert (await h.say(a, a, "/score")).text == ru("storage_down")


def test_outage_answers_one_per_place_and_command_a_window() -> None:
    clock = Clock()
    told = OutageAnswers(clock, window=30)
    assert told.claim(-1, None, "score")
    assert not told.claim(-1, None, "score")
    assert (
        told.claim(-1, None, "stats")
        and told.claim(-1, 7, "score")
        and told.claim(-2, None, "score")
    )
    clock.now += 29.9
    assert not told.claim(-1, None, "score")
    clock.now += 0.1
    assert told.claim(-1, None, "score")
    small = OutageAnswers(clock)
    small.KEPT = 2
    for chat in range(3):
        assert small.claim(chat, None, "score")
    assert small.claim(0, None, "score")  # the oldest place was forgotten
