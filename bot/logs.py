"""Logging: one line per event, as text or JSON, never with a secret (the token, the webhook
secret, a Redis password).

`event(log, "move", chat=..., game=..., v=...)` logs a named event with its fields:
`move chat=-100123 game=AbC12xyZ v=17` as text, or one JSON object per line with
LOG_FORMAT=json (what an operator's log collector, and bench/load.py, read).
"""

from __future__ import annotations

import json
import logging
from typing import Any


def event(log: logging.Logger, name: str, **fields: Any) -> None:
    """Log the event `name` with its fields (chat id, game id, version ...) at INFO."""
    if log.isEnabledFor(logging.INFO):
        log.info(name, extra={"fields": fields})


class TextFormatter(logging.Formatter):
    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s: %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        fields = getattr(record, "fields", None)
        if fields:
            text += " " + " ".join(f"{key}={value}" for key, value in fields.items())
        return text


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time (seconds since the epoch), level, logger, message,
    the event's fields, and the traceback if there is one."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "ts": round(record.created, 6),
            "level": record.levelname,
            "logger": record.name,
            "msg": record.getMessage(),
        }
        line.update(getattr(record, "fields", None) or {})
        if record.exc_info and not record.exc_text:
            record.exc_text = self.formatException(record.exc_info)
        if record.exc_text:
            line["exc"] = record.exc_text
        return json.dumps(line, ensure_ascii=False, default=str)


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
        fields = getattr(record, "fields", None)
        if fields:
            for key, value in fields.items():
                if isinstance(value, str) and any(secret in value for secret in self.secrets):
                    for secret in self.secrets:
                        value = value.replace(secret, "<secret>")
                    fields[key] = value
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


def setup_logging(level: str, secrets: list[str], json_lines: bool = False) -> None:
    handler = logging.StreamHandler()
    handler.setFormatter(JsonFormatter() if json_lines else TextFormatter())
    handler.addFilter(QuietRetries())
    handler.addFilter(Redactor(secrets))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    # httpx logs every request URL, and Bot API URLs contain the token.
    logging.getLogger("httpx").setLevel(logging.WARNING)
    logging.getLogger("httpcore").setLevel(logging.WARNING)
