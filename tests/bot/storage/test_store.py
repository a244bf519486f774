"""The Redis store against a real Redis server (each test under its own key prefix), and the
embedded in-memory store the bot uses without REDIS_URL: the same scripts must hold on both."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from redis.asyncio import Redis
from redis.crc import key_slot

from bot.storage.common import GAME_TTL
from bot.storage.keys import Keys
from bot.storage.models import GroupDelivery, Match, StatLine
from bot.storage.store import Store
from bot.storage.store_errors import BrokenGameError
from bot.storage.stored import LOST, Stored
from bot.telegram.call_priority import Priority, call_class, call_name

CHAT = -100123
THREAD = None


@pytest.fixture(params=["redis", "embedded"])
def store(request: pytest.FixtureRequest, redis_client: Redis, key_prefix: str) -> Store:
    """The real server, and the embedded in-memory store the bot uses without REDIS_URL."""
    if request.param == "embedded":
        from fakeredis import FakeAsyncRedis

        return Store(FakeAsyncRedis(), Keys(key_prefix))
    return Store(redis_client, Keys(key_prefix))


def a_match(**fields: object) -> Match:
    return Match(id="abcdef", chat_id=CHAT, creator_id=1, **fields)  # type: ignore[arg-type]


async def test_a_write_is_stored_with_a_ttl(store: Store) -> None:
    key = store.keys.game(CHAT, THREAD)
    written = await store.games.write(key, Stored(None, None), a_match())
    assert isinstance(written, bytes)
    assert await store.games.load(CHAT, THREAD) == a_match()
    ttl = await store.redis.ttl(key)
    assert 0 < ttl <= GAME_TTL


async def test_a_write_lands_only_on_what_was_read(store: Store) -> None:
    key = store.keys.game(CHAT, THREAD)
    assert await store.games.write(key, Stored(None, None), a_match()) is not LOST
    absent: Stored[Match] = Stored(None, None)
    assert await store.games.write(key, absent, a_match(variant="muggins")) is LOST  # it exists now
    first = await store.games.read_match(CHAT, THREAD)
    assert await store.games.write(key, first, a_match(rev=1)) is not LOST
    assert await store.games.write(key, first, a_match(rev=2)) is LOST  # read before the last write
    assert (await store.games.load(CHAT, THREAD)) == a_match(rev=1)
    latest = await store.games.read_match(CHAT, THREAD)
    assert await store.games.write(key, latest, None) is None  # deleted
    assert await store.games.load(CHAT, THREAD) is None


async def change_thirty_times_at_once(store: Store, chat: int, thread: int | None) -> GroupDelivery:
    """Thirty concurrent changes of a chat's group delivery, each adding a call to it: the
    delivery as stored after them (tests/cluster runs this on a cluster too)."""
    key = store.keys.group(chat, thread)

    def add_call(shown: GroupDelivery | None) -> GroupDelivery:
        shown = shown or GroupDelivery(game_id="abcdef")
        shown.calls.append(float(len(shown.calls)))
        shown.rev += 1
        return shown

    await asyncio.gather(*(store.games.change(key, GroupDelivery, add_call) for _ in range(30)))
    group, _ = await store.games.read_delivery(chat, thread, 0)
    assert group.value is not None
    return group.value


async def test_concurrent_changes_all_land(store: Store) -> None:
    group = await change_thirty_times_at_once(store, CHAT, THREAD)
    assert group.calls == [float(i) for i in range(30)] and group.rev == 30


async def test_a_second_key_is_written_with_the_record(store: Store) -> None:
    key = store.keys.game(CHAT, THREAD)
    also = (store.keys.last_record(CHAT, THREAD), "packed game", 60)
    await store.games.write(key, Stored(None, None), a_match(status="over"), also=also)
    assert await store.games.last_record(CHAT, THREAD) == "packed game"
    # A write that loses its compare-and-set writes neither.
    other = (store.keys.last_record(CHAT, THREAD), "another", 60)
    assert await store.games.write(key, Stored(None, None), a_match(), also=other) is LOST
    assert await store.games.last_record(CHAT, THREAD) == "packed game"


async def test_a_broken_game_is_reported_and_can_be_dropped(store: Store) -> None:
    await store.redis.set(store.keys.game(CHAT, THREAD), b"{not json")
    with pytest.raises(BrokenGameError):
        await store.games.load(CHAT, THREAD)
    await store.games.drop(CHAT, THREAD)
    assert await store.games.load(CHAT, THREAD) is None


async def test_an_unreadable_delivery_record_starts_afresh(store: Store) -> None:
    await store.redis.set(store.keys.group(CHAT, THREAD), b"{not json")
    group, hands = await store.games.read_delivery(CHAT, THREAD, 2)
    assert group.value is None and group.exists  # so a write replaces exactly that
    assert [h.value for h in hands] == [None, None]
    key = store.keys.group(CHAT, THREAD)
    assert await store.games.write(key, group, GroupDelivery(game_id="x")) is not LOST


def test_a_chats_keys_share_one_cluster_slot() -> None:
    keys = Keys("dom")
    slots = {
        key_slot(key.encode())
        for key in (
            keys.game(CHAT, None),
            keys.game(CHAT, 77),
            keys.group(CHAT, None),
            keys.hand(CHAT, 77, 3),
            keys.last_record(CHAT, None),
            keys.stats(CHAT),
            keys.counted(CHAT),
            keys.chat_language(CHAT),
            keys.board_turn(CHAT),
        )
    }
    assert len(slots) == 1
    budget = {
        key_slot(key.encode())
        for key in (
            keys.budget_calls(),
            keys.budget_chat_calls(CHAT),
            keys.budget_chat_pause(CHAT),
            keys.budget_pause(),
        )
    }
    assert len(budget) == 1


def test_game_keys_name_their_chat_and_topic() -> None:
    keys = Keys("dom")
    assert keys.parse_game(keys.game(-100777, None)) == (-100777, None)
    assert keys.parse_game(keys.game(-100777, 42)) == (-100777, 42)


async def test_the_due_index_gives_out_what_is_due_with_a_lease(store: Store) -> None:
    assert await store.due.note_due(CHAT, None, 80.0) == 80_000
    assert await store.due.note_due(CHAT, None, 50.0) == 50_000  # a note replaces the last one
    await store.due.note_due(CHAT, 9, 60.0)
    assert (await store.due.take_due(40.0, 10, 100)).games == []
    taken = await store.due.take_due(55.0, 10, 100)
    assert taken.games == [(CHAT, None)] and taken.lease == 65_000
    assert taken.earliest == 60_000
    # Taken: it is due again when its lease ends, unless its taker settles it.
    assert (await store.due.take_due(58.0, 10, 100)).games == []
    assert (await store.due.take_due(61.0, 10, 100)).games == [(CHAT, 9)]
    assert (await store.due.take_due(66.0, 10, 100)).games == [(CHAT, None)]


async def test_settling_keeps_what_someone_noted_meanwhile(store: Store) -> None:
    await store.due.note_due(CHAT, None, 50.0)
    lease = (await store.due.take_due(50.0, 10, 100)).lease
    await store.due.settle_due(CHAT, None, lease, 90.0)  # nobody noted anything: exactly 90
    assert await store.due.due_time(CHAT, None) == 90.0
    lease = (await store.due.take_due(90.0, 10, 100)).lease
    await store.due.note_due(CHAT, None, 95.0)  # a change elsewhere, while we worked
    await store.due.settle_due(CHAT, None, lease, 200.0)
    assert await store.due.due_time(CHAT, None) == 95.0  # the earlier note is kept
    seen = await store.due.note_due(CHAT, None, 10.0)
    await store.due.settle_due(CHAT, None, seen, None)  # nothing left to do
    assert await store.due.due_time(CHAT, None) is None


async def test_the_budget_counts_both_windows_at_once(store: Store) -> None:
    now = 1000.0
    for i in range(3):
        assert await store.budget.take_budget(CHAT, now, 10, 1.0, 3, 60.0, f"c{i}") == (0, 0)
    wait, why = await store.budget.take_budget(CHAT, now + 1, 10, 1.0, 3, 60.0, "c3")
    assert why == 2 and wait == pytest.approx(59_000, abs=2)  # the group's minute is used up
    # The refused call was not counted: another chat still has the token's second.
    for i in range(7):
        assert await store.budget.take_budget(-5, now + 1.5, 10, 1.0, 0, 60.0, f"d{i}") == (0, 0)
    wait, why = await store.budget.take_budget(-6, now + 1.5, 10, 1.0, 0, 60.0, "d7")
    assert (wait, why) == (0, 0)  # calls of the first second have left the window
    await store.budget.pause_budget(-5, 2.0)
    wait, why = await store.budget.take_budget(-5, now + 2, 10, 1.0, 0, 60.0, "e")
    assert why == 2 and 0 < wait <= 2000
    await store.budget.pause_budget(None, 1.0)
    wait, why = await store.budget.take_budget(-7, now + 2, 10, 1.0, 0, 60.0, "f")
    assert why == 3 and 0 < wait <= 1000


async def test_a_groups_calls_are_read_back_as_the_budget_counted_them(store: Store) -> None:
    now = 1000.0
    names = [
        call_name("p", 1, Priority.BOARD),
        call_name("p", 2, Priority.ANSWER),
        call_name("q", 1, Priority.BOARD),
    ]
    assert names == ["p:1:2", "p:2:0", "q:1:2"]
    for i, name in enumerate(names):
        assert await store.budget.take_budget(CHAT, now + i, 30, 1.0, 20, 61.0, name) == (0, 0)
    await store.budget.take_budget(-5, now + 1, 30, 1.0, 20, 61.0, "elsewhere")
    found = await store.budget.group_calls(CHAT, now + 2.5, 61.0)
    assert found == [(1000.0, "p:1:2"), (1001.0, "p:2:0"), (1002.0, "q:1:2")]
    assert [call_class(name) for _, name in found] == [
        Priority.BOARD,
        Priority.ANSWER,
        Priority.BOARD,
    ]
    assert call_class("p:17") is None  # an entry that names no class
    await store.budget.restamp_budget(CHAT, "p:1:2", now + 1.5)  # it came back late
    assert [name for _, name in await store.budget.group_calls(CHAT, now + 2.5, 61.0)] == [
        "p:2:0",
        "p:1:2",
        "q:1:2",
    ]
    # As the budget drops them: a call as old as the window is out of it.
    assert await store.budget.group_calls(CHAT, now + 62.0, 61.0) == [
        (1001.5, "p:1:2"),
        (1002.0, "q:1:2"),
    ]


async def test_a_chats_board_turns_are_a_bucket_every_topic_takes_from(store: Store) -> None:
    now = 1000.0
    assert await store.budget.take_board_turn(CHAT, now, 4.0, 2) == 0.0
    assert await store.budget.take_board_turn(CHAT, now + 0.5, 4.0, 2) == 0.0  # two after a pause
    assert await store.budget.take_board_turn(CHAT, now + 1.0, 4.0, 2) == pytest.approx(3.0)
    assert await store.budget.take_board_turn(-5, now + 1.0, 4.0, 2) == 0.0  # another chat's own
    assert await store.budget.take_board_turn(CHAT, now + 4.5, 4.0, 2) == 0.0  # one came back
    # A refused try took nothing: 0.125 tokens were left at 1000.5, 1.125 at 1004.5.
    assert await store.budget.take_board_turn(CHAT, now + 4.6, 4.0, 2) == pytest.approx(3.4)
    assert 0 < await store.redis.pttl(store.keys.board_turn(CHAT)) <= 8000  # kept a while


async def test_stats_count_a_game_once(store: Store) -> None:
    line = StatLine(name="Андрей", games=1, wins=1, points=30, best_record=12)
    assert await store.scores.add_to_stats(CHAT, "game1", {7: line})
    assert not await store.scores.add_to_stats(CHAT, "game1", {7: line})
    other = StatLine(name="Андрей", games=1, wins=0, points=5, best_record=None)
    assert await store.scores.add_to_stats(CHAT, "game2", {7: other})
    total = (await store.scores.stats(CHAT))[7]
    assert (total.games, total.wins, total.points, total.best_record) == (2, 1, 35, 12)


async def test_moving_a_chat_carries_its_keys(store: Store) -> None:
    await store.games.write(store.keys.game(CHAT, THREAD), Stored(None, None), a_match())
    await store.prefs.set_chat_language(CHAT, "en")
    new_chat = -100999
    moved = await store.migration.move_chat(CHAT, new_chat)
    assert moved == 2
    assert await store.games.load(CHAT, THREAD) is None
    assert (await store.games.load(new_chat, THREAD)) is not None
    assert await store.prefs.chat_language(new_chat) == "en"
    assert await store.games.game_threads(new_chat) == [None]


async def test_stats_of_many_games_ending_at_once_are_all_counted(store: Store) -> None:
    line = StatLine(name="Андрей", games=1, wins=1, points=3, best_record=None)
    done = await asyncio.gather(
        *(store.scores.add_to_stats(CHAT, f"g{i % 10}", {7: line, 8: line}) for i in range(30))
    )
    assert sum(done) == 10  # each game once, whoever came first
    stats = await store.scores.stats(CHAT)
    assert (stats[7].games, stats[7].points, stats[8].games) == (10, 30, 10)
    assert not await store.scores.add_to_stats(CHAT, "g0", {})  # nobody to add: still counted once
    assert await store.scores.add_to_stats(CHAT, "nobody", {})


async def a_chat_to_move(store: Store) -> None:
    await store.games.write(store.keys.game(CHAT, None), Stored(None, None), a_match())
    await store.games.write(
        store.keys.game(CHAT, 9), Stored(None, None), a_match(variant="muggins")
    )
    await store.due.note_due(CHAT, 9, 50.0)
    await store.prefs.set_chat_language(CHAT, "en")
    line = StatLine(name="Андрей", games=1, wins=1, points=30, best_record=12)
    await store.scores.add_to_stats(CHAT, "game1", {7: line})


async def check_moved(store: Store, new_chat: int) -> None:
    assert await store.games.game_threads(CHAT) == []
    assert sorted(await store.games.game_threads(new_chat), key=lambda t: t or 0) == [None, 9]
    assert await store.games.load(new_chat, 9) == a_match(variant="muggins")
    assert await store.prefs.chat_language(new_chat) == "en"
    assert (await store.scores.stats(new_chat))[7].points == 30
    assert (
        await store.due.due_time(new_chat, 9) == 0.0 and await store.due.due_time(CHAT, 9) is None
    )
    assert not await store.redis.keys(store.keys.chat_pattern(CHAT))


async def test_a_move_cut_short_is_finished_by_moving_again(store: Store) -> None:
    await a_chat_to_move(store)
    real = store.migration._delete_if_same
    calls = 0

    async def dies_on_the_third(**kwargs: Any) -> Any:
        nonlocal calls
        calls += 1
        if calls == 3:
            raise ConnectionError("the process died here")
        return await real(**kwargs)

    store.migration._delete_if_same = dies_on_the_third  # type: ignore[assignment]
    new_chat = -100999
    with pytest.raises(ConnectionError):
        await store.migration.move_chat(CHAT, new_chat)
    store.migration._delete_if_same = real
    # Half moved: every key is in the old chat, the new one, or both; none is lost.
    assert len(await store.redis.keys(store.keys.chat_pattern(CHAT))) == 3
    assert len(await store.redis.keys(store.keys.chat_pattern(new_chat))) == 3
    assert await store.migration.move_chat(CHAT, new_chat) == 3
    await check_moved(store, new_chat)


async def test_a_key_changed_during_its_move_is_copied_again(store: Store) -> None:
    await a_chat_to_move(store)
    real = store.migration._delete_if_same
    changed = False

    async def someone_writes_first(**kwargs: Any) -> Any:
        nonlocal changed
        if not changed and kwargs["keys"][0] == store.keys.chat_language(CHAT):
            changed = True  # a write lands between the copy and the delete
            await store.redis.set(store.keys.chat_language(CHAT), "en!")  # and no TTL
        return await real(**kwargs)

    store.migration._delete_if_same = someone_writes_first  # type: ignore[assignment]
    new_chat = -100999
    assert await store.migration.move_chat(CHAT, new_chat) == 5
    assert changed
    assert await store.prefs.chat_language(new_chat) == "en!"  # the last value, not the copy's
    assert await store.redis.ttl(store.keys.chat_language(new_chat)) == -1  # and its TTL


async def test_a_prefix_with_pattern_characters_finds_only_its_own_keys(store: Store) -> None:
    base = store.keys.prefix
    wild = Store(store.redis, Keys(f"{base}:a*"))
    plain = Store(store.redis, Keys(f"{base}:ab"))
    await plain.games.write(plain.keys.game(CHAT, 3), Stored(None, None), a_match())
    assert await wild.games.game_threads(CHAT) == []
    assert await wild.migration.move_chat(CHAT, -100999) == 0
    assert await plain.games.game_threads(CHAT) == [3]
