"""The Redis store against a real Redis server (each test under its own key prefix)."""

from __future__ import annotations

import asyncio

import pytest
from redis.asyncio import Redis
from redis.crc import key_slot

from bot.storage.keys import Keys
from bot.storage.models import ChatGame, StatLine
from bot.storage.store import GAME_TTL, BrokenGameError, Store, Tx

CHAT = -100123
THREAD = None


@pytest.fixture(params=["redis", "embedded"])
def store(request: pytest.FixtureRequest, redis_client: Redis, key_prefix: str) -> Store:
    """The real server, and the embedded in-memory store the bot uses without REDIS_URL."""
    if request.param == "embedded":
        from fakeredis import FakeAsyncRedis

        return Store(FakeAsyncRedis(), Keys(key_prefix))
    return Store(redis_client, Keys(key_prefix))


def _new(tx: Tx) -> str:
    tx.game = ChatGame(id="abcdef", chat_id=CHAT, creator_id=1)
    return "created"


async def test_a_change_is_stored_with_a_ttl(store: Store) -> None:
    game, result = await store.change(CHAT, THREAD, _new)
    assert result == "created"
    assert game is not None and game.rev == 1
    loaded = await store.load(CHAT, THREAD)
    assert loaded == game
    ttl = await store.redis.ttl(store.keys.game(CHAT, THREAD))
    assert 0 < ttl <= GAME_TTL


async def test_concurrent_changes_all_land(store: Store) -> None:
    await store.change(CHAT, THREAD, _new)

    def add_note(tx: Tx) -> None:
        assert tx.game is not None
        tx.game.notes.append("x")

    await asyncio.gather(*(store.change(CHAT, THREAD, add_note) for _ in range(30)))
    game = await store.load(CHAT, THREAD)
    assert game is not None
    assert len(game.notes) == 30
    assert game.rev == 31


async def test_a_refused_change_writes_nothing(store: Store) -> None:
    await store.change(CHAT, THREAD, _new)
    before = await store.load(CHAT, THREAD)

    def refuse(tx: Tx) -> None:
        assert tx.game is not None
        tx.game.notes.append("never stored")
        raise LookupError("no")

    with pytest.raises(LookupError):
        await store.change(CHAT, THREAD, refuse)
    assert await store.load(CHAT, THREAD) == before


async def test_a_broken_game_is_reported_and_can_be_dropped(store: Store) -> None:
    await store.redis.set(store.keys.game(CHAT, THREAD), b"{not json")
    with pytest.raises(BrokenGameError):
        await store.load(CHAT, THREAD)
    with pytest.raises(BrokenGameError):
        await store.change(CHAT, THREAD, _new)
    await store.drop(CHAT, THREAD)
    assert await store.load(CHAT, THREAD) is None


def test_a_chats_keys_share_one_cluster_slot() -> None:
    keys = Keys("dom")
    slots = {
        key_slot(key.encode())
        for key in (
            keys.game(CHAT, None),
            keys.game(CHAT, 77),
            keys.last_record(CHAT, None),
            keys.stats(CHAT),
            keys.counted(CHAT),
            keys.chat_language(CHAT),
        )
    }
    assert len(slots) == 1


def test_game_keys_name_their_chat_and_topic() -> None:
    keys = Keys("dom")
    assert keys.parse_game(keys.game(-100777, None)) == (-100777, None)
    assert keys.parse_game(keys.game(-100777, 42)) == (-100777, 42)


async def test_the_due_index_keeps_the_earliest_time(store: Store) -> None:
    await store.schedule(CHAT, None, 50.0)
    await store.schedule(CHAT, None, 80.0)  # later: ignored
    await store.schedule(CHAT, 9, 60.0)
    assert await store.due(40.0) == []
    assert await store.due(55.0) == [(CHAT, None)]
    assert sorted(await store.due(70.0), key=str) == sorted([(CHAT, None), (CHAT, 9)], key=str)
    await store.reschedule(CHAT, None, None)
    assert await store.due(70.0) == [(CHAT, 9)]


async def test_stats_count_a_game_once(store: Store) -> None:
    line = StatLine(name="Андрей", games=1, wins=1, points=30, best_record=12)
    assert await store.add_to_stats(CHAT, "game1", {7: line})
    assert not await store.add_to_stats(CHAT, "game1", {7: line})
    other = StatLine(name="Андрей", games=1, wins=0, points=5, best_record=None)
    assert await store.add_to_stats(CHAT, "game2", {7: other})
    total = (await store.stats(CHAT))[7]
    assert (total.games, total.wins, total.points, total.best_record) == (2, 1, 35, 12)


async def test_moving_a_chat_carries_its_keys(store: Store) -> None:
    await store.change(CHAT, THREAD, _new)
    await store.set_chat_language(CHAT, "en")
    new_chat = -100999
    moved = await store.move_chat(CHAT, new_chat)
    assert moved == 2
    assert await store.load(CHAT, THREAD) is None
    assert (await store.load(new_chat, THREAD)) is not None
    assert await store.chat_language(new_chat) == "en"
    assert await store.game_threads(new_chat) == [None]
