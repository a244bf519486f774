"""Builds the python-telegram-bot application with its storage and background work."""

from __future__ import annotations

import logging

from redis.asyncio import Redis
from telegram import BotCommand, BotCommandScopeAllGroupChats, BotCommandScopeDefault
from telegram.ext import Application, ApplicationBuilder

from bot import handlers, metrics
from bot.delivery.liveness import Liveness
from bot.delivery.scheduler import Delivery
from bot.game.memory import Memory
from bot.game.service import GameService
from bot.handlers.common import Deps
from bot.i18n import LANGUAGES, translator
from bot.settings import Settings
from bot.storage.connect import connect_redis, wait_for_redis
from bot.storage.keys import Keys
from bot.storage.store import Store
from bot.table import TableServer
from bot.telegram import command_texts
from bot.telegram.budget import CallBudget
from bot.telegram.metered import MeteredRequest, update_kind
from bot.telegram.transport import AiohttpRequest

log = logging.getLogger(__name__)


def build_application(settings: Settings, redis: Redis | None = None) -> Application:  # type: ignore[type-arg]
    if redis is None:
        redis, embedded = connect_redis(settings)
        if embedded:  # said before anything touches the network, which may take a while
            log.warning(
                "No REDIS_URL set: using the embedded in-memory store; "
                "games will not survive a restart."
            )
    client = redis
    budget = CallBudget(settings.overall_max_rate, settings.group_messages_per_minute)

    async def post_init(application: Application) -> None:  # type: ignore[type-arg]
        await wait_for_redis(client, settings.redis_connect_seconds)
        store = Store(client, Keys(settings.key_prefix))
        budget.store = store.budget
        service = GameService(store, settings)
        service.pace = budget.backlog
        liveness = Liveness(store.heartbeats)
        liveness.start()
        application.bot_data["liveness"] = liveness
        delivery = Delivery(application.bot, service, settings, liveness)
        application.bot_data["deps"] = Deps(settings, Memory(store), service, delivery)
        # The live table, served by bot.web (bot.__main__) once it has a public address:
        # without one nothing changes (no routes, nothing published per change).
        table = TableServer(service, settings) if settings.webapp_url else None
        application.bot_data["table"] = table
        application.bot_data["budget"] = budget
        await register_commands(application)
        delivery.start()
        if table is not None:
            table.start()
        log.info("bot @%s is ready", application.bot.username)

    async def post_stop(application: Application) -> None:  # type: ignore[type-arg]
        # Before the bot shuts down: delivery under way still has its Bot API client.
        deps = application.bot_data.get("deps")
        if isinstance(deps, Deps):
            await deps.delivery.stop()
        table = application.bot_data.get("table")
        if isinstance(table, TableServer):
            await table.stop()

    async def post_shutdown(application: Application) -> None:  # type: ignore[type-arg]
        await post_stop(application)  # also when the application never started
        liveness = application.bot_data.get("liveness")
        if isinstance(liveness, Liveness):
            await liveness.stop()
        await client.aclose()
        # python-telegram-bot shuts its transports only if it got as far as getMe;
        # when start-up fails earlier, their aiohttp sessions are closed here.
        for transport in transports:
            await transport.shutdown()

    timeout = settings.telegram_timeout_seconds
    transports = (
        MeteredRequest(
            AiohttpRequest(
                connection_pool_size=settings.concurrent_updates + 64,
                read_timeout=timeout,
                write_timeout=2 * timeout,
                media_write_timeout=2 * timeout,
                pool_timeout=timeout,
            )
        ),
        MeteredRequest(AiohttpRequest(connection_pool_size=1)),
    )
    builder = (
        ApplicationBuilder()
        .application_class(MeteredApplication)
        .token(settings.telegram_bot_token.get_secret_value())
        .base_url(settings.api_base_url)
        .base_file_url(settings.api_file_url)
        .rate_limiter(budget)
        .concurrent_updates(settings.concurrent_updates)
        # Every request is counted by method and answer (bot.metrics).
        .request(transports[0])
        .get_updates_request(transports[1])
        .post_init(post_init)
        .post_stop(post_stop)
        .post_shutdown(post_shutdown)
    )
    if settings.webhook_url:
        builder = builder.updater(None)  # bot.web's server takes the updates (bot.__main__)
    application = builder.build()
    handlers.register(application)
    return application


class MeteredApplication(Application):  # type: ignore[type-arg]
    """python-telegram-bot's application, counting and timing every update it handles."""

    async def process_update(self, update: object) -> None:
        metrics.UPDATES.labels(update_kind(update)).inc()
        with metrics.UPDATE_SECONDS.time():
            await super().process_update(update)


async def register_commands(application: Application) -> None:  # type: ignore[type-arg]
    """The command menu in both languages (Russian also as the default)."""

    def commands(lang: str) -> list[BotCommand]:
        return [BotCommand(name, text) for name, text in command_texts.menu(translator(lang))]

    for lang in LANGUAGES:
        for scope in (BotCommandScopeDefault(), BotCommandScopeAllGroupChats()):
            await application.bot.set_my_commands(commands(lang), scope=scope, language_code=lang)
    await application.bot.set_my_commands(commands("ru"))
