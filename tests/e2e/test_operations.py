"""Operating the real bot process: /healthz and /metrics, webhook mode, start-up failures
that say what failed, and no split brain."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

from tests.e2e.conftest import OwnRedis
from tests.fakebotapi import FakeBotApi
from tests.support.bot_process import BotProcess, Webhook, bot_environment
from tests.support.http import health, post, scrape, series
from tests.support.players import Human, open_table, play_to_the_end
from tests.support.redis_server import free_port
from tests.support.waiting import until

SPLIT_BRAIN = (
    "domino-bot: another bot process is polling this token; with the embedded store each "
    "process would keep its own games — set REDIS_URL, or run only one"
)


def run_bot(
    env: dict[str, str], cwd: Path, timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot"],
        env=env,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def last_line(result: subprocess.CompletedProcess[str]) -> str:
    assert "Traceback" not in result.stderr, result.stderr[-3000:]
    return result.stderr.strip().splitlines()[-1]


def without_redis(env: dict[str, str]) -> dict[str, str]:
    return {k: v for k, v in env.items() if k != "REDIS_URL"}


# -- long polling -----------------------------------------------------------------------------


def test_polling_serves_health_and_metrics_that_follow_a_game(
    api: FakeBotApi, redis_url: str, key_prefix: str, tmp_path: Path, started: list[BotProcess]
) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = bot_environment(api, redis_url, key_prefix, HEALTH_PORT=str(port))
    bot = BotProcess(env, tmp_path / "bot.log").start()
    started.append(bot)
    bot.wait_ready()
    assert "event loop: uvloop" in bot.log()  # the bot's default, on which it plays here
    body = health(base, 200)
    assert body["redis"] == "ok" and body["telegram"] == "ok"
    assert isinstance(body["last_ok_seconds"], float) and body["last_ok_seconds"] < 30
    before = scrape(base)
    assert series(before, "domino_moves_total", variant="muggins") == 0

    group, people, _ = open_table(api, "muggins", "hee")
    humans = [Human(api, user, random.Random(user)) for user in people]
    play_to_the_end(api, group, humans)
    api.wait_quiet()

    after = scrape(base)
    assert series(after, "domino_moves_total", variant="muggins") > 0
    assert series(after, "domino_games_started_total", variant="muggins") == 1
    assert series(after, "domino_games_finished_total", variant="muggins") == 1
    photos = series(after, "domino_telegram_calls_total", method="sendPhoto", outcome="ok")
    assert photos >= 2  # the board and the final table at least
    assert series(after, "domino_telegram_calls_total", method="getUpdates", outcome="ok") > 0
    assert series(after, "domino_updates_total", kind="callback") > 0
    assert series(after, "domino_updates_total", kind="command") >= 1
    assert series(after, "domino_update_seconds_count") > 0
    assert series(after, "domino_delivery_lag_seconds_count", target="board") > 0
    assert series(after, "domino_delivery_lag_seconds_count", target="hand") > 0
    assert series(after, "domino_rate_limit_wait_seconds_count") > 0
    assert ("domino_active_games", ()) in after
    assert photos == len(api.calls(method="sendPhoto", ok=True))


def test_healthz_follows_redis_going_away_and_coming_back(own_redis: OwnRedis) -> None:
    base = own_redis.base
    assert health(base, 200)["redis"] == "ok"

    own_redis.server.stop()
    down = health(base, 503)
    assert down["redis"] == "down" and down["telegram"] == "ok"

    own_redis.server.start()
    assert health(base, 200)["redis"] == "ok"


def test_a_conflict_with_redis_is_only_logged(
    api: FakeBotApi, bot_env: dict[str, str], tmp_path: Path, started: list[BotProcess]
) -> None:
    api.inject_error(
        "getUpdates",
        error_code=409,
        description="Conflict: terminated by other getUpdates request; make sure that only "
        "one bot instance is running",
    )
    bot = BotProcess(dict(bot_env, HEALTH_PORT="0"), tmp_path / "bot.log").start()
    started.append(bot)
    bot.wait_ready()
    until(lambda: "another process polls this token" in bot.log(), "the conflict logged")
    user = api.add_user("Андрей", language_code="ru")
    sent = api.send_text(user, user, "/help")
    api.wait_message(user, after=sent)  # still polling, still answering
    assert bot.process is not None and bot.process.poll() is None


def test_two_pollers_with_embedded_stores_stop_saying_why(
    api: FakeBotApi, bot_env: dict[str, str], tmp_path: Path, started: list[BotProcess]
) -> None:
    env = dict(without_redis(bot_env), HEALTH_PORT="0")
    first = BotProcess(env, tmp_path / "first.log").start()
    started.append(first)
    first.wait_ready()
    second = BotProcess(env, tmp_path / "second.log").start()
    started.append(second)
    assert first.process is not None
    code = first.process.wait(timeout=30)  # the second one's polling ends the first's
    assert code == 2
    assert SPLIT_BRAIN in first.log()


# -- webhook ---------------------------------------------------------------------------------


def test_webhook_serves_telegram_health_and_metrics_on_one_port(
    api: FakeBotApi, redis_url: str, key_prefix: str, tmp_path: Path, started: list[BotProcess]
) -> None:
    hook = Webhook.new()
    base, secret = hook.base, hook.secret
    env = bot_environment(
        api,
        redis_url,
        key_prefix,
        HEALTH_PORT=str(free_port()),  # not used in webhook mode
        **hook.settings(),
    )
    bot = BotProcess(env, tmp_path / "bot.log").start()
    started.append(bot)
    bot.wait_ready()
    assert health(base, 200)["telegram"] == "ok"
    until(lambda: api.calls(method="setWebhook"), "setWebhook")
    call = api.calls(method="setWebhook")[-1]
    assert call.ok
    assert call.params["url"] == f"{base}/telegram"
    assert call.params["secret_token"] == secret
    allowed = call.params["allowed_updates"]
    allowed = json.loads(allowed) if isinstance(allowed, str) else allowed
    assert allowed == ["message", "callback_query", "my_chat_member"]
    assert not api.calls(method="getUpdates")

    update = json.dumps({"update_id": 1, "message": {"message_id": 1, "date": 0}}).encode()
    assert post(f"{base}/telegram", update) == 403
    assert post(f"{base}/telegram", update, {"X-Telegram-Bot-Api-Secret-Token": "nope"}) == 403
    # JSON that is no update object: 400, one line in the log each, no traceback.
    signed = {"X-Telegram-Bot-Api-Secret-Token": secret}
    for body in (b"[1,2]", b"null", b"1", b'"x"'):
        assert post(f"{base}/telegram", body, signed) == 400, body
    refused = [line for line in bot.log().splitlines() if "webhook: not an update" in line]
    assert len(refused) == 4, refused

    group, people, _ = open_table(api, "twolane", "hee")
    humans = [Human(api, user, random.Random(user)) for user in people]
    play_to_the_end(api, group, humans)
    assert api.webhook_deliveries()  # the updates came through the webhook
    after = scrape(base)
    assert series(after, "domino_moves_total", variant="twolane") > 0
    assert series(after, "domino_games_finished_total", variant="twolane") == 1
    assert series(after, "domino_errors_total", kind="webhook_forbidden") == 2
    assert series(after, "domino_errors_total", kind="webhook_bad_update") == 4
    assert series(after, "domino_telegram_calls_total", method="setWebhook", outcome="ok") == 1


def test_webhook_without_redis_is_refused(api: FakeBotApi, tmp_path: Path) -> None:
    env = bot_environment(api, "", "x", WEBHOOK_URL="https://example.org", WEBHOOK_PORT="0")
    result = run_bot(without_redis(env), tmp_path)
    assert result.returncode == 2
    assert last_line(result) == (
        "domino-bot: WEBHOOK_URL is set but REDIS_URL is not: behind a webhook's load "
        "balancer each process would keep its own games in its embedded store — set REDIS_URL"
    )
    assert not api.calls()  # refused before any call


# -- start-up failures -------------------------------------------------------------------------


def test_a_refused_set_webhook_says_so(
    api: FakeBotApi, redis_url: str, key_prefix: str, tmp_path: Path
) -> None:
    api.inject_error(
        "setWebhook",
        error_code=400,
        description="Bad Request: bad webhook: An HTTPS URL must be provided for webhook",
    )
    env = bot_environment(
        api,
        redis_url,
        key_prefix,
        WEBHOOK_URL="http://127.0.0.1:9",
        WEBHOOK_LISTEN="127.0.0.1",
        WEBHOOK_PORT=str(free_port()),
        WEBHOOK_SECRET="abc",
    )
    result = run_bot(env, tmp_path)
    assert result.returncode == 2, result.stderr[-3000:]
    assert last_line(result) == (
        "domino-bot: Telegram refused the request setWebhook: "
        "Bad webhook: an https url must be provided for webhook"
    )
    assert len(api.calls(method="setWebhook")) == 1  # a refusal is not tried again


def test_a_webhook_secret_telegram_would_refuse_is_named_not_shown(
    api: FakeBotApi, redis_url: str, key_prefix: str, tmp_path: Path
) -> None:
    bad = "not allowed!"
    env = bot_environment(
        api, redis_url, key_prefix, WEBHOOK_URL="https://example.org", WEBHOOK_SECRET=bad
    )
    result = run_bot(env, tmp_path)
    assert result.returncode == 2
    line = last_line(result)
    assert line.startswith("domino-bot: WEBHOOK_SECRET must be 1-256 characters")
    assert bad not in result.stderr + result.stdout


def test_an_unknown_token_says_so(
    api: FakeBotApi, redis_url: str, key_prefix: str, tmp_path: Path
) -> None:
    env = bot_environment(
        api,
        redis_url,
        key_prefix,
        TELEGRAM_BOT_TOKEN="654321:ABCdefGHIjklMNOpqrSTUvwxYZ0123456789",
        HEALTH_PORT="0",
    )
    result = run_bot(env, tmp_path)
    assert result.returncode == 2
    assert last_line(result) == (
        "domino-bot: Telegram refused TELEGRAM_BOT_TOKEN (check it with @BotFather)"
    )
    assert "654321:ABC" not in result.stderr


def test_an_unreachable_bot_api_says_so(redis_url: str, key_prefix: str, tmp_path: Path) -> None:
    url = f"http://127.0.0.1:{free_port()}"  # nothing listens there
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "REDIS_"))}
    env.update(
        TELEGRAM_BOT_TOKEN="123456:ABCdefGHIjklMNOpqrSTUvwxYZ0123456789",
        TELEGRAM_API_URL=url,
        REDIS_URL=redis_url,
        KEY_PREFIX=key_prefix,
        STARTUP_RETRIES="0",
        HEALTH_PORT="0",
    )
    result = run_bot(env, tmp_path)
    assert result.returncode == 1
    assert last_line(result).startswith(f"domino-bot: cannot reach the Bot API at {url}: ")
    assert env["TELEGRAM_BOT_TOKEN"] not in result.stderr


def test_start_up_tries_again_after_a_network_failure(
    api: FakeBotApi, bot_env: dict[str, str], tmp_path: Path, started: list[BotProcess]
) -> None:
    api.inject_error("getMe", error_code=502, times=2)
    bot = BotProcess(dict(bot_env, HEALTH_PORT="0", STARTUP_RETRIES="3"), tmp_path / "bot.log")
    started.append(bot.start())
    bot.wait_ready(timeout=30)
    assert bot.log().count("start-up: getMe failed") == 2
