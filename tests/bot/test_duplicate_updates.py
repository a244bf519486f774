"""An update handed over twice (Telegram's webhook sends it again after a slow answer; a
restarted poller fetches again what it had not confirmed) is handled once, by whichever
process takes it up first. If Redis cannot say, it is handled anyway."""

from __future__ import annotations

import time
from typing import Any

from redis.asyncio import Redis

from bot import metrics
from bot.app import SEEN_FOR, MeteredApplication
from bot.storage.keys import Keys
from bot.storage.updates import SeenUpdates
from tests.bot.conftest import Harness
from tests.bot.hostile.pressing import tap

HELP = "Домино для групповых чатов"


def help_update(update_id: int, user: int) -> dict[str, Any]:
    """/help in `user`'s private chat, as Telegram hands it over."""
    person = {"id": user, "is_bot": False, "first_name": "Андрей", "language_code": "ru"}
    return {
        "update_id": update_id,
        "message": {
            "message_id": 1000 + update_id % 1000,
            "date": int(time.time()),
            "chat": {"id": user, "type": "private", "first_name": "Андрей"},
            "from": person,
            "text": "/help",
            "entities": [{"type": "bot_command", "offset": 0, "length": 5}],
        },
    }


def helps(h: Harness, user: int) -> int:
    return len([m for m in h.api.messages(user, from_bot=True) if (m.text or "").startswith(HELP)])


def counted(kind: str) -> float:
    return metrics.value("domino_errors_total", kind=kind)


def handled() -> float:
    return metrics.value("domino_update_seconds_count")


async def test_an_update_handed_twice_to_each_of_two_processes_is_handled_once(
    h: Harness,
) -> None:
    user = h.api.add_user("Андрей", language_code="ru", started=True)
    first, second = h.running[0], await h.launch()
    update = help_update(10**6 + 1, user)
    copies, done = counted("duplicate_update"), handled()
    for run in (first, second, first, second):
        await tap(run, update)

    def settled() -> bool:  # the copies were seen and the first one handled, or more answered
        seen = counted("duplicate_update") >= copies + 3 and handled() >= done + 1
        return (seen and helps(h, user) >= 1) or helps(h, user) > 1

    await h.until(settled, "the four handed over")
    assert helps(h, user) == 1
    assert counted("duplicate_update") == copies + 3

    other = help_update(10**6 + 2, user)  # another update is no copy
    await tap(second, other)
    await h.until(lambda: helps(h, user) == 2, "the other one answered")


async def test_the_ids_are_kept_a_few_minutes_under_the_prefix(
    redis_client: Redis, key_prefix: str
) -> None:
    seen = SeenUpdates(redis_client, Keys(key_prefix))
    assert await seen.first_sight(77, SEEN_FOR)
    assert not await seen.first_sight(77, SEEN_FOR)
    assert await seen.first_sight(78, SEEN_FOR)
    ttl = await redis_client.pttl(Keys(key_prefix).update(77))
    assert 0 < ttl <= SEEN_FOR * 1000 and SEEN_FOR <= 600


async def test_with_redis_down_an_update_is_handled_anyway_and_counted(h: Harness) -> None:
    user = h.api.add_user("Андрей", language_code="ru", started=True)
    app = h.running[0].app
    assert isinstance(app, MeteredApplication) and app.seen is not None
    broken = Redis.from_url("redis://127.0.0.1:1/0", socket_connect_timeout=0.5)
    app.seen.redis = broken  # only the check's Redis: /help itself still reads its own
    try:
        unchecked = counted("update_unchecked")
        update = help_update(10**6 + 3, user)
        await tap(h.running[0], update)
        await tap(h.running[0], update)  # better twice than never
        await h.until(lambda: helps(h, user) == 2, "both handled")
        assert counted("update_unchecked") == unchecked + 2
    finally:
        await broken.aclose()
