"""The one error handler: log what escaped a handler, tell the user briefly."""

from __future__ import annotations

import logging

from redis.exceptions import RedisError
from telegram import Update
from telegram.ext import ContextTypes

from bot import metrics
from bot.game.errors import BrokenGameError, ConflictError
from bot.handlers.common import deps, language_for, reply
from bot.handlers.repeats import tell_of_outage
from bot.i18n import translator
from bot.telegram import api, texts

log = logging.getLogger(__name__)


async def on_error(update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
    error = context.error
    if isinstance(error, BrokenGameError):
        code = error.code
    elif isinstance(error, ConflictError):
        code = "busy"
    elif isinstance(error, RedisError | OSError):
        code = "storage_down"
        log.warning("storage failed while handling an update: %r", error)
    else:
        code = "internal_error"
        log.error("unhandled error while handling an update", exc_info=error)
    metrics.ERRORS.labels(code).inc()
    if not isinstance(update, Update):
        return
    if code == "storage_down" and not tell_of_outage(update, context):
        return  # this command was answered so in this chat a moment ago
    try:
        tr = await language_for(update, context)
    except Exception:  # the store may be what failed: answer in the default language
        tr = translator(deps(context).settings.default_language)
    try:
        text = texts.refusal(tr, code)
        if update.callback_query is not None:
            await api.answer(update.callback_query, text, alert=True)
        elif update.effective_message is not None:
            await reply(update, text)
    except Exception:  # Telegram may be what failed: say nothing rather than fail again
        log.warning("could not tell the user about the error", exc_info=True)
