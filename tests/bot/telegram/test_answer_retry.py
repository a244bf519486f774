"""A button press whose answer failed (a 5xx, or no answer in time) is answered once more
while the press is fresh, so its spinner stops; a press is never answered twice, and
Telegram refusing a second answer ("query is too old") is no error."""

from __future__ import annotations

import logging
import time
from typing import Any

import pytest
from telegram.error import BadRequest, NetworkError, TimedOut

from bot.telegram import api
from tests.bot.conftest import Harness

ADDED = "Компьютер сел за стол."
TOO_OLD = "Bad Request: query is too old and response timeout expired or query ID is invalid"


def answers(h: Harness) -> list[tuple[bool, int | None]]:
    return [(c.ok, c.error_code) for c in h.api.calls("answerCallbackQuery")]


async def lobby(h: Harness) -> tuple[int, int, Any]:
    (a,) = h.people("Андрей")
    group = h.group(a)
    return a, group, await h.newgame(a, group)


async def test_a_press_whose_answer_got_a_5xx_is_answered_again(h: Harness) -> None:
    a, group, found = await lobby(h)
    h.api.inject_error("answerCallbackQuery", error_code=500)
    answer = await h.lobby_button(a, group, found, "ce")
    assert (answer.text, answer.show_alert) == (ADDED, False)
    assert answers(h) == [(False, 500), (True, None)]


async def test_a_press_whose_answer_hangs_is_answered_again_in_time(h: Harness) -> None:
    a, group, found = await lobby(h)
    h.api._st.callback_timeout = 7.0  # a press can be answered for seconds only, as on Telegram
    # The first answer hangs and would land after the press is too old to answer.
    h.api.delay_answers("answerCallbackQuery", seconds=9, effect="after")
    started = time.monotonic()
    answer = await h.lobby_button(a, group, found, "ce")
    assert (answer.text, answer.show_alert) == (ADDED, False)
    assert time.monotonic() - started < 7
    await h.wait(lambda api: len(api.calls("answerCallbackQuery")) == 2, "the late first answer")
    assert answers(h) == [(True, None), (False, 400)]  # the second one in time, the first late


async def test_an_answer_that_arrived_late_is_not_given_twice_nor_called_an_error(
    h: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    a, group, found = await lobby(h)
    # Telegram takes the answer at once, but its reply is late: the bot times out, tries again,
    # and Telegram refuses the second answer of the press.
    h.api.delay_answers("answerCallbackQuery", seconds=6, effect="before")
    answer = await h.lobby_button(a, group, found, "ce")
    assert (answer.text, answer.show_alert) == (ADDED, False)
    await h.wait(lambda api: len(api.calls("answerCallbackQuery")) == 2, "the second try")
    calls = h.api.calls("answerCallbackQuery")
    assert [(c.ok, c.description) for c in calls] == [(True, None), (False, TOO_OLD)]
    await h.settle()
    refused = [r for r in caplog.records if "bad request" in r.getMessage()]
    assert refused == [], [r.getMessage() for r in refused]


class Query:
    """A callback query whose answers fail as `errors` say (None: answered)."""

    def __init__(self, *errors: Exception | None) -> None:
        self.errors = list(errors)
        self.tries: list[float | None] = []

    async def answer(self, text: str | None, show_alert: bool, read_timeout: float) -> bool:
        self.tries.append(read_timeout)
        error = self.errors.pop(0) if self.errors else None
        if error is not None:
            raise error
        return True


@pytest.mark.parametrize("error", [NetworkError("Bad Gateway"), TimedOut("Timed out")])
async def test_a_fresh_press_is_answered_again_once(error: Exception) -> None:
    api.update_began()
    query = Query(error, error, error)
    await api.answer(query, "x")  # type: ignore[arg-type]
    assert query.tries == [api.ANSWER_TIMEOUT, api.ANSWER_TIMEOUT]  # twice, never more


async def test_a_press_that_is_no_longer_fresh_is_not_answered_again(
    caplog: pytest.LogCaptureFixture,
) -> None:
    api.update_began(time.monotonic() - api.ANSWER_RETRY_WITHIN - 0.1)
    query = Query(NetworkError("Bad Gateway"))
    with caplog.at_level(logging.WARNING):
        await api.answer(query, "x")  # type: ignore[arg-type]
    assert len(query.tries) == 1


async def test_an_answered_press_and_a_refusal_are_not_tried_again() -> None:
    api.update_began()
    answered = Query(None)
    await api.answer(answered)  # type: ignore[arg-type]
    refused = Query(BadRequest("Message is too long"))
    await api.answer(refused, "x" * 300)  # type: ignore[arg-type]
    assert (len(answered.tries), len(refused.tries)) == (1, 1)
