"""The Telegram bot: application, storage, keyboards, pictures and texts."""

import os

# python-telegram-bot 22 gives time periods (RetryAfter.retry_after) as whole
# seconds with a deprecation warning, or as timedelta once this is set: the
# coming default, which bot.telegram.api already reads.
os.environ.setdefault("PTB_TIMEDELTA", "1")
