"""REDIS_URL's forms (one server, cluster, sentinel, embedded), and waiting at start for a
Redis that does not answer yet."""

from __future__ import annotations

import asyncio
import itertools
import logging
import socket
import subprocess
import time
from pathlib import Path

import pytest
import redis
from fakeredis import FakeAsyncRedis
from redis.asyncio import BlockingConnectionPool, Redis
from redis.asyncio.cluster import RedisCluster
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError
from redis.exceptions import TimeoutError as RedisTimeoutError

from bot.storage import connect
from bot.storage.connect import (
    PING_LONGEST,
    BlockingSentinelPool,
    Place,
    connect_redis,
    describe,
    parse_place,
    redis_place,
    wait_for_redis,
)
from bot.storage.keys import Keys
from bot.storage.models import Match
from bot.storage.store import Store
from bot.storage.stored import LOST, Stored
from tests.cluster.conftest import RunningCluster, redis_server, settings_for, start_server
from tests.support.redis_server import free_port, stop_process
from tests.support.waiting import until

# -- reading the URL ----------------------------------------------------------------------


def test_a_cluster_url_names_its_nodes() -> None:
    place = parse_place("redis+cluster://10.0.0.1:7000,10.0.0.2,[::1]:7002")
    assert place == Place(
        tls=False,
        nodes=[("10.0.0.1", 7000), ("10.0.0.2", 6379), ("::1", 7002)],
        username=None,
        password=None,
    )
    secure = parse_place("rediss+cluster://bot:p%40ss%3Aword@h:1/0")
    assert secure.tls and (secure.username, secure.password) == ("bot", "p@ss:word")


def test_a_sentinel_url_names_the_sentinels_the_service_and_the_db() -> None:
    place = parse_place("redis+sentinel://:hunter2@s1:26380,s2/mymaster/3")
    assert place.nodes == [("s1", 26380), ("s2", 26379)]
    assert (place.service, place.db, place.password, place.username) == (
        "mymaster",
        3,
        "hunter2",
        None,
    )
    assert parse_place("redis+sentinel://s1/mymaster").db == 0
    asked = parse_place("redis+sentinel://s1/m?sentinel_password=x%21")
    assert asked.sentinel_password == "x!" and asked.password is None


@pytest.mark.parametrize(
    "url",
    [
        "redis+cluster://:hunter2@h:1/2",  # a cluster has only db 0
        "redis+cluster://:hunter2@h:99999",
        "redis+cluster://:hunter2@h:1,:2",
        "redis+cluster://:hunter2@h:1?ssl=yes",
        "redis+sentinel://:hunter2@h:1",  # no service
        "redis+sentinel://:hunter2@h:1/m/x",
        "redis+sentinel://:hunter2@h:1/m/0/extra",
    ],
)
def test_a_url_it_cannot_read_is_refused_without_its_password(url: str) -> None:
    with pytest.raises(ValueError, match="REDIS_URL") as error:
        parse_place(url)
    assert "hunter2" not in str(error.value)
    assert "hunter2" not in redis_place(url)


def test_where_redis_is_is_said_without_a_password() -> None:
    assert redis_place("redis://u:hunter2@db.local:6380/1") == "db.local:6380"
    assert redis_place("rediss://:hunter2@db.local") == "db.local:6379"
    assert redis_place("redis+cluster://:hunter2@a:1,b:2") == "a:1,b:2"
    assert redis_place("redis+sentinel://:hunter2@s:5/main/1") == "main via sentinel s:5"


async def test_each_url_gives_its_kind_of_client(cluster: RunningCluster) -> None:
    client, embedded = connect_redis(settings_for(None))
    assert embedded and isinstance(client, FakeAsyncRedis)

    client, embedded = connect_redis(
        settings_for("redis://:hunter2@127.0.0.1:1/2", redis_max_connections=33)
    )
    pool = client.connection_pool
    assert not embedded and isinstance(pool, BlockingConnectionPool)
    assert (pool.max_connections, pool.timeout) == (33, 20.0)
    assert describe(client) == "127.0.0.1:1"
    await client.aclose()

    client, embedded = connect_redis(settings_for(cluster.url_all, redis_max_connections=33))
    assert not embedded and isinstance(client, RedisCluster)
    assert describe(client) == ",".join(f"127.0.0.1:{p}" for p in cluster.ports)
    await client.ping()
    assert {node.max_connections for node in client.get_nodes()} == {33}
    await client.aclose()

    client, embedded = connect_redis(
        settings_for("redis+sentinel://:hunter2@127.0.0.1:1/main/2", redis_max_connections=33)
    )
    pool = client.connection_pool
    assert not embedded and isinstance(pool, BlockingSentinelPool)
    assert (pool.max_connections, pool.timeout) == (33, 20.0)
    assert pool.connection_kwargs["password"] == "hunter2" and pool.connection_kwargs["db"] == 2
    assert describe(client) == "main via sentinel 127.0.0.1:1"
    await client.aclose()


# -- waiting for Redis at start -------------------------------------------------------------


async def test_waiting_for_a_redis_that_starts_a_second_later(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    port = free_port()
    client = Redis(host="127.0.0.1", port=port, password="hunter2")
    started = time.monotonic()
    waiting = asyncio.create_task(wait_for_redis(client, 15))
    await asyncio.sleep(1.0)
    assert not waiting.done()
    process = await asyncio.to_thread(start_server, tmp_path, port, "--requirepass", "hunter2")
    try:
        with caplog.at_level(logging.WARNING, logger="bot.storage.connect"):
            await asyncio.wait_for(waiting, 10)
        took = time.monotonic() - started
        assert 1.0 < took < 6.0
        assert await client.ping()
    finally:
        await client.aclose()
        stop_process(process)
    warnings = [r.getMessage() for r in caplog.records if r.name == "bot.storage.connect"]
    assert warnings == [f"Redis at 127.0.0.1:{port} not answering yet; retrying for 15 s"]
    assert "hunter2" not in caplog.text


async def test_pings_back_off_from_a_fifth_of_a_second_to_two_seconds() -> None:
    client = Redis(host="127.0.0.1", port=free_port(), retry=Retry(NoBackoff(), 0))
    pings: list[float] = []
    ping = client.ping

    async def counted() -> bool:
        pings.append(time.monotonic())
        return await ping()

    client.ping = counted  # type: ignore[method-assign]
    started = time.monotonic()
    with pytest.raises(RedisConnectionError, match=r"connecting to 127\.0\.0\.1"):
        await wait_for_redis(client, 4.5)
    assert 4.5 <= time.monotonic() - started < 5.5
    gaps = [later - earlier for earlier, later in itertools.pairwise(pings)]
    expected = [0.2, 0.4, 0.8, 1.6]  # then 2 s: past the time allowed
    assert len(gaps) == len(expected), gaps
    assert all(e - 0.02 <= gap < e + 0.35 for gap, e in zip(gaps, expected, strict=True)), gaps
    await client.aclose()


async def test_waiting_gives_up_after_the_time_allowed() -> None:
    """What went wrong is said (here: refused), after the time allowed, or after the first
    ping if that took longer (redis-py retries a refused connection within a ping)."""
    client = Redis(host="127.0.0.1", port=free_port())
    started = time.monotonic()
    with pytest.raises(RedisConnectionError, match=r"connecting to 127\.0\.0\.1"):
        await wait_for_redis(client, 1.0)
    assert 1.0 <= time.monotonic() - started < PING_LONGEST + 0.5
    await client.aclose()


async def test_no_waiting_when_the_time_allowed_is_zero(
    caplog: pytest.LogCaptureFixture,
) -> None:
    client = Redis(host="127.0.0.1", port=free_port())
    started = time.monotonic()
    with (
        caplog.at_level(logging.WARNING, logger="bot.storage.connect"),
        pytest.raises(RedisConnectionError, match=r"connecting to 127\.0\.0\.1"),
    ):
        await wait_for_redis(client, 0)
    assert time.monotonic() - started < PING_LONGEST + 0.5  # one ping
    assert not caplog.records  # no "retrying for 0 s"
    await client.aclose()


async def test_a_server_that_never_answers_is_given_up_on_in_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A port that takes the connection and says nothing: no ping ends by itself."""
    monkeypatch.setattr(connect, "PING_LONGEST", 1.5)
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)
        client = Redis(host="127.0.0.1", port=silent.getsockname()[1])
        started = time.monotonic()
        with pytest.raises(RedisTimeoutError, match="no answer"):
            await wait_for_redis(client, 1.0)
        assert 1.5 <= time.monotonic() - started < 2.5
        await client.aclose()


async def test_waiting_for_a_cluster_gives_a_redis_error_too() -> None:
    """redis-py says "cannot be connected" with a RedisClusterException (not a RedisError);
    the bot's client says it with a RedisError, which the bot knows to report."""
    url = f"redis+cluster://127.0.0.1:{free_port()},127.0.0.1:{free_port()}"
    client, _ = connect_redis(settings_for(url))
    with pytest.raises(RedisError):
        await wait_for_redis(client, 0.5)
    await client.aclose()


async def test_waiting_for_a_cluster_that_answers(cluster: RunningCluster) -> None:
    client, _ = connect_redis(settings_for(cluster.url))
    await wait_for_redis(client, 5)
    await client.aclose()


# -- Sentinel -----------------------------------------------------------------------------


def a_match() -> Match:
    return Match(id="abcdef", chat_id=-100123, creator_id=1)


async def test_a_master_found_through_sentinel(tmp_path: Path) -> None:
    master_port, sentinel_port = free_port(), free_port()
    master = start_server(tmp_path / "master", master_port, "--requirepass", "hunter2")
    folder = tmp_path / "sentinel"
    folder.mkdir()
    config = folder / "sentinel.conf"
    config.write_text(
        f"port {sentinel_port}\nbind 127.0.0.1\ndir {folder}\n"
        f"sentinel monitor main 127.0.0.1 {master_port} 1\n"
        "sentinel auth-pass main hunter2\n"
    )
    with (folder / "sentinel.log").open("ab") as log:
        sentinel = subprocess.Popen(
            [redis_server(), str(config), "--sentinel"],
            stdout=log,
            stderr=subprocess.STDOUT,
            cwd=folder,
        )
    try:

        def knows_the_master() -> bool:
            try:
                probe = redis.Redis(port=sentinel_port, socket_connect_timeout=0.5)
                try:
                    found = probe.execute_command("SENTINEL GET-MASTER-ADDR-BY-NAME", "main")
                finally:
                    probe.close()
                return bool(found)
            except redis.RedisError:
                return False

        await asyncio.to_thread(until, knows_the_master, "the sentinel up")
        url = f"redis+sentinel://:hunter2@127.0.0.1:{sentinel_port}/main/3"
        client, embedded = connect_redis(settings_for(url))
        assert not embedded
        try:
            await wait_for_redis(client, 5)
            store = Store(client, Keys("test-sentinel"))
            key = store.keys.game(-100123, None)
            assert await store.games.write(key, Stored(None, None), a_match()) is not LOST
            assert await store.games.write(key, Stored(None, None), a_match()) is LOST
            stored = await store.games.read_match(-100123, None)
            assert stored.value == a_match()
            assert await store.games.write(key, stored, None) is None
            # It went to the master's database 3.
            await store.games.write(key, Stored(None, None), a_match())
            direct = redis.Redis(port=master_port, password="hunter2", db=3)
            try:
                assert direct.exists(key) == 1
                direct.delete(key)
            finally:
                direct.close()
        finally:
            await client.aclose()
    finally:
        stop_process(sentinel)
        stop_process(master)


def test_a_read_url_does_not_show_its_passwords() -> None:
    place = parse_place("redis+sentinel://u:hunter2@s1/m?sentinel_password=hunter3")
    assert "hunter" not in repr(place) and "hunter" not in str(place)
