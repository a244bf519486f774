"""Who sits at the live table (bot.storage.presence): set when a table opens, renewed by
its process, lapsing when that process stops renewing, gone when it closes; a press of
the private chat's buttons counts him out until he opens the table again. The same on a
real Redis and on the embedded store."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator

import pytest
from fakeredis import FakeAsyncRedis
from redis.asyncio import Redis

from bot.storage.keys import Keys
from bot.storage.presence import OpenTable, Presence

CHAT, THREAD, GAME = -100555, 7, "g-presence"
IRINA, ANDREI = 101, 102
LAPSE = 30.0


@pytest.fixture(params=["redis", "embedded"])
async def presence(
    request: pytest.FixtureRequest, redis_client: Redis, key_prefix: str
) -> AsyncIterator[Presence]:
    if request.param == "redis":
        yield Presence(redis_client, Keys(key_prefix))
        return
    embedded = FakeAsyncRedis()
    yield Presence(embedded, Keys("dom"))
    await embedded.aclose()


@pytest.fixture
def now() -> float:
    """The test's now: a key's expiry is a real time, the times here a few seconds from it."""
    return time.time()


def table(user_id: int, game_id: str = GAME, thread_id: int | None = THREAD) -> OpenTable:
    return OpenTable(thread_id, game_id, user_id)


async def test_an_opened_table_is_present_until_it_lapses(presence: Presence, now: float) -> None:
    await presence.arrive(CHAT, table(IRINA), "p1", now + LAPSE)
    assert await presence.present(CHAT, THREAD, GAME, [IRINA, ANDREI], now) == {IRINA: now + LAPSE}
    # Not renewed (its process died): gone once it lapsed.
    assert await presence.present(CHAT, THREAD, GAME, [IRINA], now + LAPSE + 0.5) == {}


async def test_a_renewal_keeps_it_and_drops_lapsed_tables(presence: Presence, now: float) -> None:
    await presence.arrive(CHAT, table(IRINA), "p1", now + 30)
    await presence.arrive(CHAT, table(ANDREI), "p2", now + 30)
    # p1 renews, p2 died and does not.
    await presence.renew({CHAT: [table(IRINA)]}, "p1", now + 50, now + 20)
    assert await presence.present(CHAT, THREAD, GAME, [IRINA, ANDREI], now + 40) == {
        IRINA: now + 50
    }
    await presence.renew({CHAT: [table(IRINA)]}, "p1", now + 60, now + 40)
    members = await presence.redis.zrange(presence.keys.table_presence(CHAT), 0, -1)
    assert len(members) == 1  # p2's lapsed table was dropped
    assert await presence.redis.ttl(presence.keys.table_presence(CHAT)) > 0


async def test_only_that_game_and_topic_count(presence: Presence, now: float) -> None:
    await presence.arrive(CHAT, table(IRINA, "another game"), "p1", now + 30)
    await presence.arrive(CHAT, table(ANDREI, thread_id=None), "p1", now + 30)
    assert await presence.present(CHAT, THREAD, GAME, [IRINA, ANDREI], now) == {}
    assert await presence.present(CHAT, None, GAME, [ANDREI], now) == {ANDREI: now + 30}


async def test_closing_leaves_the_other_process_table(presence: Presence, now: float) -> None:
    await presence.arrive(CHAT, table(IRINA), "p1", now + 30)
    await presence.arrive(CHAT, table(IRINA), "p2", now + 25)
    await presence.leave(CHAT, table(IRINA), "p1")
    assert await presence.present(CHAT, THREAD, GAME, [IRINA], now) == {IRINA: now + 25}
    await presence.leave(CHAT, table(IRINA), "p2")
    assert await presence.present(CHAT, THREAD, GAME, [IRINA], now) == {}


async def test_the_buttons_count_him_out_until_he_opens_the_table_again(
    presence: Presence, now: float
) -> None:
    # Not at the table: a press changes nothing, and says so.
    assert not await presence.use_buttons(CHAT, THREAD, GAME, IRINA, now)
    assert await presence.redis.exists(presence.keys.table_presence(CHAT)) == 0

    await presence.arrive(CHAT, table(IRINA), "p1", now + 30)
    assert await presence.use_buttons(CHAT, THREAD, GAME, IRINA, now)
    assert await presence.present(CHAT, THREAD, GAME, [IRINA], now + 1) == {}
    # His table is renewed meanwhile: still on the buttons.
    await presence.renew({CHAT: [table(IRINA)]}, "p1", now + 40, now + 10)
    assert await presence.present(CHAT, THREAD, GAME, [IRINA], now + 11) == {}
    # He opens the table again: present.
    await presence.arrive(CHAT, table(IRINA), "p2", now + 45)
    assert await presence.present(CHAT, THREAD, GAME, [IRINA], now + 12) == {IRINA: now + 45}


async def test_one_renewal_keeps_every_chats_tables(presence: Presence, now: float) -> None:
    chats = [CHAT - n for n in range(50)]
    for chat in chats:
        await presence.arrive(chat, table(IRINA), "p1", now + 30)
    await presence.renew({chat: [table(IRINA)] for chat in chats}, "p1", now + 60, now + 20)
    for chat in chats:
        assert await presence.present(chat, THREAD, GAME, [IRINA], now + 40) == {IRINA: now + 60}
