"""The bot's Redis pool (bot.storage.connect.ReadyPool): an idle connection handed out
at once is never handed to two commands, a full pool still makes a command wait for a
connection (and fail in time if none comes), and a connection the server dropped is
made anew, as the library's own pool does."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest
from redis.asyncio import Redis
from redis.exceptions import ConnectionError as RedisConnectionError

from bot.settings import Settings
from bot.storage.connect import ReadyPool, connect_redis

TOKEN = "123456:TEST-token-abcdefghijklmnopqrstuvwxyz123"


@asynccontextmanager
async def pooled(redis_url: str, size: int, timeout: float = 5) -> AsyncIterator[Redis]:
    """A client on a pool of its own of `size` connections."""
    client = Redis(
        connection_pool=ReadyPool.from_url(redis_url, max_connections=size, timeout=timeout)
    )
    try:
        yield client
    finally:
        await client.aclose()


async def all_taken(client: Redis) -> None:
    """Until a command under way holds the pool's every connection."""
    pool = client.connection_pool
    while len(pool._in_use_connections) < pool.max_connections:
        await asyncio.sleep(0.01)


async def test_the_bot_s_client_uses_it(redis_url: str) -> None:
    settings = Settings(_env_file=None, telegram_bot_token=TOKEN, redis_url=redis_url)  # type: ignore[call-arg]
    client, embedded = connect_redis(settings)
    try:
        assert not embedded
        assert isinstance(client.connection_pool, ReadyPool)
        assert await client.ping()
    finally:
        await client.aclose()


async def test_commands_at_once_each_get_a_connection_of_their_own(
    redis_url: str, key_prefix: str
) -> None:
    key = f"{key_prefix}:n"
    async with pooled(redis_url, 8) as client:
        # Many more commands than connections, interleaved: each INCR's reply must be its
        # own (two commands on one connection would mix their replies up or fail).
        async def count(times: int) -> list[int]:
            return [int(await client.incr(key)) for _ in range(times)]

        results = await asyncio.gather(*(count(50) for _ in range(30)))
        seen = [value for values in results for value in values]
        assert sorted(seen) == list(range(1, 30 * 50 + 1))
        for values in results:
            assert values == sorted(values)
        assert len(client.connection_pool._in_use_connections) == 0
        assert 1 <= len(client.connection_pool._available_connections) <= 8


async def test_a_full_pool_makes_a_command_wait_for_a_connection(
    redis_url: str, key_prefix: str, redis_client: Redis
) -> None:
    key = f"{key_prefix}:list"
    async with pooled(redis_url, 1) as client:
        # The one connection waits in BLPOP; a second command waits for it, not fails.
        blocked = asyncio.ensure_future(client.blpop([key], timeout=5))
        await all_taken(client)
        waiting = asyncio.ensure_future(client.get(f"{key_prefix}:absent"))
        await asyncio.sleep(0.1)
        assert not waiting.done()  # no connection for it yet
        await redis_client.rpush(key, "x")
        assert await waiting is None  # it got the connection once the BLPOP returned
        assert blocked.done()
        assert tuple(await blocked) == (key.encode(), b"x")


async def test_a_command_waits_no_longer_than_the_pool_s_timeout(
    redis_url: str, key_prefix: str
) -> None:
    async with pooled(redis_url, 1, timeout=0.2) as client:
        blocked = asyncio.ensure_future(client.blpop([f"{key_prefix}:never"], timeout=2))
        await all_taken(client)
        with pytest.raises(RedisConnectionError, match="No connection available"):
            await client.get(f"{key_prefix}:absent")
        await blocked


async def test_an_idle_connection_the_server_dropped_is_made_anew(
    redis_url: str, key_prefix: str, redis_client: Redis
) -> None:
    async with pooled(redis_url, 2) as client:
        await client.set(f"{key_prefix}:k", "v")
        connection_id = await client.client_id()  # the one idle connection's
        assert len(client.connection_pool._available_connections) == 1
        # The server closes it (as after a Redis restart, or its idle timeout).
        assert await redis_client.client_kill_filter(_id=connection_id) == 1
        assert await client.get(f"{key_prefix}:k") == b"v"
