"""Who sits at the table, as the open tables of this process note it (bot.table.presence):
present from the hello, renewed while open, gone when his last connection here closes
(and the delivery told, so that his hand message catches up)."""

from __future__ import annotations

from aiohttp.test_utils import TestClient

from bot.game.service import GameService
from bot.table import TableServer
from bot.table.presence import LAPSE
from tests.support.waiting import until_async
from tests.table.conftest import CHAT, IRINA, open_lobby, opened


async def present(service: GameService, game_id: str, user_id: int, now: float) -> bool:
    found = await service.store.presence.present(CHAT, None, game_id, [user_id], now)
    return user_id in found


async def test_an_open_table_is_present_until_its_last_connection_closes(
    client: TestClient,  # type: ignore[type-arg]
    table: TableServer,
    service: GameService,
) -> None:
    game_id = await open_lobby(service)
    closed: list[tuple[int, int | None]] = []
    table.presence.on_closed = lambda chat_id, thread_id: closed.append((chat_id, thread_id))
    first = await opened(client, IRINA, game_id)
    second = await opened(client, IRINA, game_id)
    now = table.clock()
    assert await present(service, game_id, IRINA.user_id, now)
    assert not await present(service, game_id, IRINA.user_id, now + LAPSE + 1)  # unless renewed

    await table.presence.renew()
    assert await present(service, game_id, IRINA.user_id, table.clock() + LAPSE - 1)

    await first.close()
    await until_async(lambda: _async(len(table.hub.tables.get((CHAT, None), ())) == 1), "1 open")
    assert await present(service, game_id, IRINA.user_id, table.clock())  # one is still open
    assert closed == []

    await second.close()

    async def gone() -> bool:
        return not await present(service, game_id, IRINA.user_id, table.clock())

    await until_async(gone, "her presence gone")
    await until_async(lambda: _async(closed == [(CHAT, None)]), "the delivery told")


async def _async(value: bool) -> bool:
    return value
