"""The live table's feed on a Redis Cluster: sharded pub/sub on the chat's own channel,
in the chat's slot; a change committed by one process reaches another's table."""

from __future__ import annotations

from redis.asyncio import Redis
from redis.asyncio.cluster import RedisCluster
from redis.crc import key_slot

from bot.game.service import GameService
from bot.storage.connect import connect_redis
from bot.storage.keys import Keys
from bot.storage.store import Store
from bot.table import TableServer
from tests.cluster.conftest import TOKEN, RunningCluster, settings_for
from tests.table.conftest import ANDREI, BORIS, CHAT, connect, open_lobby, serve, signed


def test_a_chat_s_channel_lies_in_its_slot() -> None:
    keys = Keys("p")
    assert key_slot(keys.table_feed(CHAT).encode()) == key_slot(keys.game(CHAT, None).encode())


async def test_a_change_reaches_another_process_s_table_through_sharded_pub_sub(
    cluster: RunningCluster, cluster_client: Redis, cluster_prefix: str
) -> None:
    settings = settings_for(cluster.url, key_prefix=cluster_prefix)
    service = GameService(Store(cluster_client, Keys(cluster_prefix)), settings)
    assert isinstance(cluster_client, RedisCluster) and service.store.tables.sharded
    other_client, _ = connect_redis(settings)
    other_service = GameService(Store(other_client, Keys(cluster_prefix)), settings)
    other_table = TableServer(other_service, settings)
    other_table.start()
    table = TableServer(service, settings)  # publishes its service's changes
    table.start()
    client = await serve(other_table)
    try:
        game_id = await open_lobby(service)
        watcher = await connect(client, signed(BORIS, game_id, token=TOKEN))
        await watcher.next_of("view")
        await service.join(CHAT, None, game_id, ANDREI)
        view = await watcher.view_where(lambda v: len(v["lobby"]["seats"]) == 2, timeout=15)
        assert view["lobby"]["seats"][1]["name"] == "Андрей"
    finally:
        await client.close()
        await table.stop()
        await other_table.stop()
        await other_client.aclose()
