"""Builds the python-telegram-bot application with its storage and background work."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from redis.asyncio import Redis
from telegram import BotCommand, BotCommandScopeAllGroupChats, BotCommandScopeDefault, Update
from telegram.ext import Application, ApplicationBuilder
from telegram.request import BaseRequest

from bot import handlers, metrics
from bot.delivery.liveness import Liveness
from bot.delivery.scheduler import Delivery
from bot.game.lobby_calls import LobbyCalls
from bot.game.profiles import Profiles
from bot.game.repeated_commands import RepeatedCommands
from bot.game.service import GameService
from bot.handlers.command_table import Chats, menu
from bot.handlers.common import Deps
from bot.i18n import DEFAULT_LANGUAGE, LANGUAGES, translator
from bot.intake import Intake
from bot.settings import Settings
from bot.storage.connect import connect_redis, wait_for_redis
from bot.storage.store import Store
from bot.storage.updates import SeenUpdates
from bot.table import TableServer
from bot.telegram import api
from bot.telegram.budget import CallBudget
from bot.telegram.metered import MeteredRequest, update_kind
from bot.telegram.transport import AiohttpRequest

log = logging.getLogger(__name__)

# An update id is remembered this long once taken up: Telegram sends a webhook update
# again within a minute or two of a slow answer, a restarted poller at once.
SEEN_FOR = 300.0
SEEN_CHECK_TIMEOUT = 2.0  # seconds the check may take before the update is handled anyway


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
        store = Store.under(client, settings.key_prefix)
        budget.store = store.budget
        if isinstance(application, MeteredApplication):
            application.seen = store.updates
        service = GameService(store, settings)
        service.pace = budget.backlog
        liveness = Liveness(store.heartbeats)
        liveness.start()
        application.bot_data["liveness"] = liveness
        delivery = Delivery(application.bot, service, settings, liveness)
        application.bot_data["deps"] = Deps(
            settings,
            service,
            delivery,
            Profiles(store),
            LobbyCalls(store),
            RepeatedCommands(store),
        )
        # The live table, served by bot.web (bot.__main__) once it has a public address:
        # without one nothing changes (no routes, nothing published per change).
        table = TableServer(service, settings) if settings.webapp_url else None
        if table is not None:  # a person's table closing: his hand message catches up
            table.presence.on_closed = delivery.table_closed
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
    intake = Intake()
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
        PollingRequest(AiohttpRequest(connection_pool_size=1), intake),
    )
    builder = (
        ApplicationBuilder()
        .application_class(MeteredApplication)
        .token(settings.telegram_bot_token.get_secret_value())
        .base_url(settings.api_base_url)
        .base_file_url(settings.api_file_url)
        .rate_limiter(budget)
        .concurrent_updates(settings.concurrent_updates)
        .update_queue(UpdateQueue(intake))
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
    assert isinstance(application, MeteredApplication)
    application.intake = intake
    handlers.register(application)
    return application


class MeteredApplication(Application):  # type: ignore[type-arg]
    """python-telegram-bot's application, counting and timing every update it handles,
    telling the intake (for /healthz) when it takes one up, and handling each update id
    once across processes."""

    intake: Intake  # set by build_application
    seen: SeenUpdates | None = None  # set once Redis answers (post_init)

    async def process_update(self, update: object) -> None:
        if not isinstance(update, Update):  # nothing the bot queues: handled as it is
            await super().process_update(update)
            return
        self.intake.started()
        api.update_began()
        try:
            if not await self._first_sight(update):
                return
            metrics.UPDATES.labels(update_kind(update)).inc()
            with metrics.UPDATE_SECONDS.time():
                await super().process_update(update)
        finally:
            self.intake.finished()

    async def _first_sight(self, update: Update) -> bool:
        """Whether no process took this update up before (Telegram sends one again when its
        webhook answered slowly; a restarted poller fetches again what it had not confirmed)."""
        if self.seen is None:
            return True
        try:
            first = await asyncio.wait_for(
                self.seen.first_sight(update.update_id, SEEN_FOR), SEEN_CHECK_TIMEOUT
            )
        except Exception as exc:  # Redis down or slow: better handled twice than never
            metrics.ERRORS.labels("update_unchecked").inc()
            log.debug("update %d handled without the check for a copy: %r", update.update_id, exc)
            return True
        if not first:
            metrics.ERRORS.labels("duplicate_update").inc()
            log.info("update %d was taken up before: not handled again", update.update_id)
        return first


class UpdateQueue(asyncio.Queue[object]):
    """The application's update queue, telling the intake when an update joins it (whether
    our webhook's server or python-telegram-bot's poller put it there)."""

    def __init__(self, intake: Intake) -> None:
        super().__init__()
        self.intake = intake

    def put_nowait(self, item: object) -> None:  # `put` comes here too
        super().put_nowait(item)
        if isinstance(item, Update):
            self.intake.queued()


class PollingRequest(MeteredRequest):
    """getUpdates' transport (metered), telling the intake when the poller asks: a poller
    whose task died asks no more (see bot.intake)."""

    def __init__(self, inner: BaseRequest, intake: Intake) -> None:
        super().__init__(inner)
        self.intake = intake

    async def do_request(
        self, url: str, method: str, *args: Any, **kwargs: Any
    ) -> tuple[int, bytes]:
        self.intake.poll_began()
        answered = False
        try:
            status, payload = await super().do_request(url, method, *args, **kwargs)
            answered = 200 <= status < 300
            return status, payload
        finally:
            self.intake.poll_ended(answered)


# The command menu's scopes: private chats (the default scope: every chat no other scope
# covers) and groups, each listing the commands that work there.
MENU_SCOPES = (
    (BotCommandScopeDefault(), Chats.PRIVATE),
    (BotCommandScopeAllGroupChats(), Chats.GROUPS),
)


async def register_commands(application: Application) -> None:  # type: ignore[type-arg]
    """The command menu of private chats and of groups, in each language (Russian also
    for the languages the bot does not speak)."""

    def commands(lang: str, chats: Chats) -> list[BotCommand]:
        return [BotCommand(name, text) for name, text in menu(translator(lang), chats)]

    for scope, chats in MENU_SCOPES:
        for lang in LANGUAGES:
            await application.bot.set_my_commands(
                commands(lang, chats), scope=scope, language_code=lang
            )
        await application.bot.set_my_commands(commands(DEFAULT_LANGUAGE, chats), scope=scope)
