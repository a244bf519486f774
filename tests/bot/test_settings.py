"""Configuration: a missing or malformed token is one clear line and exit status 2."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.logs import Redactor
from bot.settings import Settings

BAD_TOKEN = "12345:not-a-token!!"


def run_bot(env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "REDIS_"))}
    return subprocess.run(
        [sys.executable, "-m", "bot"],
        env={**clean, **env},
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_a_missing_token_is_named_in_one_line(tmp_path: Path) -> None:
    result = run_bot({}, tmp_path)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1
    assert "TELEGRAM_BOT_TOKEN" in lines[0]
    assert "Traceback" not in result.stderr


def test_a_malformed_token_is_refused_without_echoing_it(tmp_path: Path) -> None:
    result = run_bot({"TELEGRAM_BOT_TOKEN": BAD_TOKEN}, tmp_path)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "TELEGRAM_BOT_TOKEN" in lines[0]
    assert BAD_TOKEN not in result.stderr + result.stdout


def test_api_urls_follow_the_configured_server() -> None:
    settings = Settings(
        telegram_bot_token="123456:ABCdefGHIjklMNOpqrSTUvwxYZ0123456789",  # type: ignore[arg-type]
        telegram_api_url="http://127.0.0.1:8081/",
        _env_file=None,  # type: ignore[call-arg]
    )
    assert settings.api_base_url == "http://127.0.0.1:8081/bot"
    assert settings.api_file_url == "http://127.0.0.1:8081/file/bot"
    assert settings.redis_url is None


@pytest.mark.parametrize("where", ["message", "args", "traceback"])
def test_the_log_redactor_hides_secrets(where: str) -> None:
    import logging

    secret = "123456:ABCdefGHIjklMNOpqrSTUvwxYZ0123456789"
    redactor = Redactor([secret])
    if where == "traceback":
        try:
            raise RuntimeError(f"POST https://api.telegram.org/bot{secret}/getMe failed")
        except RuntimeError:
            record = logging.LogRecord("x", logging.ERROR, "f", 1, "boom", None, sys.exc_info())
    elif where == "args":
        record = logging.LogRecord("x", logging.INFO, "f", 1, "url %s", (f"bot{secret}/x",), None)
    else:
        record = logging.LogRecord("x", logging.INFO, "f", 1, f"bot{secret}", None, None)
    redactor.filter(record)
    text = record.getMessage() + (record.exc_text or "")
    assert secret not in text
    assert "<secret>" in text


def test_an_unreachable_bot_api_is_one_line_and_status_1(tmp_path: Path) -> None:
    env = {
        "TELEGRAM_BOT_TOKEN": "123456:ABCdefGHIjklMNOpqrSTUvwxYZ0123456789",
        "TELEGRAM_API_URL": "http://127.0.0.1:9",  # nothing listens on the discard port
        "STARTUP_RETRIES": "0",
    }
    result = run_bot(env, tmp_path)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("domino-bot: cannot reach the Bot API at http://127.0.0.1:9")
    assert env["TELEGRAM_BOT_TOKEN"] not in result.stderr


def test_an_unreachable_redis_is_one_line_without_its_password(tmp_path: Path) -> None:
    from tests.fakebotapi import FakeBotApi

    with FakeBotApi() as api:
        env = {
            "TELEGRAM_BOT_TOKEN": api.token,
            "TELEGRAM_API_URL": api.url,
            "REDIS_URL": "redis://user:hunter2@127.0.0.1:1/0",
            "REDIS_CONNECT_SECONDS": "0",  # one try: the waiting is tested in tests/cluster
        }
        result = run_bot(env, tmp_path)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("domino-bot: cannot reach Redis at 127.0.0.1:1")
    assert "hunter2" not in result.stderr and api.token not in result.stderr


def test_without_redis_url_the_embedded_store_is_announced_before_any_network(
    caplog: pytest.LogCaptureFixture,
) -> None:
    from bot.app import build_application

    settings = Settings(
        telegram_bot_token="123456:ABCdefGHIjklMNOpqrSTUvwxYZ0123456789",  # type: ignore[arg-type]
        telegram_api_url="http://127.0.0.1:9/",  # nothing listens: no call may be needed
        _env_file=None,  # type: ignore[call-arg]
    )
    with caplog.at_level("WARNING", logger="bot.app"):
        build_application(settings)
    notices = [r.getMessage() for r in caplog.records if "REDIS_URL" in r.getMessage()]
    assert notices and "in-memory" in notices[0]
