"""One writer per stored key: each storage owner (bot.storage.store) alone writes its
kind of keys. Every owner is run through its writes with a client that notes the keys
each command and script is given; every key `Keys` names must then have exactly one
owner writing it. (The migration moves keys of every owner, as they are: it is the one
exception, and is left out.)"""

from __future__ import annotations

import inspect
import time
from typing import Any

from redis.asyncio import Redis

from bot.storage.keys import Keys
from bot.storage.models import GroupDelivery, HandDelivery, Match, RatingLine, StatLine
from bot.storage.presence import OpenTable
from bot.storage.store import Store
from bot.storage.stored import Stored

CHAT, THREAD, GAME, USER = -100777, 5, "g1", 41
SAMPLE: dict[str, Any] = {
    "chat_id": CHAT,
    "thread_id": THREAD,
    "game_id": GAME,
    "seat": 0,
    "variant": "fives",
    "user_id": USER,
    "process_id": "p1",
    "command": "stats",
    "update_id": 7,
}
# What a client call changes: Redis commands by name, and the scripts (EVALSHA / EVAL,
# whose keys are all counted as written: a script given a key may write it).
WRITES = {"set", "delete", "hset", "hsetnx", "hdel", "expire", "zadd", "zrem", "restore", "sadd"}
WRITES |= {"zremrangebyscore", "expireat"}
WRITES |= {"publish", "spublish"}  # a channel Keys names is "written" by who publishes on it
# Keys methods that name no key of their own (patterns, helpers).
NOT_KEYS = {"chat_pattern", "game_pattern", "moved", "parse_game"}


class Recorder:
    """A Redis client that notes which keys its owner writes."""

    def __init__(self, redis: Redis, owner: str, written: dict[str, set[str]]) -> None:
        self._redis, self._owner, self._written = redis, owner, written

    def _note(self, keys: Any) -> None:
        for key in keys:
            name = key.decode() if isinstance(key, bytes) else str(key)
            self._written.setdefault(name, set()).add(self._owner)

    def __getattr__(self, name: str) -> Any:
        real = getattr(self._redis, name)
        if name in ("evalsha", "eval"):

            def script(sha: str, numkeys: int, *keys_and_args: Any) -> Any:
                self._note(keys_and_args[:numkeys])
                return real(sha, numkeys, *keys_and_args)

            return script
        if name == "pipeline":  # its commands are noted as they are queued
            return lambda *a, **kw: Recorder(real(*a, **kw), self._owner, self._written)
        if name == "delete":
            return lambda *keys: (self._note(keys), real(*keys))[1]
        if name in WRITES:
            return lambda key, *a, **kw: (self._note([key]), real(key, *a, **kw))[1]
        return real


def key_names(keys: Keys) -> dict[str, str]:
    """Every key `Keys` names, for the sample chat, topic, game and person: key -> method."""
    names = {}
    for name, method in inspect.getmembers(keys, inspect.ismethod):
        if name.startswith("_") or name in NOT_KEYS:
            continue
        params = inspect.signature(method).parameters
        args = {p: SAMPLE[p] for p in params}
        for seat in range(4) if "seat" in params else [None]:  # every seat's hand
            names[method(**(args if seat is None else args | {"seat": seat}))] = name
    return names


async def write_everything(store: Store) -> None:
    keys = store.keys
    match = Match(id=GAME, chat_id=CHAT, thread_id=THREAD, creator_id=USER)
    last = (keys.last_record(CHAT, THREAD), "packed", 60)
    await store.games.write(keys.game(CHAT, THREAD), Stored(None, None), match, also=last)
    # The delivery records (bot.storage.delivery_records) are written through the game
    # records' compare-and-set.
    await store.deliveries.group(CHAT, THREAD).change(lambda _: GroupDelivery(game_id=GAME))
    await store.deliveries.hand(CHAT, THREAD, 0).change(lambda _: HandDelivery(game_id=GAME))
    await store.games.drop(CHAT, THREAD)
    await store.redis.set(keys.game(CHAT, THREAD), b"unreadable")
    assert await store.games.set_aside(CHAT, THREAD, b"unreadable")

    seen = await store.due.note_due(CHAT, THREAD, 10.0)
    await store.due.take_due(20.0, 5.0, 10)
    await store.due.settle_due(CHAT, THREAD, seen, 30.0)
    await store.due.forget_due(CHAT, THREAD)

    await store.heartbeats.heartbeat("p1", 5.0)

    await store.budget.take_budget(CHAT, 1.0, 30, 1.0, 20, 60.0, "a")
    await store.budget.restamp_budget(CHAT, "a", 1.5)
    await store.budget.take_board_turn(CHAT, 1.0, 3.0, 2)
    await store.budget.pause_budget(CHAT, 1.0)
    await store.budget.pause_budget(None, 1.0)

    line = StatLine(name="Андрей", games=1, wins=1, points=10)
    await store.scores.add_to_stats(CHAT, GAME, {USER: line})

    def compute(
        before: dict[int, RatingLine | None],
    ) -> tuple[dict[int, RatingLine], dict[int, int]]:
        return {USER: RatingLine(name="Андрей", mu=25.0, sigma=8.0, games=1)}, {USER: 7}

    await store.scores.add_ratings(CHAT, "fives", GAME, [USER], compute)

    await store.prefs.set_language(USER, "en")
    await store.prefs.mark_started(USER)
    await store.prefs.mark_unreachable(USER)
    await store.prefs.set_chat_language(CHAT, "en")
    await store.prefs.set_topic_name(CHAT, THREAD, "Домино")

    await store.hints.note_hint(CHAT, THREAD, GAME, 3, "a hint")

    assert await store.answers.claim_answer(CHAT, THREAD, "stats", 5.0)
    await store.answers.note_answer(CHAT, THREAD, "stats", 10, "digest")
    await store.answers.take_answer_extra(CHAT, THREAD, "stats", 5.0)
    await store.answers.forget_answer(CHAT, THREAD, "stats")

    await store.subscriptions.subscribe(CHAT, THREAD, USER, "ru")
    await store.subscriptions.unsubscribe(CHAT, THREAD, USER)
    await store.subscriptions.note_called(CHAT, THREAD, GAME, 2)
    await store.subscriptions.forget_called(CHAT, THREAD, GAME)

    await store.user_games.note([USER], CHAT, THREAD, GAME)
    await store.user_games.forget([USER], CHAT, THREAD, GAME)

    assert await store.updates.first_sight(7, 5.0)

    await store.tables.note_game(GAME, CHAT, THREAD)
    await store.tables.note_seated(CHAT, THREAD, GAME, USER)
    await store.tables.publish(CHAT, "a note")

    at_table, now = OpenTable(THREAD, GAME, USER), time.time()  # its key expires: real times
    await store.presence.arrive(CHAT, at_table, "p1", now + 30)
    await store.presence.renew({CHAT: [at_table]}, "p1", now + 40, now)
    assert await store.presence.use_buttons(CHAT, THREAD, GAME, USER, now + 1)
    await store.presence.leave(CHAT, at_table, "p1")


async def test_every_stored_key_has_one_writer(redis_client: Redis, key_prefix: str) -> None:
    store = Store(redis_client, Keys(key_prefix))
    written: dict[str, set[str]] = {}
    owners = {
        name: owner
        for name, owner in vars(store).items()
        if hasattr(owner, "redis") and name != "migration"
    }
    for name, owner in owners.items():
        owner.redis = Recorder(redis_client, name, written)
    await write_everything(store)

    names = key_names(store.keys)
    writers = {names[key]: found for key, found in written.items() if key in names}
    strays = sorted(key for key in written if key not in names)
    assert not strays, f"written, but not a key Keys names: {strays}"
    assert {name: found for name, found in writers.items() if len(found) > 1} == {}
    assert sorted(set(names.values()) - set(writers)) == []  # each key is written by someone


async def test_the_owners_as_the_store_builds_them() -> None:
    from fakeredis import FakeAsyncRedis

    store = Store(FakeAsyncRedis(), Keys("dom"))
    # The owners use one client; the game records go through the due index and the
    # migration, the migration through the due index (the one writer of its key).
    assert store.games.due is store.due and store.migration.due is store.due
    assert store.games.migration is store.migration
    methods = [n for n, _ in inspect.getmembers(Store, inspect.isfunction) if n != "__init__"]
    assert methods == []  # a composition, nothing more


def test_the_recorder_counts_what_a_script_is_given() -> None:
    written: dict[str, set[str]] = {}

    class Fake:
        def evalsha(self, sha: str, numkeys: int, *rest: Any) -> None:
            return None

        def set(self, key: str, value: str) -> None:
            return None

    recorder = Recorder(Fake(), "x", written)  # type: ignore[arg-type]
    recorder.evalsha("sha", 2, "k1", "k2", "arg")
    recorder.set("k3", "v")
    assert written == {"k1": {"x"}, "k2": {"x"}, "k3": {"x"}}
