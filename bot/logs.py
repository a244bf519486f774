"""Logging set-up that never writes a secret (the bot token, the webhook secret)."""

from __future__ import annotations

import logging


class Redactor(logging.Filter):
    """Replaces every secret in a log record's final text with a placeholder."""

    def __init__(self, secrets: list[str]) -> None:
        super().__init__()
        self.secrets = [s for s in secrets if s]

    def filter(self, record: logging.LogRecord) -> bool:
        text = record.getMessage()
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        changed = False
        for secret in self.secrets:
            if secret in text:
                text = text.replace(secret, "<secret>")
                changed = True
            if record.exc_text and secret in record.exc_text:
                record.exc_text = record.exc_text.replace(secret, "<secret>")
        if changed:
            record.msg, record.args = text, None
        return True


class QuietRetries(logging.Filter):
    """PTB logs every failed start-up attempt with a traceback; a line is enough."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and "Network Retry Loop" in record.getMessage():
            error = record.exc_info[1]
            record.msg = f"{record.getMessage()} ({error.__class__.__name__}: {error})"
            record.args = None
            record.exc_info = None
            record.exc_text = None
        return True


def setup_logging(level: str, secrets: list[str]) -> None:
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    handler.addFilter(QuietRetries())
    handler.addFilter(Redactor(secrets))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    # httpx logs every request URL, and Bot API URLs contain the token.
    logging.getLogger("httpx").setLevel(logging.WARNING)
    logging.getLogger("httpcore").setLevel(logging.WARNING)
