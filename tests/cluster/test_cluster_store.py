"""The store against a real three-master Redis Cluster: a chat's keys in one slot, and
every operation of the store working there, including what spans two chats (two slots,
here on two different nodes)."""

from __future__ import annotations

import asyncio
import time
from typing import cast

import pytest
from redis.asyncio import Redis
from redis.asyncio.cluster import RedisCluster
from redis.crc import key_slot
from redis.exceptions import MaxConnectionsError, RedisClusterException, ResponseError

from bot.storage import scripts
from bot.storage.common import GAME_TTL
from bot.storage.connect import connect_redis
from bot.storage.keys import Keys
from bot.storage.models import GroupDelivery, HandDelivery, Match, StatLine, UserPrefs
from bot.storage.presence import OpenTable
from bot.storage.store import Store
from bot.storage.stored import LOST, Stored
from tests.bot.storage.test_store import change_thirty_times_at_once
from tests.cluster.conftest import RunningCluster, settings_for

CHATS = [-100123, -1001234567890, -5, 42, 0, -100999]


def chat_keys(keys: Keys, chat_id: int) -> list[str]:
    """Every key the builder makes for one chat (topics, seats and all)."""
    found = [keys.stats(chat_id), keys.counted(chat_id), keys.chat_language(chat_id)]
    for thread in (None, 1, 77, 2**31):
        found += [
            keys.game(chat_id, thread),
            keys.group(chat_id, thread),
            keys.last_record(chat_id, thread),
            *(keys.hand(chat_id, thread, seat) for seat in range(4)),
            keys.hints(chat_id, thread, "abcd1234"),
        ]
    return found


def budget_keys(keys: Keys, chat_id: int) -> list[str]:
    return [
        keys.budget_calls(),
        keys.budget_pause(),
        keys.budget_chat_calls(chat_id),
        keys.budget_chat_pause(chat_id),
    ]


@pytest.mark.parametrize("prefix", ["dom", "test-1a2b3c", "my:bot"])
def test_every_key_of_a_chat_maps_to_one_slot(prefix: str) -> None:
    keys = Keys(prefix)
    for chat in CHATS:
        slots = {key_slot(key.encode()) for key in chat_keys(keys, chat)}
        assert slots == {key_slot(f"c{chat}".encode())}, chat  # the slot of its hash tag
        # ... and a moved chat's keys are all in the new chat's slot.
        moved = {key_slot(keys.moved(k, chat, chat - 1).encode()) for k in chat_keys(keys, chat)}
        assert moved == {key_slot(f"c{chat - 1}".encode())}
    budget = {key_slot(key.encode()) for chat in CHATS for key in budget_keys(keys, chat)}
    assert budget == {key_slot(b"budget")}


def test_chats_are_spread_over_the_slots() -> None:
    """The tag is the chat, not the prefix: different chats land on different slots."""
    keys = Keys("dom")
    slots = {key_slot(keys.game(-100_000 - i, None).encode()) for i in range(200)}
    assert len(slots) > 150


# -- the store on the cluster -------------------------------------------------------------


@pytest.fixture
async def store(cluster_client: Redis, cluster_prefix: str) -> Store:
    await cluster_client.ping()  # learns the slots' owners
    return Store(cluster_client, Keys(cluster_prefix))


def cluster_of(store: Store) -> RedisCluster:
    assert isinstance(store.redis, RedisCluster)
    return cast(RedisCluster, store.redis)


def node_of(store: Store, chat_id: int) -> str:
    node = cluster_of(store).get_node_from_key(store.keys.game(chat_id, None))
    assert node is not None
    return str(node.name)


def chats_on_each_node(store: Store) -> dict[str, int]:
    """A chat id whose keys live on each of the three masters."""
    found: dict[str, int] = {}
    chat = -100_500
    while len(found) < 3:
        found.setdefault(node_of(store, chat), chat)
        chat -= 1
    return found


def a_match(chat_id: int, **fields: object) -> Match:
    return Match(id="abcdef", chat_id=chat_id, creator_id=1, **fields)  # type: ignore[arg-type]


async def test_the_cluster_enforces_one_slot_per_script(
    store: Store, cluster: RunningCluster
) -> None:
    """What the key layout is for: a script given keys of two chats is refused, by redis-py
    and by the server itself."""
    nodes = chats_on_each_node(store)
    one, two = list(nodes.values())[:2]
    keys = [store.keys.game(one, None), store.keys.game(two, None)]
    with pytest.raises(RedisClusterException, match="same key slot"):
        await store.games._compare_and_set(keys=keys, args=["0", b"", b"x", 60, b"y", 60])
    node = cluster.node(int(next(iter(nodes)).rpartition(":")[2]))
    try:
        with pytest.raises(ResponseError, match="same slot"):  # CROSSSLOT
            node.eval(scripts.COMPARE_AND_SET, 2, *keys, "0", b"", b"x", 60, b"y", 60)
    finally:
        node.close()


async def test_compare_and_set_on_the_cluster(store: Store) -> None:
    for chat in chats_on_each_node(store).values():
        key = store.keys.game(chat, None)
        also = (store.keys.last_record(chat, None), "packed", 60)
        assert (
            await store.games.write(key, Stored(None, None), a_match(chat), also=also) is not LOST
        )
        assert await store.games.write(key, Stored(None, None), a_match(chat, rev=9)) is LOST
        first = await store.games.read_match(chat, None)
        assert first.value == a_match(chat)
        assert await store.games.write(key, first, a_match(chat, rev=1)) is not LOST
        assert await store.games.write(key, first, a_match(chat, rev=2)) is LOST
        assert (await store.games.load(chat, None)) == a_match(chat, rev=1)
        assert await store.games.last_record(chat, None) == "packed"
        assert 0 < await store.redis.ttl(key) <= GAME_TTL


async def test_concurrent_changes_all_land_on_the_cluster(store: Store) -> None:
    group = await change_thirty_times_at_once(store, -100_777, 5)
    assert group.rev == 30


async def test_multi_key_reads_and_drop_on_the_cluster(store: Store) -> None:
    chat = -100_321
    await store.games.write(store.keys.game(chat, 3), Stored(None, None), a_match(chat))
    await store.games.write(
        store.keys.group(chat, 3), Stored(None, None), GroupDelivery(game_id="g")
    )
    for seat in range(2):
        hand = HandDelivery(game_id="g", message_id=seat + 10)
        await store.games.write(store.keys.hand(chat, 3, seat), Stored(None, None), hand)
    match, group = await store.games.read_group(chat, 3)  # MGET of one slot
    assert match.value == a_match(chat) and group.value == GroupDelivery(game_id="g")
    match, hand = await store.games.read_hand(chat, 3, 1)
    assert hand.value is not None and hand.value.message_id == 11
    group, hands = await store.games.read_delivery(chat, 3, 4)
    assert [h.exists for h in hands] == [True, True, False, False]
    await store.games.drop(chat, 3)
    assert await store.games.load(chat, 3) is None
    group, hands = await store.games.read_delivery(chat, 3, 2)
    assert not group.exists and not any(h.exists for h in hands)


async def test_the_due_index_on_the_cluster(store: Store) -> None:
    chats = list(chats_on_each_node(store).values())
    for i, chat in enumerate(chats):
        await store.due.note_due(chat, None, 50.0 + i)
    taken = await store.due.take_due(60.0, 10, 100)
    assert sorted(taken.games) == sorted((chat, None) for chat in chats)
    assert taken.lease == 70_000 and taken.earliest == 70_000
    assert (await store.due.take_due(65.0, 10, 100)).games == []
    await store.due.settle_due(chats[0], None, taken.lease, 200.0)
    await store.due.note_due(chats[1], None, 80.0)  # noted meanwhile: kept
    await store.due.settle_due(chats[1], None, taken.lease, 300.0)
    await store.due.settle_due(chats[2], None, taken.lease, None)
    assert await store.due.due_time(chats[0], None) == 200.0
    assert await store.due.due_time(chats[1], None) == 80.0
    assert await store.due.due_time(chats[2], None) is None


async def test_the_budget_on_the_cluster(store: Store) -> None:
    now = 1000.0
    for i in range(3):
        assert await store.budget.take_budget(-1, now, 10, 1.0, 3, 60.0, f"c{i}") == (0, 0)
    wait, why = await store.budget.take_budget(-1, now + 1, 10, 1.0, 3, 60.0, "c3")
    assert why == 2 and wait == pytest.approx(59_000, abs=2)
    await store.budget.restamp_budget(-1, "c2", now + 0.5)
    await store.budget.restamp_budget(None, "c1", now + 0.5)
    await store.budget.pause_budget(None, 1.0)
    wait, why = await store.budget.take_budget(-7, now + 2, 10, 1.0, 0, 60.0, "f")
    assert why == 3 and 0 < wait <= 1000


async def test_stats_on_the_cluster(store: Store) -> None:
    chat = -100_555
    line = StatLine(name="Андрей", games=1, wins=1, points=30, best_record=12)
    assert await store.scores.add_to_stats(chat, "game1", {7: line, 8: line})
    assert not await store.scores.add_to_stats(chat, "game1", {7: line})
    # Many games ending at once (several processes): each counted once, none lost.
    other = StatLine(name="Андрей", games=1, wins=0, points=5, best_record=None)
    done = await asyncio.gather(
        *(store.scores.add_to_stats(chat, f"g{i}", {7: other}) for i in range(20)),
        *(store.scores.add_to_stats(chat, f"g{i}", {7: other}) for i in range(20)),
    )
    assert sum(done) == 20
    stats = await store.scores.stats(chat)
    assert (stats[7].games, stats[7].wins, stats[7].points) == (21, 1, 130)
    assert stats[8].games == 1


async def test_languages_users_and_heartbeats_on_the_cluster(store: Store) -> None:
    await store.prefs.set_chat_language(-100_111, "en")
    assert await store.prefs.chat_language(-100_111) == "en"
    await store.prefs.set_language(7, "en")
    await store.prefs.mark_started(7)
    assert await store.prefs.user(7) == UserPrefs(lang="en", started=True)
    # An earlier release's record, carried over into the hash in the person's slot.
    await store.redis.set(store.keys.user(8), '{"lang": "en", "started": true}')
    await store.prefs.set_language(8, "ru")
    assert await store.prefs.user(8) == UserPrefs(lang="ru", started=True)
    assert await store.redis.get(store.keys.user(8)) is None
    await store.user_games.note([7], -1001, 3, "g")
    assert [s.game_id for s in await store.user_games.seated(7)] == ["g"]
    await store.heartbeats.heartbeat("p1", 5)
    assert await store.heartbeats.alive("p1") and not await store.heartbeats.alive("p2")


async def test_one_presence_renewal_spans_every_node(store: Store) -> None:
    now = time.time()
    tables = {chat: [OpenTable(None, "g", 7)] for chat in CHATS}  # slots on every node
    await store.presence.renew(tables, "p1", now + 30, now)
    for chat in CHATS:
        assert await store.presence.present(chat, None, "g", [7], now) == {7: now + 30}


async def test_practice_hints_on_the_cluster(store: Store) -> None:
    assert await store.hints.shown_hint(7, None, "abcd1234", 3) is None
    assert await store.hints.note_hint(7, None, "abcd1234", 3, "first") == "first"
    assert await store.hints.note_hint(7, None, "abcd1234", 3, "second") == "first"  # one a move
    await store.hints.note_hint(7, None, "abcd1234", 5, "third")
    assert await store.hints.shown_hint(7, None, "abcd1234", 3) == "first"
    assert await store.hints.hints_used(7, None, "abcd1234") == 2


async def test_game_threads_finds_the_topics_on_every_node(store: Store) -> None:
    """SCAN on a cluster: redis-py's scan_iter asks every primary."""
    nodes = chats_on_each_node(store)
    for i, chat in enumerate(nodes.values()):
        for thread in (None, i + 1):
            await store.games.write(
                store.keys.game(chat, thread), Stored(None, None), a_match(chat)
            )
    default = cluster_of(store).get_default_node().name
    assert set(nodes) == {n.name for n in cluster_of(store).get_primaries()}
    assert default in nodes  # ... so two of the chats are on other nodes than the default
    for i, chat in enumerate(nodes.values()):
        threads = await store.games.game_threads(chat)
        assert sorted(threads, key=lambda t: t or 0) == [None, i + 1], chat
    assert await store.games.game_threads(-1) == []


async def test_moving_a_chat_to_a_slot_on_another_node(store: Store) -> None:
    old, new = list(chats_on_each_node(store).values())[:2]
    assert node_of(store, old) != node_of(store, new)
    for thread in (None, 4):
        await store.games.write(store.keys.game(old, thread), Stored(None, None), a_match(old))
        await store.due.note_due(old, thread, 50.0)
    await store.games.write(
        store.keys.group(old, 4), Stored(None, None), GroupDelivery(game_id="g")
    )
    await store.prefs.set_chat_language(old, "en")
    line = StatLine(name="Андрей", games=1, wins=1, points=30, best_record=12)
    await store.scores.add_to_stats(old, "game1", {7: line})
    before = await store.redis.pttl(store.keys.game(old, 4))

    moved = await store.migration.move_chat(old, new)

    assert moved == 6  # two games, a group record, the language, the stats, the counted ids
    assert await store.games.game_threads(old) == []
    assert sorted(await store.games.game_threads(new), key=lambda t: t or 0) == [None, 4]
    assert await store.games.load(new, 4) == a_match(old)  # the service then sets its chat id
    assert (await store.games.read_group(new, 4))[1].value == GroupDelivery(game_id="g")
    assert await store.prefs.chat_language(new) == "en"
    assert (await store.scores.stats(new))[7].points == 30
    assert not await store.scores.add_to_stats(new, "game1", {7: line})  # counted stays counted
    assert 0 < await store.redis.pttl(store.keys.game(new, 4)) <= before  # its TTL kept
    assert await store.due.due_time(new, 4) == 0.0 and await store.due.due_time(old, 4) is None
    assert await store.redis.exists(*(k for k in chat_keys(store.keys, old))) == 0
    # Moving again (say, the update came twice) finds nothing left to move.
    assert await store.migration.move_chat(old, new) == 0
    assert await store.games.load(new, None) == a_match(old)


async def test_scripts_load_again_on_a_node_that_lost_them(
    store: Store, cluster: RunningCluster
) -> None:
    chat = -100_888
    key = store.keys.game(chat, None)
    assert await store.games.write(key, Stored(None, None), a_match(chat)) is not LOST
    for port in cluster.ports:  # a restarted or new node: no scripts in its cache
        node = cluster.node(port)
        node.script_flush()
        node.close()
    first = await store.games.read_match(chat, None)
    assert await store.games.write(key, first, a_match(chat, rev=1)) is not LOST
    assert (await store.games.load(chat, None)) == a_match(chat, rev=1)


async def test_a_burst_waits_for_a_connection_instead_of_failing(
    cluster: RunningCluster, cluster_prefix: str
) -> None:
    """More commands at once than connections allowed: they queue, as on one server.
    (redis-py's own cluster client fails them with MaxConnectionsError.)"""
    keys = Keys(cluster_prefix)
    bare = RedisCluster(host="127.0.0.1", port=cluster.ports[0], max_connections=4)
    try:
        with pytest.raises(MaxConnectionsError):
            await asyncio.gather(*(bare.set(keys.stats(-i), "x", ex=60) for i in range(60)))
    finally:
        await bare.aclose()
    client, _ = connect_redis(settings_for(cluster.url, redis_max_connections=4))
    try:
        store = Store(client, Keys(cluster_prefix))
        written = await asyncio.gather(
            *(
                store.games.write(keys.game(-i, None), Stored(None, None), a_match(-i))
                for i in range(60)
            )
        )
        assert LOST not in written
        assert max(len(node._connections) for node in cluster_of(store).get_nodes()) <= 4
    finally:
        await client.aclose()
