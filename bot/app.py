"""Builds the python-telegram-bot application with its storage and background work."""

from __future__ import annotations

import logging

from redis.asyncio import Redis
from telegram import BotCommand, BotCommandScopeAllGroupChats, BotCommandScopeDefault
from telegram.ext import AIORateLimiter, Application, ApplicationBuilder

from bot import handlers
from bot.delivery.liveness import Liveness
from bot.delivery.sweeper import Sweeper
from bot.delivery.sync import Syncer
from bot.game.service import GameService
from bot.handlers.common import Deps
from bot.i18n import LANGUAGES, N_, translator
from bot.settings import Settings
from bot.storage.keys import Keys
from bot.storage.store import Store

log = logging.getLogger(__name__)

COMMAND_HELP = {
    "newgame": N_("Start a domino game here"),
    "rules": N_("The rules of each game"),
    "score": N_("The current table"),
    "leave": N_("The computer takes your seat"),
    "stop": N_("End the game (creator or admin)"),
    "stats": N_("This chat's leaderboard"),
    "export": N_("The last game's record"),
    "lang": N_("Language: ru or en"),
    "help": N_("What I can do"),
}


def connect_redis(settings: Settings) -> tuple[Redis, bool]:
    """The Redis client, and whether it is the embedded in-memory store."""
    if settings.redis_url is None:
        from fakeredis import FakeAsyncRedis

        return FakeAsyncRedis(), True
    return Redis.from_url(settings.redis_url.get_secret_value()), False


def build_application(settings: Settings, redis: Redis | None = None) -> Application:  # type: ignore[type-arg]
    if redis is None:
        redis, embedded = connect_redis(settings)
        if embedded:  # said before anything touches the network, which may take a while
            log.warning(
                "No REDIS_URL set: using the embedded in-memory store; "
                "games will not survive a restart."
            )
    client = redis

    async def post_init(application: Application) -> None:  # type: ignore[type-arg]
        await client.ping()
        store = Store(client, Keys(settings.key_prefix))
        service = GameService(store, settings)
        liveness = Liveness(store)
        liveness.start()
        application.bot_data["liveness"] = liveness
        syncer = Syncer(application.bot, service, settings, liveness=liveness)
        application.bot_data["deps"] = Deps(settings, store, service, syncer)
        sweeper = Sweeper(service, syncer, settings.sweep_interval_seconds)
        application.bot_data["sweeper"] = sweeper
        await register_commands(application)
        sweeper.start()
        log.info("bot @%s is ready", application.bot.username)

    async def post_shutdown(application: Application) -> None:  # type: ignore[type-arg]
        sweeper = application.bot_data.get("sweeper")
        if isinstance(sweeper, Sweeper):
            await sweeper.stop()
        liveness = application.bot_data.get("liveness")
        if isinstance(liveness, Liveness):
            await liveness.stop()
        await client.aclose()

    limiter = AIORateLimiter(
        overall_max_rate=30,
        overall_time_period=1,
        group_max_rate=settings.group_messages_per_minute,
        group_time_period=60,
        max_retries=3,
    )
    application = (
        ApplicationBuilder()
        .token(settings.telegram_bot_token.get_secret_value())
        .base_url(settings.api_base_url)
        .base_file_url(settings.api_file_url)
        .rate_limiter(limiter)
        .concurrent_updates(True)
        .post_init(post_init)
        .post_shutdown(post_shutdown)
        .build()
    )
    handlers.register(application)
    return application


async def register_commands(application: Application) -> None:  # type: ignore[type-arg]
    """The command menu in both languages (Russian also as the default)."""
    for lang in LANGUAGES:
        tr = translator(lang)
        commands = [BotCommand(name, tr(text)) for name, text in COMMAND_HELP.items()]
        for scope in (BotCommandScopeDefault(), BotCommandScopeAllGroupChats()):
            await application.bot.set_my_commands(commands, scope=scope, language_code=lang)
    tr = translator("ru")
    default = [BotCommand(name, tr(text)) for name, text in COMMAND_HELP.items()]
    await application.bot.set_my_commands(default)
