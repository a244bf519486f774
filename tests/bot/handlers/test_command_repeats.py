"""/score, /rules, /help, /stats typed again and again do not spend the group's budget."""

from __future__ import annotations

import asyncio
import time

import pytest

from bot.handlers import repeats
from tests.bot.conftest import Harness

ANSWERS = ("sendMessage", "editMessageText")
NOTE = "Ответ выше ↑"


async def test_ten_scores_cost_two_calls_and_the_board_goes_on(h: Harness) -> None:
    table = await h.table("fives")
    andrey, irina = table.users
    await h.settle()
    since = time.time()
    first = await h.say(irina, table.chat, "/score")
    assert "Ходит:" in first.text
    for _ in range(9):
        h.api.send_text(andrey, table.chat, "/score")
    # The repeats' one note (on a loaded machine a quiet spell can come before it), then
    # nothing more.
    await h.wait(
        lambda api: len(api.calls(ANSWERS, table.chat, since=since)) >= 2, "the repeats' note"
    )
    await h.settle()
    calls = h.api.calls(ANSWERS, table.chat, since=since)
    assert len(calls) == 2, [c.method for c in calls]
    answers = [m for m in h.api.messages(table.chat, from_bot=True) if m.text and m.id > first.id]
    assert [(m.text, m.reply_to) for m in answers] == [(NOTE, first.id)]

    # The board still follows the game; and a changed table is news: answered anew.
    version = (await table.game()).version
    await table.play_turns(1)

    async def shown() -> bool:
        game = await table.game()
        return game.version > version and game.board.shows_version == game.version

    await h.until(shown, "the board shows the move")
    again = await h.say(andrey, table.chat, "/score")
    assert again.id != first.id and "Ходит:" in again.text and again.text != first.text
    h.api.send_text(andrey, table.chat, "/score")
    await h.settle()
    later = [m for m in h.api.messages(table.chat, from_bot=True) if m.text and m.id > again.id]
    assert [(m.text, m.reply_to) for m in later] == [(NOTE, again.id)]


@pytest.mark.timing
async def test_after_the_window_the_command_answers_anew(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(repeats, "WINDOW", 0.6)
    (a,) = h.people("Андрей")
    group = h.group(a)
    first = await h.say(a, group, "/help")
    note = await h.say(a, group, "/help", reply=False)
    assert (note.text, note.reply_to) == (NOTE, first.id)
    h.api.send_text(a, group, "/start")  # the same help: nothing at all now
    await h.settle()
    assert h.api.messages(group, from_bot=True)[-1].id == note.id
    await asyncio.sleep(0.7)
    again = await h.say(a, group, "/help")
    assert again.text == first.text and again.id > note.id


async def test_each_way_of_asking_for_rules_and_the_stats(h: Harness) -> None:
    (a,) = h.people("Андрей")
    group = h.group(a)
    fives = await h.say(a, group, "/rules")
    twolane = await h.say(a, group, "/rules twolane")
    assert twolane.text.startswith("Двухполосное домино")
    other = await h.say(a, group, "/rules nonsense")
    assert other.text.startswith("Пятерное домино")
    note = await h.say(a, group, "/rules", reply=False)
    assert (note.text, note.reply_to) == (NOTE, fives.id)
    stats = await h.say(a, group, "/stats")
    assert stats.text == "В этом чате ещё нет законченных игр."
    since = time.time()
    for _ in range(5):
        h.api.send_text(a, group, "/stats")
        h.api.send_text(a, group, "/rules twolane")
    await h.settle()
    assert len(h.api.calls(ANSWERS, group, since=since)) == 2  # a note each


async def test_private_chats_answer_every_time(h: Harness) -> None:
    (a,) = h.people("Андрей")
    await h.start_bot(a)
    for _ in range(3):
        answer = await h.say(a, a, "/help")
        assert answer.text.startswith("Домино для групповых чатов")
