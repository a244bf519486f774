"""`domino-bot`: run the bot (long polling, or a webhook when WEBHOOK_URL is set)."""

from __future__ import annotations

import logging
import sys
from urllib.parse import urlsplit

from pydantic import ValidationError
from redis.exceptions import RedisError
from telegram.error import InvalidToken, NetworkError

from bot.logs import setup_logging
from bot.settings import Settings, describe_error


def main() -> int:
    try:
        settings = Settings()  # type: ignore[call-arg]
    except ValidationError as error:
        print(f"domino-bot: {describe_error(error)}", file=sys.stderr)
        return 2
    secrets = [settings.telegram_bot_token.get_secret_value()]
    if settings.webhook_secret is not None:
        secrets.append(settings.webhook_secret.get_secret_value())
    if settings.redis_url is not None:
        secrets.append(settings.redis_url.get_secret_value())
    setup_logging(settings.log_level, secrets, settings.log_format == "json")

    try:
        run(settings)
    except InvalidToken:
        print(
            "domino-bot: Telegram refused TELEGRAM_BOT_TOKEN (check it with @BotFather)",
            file=sys.stderr,
        )
        return 2
    except NetworkError as error:
        reason = _redact(str(error), secrets)
        print(
            f"domino-bot: cannot reach the Bot API at {settings.telegram_api_url}: {reason}",
            file=sys.stderr,
        )
        return 1
    except RedisError as error:
        where = _redis_place(settings)
        print(
            f"domino-bot: cannot reach Redis at {where}: {_redact(str(error), secrets)}",
            file=sys.stderr,
        )
        return 1
    return 0


def run(settings: Settings) -> None:
    from bot.app import build_application

    application = build_application(settings)
    log = logging.getLogger("bot")
    if settings.webhook_url:
        log.info("starting with a webhook")
        application.run_webhook(
            listen=settings.webhook_listen,
            port=settings.webhook_port,
            url_path="telegram",
            webhook_url=settings.webhook_url.rstrip("/") + "/telegram",
            secret_token=(
                settings.webhook_secret.get_secret_value() if settings.webhook_secret else None
            ),
            allowed_updates=["message", "callback_query", "my_chat_member"],
            bootstrap_retries=settings.startup_retries,
        )
    else:
        log.info("starting with long polling")
        application.run_polling(
            allowed_updates=["message", "callback_query", "my_chat_member"],
            bootstrap_retries=settings.startup_retries,
        )


def _redact(text: str, secrets: list[str]) -> str:
    for secret in secrets:
        text = text.replace(secret, "<secret>")
    return text


def _redis_place(settings: Settings) -> str:
    """host:port of REDIS_URL, never its password."""
    url = urlsplit(settings.redis_url.get_secret_value() if settings.redis_url else "")
    return f"{url.hostname}:{url.port or 6379}"


if __name__ == "__main__":
    sys.exit(main())
