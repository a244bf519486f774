"""Commands in a group while Redis is down, through the real bot process: six /score in a
few seconds leave one answer in the group, not six."""

from __future__ import annotations

from bot.i18n import translator
from bot.telegram.texts import refusal
from tests.e2e.conftest import OwnRedis
from tests.fakebotapi import FakeBotApi
from tests.support.http import health, scrape, series
from tests.support.waiting import until


def test_six_scores_during_a_redis_outage_post_one_answer(
    api: FakeBotApi, own_redis: OwnRedis
) -> None:
    storage_down = refusal(translator("ru"), "storage_down")
    base = own_redis.base
    user = api.add_user("Андрей", language_code="ru")
    group = api.add_group("Домино", owner=user)
    asked = api.send_text(user, group, "/help")
    # Its own answer (a reply to it), not just any message after it: on a loaded machine
    # the bot's greeting can come first, and a /help still waiting when Redis stops would
    # be answered as the outage.
    api.wait_message(group, after=asked, where=lambda m: m.reply_to == asked, timeout=20)

    own_redis.server.stop()
    assert health(base, 503)["redis"] == "down"
    metrics = scrape(base)
    errors = series(metrics, "domino_errors_total", kind="storage_down")
    done = series(metrics, "domino_update_seconds_count")
    sent = [api.send_text(user, group, "/score") for _ in range(6)]

    def handled() -> bool:  # each update done: its answer, if any, sent
        return series(scrape(base), "domino_update_seconds_count") >= done + 6

    until(handled, "the six /score handled", 60)
    assert series(scrape(base), "domino_errors_total", kind="storage_down") == errors + 6
    replies = [m for m in api.messages(group, from_bot=True) if m.id > sent[0]]
    assert [(m.text, m.reply_to) for m in replies] == [(storage_down, sent[0])]

    own_redis.server.start()  # back: /score answers what it has to say
    health(base, 200)
    asked = api.send_text(user, group, "/score")
    answer = api.wait_message(group, after=asked, timeout=20)
    assert answer.text != storage_down
