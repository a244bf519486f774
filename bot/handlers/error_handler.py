"""The one error handler: whatever escaped a handler is answered here, briefly and in the
user's language (an alert for a button, a reply for a command). A refusal is only
answered; any other error is counted too, and logged unless it is expected (a busy or
unreadable game).

python-telegram-bot awaits it inside the update, as soon as the handler raised: the
answer comes at once.
"""

from __future__ import annotations

import logging

from redis.exceptions import RedisError
from telegram import Update
from telegram.ext import ContextTypes

from bot import metrics
from bot.game.match_errors import BrokenGameError, ConflictError
from bot.game.outcomes import Refusal
from bot.handlers.common import deps, language_for, refuse
from bot.handlers.repeats import tell_of_outage
from bot.i18n import translator

log = logging.getLogger(__name__)


async def on_error(update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
    error = context.error
    if isinstance(error, Refusal):
        code = error.code  # what the rules do not allow: answered, neither counted nor logged
    elif isinstance(error, BrokenGameError):
        code = error.code
    elif isinstance(error, ConflictError):
        code = "busy"
    elif isinstance(error, RedisError | OSError):
        code = "storage_down"
        log.warning("storage failed while handling an update: %r", error)
    else:
        code = "internal_error"
        log.error("unhandled error while handling an update", exc_info=error)
    if not isinstance(error, Refusal):
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
        await refuse(update, tr, code)
    except Exception:  # Telegram may be what failed: say nothing rather than fail again
        log.warning("could not tell the user about the error", exc_info=True)
