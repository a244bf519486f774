"""End-to-end fixtures: a fake Bot API server and the real bot process against it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.fakebotapi import FakeBotApi
from tests.support.bot_process import BotProcess, bot_environment, running


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
