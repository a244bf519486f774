"""The live table in process: a game service on the test's Redis prefix, a TableServer
on it, and its routes served by aiohttp's test server; people are signed init data."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

import pytest
from aiohttp import ClientResponse, ClientWebSocketResponse, WSMsgType, web
from aiohttp.test_utils import TestClient, TestServer
from redis.asyncio import Redis

from bot.game.options import LobbyAction
from bot.game.people import Person
from bot.game.service import GameService
from bot.settings import Settings
from bot.storage.keys import Keys
from bot.storage.store import Store
from bot.table import TableServer, add_routes
from tests.support.table import init_data

TOKEN = "123456:TEST-token-abcdefghijklmnopqrstuvwxyz123"
OTHER_BOT = "654321:OTHER-token-abcdefghijklmnopqrstuvwxyz12"
CHAT = -1001234567890
IRINA = Person(101, "Ирина", "ru")
ANDREI = Person(102, "Андрей", "ru")
BORIS = Person(103, "Борис", "en")


def make_settings(key_prefix: str) -> Settings:
    return Settings(  # type: ignore[call-arg]
        _env_file=None, telegram_bot_token=TOKEN, key_prefix=key_prefix
    )


@pytest.fixture
def settings(key_prefix: str) -> Settings:
    return make_settings(key_prefix)


@pytest.fixture
def service(redis_client: Redis, key_prefix: str, settings: Settings) -> GameService:
    return GameService(Store(redis_client, Keys(key_prefix)), settings)


@pytest.fixture
async def table(service: GameService, settings: Settings) -> AsyncIterator[TableServer]:
    server = TableServer(service, settings)
    server.start()
    yield server
    await server.stop()


async def serve(table: TableServer) -> TestClient:  # type: ignore[type-arg]
    app = web.Application()
    add_routes(app, table)
    client = TestClient(TestServer(app))
    await client.start_server()
    return client


@pytest.fixture
async def client(table: TableServer) -> AsyncIterator[TestClient]:  # type: ignore[type-arg]
    found = await serve(table)
    yield found
    await found.close()


async def open_lobby(service: GameService, creator: Person = IRINA) -> str:
    """A lobby in CHAT whose creator sits in it (he opened the private chat); its id."""
    await service.store.prefs.mark_started(creator.user_id)
    current, _ = await service.new_game(CHAT, None, creator, "fives", "Домино")
    return current.match.id


async def started(service: GameService) -> str:
    """Ирина's lobby in CHAT, Андрей joined and the match started; its id."""
    game_id = await open_lobby(service)
    await service.join(CHAT, None, game_id, ANDREI)
    await service.lobby_action(CHAT, None, game_id, LobbyAction.START, "", IRINA, False)
    return game_id


def signed(person: Person, game_id: str, token: str = TOKEN, **more: Any) -> str:
    return init_data(token, person.user_id, person.name, game_id, language_code=person.lang, **more)


class Peer:
    """A table's socket as a test reads it: messages by kind, in order; one read looking
    for another kind keeps what it passed over."""

    def __init__(self, socket: ClientWebSocketResponse) -> None:
        self.socket = socket
        self.kept: list[dict[str, Any]] = []

    @property
    def close_code(self) -> int | None:
        return self.socket.close_code

    async def send(self, text: str) -> None:
        await self.socket.send_str(text)

    async def close(self) -> None:
        await self.socket.close()

    async def closed(self, timeout: float = 10) -> tuple[int | None, str]:
        """The close that must come next on the socket: its code and reason."""
        message = await self.socket.receive(timeout=timeout)
        assert message.type == WSMsgType.CLOSE, message
        return self.close_code, str(message.extra)

    async def next_of(self, kind: str, check: Any = None, timeout: float = 10) -> dict[str, Any]:
        """The next message of `kind` ("answer": done or refused) that `check` accepts."""

        kinds = ("done", "refused") if kind == "answer" else (kind,)

        def fits(data: dict[str, Any]) -> bool:
            return data["type"] in kinds and (check is None or check(data))

        for index, data in enumerate(self.kept):
            if fits(data):
                del self.kept[: index + 1]
                return data

        async def read() -> dict[str, Any]:
            while True:
                message = await self.socket.receive()
                if message.type != WSMsgType.TEXT:
                    raise AssertionError(f"the socket closed ({self.close_code}) before a {kind}")
                data = json.loads(message.data)
                if fits(data):
                    return dict(data)
                self.kept.append(data)

        return await asyncio.wait_for(read(), timeout)

    async def view_where(self, check: Any, timeout: float = 10) -> dict[str, Any]:
        """The first view pushed that `check` accepts."""
        found = await self.next_of("view", lambda data: check(data["view"]), timeout)
        return dict(found["view"])

    async def act(self, game_id: str, name: str, value: str = "", ask: int = 1) -> dict[str, Any]:
        """Ask for an action; its answer (done or refused)."""
        message = {"type": "action", "id": ask, "game": game_id, "action": name, "value": value}
        await self.send(json.dumps(message))
        return await self.next_of("answer", lambda data: data.get("id") == ask)


async def view_asked(
    client: TestClient,  # type: ignore[type-arg]
    data: str,
    query: str = "",
) -> ClientResponse:
    """The view API's answer to a request signed with init data `data`."""
    return await client.get(f"/table/api/view{query}", headers={"Authorization": f"tma {data}"})


async def connect(
    client: TestClient,  # type: ignore[type-arg]
    data: str,
    **options: Any,
) -> Peer:
    socket = await client.ws_connect("/table/ws", **options)
    await socket.send_str(json.dumps({"type": "hello", "init_data": data}))
    return Peer(socket)


async def opened(
    client: TestClient,  # type: ignore[type-arg]
    person: Person,
    game_id: str,
) -> Peer:
    """`person`'s table of `game_id`, connected and shown its first view."""
    peer = await connect(client, signed(person, game_id))
    await peer.next_of("view")
    return peer
