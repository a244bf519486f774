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
# The key's expiry is a real time, so the times below must lie ahead of the clock when a
# test runs, which may be minutes after this module was read (a busy parallel run): an
# hour ahead, and a few seconds from one another.
T = time.time() + 3600


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


def table(user_id: int, game_id: str = GAME, thread_id: int | None = THREAD) -> OpenTable:
    return OpenTable(thread_id, game_id, user_id)


async def test_an_opened_table_is_present_until_it_lapses(presence: Presence) -> None:
    await presence.arrive(CHAT, table(IRINA), "p1", T + LAPSE)
    assert await presence.present(CHAT, THREAD, GAME, [IRINA, ANDREI], T) == {IRINA: T + LAPSE}
    # Not renewed (its process died): gone once it lapsed.
    assert await presence.present(CHAT, THREAD, GAME, [IRINA], T + LAPSE + 0.5) == {}


async def test_a_renewal_keeps_it_and_drops_lapsed_tables(presence: Presence) -> None:
    await presence.arrive(CHAT, table(IRINA), "p1", T + 30)
    await presence.arrive(CHAT, table(ANDREI), "p2", T + 30)
    # p1 renews, p2 died and does not.
    await presence.renew(CHAT, [table(IRINA)], "p1", T + 50, T + 20)
    assert await presence.present(CHAT, THREAD, GAME, [IRINA, ANDREI], T + 40) == {IRINA: T + 50}
    await presence.renew(CHAT, [table(IRINA)], "p1", T + 60, T + 40)
    members = await presence.redis.zrange(presence.keys.table_presence(CHAT), 0, -1)
    assert len(members) == 1  # p2's lapsed table was dropped
    assert await presence.redis.ttl(presence.keys.table_presence(CHAT)) > 0


async def test_only_that_game_and_topic_count(presence: Presence) -> None:
    await presence.arrive(CHAT, table(IRINA, "another game"), "p1", T + 30)
    await presence.arrive(CHAT, table(ANDREI, thread_id=None), "p1", T + 30)
    assert await presence.present(CHAT, THREAD, GAME, [IRINA, ANDREI], T) == {}
    assert await presence.present(CHAT, None, GAME, [ANDREI], T) == {ANDREI: T + 30}


async def test_closing_leaves_the_other_process_table(presence: Presence) -> None:
    await presence.arrive(CHAT, table(IRINA), "p1", T + 30)
    await presence.arrive(CHAT, table(IRINA), "p2", T + 25)
    await presence.leave(CHAT, table(IRINA), "p1")
    assert await presence.present(CHAT, THREAD, GAME, [IRINA], T) == {IRINA: T + 25}
    await presence.leave(CHAT, table(IRINA), "p2")
    assert await presence.present(CHAT, THREAD, GAME, [IRINA], T) == {}


async def test_the_buttons_count_him_out_until_he_opens_the_table_again(
    presence: Presence,
) -> None:
    # Not at the table: a press changes nothing, and says so.
    assert not await presence.use_buttons(CHAT, THREAD, GAME, IRINA, T)
    assert await presence.redis.exists(presence.keys.table_presence(CHAT)) == 0

    await presence.arrive(CHAT, table(IRINA), "p1", T + 30)
    assert await presence.use_buttons(CHAT, THREAD, GAME, IRINA, T)
    assert await presence.present(CHAT, THREAD, GAME, [IRINA], T + 1) == {}
    # His table is renewed meanwhile: still on the buttons.
    await presence.renew(CHAT, [table(IRINA)], "p1", T + 40, T + 10)
    assert await presence.present(CHAT, THREAD, GAME, [IRINA], T + 11) == {}
    # He opens the table again: present.
    await presence.arrive(CHAT, table(IRINA), "p2", T + 45)
    assert await presence.present(CHAT, THREAD, GAME, [IRINA], T + 12) == {IRINA: T + 45}
