"""Hostile updates against the real bot process: bodies nested past the recursion limit at
the webhook, and at LOG_LEVEL=DEBUG an update too deep to be written in the log.

Each must leave one line in the log, no traceback, and a bot that goes on answering.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from bot.web import MAX_NESTING
from tests.fakebotapi import FakeBotApi
from tests.support.bot_process import BotProcess, Webhook, bot_environment
from tests.support.http import health, post, scrape, series
from tests.support.redis_server import free_port

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"


def reply_chain(user: int, replies: int, text: str = "hi") -> dict[str, Any]:
    """A private message of `user` that replies to a message that replies to ... `replies`
    times (Telegram itself sends one level at most)."""
    person = {"id": user, "is_bot": False, "first_name": "Андрей"}
    chat = {"id": user, "type": "private", "first_name": "Андрей"}
    message: dict[str, Any] = {"message_id": 1, "date": int(time.time()), "chat": chat}
    for number in range(replies):
        message = {
            "message_id": number + 2,
            "date": int(time.time()),
            "chat": chat,
            "from": person,
            "text": "hi",
            "reply_to_message": message,
        }
    message["text"] = text
    if text.startswith("/"):
        message["entities"] = [{"type": "bot_command", "offset": 0, "length": len(text)}]
    return message


def depth(value: object) -> int:
    """How deep JSON containers nest in `value` (a flat object: 1)."""
    if isinstance(value, dict):
        return 1 + max((depth(v) for v in value.values()), default=0)
    if isinstance(value, list):
        return 1 + max((depth(v) for v in value), default=0)
    return 0


def test_webhook_bodies_nested_past_the_limit_are_refused_in_one_line(
    api: FakeBotApi, redis_url: str, key_prefix: str, tmp_path: Path, started: list[BotProcess]
) -> None:
    hook = Webhook.new()
    base, secret = hook.base, hook.secret
    env = bot_environment(
        api,
        redis_url,
        key_prefix,
        LOG_LEVEL="DEBUG",  # an accepted update is written whole in the log too
        **hook.settings(),
    )
    bot = BotProcess(env, tmp_path / "bot.log").start()
    started.append(bot)
    bot.wait_ready()
    health(base, 200)  # listening (it says it is ready a moment before)
    user = api.add_user("Андрей", language_code="ru", started=True)
    signed = {SECRET_HEADER: secret, "Content-Type": "application/json"}
    message = {"message_id": 1, "date": 0, "chat": {"id": user, "type": "private"}}

    past_the_limit = {"update_id": 902, "message": reply_chain(user, MAX_NESTING - 2)}
    assert depth(past_the_limit) == MAX_NESTING + 1
    bodies = {
        "a 2000-deep array in an update": json.dumps({"update_id": 900, "message": message})[:-1]
        + ', "x": '
        + "[" * 2000
        + "]" * 2000
        + "}",
        "a 500-deep reply chain": json.dumps({"update_id": 901, "message": reply_chain(user, 500)}),
        "one level past the limit": json.dumps(past_the_limit),
        "[ x 100000": "[" * 100_000,
    }
    for what, body in bodies.items():
        assert post(f"{base}/telegram", body.encode(), signed) == 400, what

    # At the limit an update is taken, logged whole (DEBUG) and answered.
    at_limit = {"update_id": 903, "message": reply_chain(user, MAX_NESTING - 3, "/help")}
    assert depth(at_limit) == MAX_NESTING
    assert post(f"{base}/telegram", json.dumps(at_limit).encode(), signed) == 200
    api.wait_message(user, where=lambda m: (m.text or "").startswith("Домино"), timeout=20)

    refused = [line for line in bot.log().splitlines() if "webhook: not an update" in line]
    assert len(refused) == 4, refused
    assert all(f"nested deeper than {MAX_NESTING}" in line for line in refused), refused
    assert "unformattable" not in bot.log()
    assert series(scrape(base), "domino_errors_total", kind="webhook_bad_update") == 4
    assert health(base, 200)["updates"] == "ok"
    # No traceback anywhere (the `started` fixture reads the whole log at the end).


def test_at_debug_an_update_too_deep_to_log_stops_nothing(
    api: FakeBotApi, redis_url: str, key_prefix: str, tmp_path: Path, started: list[BotProcess]
) -> None:
    """A 250-deep reply chain (as a Bot API server, or a forged poll, might hand over) fetched
    at DEBUG: python-telegram-bot writes every update in the log, and this one cannot be
    written. The record says so in one line; the updates after it are handled."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = bot_environment(api, redis_url, key_prefix, LOG_LEVEL="DEBUG", HEALTH_PORT=str(port))
    bot = BotProcess(env, tmp_path / "bot.log").start()
    started.append(bot)
    bot.wait_ready()
    user = api.add_user("Андрей", language_code="ru", started=True)
    with api._st.lock:  # the fake has no call for an update of this shape
        api._st.enqueue("message", reply_chain(user, 250))
    sent = api.send_text(user, user, "/help")
    answer = api.wait_message(user, after=sent, timeout=20)
    assert (answer.text or "").startswith("Домино")
    lines = [line for line in bot.log().splitlines() if "unformattable log record" in line]
    assert lines, bot.log()[-3000:]
    assert "(RecursionError)" in lines[0] and "'Processing update %s'" in lines[0], lines[0]
    assert series(scrape(base), "domino_errors_total", kind="log_unformattable") >= 1
    assert health(base, 200)["updates"] == "ok"
