"""End-to-end fixtures: a fake Bot API server and the real bot process against it."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.fakebotapi import FakeBotApi
from tests.support.bot_process import BotProcess, bot_environment, running
from tests.support.redis_server import RedisServer, free_port


@pytest.fixture
def api() -> Iterator[FakeBotApi]:
    with FakeBotApi() as server:
        yield server


@pytest.fixture
def bot_env(api: FakeBotApi, redis_url: str, key_prefix: str) -> dict[str, str]:
    return bot_environment(api, redis_url, key_prefix)


@pytest.fixture
def bot(bot_env: dict[str, str], tmp_path: Path) -> Iterator[BotProcess]:
    """The bot, ready; stopped at the end, its log free of the token and of tracebacks."""
    with running(bot_env, tmp_path / "bot.log", timeout=20) as process:
        yield process


@pytest.fixture
def started() -> Iterator[list[BotProcess]]:
    """Bot processes a test starts; stopped (and their logs checked) at its end."""
    bots: list[BotProcess] = []
    yield bots
    for bot in bots:
        bot.stop()
    for bot in bots:
        bot.check_log()


@dataclass
class OwnRedis:
    """A bot (ready, /healthz at `base`) on a Redis server of its own, to stop and start."""

    server: RedisServer
    base: str


@pytest.fixture
def own_redis(
    api: FakeBotApi, key_prefix: str, tmp_path: Path, started: list[BotProcess]
) -> Iterator[OwnRedis]:
    server = RedisServer().start()
    try:
        port = free_port()
        env = bot_environment(api, server.url, key_prefix, HEALTH_PORT=str(port))
        bot = BotProcess(env, tmp_path / "bot.log").start()
        started.append(bot)
        bot.wait_ready()
        yield OwnRedis(server, f"http://127.0.0.1:{port}")
    finally:
        for bot in started:
            bot.stop()
        server.remove()
