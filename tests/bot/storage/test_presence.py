"""Who sits at the live table (bot.storage.presence): set when a table opens, renewed by
its process, lapsing when that process stops renewing, gone when it closes; a press of
the private chat's buttons counts him out until he opens the table again. What a process
read is kept while the chat's presence tag, read with its records, holds, and until its
first table may lapse. The same on a real Redis and on the embedded store."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator

import pytest
from fakeredis import FakeAsyncRedis
from redis.asyncio import Redis

from bot.storage.keys import Keys
from bot.storage.presence import OpenTable, Presence, PresenceTags
from bot.storage.store import Store

CHAT, THREAD, GAME = -100555, 7, "g-presence"
IRINA, ANDREI = 101, 102
LAPSE = 30.0


@pytest.fixture(params=["redis", "embedded"])
async def presence(
    request: pytest.FixtureRequest, redis_client: Redis, key_prefix: str
) -> AsyncIterator[Presence]:
    if request.param == "redis":
        yield Presence(redis_client, Keys(key_prefix), PresenceTags())
        return
    embedded = FakeAsyncRedis()
    yield Presence(embedded, Keys("dom"), PresenceTags())
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


@pytest.fixture(params=["redis", "embedded"])
async def two_processes(
    request: pytest.FixtureRequest, redis_client: Redis, key_prefix: str
) -> AsyncIterator[tuple[Store, Store]]:
    """Two bot processes' stores on one Redis (or one embedded store)."""
    if request.param == "redis":
        yield Store.under(redis_client, key_prefix), Store.under(redis_client, key_prefix)
        return
    embedded = FakeAsyncRedis()
    yield Store.under(embedded, "dom"), Store.under(embedded, "dom")
    await embedded.aclose()


async def test_a_read_is_kept_while_the_chat_s_tag_holds(
    two_processes: tuple[Store, Store], now: float
) -> None:
    one, other = two_processes
    await other.presence.arrive(CHAT, table(IRINA), "p2", now + LAPSE)
    await one.games.read_group(CHAT, THREAD)  # the delivery reads the records, then asks
    assert await one.presence.present(CHAT, THREAD, GAME, [IRINA, ANDREI], now) == {
        IRINA: now + LAPSE
    }
    # Written behind the tag's back: not seen, the read is kept.
    await one.redis.zadd(one.keys.table_presence(CHAT), {f"{THREAD}:{GAME}:{ANDREI}:p9": now + 9})
    await one.games.read_hand(CHAT, THREAD, 0)
    assert await one.presence.present(CHAT, THREAD, GAME, [ANDREI], now + 1) == {}
    # Asked without the kept read: read anew.
    assert await one.presence.present(CHAT, THREAD, GAME, [ANDREI], now + 1, kept=False) == {
        ANDREI: now + 9
    }
    # Andrei opens a table in the other process: the tag changes, the next records' read
    # brings it, and the question is read anew.
    await other.presence.arrive(CHAT, table(ANDREI), "p2", now + LAPSE)
    assert await one.presence.present(CHAT, THREAD, GAME, [ANDREI], now + 2) == {
        ANDREI: now + 9
    }  # (what was read last, until the records are read again)
    await one.games.read_group(CHAT, THREAD)
    assert await one.presence.present(CHAT, THREAD, GAME, [ANDREI], now + 2) == {
        ANDREI: now + LAPSE
    }


async def test_a_kept_read_lapses_with_its_first_table(
    two_processes: tuple[Store, Store], now: float
) -> None:
    one, other = two_processes
    await other.presence.arrive(CHAT, table(IRINA), "p2", now + 10)
    await other.presence.arrive(CHAT, table(ANDREI), "p2", now + 20)
    await one.games.read_group(CHAT, THREAD)
    assert set(await one.presence.present(CHAT, THREAD, GAME, [IRINA, ANDREI], now)) == {
        IRINA,
        ANDREI,
    }
    # The other process renews both (no tag changes: nobody came or went).
    await other.presence.renew({CHAT: [table(IRINA), table(ANDREI)]}, "p2", now + 40, now + 5)
    await one.games.read_group(CHAT, THREAD)
    # Past Irina's first lapse the kept read is read anew: both renewed, both present.
    assert await one.presence.present(CHAT, THREAD, GAME, [IRINA, ANDREI], now + 11) == {
        IRINA: now + 40,
        ANDREI: now + 40,
    }


async def test_leaving_and_the_buttons_change_the_tag(
    two_processes: tuple[Store, Store], now: float
) -> None:
    one, other = two_processes
    await other.presence.arrive(CHAT, table(IRINA), "p2", now + LAPSE)
    await other.presence.arrive(CHAT, table(ANDREI), "p2", now + LAPSE)
    await one.games.read_group(CHAT, THREAD)
    assert len(await one.presence.present(CHAT, THREAD, GAME, [IRINA, ANDREI], now)) == 2
    await other.presence.leave(CHAT, table(IRINA), "p2")
    await one.games.read_group(CHAT, THREAD)
    assert set(await one.presence.present(CHAT, THREAD, GAME, [IRINA, ANDREI], now)) == {ANDREI}
    assert await other.presence.use_buttons(CHAT, THREAD, GAME, ANDREI, now)
    await one.games.read_hand(CHAT, THREAD, 1)
    assert await one.presence.present(CHAT, THREAD, GAME, [IRINA, ANDREI], now) == {}


async def test_a_renewal_that_brings_a_lapsed_table_back_changes_the_tag(
    two_processes: tuple[Store, Store], now: float
) -> None:
    one, other = two_processes
    await other.presence.arrive(CHAT, table(IRINA), "p2", now + LAPSE)
    await one.games.read_group(CHAT, THREAD)
    assert await one.presence.present(CHAT, THREAD, GAME, [ANDREI], now) == {}
    # Andrei's table here was never noted (Redis failed as it opened): the renewal adds it.
    await other.presence.renew({CHAT: [table(IRINA), table(ANDREI)]}, "p2", now + 40, now)
    await one.games.read_group(CHAT, THREAD)
    assert await one.presence.present(CHAT, THREAD, GAME, [ANDREI], now) == {ANDREI: now + 40}
