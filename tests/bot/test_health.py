"""/healthz, /metrics and the webhook's /telegram in-process; the metrics of a game played."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import AsyncIterator
from typing import Any

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer
from pydantic import ValidationError
from redis.asyncio import Redis
from telegram import Update
from telegram.error import Conflict

from bot import metrics
from bot.__main__ import SPLIT_BRAIN, Runner, Stopped
from bot.app import build_application
from bot.settings import Settings, describe_error
from bot.telegram import metered
from bot.web import SECRET_HEADER, Health, make_app
from tests.bot.conftest import Harness
from tests.support.clocks import ManualClock
from tests.test_deploy import METRICS

TOKEN = "123456:ABCdefGHIjklMNOpqrSTUvwxYZ0123456789"


class Clock(ManualClock):
    def __init__(self) -> None:
        super().__init__(1000.0)


def dead_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])  # closed again: nothing listens there


def settings(**values: Any) -> Settings:
    return Settings(telegram_bot_token=TOKEN, _env_file=None, **values)  # type: ignore[arg-type,call-arg]


@pytest.fixture
async def redis(redis_url: str) -> AsyncIterator[Redis]:
    client = Redis.from_url(redis_url)
    yield client
    await client.aclose()


@pytest.fixture
async def dead_redis() -> AsyncIterator[Redis]:
    client = Redis(host="127.0.0.1", port=dead_port(), socket_connect_timeout=0.5)
    yield client
    await client.aclose()


async def serve(app: web.Application) -> TestClient:  # type: ignore[type-arg]
    client: TestClient = TestClient(TestServer(app))  # type: ignore[type-arg]
    await client.start_server()
    return client


def answered(clock: Clock) -> metrics.Contact:
    contact = metrics.Contact(clock)
    contact.record(True)
    return contact


async def test_healthz_is_200_while_redis_and_telegram_answer(redis: Redis) -> None:
    clock = Clock()
    contact = answered(clock)
    clock.now += 3.24
    client = await serve(make_app(Health(redis, contact)))
    try:
        response = await client.get("/healthz")
        assert response.status == 200
        assert await response.json() == {
            "redis": "ok",
            "telegram": "ok",
            "last_ok_seconds": 3.2,
            "updates": "ok",
        }
    finally:
        await client.close()


async def test_healthz_is_503_when_redis_does_not_answer(dead_redis: Redis) -> None:
    client = await serve(make_app(Health(dead_redis, answered(Clock()))))
    try:
        started = asyncio.get_running_loop().time()
        response = await client.get("/healthz")
        assert asyncio.get_running_loop().time() - started < 3  # the ping's timeout is short
        assert response.status == 503
        body = await response.json()
        assert body["redis"] == "down" and body["telegram"] == "ok"
    finally:
        await client.close()


async def test_healthz_is_503_when_telegram_failed_for_long(redis: Redis) -> None:
    clock = Clock()
    contact = answered(clock)
    client = await serve(make_app(Health(redis, contact, recent=300)))
    try:
        clock.now += 60
        contact.record(False)  # a failure a minute after the last answer: not yet down
        assert (await client.get("/healthz")).status == 200
        clock.now += 241  # its last answer is now more than five minutes old
        response = await client.get("/healthz")
        assert response.status == 503
        assert await response.json() == {
            "redis": "ok",
            "telegram": "down",
            "last_ok_seconds": 301.0,
            "updates": "ok",
        }
        contact.record(True)  # answered again
        assert (await client.get("/healthz")).status == 200
    finally:
        await client.close()


async def test_an_idle_bot_whose_last_call_went_through_is_healthy(redis: Redis) -> None:
    clock = Clock()
    contact = answered(clock)
    clock.now += 7200  # hours without a call (a webhook bot with nothing to do)
    assert await Health(redis, contact).check() == (
        True,
        {"redis": "ok", "telegram": "ok", "last_ok_seconds": 7200.0, "updates": "ok"},
    )
    assert (await Health(redis, metrics.Contact(clock)).check())[0] is False  # never answered


async def test_metrics_serve_every_name_and_count_active_games(redis: Redis) -> None:
    async def active_games() -> int:
        return 7

    client = await serve(make_app(Health(redis), active_games=active_games))
    try:
        response = await client.get("/metrics")
        assert response.status == 200
        assert response.headers["Content-Type"].startswith("text/plain")
        text = await response.text()
        for name in sorted(METRICS):
            assert name in text, name
        assert "domino_active_games 7.0" in text
        assert 'domino_delivery_lag_seconds_bucket{le="1.0",target="hand"}' in text
        assert (await client.post("/telegram", data=b"{}")).status == 404  # polling: no webhook
    finally:
        await client.close()


async def test_the_webhook_takes_updates_only_with_the_secret(
    redis: Redis, caplog: pytest.LogCaptureFixture
) -> None:
    application = build_application(
        settings(webhook_url="https://example.org", redis_url="redis://127.0.0.1:1/0"), redis
    )
    assert application.updater is None  # our server takes the updates
    client = await serve(make_app(Health(redis), application=application, secret="s3cret_-X"))
    update = {
        "update_id": 5,
        "message": {
            "message_id": 1,
            "date": 0,
            "chat": {"id": 42, "type": "private"},
            "from": {"id": 42, "is_bot": False, "first_name": "A"},
            "text": "hi",
        },
    }
    forbidden = metrics.value("domino_errors_total", kind="webhook_forbidden")
    try:
        assert (await client.post("/telegram", json=update)).status == 403
        wrong = {SECRET_HEADER: "s3cret_-Y"}
        assert (await client.post("/telegram", json=update, headers=wrong)).status == 403
        assert metrics.value("domino_errors_total", kind="webhook_forbidden") == forbidden + 2
        assert application.update_queue.empty()
        right = {SECRET_HEADER: "s3cret_-X"}
        assert (await client.post("/telegram", data=b"not json", headers=right)).status == 400
        bad = metrics.value("domino_errors_total", kind="webhook_bad_update")
        # JSON, but no update object: refused, nothing queued, one line each in the log.
        for body in (b"[1,2]", b"null", b"1", b'"x"', b'{"update_id": "7"}', b"{}"):
            caplog.clear()
            answer = await client.post("/telegram", data=body, headers=right)
            assert answer.status == 400, body
            lines = [r for r in caplog.records if r.name == "bot.web"]
            assert [r.getMessage() for r in lines] == ["webhook: not an update (ValueError)"]
            assert lines[0].exc_info is None  # one line, no traceback
        assert metrics.value("domino_errors_total", kind="webhook_bad_update") == bad + 6
        assert application.update_queue.empty()
        assert (await client.post("/telegram", json=update, headers=right)).status == 200
        got = application.update_queue.get_nowait()
        assert isinstance(got, Update) and got.update_id == 5 and got.message is not None
        assert (await client.get("/healthz")).status in (200, 503)
    finally:
        await client.close()


@pytest.mark.parametrize("bad", ["has space", "é", "x" * 257, "semi;colon"])
def test_a_webhook_secret_telegram_would_refuse_is_refused_without_echoing_it(bad: str) -> None:
    with pytest.raises(ValidationError) as caught:
        settings(webhook_secret=bad)
    line = describe_error(caught.value)
    assert line.startswith("WEBHOOK_SECRET must be 1-256 characters")
    assert bad not in line
    assert settings(webhook_secret="A-z_09" * 40).webhook_secret is not None
    assert settings(webhook_secret="").webhook_secret is None


async def test_a_conflict_stops_polling_only_with_the_embedded_store() -> None:
    conflict = Conflict("terminated by other getUpdates request")
    embedded = Runner(build_application(settings()), settings())
    embedded._polling_failed(conflict)
    assert embedded.stopping.is_set()
    assert isinstance(embedded.fatal, Stopped) and str(embedded.fatal) == SPLIT_BRAIN
    with_redis = settings(redis_url="redis://127.0.0.1:6379/0")
    shared = Runner(build_application(with_redis, Redis()), with_redis)
    shared._polling_failed(conflict)
    assert not shared.stopping.is_set() and shared.fatal is None


def test_update_kinds() -> None:
    def update(**fields: Any) -> Update:
        return Update.de_json({"update_id": 1, **fields}, None)

    user = {"id": 1, "is_bot": False, "first_name": "A"}
    message = {"message_id": 1, "date": 0, "chat": {"id": 1, "type": "private"}, "from": user}
    command = {
        **message,
        "text": "/start",
        "entities": [{"type": "bot_command", "offset": 0, "length": 6}],
    }
    assert metered.update_kind(update(message={**message, "text": "hi"})) == "message"
    assert metered.update_kind(update(message=command)) == "command"
    query = {"id": "q", "from": user, "chat_instance": "c", "data": "x"}
    assert metered.update_kind(update(callback_query=query)) == "callback"
    assert metered.update_kind(object()) == "other"


async def test_a_game_moves_the_counters(h: Harness) -> None:
    def value(name: str, **labels: str) -> float:
        return metrics.value(name, **labels)

    before = {
        "started": value("domino_games_started_total", variant="fives"),
        "moves": value("domino_moves_total", variant="fives"),
        "finished": value("domino_games_finished_total", variant="fives"),
        "photos": value("domino_telegram_calls_total", method="sendPhoto", outcome="ok"),
        "updates": value("domino_update_seconds_count"),
        "callbacks": value("domino_updates_total", kind="callback"),
        "commands": value("domino_updates_total", kind="command"),
        "board": value("domino_delivery_lag_seconds_count", target="board"),
        "hand": value("domino_delivery_lag_seconds_count", target="hand"),
        "waits": value("domino_rate_limit_wait_seconds_count"),
    }
    table = await h.table("fives")
    await table.play_turns(2)
    await h.settle()  # delivery done: the sweeper then takes the game `finish` hands over
    await h.delivery.idle()
    await h.finish(table.chat)
    await h.settle()
    assert value("domino_games_started_total", variant="fives") == before["started"] + 1
    assert value("domino_moves_total", variant="fives") >= before["moves"] + 3
    assert value("domino_games_finished_total", variant="fives") == before["finished"] + 1
    assert value("domino_telegram_calls_total", method="sendPhoto", outcome="ok") > before["photos"]
    assert value("domino_telegram_calls_total", method="getUpdates", outcome="ok") > 0
    assert value("domino_update_seconds_count") > before["updates"]
    assert value("domino_updates_total", kind="callback") > before["callbacks"]
    assert value("domino_updates_total", kind="command") > before["commands"]
    assert value("domino_delivery_lag_seconds_count", target="board") > before["board"]
    assert value("domino_delivery_lag_seconds_count", target="hand") > before["hand"]
    assert value("domino_rate_limit_wait_seconds_count") > before["waits"]


async def test_a_stopped_game_counts_as_abandoned(h: Harness) -> None:
    abandoned = metrics.value("domino_games_abandoned_total", variant="muggins")
    table = await h.table("muggins")
    await h.deps.service.stop(table.chat, None, (await table.game()).match.id, _person(table), True)
    assert metrics.value("domino_games_abandoned_total", variant="muggins") == abandoned + 1


def _person(table: Any) -> Any:
    from bot.game.people import Person

    return Person(table.users[0], "Андрей", "ru")
