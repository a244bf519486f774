"""End-to-end fixtures: a fake Bot API server and the real bot process against it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.e2e.harness import BotProcess, bot_environment
from tests.fakebotapi import FakeBotApi


@pytest.fixture
def api() -> Iterator[FakeBotApi]:
    with FakeBotApi() as server:
        yield server


@pytest.fixture
def bot_env(api: FakeBotApi, redis_url: str, key_prefix: str) -> dict[str, str]:
    return bot_environment(api, redis_url, key_prefix)


@pytest.fixture
def bot(api: FakeBotApi, bot_env: dict[str, str], tmp_path: Path) -> Iterator[BotProcess]:
    process = BotProcess(bot_env, tmp_path / "bot.log").start()
    try:
        process.wait_ready(api)
        yield process
    finally:
        process.stop()
        log = process.log()
        assert bot_env["TELEGRAM_BOT_TOKEN"] not in log, "the token leaked into the log"
        assert "Traceback" not in log, log[-4000:]
