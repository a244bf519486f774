"""`domino-bot`: run the bot (long polling, or a webhook when WEBHOOK_URL is set).

The application is run here rather than by python-telegram-bot's `run_polling` /
`run_webhook`, for three reasons: in webhook mode our own server (bot.web) takes the
updates and also answers /healthz and /metrics; with long polling a 409 Conflict from
getUpdates (another process polls the same token) must be able to stop the bot when
the store is embedded; and a start-up failure must reach `main()` as what it is (a
refused request is not retried, a network failure is, `startup_retries` times).
"""

from __future__ import annotations

import asyncio
import logging
import signal
import sys
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import TYPE_CHECKING, TypeVar

from pydantic import ValidationError
from redis.exceptions import RedisError
from telegram.error import (
    BadRequest,
    Conflict,
    InvalidToken,
    NetworkError,
    RetryAfter,
    TelegramError,
)
from telegram.ext import Application

from bot import collector, metrics
from bot.event_loop import loop_factory, loop_name
from bot.logs import setup_logging
from bot.settings import Settings, describe_error

if TYPE_CHECKING:
    from aiohttp.web import AppRunner

log = logging.getLogger("bot")

T = TypeVar("T")

ALLOWED_UPDATES = ["message", "callback_query", "my_chat_member"]
FIRST_RETRY = 1.0  # seconds before a failed start-up call is tried again, then x1.5 ...
LONGEST_RETRY = 30.0  # ... up to this

SPLIT_BRAIN = (
    "another bot process is polling this token; with the embedded store each process "
    "would keep its own games — set REDIS_URL, or run only one"
)
WEBHOOK_NEEDS_REDIS = (
    "WEBHOOK_URL is set but REDIS_URL is not: behind a webhook's load balancer each "
    "process would keep its own games in its embedded store — set REDIS_URL"
)


class Refused(Exception):
    """Telegram refused a start-up request (400): trying again would not help."""

    def __init__(self, method: str, message: str) -> None:
        super().__init__(f"{method}: {message}")
        self.method = method
        self.message = message


class Stopped(Exception):
    """The bot stopped itself (exit status 2); the message says why."""


class CannotListen(Exception):
    """The webhook's server could not listen on its address."""


def main() -> int:
    try:
        settings = Settings()  # type: ignore[call-arg]
    except ValidationError as error:
        print(f"domino-bot: {describe_error(error)}", file=sys.stderr)
        return 2
    if settings.webhook_url and settings.redis_url is None:
        print(f"domino-bot: {WEBHOOK_NEEDS_REDIS}", file=sys.stderr)
        return 2
    secrets = [settings.telegram_bot_token.get_secret_value()]
    if settings.webhook_secret is not None:
        secrets.append(settings.webhook_secret.get_secret_value())
    if settings.redis_url is not None:
        secrets.append(settings.redis_url.get_secret_value())
    setup_logging(settings.log_level, secrets, settings.log_format == "json")

    try:
        run(settings)
    except Stopped as stop:
        print(f"domino-bot: {stop}", file=sys.stderr)
        return 2
    except Refused as refused:
        message = _redact(refused.message, secrets)
        print(
            f"domino-bot: Telegram refused the request {refused.method}: {message}", file=sys.stderr
        )
        return 2
    except InvalidToken:
        print(
            "domino-bot: Telegram refused TELEGRAM_BOT_TOKEN (check it with @BotFather)",
            file=sys.stderr,
        )
        return 2
    except BadRequest as error:  # before NetworkError: a BadRequest is one
        message = _redact(error.message, secrets)
        print(f"domino-bot: Telegram refused the request: {message}", file=sys.stderr)
        return 2
    except NetworkError as error:  # TimedOut too: no answer in time
        reason = _redact(str(error), secrets)
        print(
            f"domino-bot: cannot reach the Bot API at {settings.telegram_api_url}: {reason}",
            file=sys.stderr,
        )
        return 1
    except TelegramError as error:  # 403, 409 ... at start-up
        message = _redact(error.message, secrets)
        print(f"domino-bot: Telegram refused a start-up request: {message}", file=sys.stderr)
        return 2
    except RedisError as error:
        where = _redis_place(settings)
        print(
            f"domino-bot: cannot reach Redis at {where}: {_redact(str(error), secrets)}",
            file=sys.stderr,
        )
        return 1
    except CannotListen as error:
        print(f"domino-bot: {_redact(str(error), secrets)}", file=sys.stderr)
        return 1
    return 0


def run(settings: Settings) -> None:
    from bot.app import build_application

    try:
        application = build_application(settings)
    except ValueError as exc:  # a REDIS_URL that cannot be read (never shown with its password)
        raise Stopped(str(exc)) from None
    with asyncio.Runner(loop_factory=loop_factory(settings.event_loop)) as runner:
        runner.run(Runner(application, settings).run())


class Runner:
    """Start the application, take updates until a stop signal (or a fatal error), stop it.

    The order is python-telegram-bot's: initialize (getMe) and post_init; then the
    updates' source (getUpdates, or our server and setWebhook); then start; and on the
    way out stop, post_stop, shutdown, post_shutdown.
    """

    def __init__(self, application: Application, settings: Settings) -> None:  # type: ignore[type-arg]
        self.application = application
        self.settings = settings
        self.stopping = asyncio.Event()
        self.fatal: BaseException | None = None
        self.server: AppRunner | None = None

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        log.info("event loop: %s", loop_name(loop))
        for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGABRT):
            loop.add_signal_handler(sig, self.stopping.set)
        application = self.application
        try:
            if not await self._retried("getMe", application.initialize):
                return
            if application.post_init is not None:
                try:
                    await application.post_init(application)
                except BadRequest as exc:  # the command menu: the only request it makes
                    raise Refused("setMyCommands", exc.message) from None
            if self.settings.webhook_url:
                log.info("starting with a webhook")
                await self._serve(self.settings.webhook_listen, self.settings.webhook_port, True)
                if not await self._retried("setWebhook", self._set_webhook):
                    return
            else:
                log.info("starting with long polling")
                if self.settings.health_port:
                    await self._serve(self.settings.health_listen, self.settings.health_port)
                await self._start_polling()
            await application.start()
            collector.settle()
            await self.stopping.wait()
        finally:
            await self._stop()
        if self.fatal is not None:
            raise self.fatal

    async def _retried(self, method: str, action: Callable[[], Awaitable[T]]) -> bool:
        """Run a start-up call, trying again after a network failure (`startup_retries`
        times, waiting longer each time); False if a stop signal came meanwhile."""
        pause = FIRST_RETRY
        for attempt in range(self.settings.startup_retries + 1):
            try:
                await action()
                return True
            except BadRequest as exc:  # before NetworkError: a BadRequest is one
                raise Refused(method, exc.message) from None
            except RetryAfter as exc:
                wait = _seconds(exc.retry_after) + 0.5
                error: TelegramError = exc
            except NetworkError as exc:  # no answer, or a 5xx
                wait, error = pause, exc
                pause = min(LONGEST_RETRY, pause * 1.5)
            if attempt == self.settings.startup_retries:
                raise error
            log.warning(
                "start-up: %s failed (%s: %s); trying again in %.1f s (%d of %d)",
                method,
                error.__class__.__name__,
                error.message,
                wait,
                attempt + 1,
                self.settings.startup_retries,
            )
            try:
                await asyncio.wait_for(self.stopping.wait(), wait)
                return False
            except TimeoutError:
                pass
        return False  # not reached

    async def _serve(self, host: str, port: int, webhook: bool = False) -> None:
        from bot import web
        from bot.handlers.common import Deps

        application = self.application
        deps = application.bot_data["deps"]
        assert isinstance(deps, Deps)
        store = deps.service.store

        async def active_games() -> int:
            return await store.due.due_count()

        secret = self.settings.webhook_secret
        from bot.app import MeteredApplication

        intake = application.intake if isinstance(application, MeteredApplication) else None
        app = web.make_app(
            web.Health(store.redis, intake=intake),
            active_games=active_games,
            application=application if webhook else None,
            secret=secret.get_secret_value() if secret is not None else None,
        )
        table = application.bot_data.get("table")
        if table is not None:
            web.add_table(app, table)
        try:
            self.server = await web.start(app, host, port)
        except OSError as exc:
            if webhook:
                raise CannotListen(f"cannot listen on {host}:{port}: {exc.strerror}") from None
            # Without it the bot still plays; an orchestrator's health check will say so.
            log.error("cannot serve /healthz and /metrics on %s:%s: %s", host, port, exc.strerror)
            return
        paths = "/telegram, /healthz, /metrics" if webhook else "/healthz, /metrics"
        paths += " and /table/" if table is not None else ""
        log.info("serving %s on %s:%s", paths, host, port)

    async def _set_webhook(self) -> None:
        secret = self.settings.webhook_secret
        await self.application.bot.set_webhook(
            url=self.settings.webhook_url.rstrip("/") + "/telegram",
            allowed_updates=ALLOWED_UPDATES,
            secret_token=secret.get_secret_value() if secret is not None else None,
        )

    async def _start_polling(self) -> None:
        updater = self.application.updater
        assert updater is not None
        try:
            # python-telegram-bot tries deleteWebhook again itself after a failure.
            await updater.start_polling(
                allowed_updates=ALLOWED_UPDATES,
                bootstrap_retries=self.settings.startup_retries,
                error_callback=self._polling_failed,
            )
        except BadRequest as exc:
            raise Refused("deleteWebhook", exc.message) from None

    def _polling_failed(self, error: TelegramError) -> None:
        """getUpdates failed (python-telegram-bot tries again, waiting longer each time)."""
        metrics.ERRORS.labels("polling").inc()
        if isinstance(error, Conflict):
            if self.settings.redis_url is None:
                log.error("getUpdates: %s", error.message)
                if self.fatal is None:
                    self.fatal = Stopped(SPLIT_BRAIN)
                self.stopping.set()
                return
            # With Redis the processes share the games: one of them gets each update.
            log.warning("getUpdates: %s (another process polls this token)", error.message)
            return
        log.warning("getUpdates failed (%s: %s)", error.__class__.__name__, error.message)

    async def _stop(self) -> None:
        application = self.application
        try:
            # First no more updates come in (a webhook's are then sent to another process,
            # or again later), then the application finishes what it has.
            if self.server is not None:
                await self.server.cleanup()
                self.server = None
            if application.updater is not None and application.updater.running:
                try:
                    await application.updater.stop()
                except Exception as exc:  # its poller had died of this (and said so then)
                    log.warning("the poller had stopped: %s", exc.__class__.__name__)
            if application.running:
                await application.stop()
                if application.post_stop is not None:
                    await application.post_stop(application)
        finally:
            await application.shutdown()
            if application.post_shutdown is not None:
                await application.post_shutdown(application)


def _seconds(value: float | timedelta) -> float:
    return value.total_seconds() if isinstance(value, timedelta) else float(value)


def _redact(text: str, secrets: list[str]) -> str:
    for secret in secrets:
        text = text.replace(secret, "<secret>")
    return text


def _redis_place(settings: Settings) -> str:
    """host:port of REDIS_URL, never its password."""
    from bot.storage.connect import redis_place

    return redis_place(settings.redis_url.get_secret_value() if settings.redis_url else "")


if __name__ == "__main__":
    sys.exit(main())
