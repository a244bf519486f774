"""The bot's own HTTP server (aiohttp): /healthz and /metrics, and in webhook mode POST /telegram.

With long polling it listens on HEALTH_LISTEN:HEALTH_PORT (127.0.0.1:8080; HEALTH_PORT=0:
no server). In webhook mode one server on WEBHOOK_LISTEN:WEBHOOK_PORT answers all three
(python-telegram-bot's own webhook server is not used; see `bot.__main__`).

`GET /healthz` answers 200 while Redis answers a PING within a second, the Bot API
answered recently and the update loop takes updates, else 503; the JSON body says which
part is down, e.g. `{"redis": "ok", "telegram": "down", "last_ok_seconds": 312.4,
"updates": "ok"}`. "Recently": no request to the Bot API has failed since its last
answer, or that answer is less than `TELEGRAM_RECENT` seconds old. A polling bot asks for
updates every few seconds, so its last answer is always fresh; a webhook bot with nothing
to do may make no call for hours, which is fine as long as its last call went through;
and a few minutes of failed calls (a network blip, Telegram's own hiccups) do not make it
unhealthy at once. The update loop (`bot.intake`): "stalled" when updates wait and none
was handled for 20 s, with how many wait and for how long; "not fetched" when the long
polling stopped asking Telegram for updates.

`GET /metrics` answers the Prometheus text of `bot.metrics`.

`/table/...` is the live table (bot.table, docs/table.md), added by `add_table`.

`POST /telegram` (webhook mode) takes an update as Telegram sends it: the
`X-Telegram-Bot-Api-Secret-Token` header must match WEBHOOK_SECRET (403 otherwise);
the update goes to the application's update queue. A body that is no update answers 400
with one line in the log: not JSON, JSON that is no update object, or JSON nested deeper
than `MAX_NESTING` levels. Telegram's own updates nest about ten levels (a callback's
message, its keyboard, a row, a button ...; a replied-to message carries no reply of its
own). The JSON parser, python-telegram-bot's reading of an update and its DEBUG log line
that prints one all recurse, and fail a few hundred levels down; 64 leaves Telegram room
to grow and stays far from that.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST
from redis.asyncio import Redis
from telegram import Update
from telegram.ext import Application

from bot import metrics
from bot.intake import Intake
from bot.table import TableServer
from bot.table import add_routes as table_routes

log = logging.getLogger(__name__)

TELEGRAM_RECENT = 300.0  # seconds (see the module's doc)
REDIS_TIMEOUT = 1.0  # seconds a health PING (or the scrape's count of games) may take
SHUTDOWN_WAIT = 5.0  # seconds requests under way may take when the server stops
SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
MAX_NESTING = 64  # levels of JSON objects and arrays in an update taken (see the module's doc)


class NotAnUpdate(ValueError):
    """A webhook body that is no update object python-telegram-bot could read."""


def nesting(value: object, limit: int = MAX_NESTING) -> int:
    """How deep JSON objects and arrays nest in `value` (a flat object: 1), counted without
    recursion and only up to `limit` + 1 (a deeper body is not walked further)."""
    deepest = 0
    stack: list[tuple[dict[Any, Any] | list[Any], int]] = []
    if isinstance(value, dict | list):
        stack.append((value, 1))
    while stack and deepest <= limit:
        item, level = stack.pop()
        deepest = max(deepest, level)
        children = item.values() if isinstance(item, dict) else item
        stack.extend((child, level + 1) for child in children if isinstance(child, dict | list))
    return deepest


class Health:
    """What /healthz checks: Redis answers, Telegram did lately, updates are taken up."""

    def __init__(
        self,
        redis: Redis,
        contact: metrics.Contact = metrics.TELEGRAM,
        recent: float = TELEGRAM_RECENT,
        timeout: float = REDIS_TIMEOUT,
        intake: Intake | None = None,
    ) -> None:
        self.redis = redis
        self.contact = contact
        self.recent = recent
        self.timeout = timeout
        self.intake = intake or Intake()  # the application's (bot.app); else nothing waits

    async def redis_ok(self) -> bool:
        try:
            return bool(await asyncio.wait_for(self.redis.ping(), self.timeout))
        except Exception:  # refused, timed out, a cluster without its slots ...
            return False

    async def check(self) -> tuple[bool, dict[str, Any]]:
        redis_ok = await self.redis_ok()
        telegram_ok, since = self.contact.healthy(self.recent)
        updates_ok, updates = self.intake.check()
        body = {
            "redis": "ok" if redis_ok else "down",
            "telegram": "ok" if telegram_ok else "down",
            "last_ok_seconds": None if since is None else round(since, 1),
            **updates,
        }
        return redis_ok and telegram_ok and updates_ok, body


def make_app(
    health: Health,
    *,
    active_games: Callable[[], Awaitable[int]] | None = None,
    application: Application | None = None,  # type: ignore[type-arg]
    secret: str | None = None,
) -> web.Application:
    """The server's routes; with `application`, also POST /telegram into its update queue."""

    async def healthz(_: web.Request) -> web.Response:
        ok, body = await health.check()
        return web.json_response(body, status=200 if ok else 503)

    async def metrics_page(_: web.Request) -> web.Response:
        if active_games is not None:
            try:
                metrics.ACTIVE_GAMES.set(await asyncio.wait_for(active_games(), REDIS_TIMEOUT))
            except Exception as exc:  # Redis is down: /healthz says so; the figure stays
                log.debug("active games not counted: %r", exc)
        return web.Response(body=metrics.text(), headers={"Content-Type": CONTENT_TYPE_LATEST})

    app = web.Application()
    app.router.add_get("/healthz", healthz)
    app.router.add_get("/metrics", metrics_page)
    if application is not None:
        app.router.add_post("/telegram", _webhook(application, secret))
    return app


def _webhook(
    application: Application,  # type: ignore[type-arg]
    secret: str | None,
) -> Callable[[web.Request], Awaitable[web.Response]]:
    expected = None if secret is None else secret.encode()

    async def telegram(request: web.Request) -> web.Response:
        if expected is not None:
            given = request.headers.get(SECRET_HEADER, "").encode("utf-8", "replace")
            if not hmac.compare_digest(given, expected):
                metrics.ERRORS.labels("webhook_forbidden").inc()
                return web.Response(status=403)
        try:
            try:
                data = await request.json()
            except RecursionError:  # the parser recurses too: `[` * 100000
                raise NotAnUpdate(f"nested deeper than {MAX_NESTING} levels") from None
            if not isinstance(data, dict) or not isinstance(data.get("update_id"), int):
                # Valid JSON that is no update object ([1,2], null, 1, "x"): python-telegram-bot
                # would fail on it further in, or queue None.
                raise ValueError("not an update object")
            if nesting(data) > MAX_NESTING:
                raise NotAnUpdate(f"nested deeper than {MAX_NESTING} levels")
            update = Update.de_json(data, application.bot)
        except (
            json.JSONDecodeError,
            UnicodeDecodeError,
            AttributeError,
            TypeError,
            ValueError,
            KeyError,
        ) as exc:
            metrics.ERRORS.labels("webhook_bad_update").inc()
            why = str(exc) if isinstance(exc, NotAnUpdate) else exc.__class__.__name__
            log.warning("webhook: not an update (%s)", why)
            return web.Response(status=400)
        await application.update_queue.put(update)
        return web.Response()

    return telegram


def add_table(app: web.Application, table: TableServer) -> None:
    """The live table's page, its files, its API and its WebSocket (bot.table), on this
    server in both modes."""
    table_routes(app, table)


async def start(app: web.Application, host: str, port: int) -> web.AppRunner:
    """Serve `app` on host:port until the runner is cleaned up (OSError if it cannot listen)."""
    runner = web.AppRunner(app, access_log=None, shutdown_timeout=SHUTDOWN_WAIT)
    await runner.setup()
    try:
        await web.TCPSite(runner, host, port).start()
    except BaseException:
        await runner.cleanup()
        raise
    return runner
