"""Webhook bodies nested past the recursion limit: 400 and one line in the log, like any
other body that is no update; an update up to `MAX_NESTING` levels deep is taken."""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer
from redis.asyncio import Redis
from telegram import Update

from bot import metrics
from bot.app import build_application
from bot.settings import Settings
from bot.web import MAX_NESTING, SECRET_HEADER, Health, make_app, nesting

TOKEN = "123456:ABCdefGHIjklMNOpqrSTUvwxYZ0123456789"
SIGNED = {SECRET_HEADER: "s3cret", "Content-Type": "application/json"}
REFUSED = f"webhook: not an update (nested deeper than {MAX_NESTING} levels)"


def reply_chain(replies: int) -> dict[str, Any]:
    chat = {"id": 42, "type": "private"}
    message: dict[str, Any] = {"message_id": 1, "date": int(time.time()), "chat": chat}
    for number in range(replies):
        message = {"message_id": number + 2, "date": 0, "chat": chat, "reply_to_message": message}
    return {"update_id": 7, "message": message}


def nested_array(levels: int) -> list[Any]:
    found: list[Any] = []
    for _ in range(levels - 1):
        found = [found]
    return found


@pytest.fixture
async def client(redis_url: str) -> AsyncIterator[tuple[TestClient, Any]]:  # type: ignore[type-arg]
    redis = Redis.from_url(redis_url)
    settings = Settings(  # type: ignore[call-arg]
        telegram_bot_token=TOKEN,
        webhook_url="https://example.org",
        redis_url="redis://127.0.0.1:1/0",
        _env_file=None,
    )
    application = build_application(settings, redis)
    server: TestClient = TestClient(  # type: ignore[type-arg]
        TestServer(make_app(Health(redis), application=application, secret="s3cret"))
    )
    await server.start_server()
    yield server, application
    await server.close()
    await redis.aclose()


def test_nesting_counts_levels_of_objects_and_arrays_without_recursion() -> None:
    shapes = (1, "x", {}, [], {"a": 1}, {"a": [1, {"b": {}}]})
    assert [nesting(v) for v in shapes] == [0, 0, 1, 1, 1, 4]
    assert nesting(reply_chain(3)) == 6  # update, 4 messages, the innermost one's chat
    deep = nested_array(100_000)  # far past the recursion limit, walked only to the limit
    assert nesting(deep) == MAX_NESTING + 1
    assert nesting(nested_array(MAX_NESTING)) == MAX_NESTING


@pytest.mark.parametrize(
    "body",
    [
        b'{"update_id": 1, "x": ' + b"[" * 2000 + b"]" * 2000 + b"}",
        b"[" * 100_000,
        json.dumps(reply_chain(500)).encode(),
        json.dumps(reply_chain(MAX_NESTING - 2)).encode(),  # one level too deep
    ],
    ids=["2000-deep array", "[ x 100000", "500 replies", "one too deep"],
)
async def test_a_body_nested_too_deep_is_400_with_one_line(
    client: tuple[TestClient, Any],  # type: ignore[type-arg]
    caplog: pytest.LogCaptureFixture,
    body: bytes,
) -> None:
    server, application = client
    bad = metrics.value("domino_errors_total", kind="webhook_bad_update")
    caplog.clear()
    answer = await server.post("/telegram", data=body, headers=SIGNED)
    assert answer.status == 400
    records = [r for r in caplog.records if r.levelno >= 30]
    assert [r.getMessage() for r in records] == [REFUSED]
    assert records[0].exc_info is None
    assert metrics.value("domino_errors_total", kind="webhook_bad_update") == bad + 1
    assert application.update_queue.empty()


async def test_an_update_at_the_limit_is_taken_and_prints(
    client: tuple[TestClient, Any],  # type: ignore[type-arg]
) -> None:
    server, application = client
    update = reply_chain(MAX_NESTING - 3)
    assert nesting(update) == MAX_NESTING
    answer = await server.post("/telegram", data=json.dumps(update).encode(), headers=SIGNED)
    assert answer.status == 200
    got = application.update_queue.get_nowait()
    assert isinstance(got, Update) and got.update_id == 7
    assert "reply_to_message" in str(got)  # what the DEBUG log line prints
