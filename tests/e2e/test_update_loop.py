"""The update loop of the real bot process: /healthz sees it stall (updates wait, none is
handled) or its poller die, and an update delivered twice (to one process or to two behind a
load balancer) is handled once."""

from __future__ import annotations

import json
import time
import uuid
from pathlib import Path

import pytest

from tests.fakebotapi import Balancer, FakeBotApi
from tests.support.bot_process import BotProcess, bot_environment
from tests.support.http import health, post, scrape, series
from tests.support.redis_server import free_port
from tests.support.waiting import until

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
HELP = "Домино для групповых чатов"


def webhook_bot(
    api: FakeBotApi,
    redis_url: str,
    key_prefix: str,
    log: Path,
    port: int,
    url: str,
    secret: str,
    **overrides: str,
) -> BotProcess:
    env = bot_environment(
        api,
        redis_url,
        key_prefix,
        WEBHOOK_URL=url,
        WEBHOOK_LISTEN="127.0.0.1",
        WEBHOOK_PORT=str(port),
        WEBHOOK_SECRET=secret,
        **overrides,
    )
    return BotProcess(env, log).start()


@pytest.mark.timing
def test_healthz_turns_when_updates_wait_and_none_is_handled(
    api: FakeBotApi, redis_url: str, key_prefix: str, tmp_path: Path, started: list[BotProcess]
) -> None:
    """One update at a time, and its answer hangs (Telegram holds it 35 s): the next update
    waits, nothing finishes, and /healthz says so within 30 s; once the answer comes the
    loop moves and /healthz is back to ok."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    bot = webhook_bot(
        api,
        redis_url,
        key_prefix,
        tmp_path / "bot.log",
        port,
        base,
        uuid.uuid4().hex,
        CONCURRENT_UPDATES="1",
        TELEGRAM_TIMEOUT_SECONDS="60",
    )
    started.append(bot)
    bot.wait_ready()
    assert health(base, 200)["updates"] == "ok"
    user = api.add_user("Андрей", language_code="ru", started=True)
    api.delay_answers("sendMessage", user, seconds=35)
    first = api.send_text(user, user, "/help")
    until(lambda: api.calls("sendMessage", user), "the answer to /help under way", 20)
    second = api.send_text(user, user, "/rules")
    api.wait_delivered(timeout=20)  # the bot has it: it waits in the bot's queue
    waiting_since = time.monotonic()

    stalled = health(base, 503, timeout=30)
    assert time.monotonic() - waiting_since <= 30
    assert stalled["updates"] == "stalled", stalled
    assert stalled["updates_waiting"] == 1 and stalled["redis"] == "ok"
    assert isinstance(stalled["oldest_waiting_seconds"], float)
    assert stalled["oldest_waiting_seconds"] >= 20

    # The answer comes: the loop takes the waiting update up again.
    api.wait_message(user, after=first, where=lambda m: (m.text or "").startswith(HELP), timeout=40)
    api.wait_message(user, after=second, timeout=20)
    assert health(base, 200)["updates"] == "ok"


def test_healthz_turns_when_the_poller_dies(
    api: FakeBotApi, bot_env: dict[str, str], tmp_path: Path, started: list[BotProcess]
) -> None:
    """getUpdates answers 401 (the token was revoked): python-telegram-bot's poller ends for
    good. Nothing fetches updates any more; /healthz says so within 30 s."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    bot = BotProcess(dict(bot_env, HEALTH_PORT=str(port)), tmp_path / "bot.log").start()
    started.append(bot)
    bot.wait_ready()
    assert health(base, 200)["updates"] == "ok"
    api.inject_error("getUpdates", error_code=401, description="Unauthorized")
    until(lambda: api.calls("getUpdates", ok=False), "the refused getUpdates", 20)
    died = time.monotonic()
    gone = health(base, 503, timeout=30)
    assert time.monotonic() - died <= 30
    assert gone["updates"] == "not fetched", gone
    assert gone["telegram"] == "ok"  # Telegram answered a moment ago: only the loop is down


def test_an_update_delivered_twice_is_handled_once_across_processes(
    api: FakeBotApi, redis_url: str, key_prefix: str, tmp_path: Path, started: list[BotProcess]
) -> None:
    """Two webhook processes behind a load balancer. Telegram sends an update again when its
    answer was slow: here the copy lands on the other process, and a third on the first."""
    ports = [free_port(), free_port()]
    bases = [f"http://127.0.0.1:{port}" for port in ports]
    secret = uuid.uuid4().hex
    with Balancer(bases) as balancer:
        for number, port in enumerate(ports):
            started.append(
                webhook_bot(
                    api,
                    redis_url,
                    key_prefix,
                    tmp_path / f"bot{number}.log",
                    port,
                    balancer.url,
                    secret,
                )
            )
        for bot, base in zip(started, bases, strict=True):
            bot.wait_ready()
            health(base, 200)  # listening (it says it is ready a moment before)
        user = api.add_user("Андрей", language_code="ru", started=True)
        sent = api.send_text(user, user, "/help")
        api.wait_message(user, after=sent, where=lambda m: (m.text or "").startswith(HELP))
        (update,) = [u for u in api.all_updates() if u.get("message", {}).get("message_id") == sent]
        took = balancer.forwarded
        signed = {SECRET_HEADER: secret, "Content-Type": "application/json"}
        for _ in range(2):  # round robin: to the other process, then to the first again
            assert post(f"{balancer.url}/telegram", json.dumps(update).encode(), signed) == 200
        assert all(balancer.forwarded[b] > took[b] for b in bases), balancer.forwarded

        def copies() -> float:
            return sum(
                series(scrape(base), "domino_errors_total", kind="duplicate_update")
                for base in bases
            )

        def answers() -> int:
            found = api.messages(user, from_bot=True)
            return len([m for m in found if (m.text or "").startswith(HELP)])

        until(lambda: copies() >= 2 or answers() > 1, "both copies handled", 20)
        assert answers() == 1
        assert copies() == 2
