"""Logging never raises into the code that logs: a record that cannot be formatted is
written as such, in one line, and counted."""

from __future__ import annotations

import io
import json
import logging
import time
from collections.abc import Iterator
from typing import Any

import pytest
from telegram import Update

from bot import metrics
from bot.logs import event, log_handler

SECRET = "123456:ABCdefGHIjklMNOpqrSTUvwxYZ0123456789"


class Unprintable:
    def __str__(self) -> str:
        raise RecursionError("maximum recursion depth exceeded")


def deep_update(replies: int) -> Update:
    """A python-telegram-bot update of a private message replying `replies` levels deep."""
    chat = {"id": 42, "type": "private"}
    message: dict[str, Any] = {"message_id": 1, "date": int(time.time()), "chat": chat}
    for number in range(replies):
        message = {"message_id": number + 2, "date": 0, "chat": chat, "reply_to_message": message}
    return Update.de_json({"update_id": 1, "message": message}, None)


@pytest.fixture(params=["text", "json"])
def logged(request: pytest.FixtureRequest) -> Iterator[tuple[logging.Logger, io.StringIO]]:
    """A logger writing through the bot's own handler (filters and formatter) to a buffer."""
    stream = io.StringIO()
    log = logging.getLogger(f"test.logs.{request.param}")
    log.propagate = False
    log.setLevel(logging.DEBUG)
    log.handlers[:] = [log_handler([SECRET], request.param == "json", stream)]
    yield log, stream
    log.handlers[:] = []


def lines(stream: io.StringIO) -> list[str]:
    found = stream.getvalue().splitlines()
    if found and found[0].startswith("{"):
        return [json.loads(line)["msg"] for line in found]
    return found


def unformattable() -> float:
    return metrics.value("domino_errors_total", kind="log_unformattable")


def test_an_update_too_deep_to_print_is_logged_as_unformattable(
    logged: tuple[logging.Logger, io.StringIO], capsys: pytest.CaptureFixture[str]
) -> None:
    log, stream = logged
    update = deep_update(250)
    with pytest.raises(RecursionError):
        str(update)  # what python-telegram-bot's DEBUG line «Processing update %s» meets
    before = unformattable()
    log.debug("Processing update %s", update)  # raised RecursionError into the caller before
    (line,) = lines(stream)
    assert "unformattable log record (RecursionError) at " in line, line
    assert line.endswith(": 'Processing update %s'"), line
    assert unformattable() == before + 1
    assert capsys.readouterr().err == ""  # nothing from logging's own error handler
    log.info("next %s", "one")  # and the next record is written as ever
    assert lines(stream)[-1].endswith("next one")


@pytest.mark.parametrize(
    ("template", "args", "error"),
    [
        ("%s and %s", (1,), "TypeError"),
        ("%d", ("x",), "TypeError"),
        ("value %s", (Unprintable(),), "RecursionError"),
        (Unprintable(), (), "RecursionError"),
    ],
)
def test_records_that_cannot_be_formatted_say_so_in_one_line(
    logged: tuple[logging.Logger, io.StringIO],
    capsys: pytest.CaptureFixture[str],
    template: object,
    args: tuple[object, ...],
    error: str,
) -> None:
    log, stream = logged
    before = unformattable()
    log.warning(template, *args)
    (line,) = lines(stream)
    assert f"unformattable log record ({error}) at test.logs." in line, line
    assert unformattable() == before + 1
    assert capsys.readouterr().err == ""


def test_a_secret_in_an_unformattable_template_stays_hidden(
    logged: tuple[logging.Logger, io.StringIO],
) -> None:
    log, stream = logged
    log.error(f"GET /bot{SECRET}/getMe %s %s", "one")
    (line,) = lines(stream)
    assert "unformattable log record (TypeError)" in line and "<secret>" in line
    assert SECRET not in stream.getvalue()


def test_an_event_with_an_unprintable_field_is_one_line_without_it(
    logged: tuple[logging.Logger, io.StringIO], capsys: pytest.CaptureFixture[str]
) -> None:
    log, stream = logged
    before = unformattable()
    event(log, "move", chat=-100, odd=Unprintable())
    (line,) = lines(stream)
    assert "move" in line and "[unformattable log record: RecursionError]" in line, line
    assert unformattable() == before + 1
    assert capsys.readouterr().err == ""
