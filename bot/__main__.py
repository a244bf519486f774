"""`domino-bot`: run the bot (long polling, or a webhook when WEBHOOK_URL is set)."""

from __future__ import annotations

import logging
import sys

from pydantic import ValidationError

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
    setup_logging(settings.log_level, secrets)

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
        )
    else:
        log.info("starting with long polling")
        application.run_polling(allowed_updates=["message", "callback_query", "my_chat_member"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
