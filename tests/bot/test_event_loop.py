"""The bot's event loop (bot.event_loop): uvloop's by default, asyncio's on request or
where uvloop is missing, and the bot's own process says which one it runs."""

from __future__ import annotations

import asyncio
import logging
import sys

import pytest
import uvloop

from bot.event_loop import loop_factory, loop_name
from bot.settings import Settings

TOKEN = "123456:TEST-token-abcdefghijklmnopqrstuvwxyz123"


def test_uvloop_is_the_default() -> None:
    settings = Settings(_env_file=None, telegram_bot_token=TOKEN)  # type: ignore[call-arg]
    assert settings.event_loop == "uvloop"
    factory = loop_factory(settings.event_loop)
    assert factory is uvloop.new_event_loop
    with asyncio.Runner(loop_factory=factory) as runner:
        assert loop_name(runner.get_loop()) == "uvloop"


def test_asyncio_s_loop_on_request() -> None:
    assert loop_factory("asyncio") is None
    with asyncio.Runner() as runner:
        assert loop_name(runner.get_loop()) == "asyncio"


def test_without_uvloop_asyncio_s_loop_and_a_warning(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setitem(sys.modules, "uvloop", None)  # import uvloop raises ImportError
    with caplog.at_level(logging.WARNING, logger="bot.event_loop"):
        assert loop_factory("uvloop") is None
    assert "uvloop is not installed" in caplog.text
