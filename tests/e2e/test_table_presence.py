"""The real bot process with a person at the live table (docs/table.md, "Fewer Bot API
calls"): while his table is connected, his turn costs no call to his private chat; when
it closes, his hand message catches up in one call. The other person, on the buttons,
gets his calls as ever."""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
import redis

from engine import unpack
from tests.fakebotapi import FakeBotApi
from tests.support.bot_process import BotProcess, serving_table_environment
from tests.support.players import Human, open_table
from tests.support.redis_server import free_port
from tests.support.table import init_data
from tests.support.waiting import until_async

HAND_CALLS = ["sendPhoto", "editMessageMedia", "editMessageCaption", "editMessageReplyMarkup"]
SHOWS = ["sendPhoto", "editMessageMedia"]


@pytest.fixture
def port() -> int:
    return free_port()


@pytest.fixture
def bot_env(api: FakeBotApi, redis_url: str, key_prefix: str, port: int) -> dict[str, str]:
    return serving_table_environment(api, redis_url, key_prefix, port)


@pytest.fixture
async def store(redis_url: str) -> AsyncIterator[redis.asyncio.Redis]:
    client = redis.asyncio.Redis.from_url(redis_url)
    yield client
    await client.aclose()


class Stored:
    def __init__(self, client: redis.asyncio.Redis, prefix: str, chat: int) -> None:
        self.client, self.prefix, self.chat = client, prefix, chat

    async def _get(self, name: str) -> dict[str, Any] | None:
        raw = await self.client.get(f"{self.prefix}:{{c{self.chat}}}:{name}")
        return None if raw is None else dict(json.loads(raw))

    async def match(self) -> dict[str, Any]:
        found = await self._get("game:0")
        assert found is not None
        return found

    async def to_act(self) -> int | None:
        match = await self.match()
        turn = unpack(match["engine"]).turn
        return None if turn is None else int(match["seats"][turn]["user_id"])

    async def hand_shows(self, seat: int) -> str:
        found = await self._get(f"hand:0:{seat}")
        return "" if found is None else str(found.get("shows", ""))


async def move_by_buttons(api: FakeBotApi, stored: Stored, human: Human) -> None:
    """One move of `human` (it is his turn) by his private chat's buttons."""
    rev = (await stored.match())["rev"]

    async def moved() -> bool:
        await asyncio.to_thread(human.act)
        return bool((await stored.match())["rev"] > rev)

    await until_async(moved, "his move", timeout=20, every=0.1)


async def test_no_hand_call_while_the_table_is_open_and_one_when_it_closes(
    api: FakeBotApi, bot: BotProcess, store: redis.asyncio.Redis, key_prefix: str, port: int
) -> None:
    group, people, _ = await asyncio.to_thread(open_table, api, "fives", "hh")
    andrei, irina = people
    stored = Stored(store, key_prefix, group)
    await until_async(lambda: _has_engine(stored), "the game started")
    humans = {user: Human(api, user, random.Random(user)) for user in people}
    # Ирина opens the table while Андрей is to act (her own first turn by the buttons).
    if await stored.to_act() == irina:
        await move_by_buttons(api, stored, humans[irina])
    match = await stored.match()
    seats = [seat["user_id"] for seat in match["seats"]]
    data = init_data(api.token, irina, "Ирина", match["id"])

    async def hers_shown() -> bool:  # her waiting hand, sent (no call of hers under way)
        return (await stored.hand_shows(seats.index(irina))).startswith("P:")

    await until_async(hers_shown, "her waiting hand")

    async with aiohttp.ClientSession() as session:
        socket = await session.ws_connect(f"http://127.0.0.1:{port}/table/ws")
        await socket.send_str(json.dumps({"type": "hello", "init_data": data}))
        views: list[dict[str, Any]] = []
        reader = asyncio.create_task(_read(socket, views))
        await until_async(lambda: _async(bool(views)), "her first view")
        before = api.count_calls(HAND_CALLS, irina)
        andrei_before = api.count_calls(HAND_CALLS, andrei)

        while await stored.to_act() == andrei:  # his turn (draws keep it) until hers
            await move_by_buttons(api, stored, humans[andrei])
        now = await stored.match()
        version, rev = unpack(now["engine"]).version, now["rev"]

        async def others_shown() -> bool:
            # Андрей's hand (and the board) show her turn: hers would have gone with them.
            shows = await stored.hand_shows(seats.index(andrei))
            return shows.startswith("P:") and api.count_calls(HAND_CALLS, andrei) > andrei_before

        await until_async(others_shown, "Андрей's hand after his move")
        await until_async(lambda: _async(_seen(views, rev)), "the table's view of her turn")

        async def board_shown() -> bool:  # paced: her hand would have gone well before
            group = await stored._get("group:0")
            return group is not None and group["board"].get("shows_version") == version

        await until_async(board_shown, "the board of her turn")
        assert api.count_calls(HAND_CALLS, irina) == before  # her turn: no call
        assert not _live_at(await stored.hand_shows(seats.index(irina)), version)

        closed_at = time.time()  # the fake's clock
        await socket.close()
        reader.cancel()

    async def caught_up() -> bool:
        return _live_at(await stored.hand_shows(seats.index(irina)), version)

    await until_async(caught_up, "her hand caught up", timeout=20)
    made = [c for c in api.calls(HAND_CALLS, irina)[before:] if c.method in SHOWS]
    assert [c.method for c in made] == ["sendPhoto"]  # her turn, with its buttons: one message
    assert made[0].time >= closed_at  # once the table closed
    assert humans[irina].hand() is not None


async def _has_engine(stored: Stored) -> bool:
    raw = await stored._get("game:0")
    return raw is not None and raw.get("engine") is not None


def _live_at(shows: str, version: int) -> bool:
    """Whether a hand record shows the live hand of her turn at `version` (A:round:start:v:chat)."""
    parts = shows.split(":")
    return parts[0] == "A" and len(parts) > 3 and parts[3] == str(version)


def _seen(views: list[dict[str, Any]], rev: int) -> bool:
    return any(view.get("version", -1) >= rev for view in views)


async def _read(socket: aiohttp.ClientWebSocketResponse, views: list[dict[str, Any]]) -> None:
    async for message in socket:
        if message.type == aiohttp.WSMsgType.TEXT:
            data = json.loads(message.data)
            if data.get("type") == "view":
                views.append(data["view"])


async def _async(value: bool) -> bool:
    return value
