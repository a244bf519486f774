"""The change feed: a change committed by one process reaches the tables open in another
through Redis pub/sub, on the chat's own channel; the embedded store needs no channel."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from fakeredis import FakeAsyncRedis
from redis.asyncio import Redis

from bot.game.service import GameService
from bot.storage.keys import Keys
from bot.storage.store import Store
from bot.table import TableServer
from tests.support.waiting import until_async
from tests.table.conftest import (
    ANDREI,
    BORIS,
    CHAT,
    IRINA,
    make_settings,
    open_lobby,
    opened,
    serve,
)


@pytest.fixture
async def other(redis_url: str, key_prefix: str) -> AsyncIterator[tuple[GameService, TableServer]]:
    """A second bot process: its own Redis client, service and table, one Redis."""
    client = Redis.from_url(redis_url)
    settings = make_settings(key_prefix)
    service = GameService(Store(client, Keys(key_prefix)), settings)
    table = TableServer(service, settings)
    table.start()
    yield service, table
    await table.stop()
    await client.aclose()


async def test_a_change_in_one_process_reaches_the_tables_of_another(
    service: GameService,
    table: TableServer,
    other: tuple[GameService, TableServer],
) -> None:
    game_id = await open_lobby(service)
    _, other_table = other
    client = await serve(other_table)
    try:
        watcher = await opened(client, BORIS, game_id)
        # The join is committed by the first process; the table is open in the second.
        await service.join(CHAT, None, game_id, ANDREI)
        view = await watcher.view_where(lambda v: len(v["lobby"]["seats"]) == 2)
        assert view["lobby"]["seats"][1]["name"] == "Андрей"
        # And the other way round: a table's action there reaches a table here.
        here = await serve(table)
        try:
            creator = await opened(here, IRINA, game_id)
            joiner = await opened(client, BORIS, game_id)
            assert (await joiner.act(game_id, "join"))["type"] == "done"
            seen = await creator.view_where(lambda v: len(v["lobby"]["seats"]) == 3)
            assert seen["lobby"]["seats"][2]["name"] == "Борис"
        finally:
            await here.close()
    finally:
        await client.close()
    # A process follows a chat's channel only while a table of it is open there.
    await until_async(lambda: not other_table.feed._listener.following, "the channel left")  # type: ignore[union-attr]


async def test_the_embedded_store_pushes_in_process_and_publishes_nothing(key_prefix: str) -> None:
    redis = FakeAsyncRedis()
    settings = make_settings(key_prefix)
    service = GameService(Store(redis, Keys(key_prefix)), settings)
    table = TableServer(service, settings)
    table.start()
    assert not service.store.tables.shared
    published: list[str] = []
    redis.publish = lambda channel, message: published.append(message)  # type: ignore[method-assign,assignment,return-value]
    client = await serve(table)
    try:
        game_id = await open_lobby(service)
        watcher = await opened(client, BORIS, game_id)
        await service.join(CHAT, None, game_id, ANDREI)
        await watcher.view_where(lambda v: len(v["lobby"]["seats"]) == 2)
        assert published == []
    finally:
        await client.close()
        await table.stop()
        await redis.aclose()
