"""Logging: one line per event, as text or JSON, never with a secret (the token, the webhook
secret, a Redis password).

`event(log, "move", chat=..., game=..., v=...)` logs a named event with its fields:
`move chat=-100123 game=AbC12xyZ v=17` as text, or one JSON object per line with
LOG_FORMAT=json (what an operator's log collector, and bench/load.py, read).

Logging never raises into the code that logs. A record whose message cannot be formatted
(arguments that do not fit the template, an argument whose `str()` fails or nests too
deep, such as a python-telegram-bot update of a 250-deep reply chain) is logged as
`unformattable log record (<error>) at <logger>:<line>: <template>` and counted in
`domino_errors_total{kind="log_unformattable"}`. Python's own logging guards only the
handler's `emit`: its filters run outside that guard, and ours format the message.
"""

from __future__ import annotations

import json
import logging
import time
from typing import Any, TextIO

from bot import metrics

UNFORMATTABLE = "unformattable log record"
TEMPLATE_SHOWN = 200  # characters of an unformattable record's template kept in its line


def event(log: logging.Logger, name: str, **fields: Any) -> None:
    """Log the event `name` with its fields (chat id, game id, version ...) at INFO."""
    if log.isEnabledFor(logging.INFO):
        log.info(name, extra={"fields": fields})


def message_of(record: logging.LogRecord) -> str:
    """The record's message. One that cannot be formatted is rewritten (and counted) to
    say so, with where it was logged and its template, so that it formats from then on."""
    try:
        return record.getMessage()
    except Exception as exc:  # %-arguments that do not fit, a str() that fails or recurses
        text = f"{UNFORMATTABLE} ({exc.__class__.__name__}) at {record.name}:{record.lineno}: "
        text += _template(record.msg)
        record.msg, record.args = text, None
        metrics.ERRORS.labels("log_unformattable").inc()
        return text


def _template(msg: object) -> str:
    if not isinstance(msg, str):
        return f"<{msg.__class__.__name__}>"  # its str() may be what failed
    return repr(msg[:TEMPLATE_SHOWN] + ("…" if len(msg) > TEMPLATE_SHOWN else ""))


def _unformattable_line(record: logging.LogRecord, exc: Exception) -> tuple[str, str]:
    """(time, message) of a record a formatter failed on (its fields or its traceback):
    the message alone, which `message_of` made safe."""
    metrics.ERRORS.labels("log_unformattable").inc()
    message = message_of(record)
    note = f" [{UNFORMATTABLE}: {exc.__class__.__name__}]"
    stamp = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(record.created))
    return stamp, message + note


class TextFormatter(logging.Formatter):
    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s: %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        try:
            text = super().format(record)
            fields = getattr(record, "fields", None)
            if fields:
                text += " " + " ".join(f"{key}={value}" for key, value in fields.items())
            return text
        except Exception as exc:  # never raise into logging's emit (it prints a traceback)
            stamp, message = _unformattable_line(record, exc)
            return f"{stamp} {record.levelname} {record.name}: {message}"


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time (seconds since the epoch), level, logger, message,
    the event's fields, and the traceback if there is one."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "ts": round(record.created, 6),
            "level": record.levelname,
            "logger": record.name,
        }
        try:
            line["msg"] = message_of(record)
            line.update(getattr(record, "fields", None) or {})
            if record.exc_info and not record.exc_text:
                record.exc_text = self.formatException(record.exc_info)
            if record.exc_text:
                line["exc"] = record.exc_text
            return json.dumps(line, ensure_ascii=False, default=str)
        except Exception as exc:  # never raise into logging's emit (it prints a traceback)
            line = {key: line[key] for key in ("ts", "level", "logger")}
            line["msg"] = _unformattable_line(record, exc)[1]
            return json.dumps(line, ensure_ascii=False)


class Redactor(logging.Filter):
    """Replaces every secret in a log record's final text with a placeholder."""

    def __init__(self, secrets: list[str]) -> None:
        super().__init__()
        self.secrets = [s for s in secrets if s]

    def filter(self, record: logging.LogRecord) -> bool:
        text = message_of(record)
        if record.exc_info and not record.exc_text:
            try:
                record.exc_text = logging.Formatter().formatException(record.exc_info)
            except Exception as exc:  # an exception whose traceback cannot be shown
                record.exc_info = None
                record.exc_text = f"({UNFORMATTABLE} traceback: {exc.__class__.__name__})"
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
        if record.exc_info and "Network Retry Loop" in message_of(record):
            error = record.exc_info[1]
            record.msg = f"{message_of(record)} ({error.__class__.__name__}: {error})"
            record.args = None
            record.exc_info = None
            record.exc_text = None
        return True


def log_handler(
    secrets: list[str], json_lines: bool = False, stream: TextIO | None = None
) -> logging.Handler:
    """The handler every record goes through: to `stream` (stderr), secrets hidden."""
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter() if json_lines else TextFormatter())
    handler.addFilter(QuietRetries())
    handler.addFilter(Redactor(secrets))
    return handler


def setup_logging(level: str, secrets: list[str], json_lines: bool = False) -> None:
    handler = log_handler(secrets, json_lines)
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    # httpx logs every request URL, and Bot API URLs contain the token.
    logging.getLogger("httpx").setLevel(logging.WARNING)
    logging.getLogger("httpcore").setLevel(logging.WARNING)
