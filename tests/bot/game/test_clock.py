"""The turn clock players see: the time left in the prompt and on the board, one reminder
a turn, and the lobby's "no clock" option (a reminder after hours, an end after a day).

The harness's clock is moved forward; the bot acts on the due index (the sweep), or on a
sync where a test checks the exact moment.
"""

from __future__ import annotations

import re
import time

import pytest

from bot.delivery.hand.plan import HandWant, reminder_due
from bot.game.clock import HOUR, reminder_at
from bot.game.match_records import DEADLINE_SLACK
from bot.game.options import NO_CLOCK
from bot.i18n import translator
from bot.settings import Settings
from bot.storage.models import HandDelivery, Match
from bot.telegram.clock_texts import duration
from tests.bot.conftest import ANDREY_TO_ACT, Harness, Table
from tests.fakebotapi import MessageView

TOKEN = "123456:TEST-token-abcdefghijklmnopqrstuvwxyz123"


def reminders(h: Harness, user: int, deleted: bool = False) -> list[MessageView]:
    """The bot's text messages to `user` that remind him of his move (`deleted`: also
    those deleted since, their turn being over)."""
    return [
        m
        for m in h.api.messages(user, from_bot=True, include_deleted=deleted)
        if m.photo is None and (m.text or "").startswith("⏳")
    ]


async def no_clock_table(h: Harness) -> Table:
    """Two people in a fives lobby switched to "no clock" (90 -> 180 -> 300 -> none)."""
    table = await h.table("fives", start=False)
    for _ in range(3):
        await h.lobby_settled(table.chat)
        answer = await h.lobby_button(table.users[0], table.chat, table.lobby, "tm")
        assert not answer.show_alert, answer
    game = await h.lobby_settled(table.chat)
    assert game.turn_seconds == NO_CLOCK
    return table


# -- a game with a clock ------------------------------------------------------------------


def seconds_shown(pattern: str, text: str | None) -> int:
    """The seconds a clock line shows (the time left when the message was drawn)."""
    found = re.search(pattern, text or "")
    assert found is not None, text
    return int(found.group(1))


async def test_the_prompt_and_the_board_say_whose_turn_and_the_time_left(h: Harness) -> None:
    table, game = await h.match_at(ANDREY_TO_ACT)
    andrey, _ = table.users
    hand = await h.hand_for(andrey, game.version)
    # 90 s per move, as much as is left when it was drawn (on a slow machine a little less).
    assert 75 <= seconds_shown(r"⏳ На ход осталось (\d+) с", hand.caption) <= 90
    board = await table.board_caption("⏳ Андрей: ")
    assert 75 <= seconds_shown(r"⏳ Андрей: осталось (\d+) с", board.caption) <= 90


async def test_score_says_whose_turn_and_the_time_left(h: Harness) -> None:
    table, _ = await h.match_at(ANDREY_TO_ACT)
    _, irina = table.users
    h.clock.advance(30)  # the line is worked out when /score is answered
    score = await h.say(irina, table.chat, "/score")
    assert 45 <= seconds_shown(r"⏳ Андрей: осталось (\d+) с", score.text) <= 60


async def test_an_english_player_reads_the_time_in_english(h: Harness) -> None:
    table = await h.table("fives", lang="en")
    andrey, _ = table.users
    game = await h.set_position(table.chat, ANDREY_TO_ACT.copy(), turn_seconds=180)
    hand = await h.hand_for(andrey, game.version)
    assert re.search(r"⏳ (3 min|2 min \d0 s) left to move", hand.caption or ""), hand.caption
    board = await table.board_caption("⏳ Андрей: ")  # the group speaks Russian
    found = re.search(r"⏳ Андрей: осталось (3 мин|2 мин \d0 с)", board.caption or "")
    assert found, board.caption


async def test_one_reminder_when_a_third_of_the_time_is_left(h: Harness) -> None:
    table, game = await h.match_at(ANDREY_TO_ACT)
    andrey, irina = table.users
    hand = await h.hand_for(andrey, game.version)
    await h.settle()
    assert game.deadline is not None
    remind_at = game.deadline - 30  # a third of 90 s left
    since = time.time()

    h.clock.advance(remind_at - 1 - h.clock())  # a second early: nothing yet
    await h.sync(table.chat)
    await h.settle()
    assert reminders(h, andrey) == []

    # Once it is due the sweep finds it (the due index has it, a little later).
    h.clock.advance(remind_at + DEADLINE_SLACK + 0.01 - h.clock())
    reminder = await h.api.wait_message_async(andrey, after=hand.id, where=lambda m: not m.photo)
    assert reminder.text is not None and reminder.text.startswith("⏳ На ход осталось ")
    assert reminder.text.endswith(" с."), reminder.text
    assert reminder.reply_to == hand.id  # it points at the buttons
    assert reminder.buttons == []

    # Once a turn: more passes, and more time, send nothing more.
    for _ in range(3):
        h.clock.advance(5)
        await h.sync(table.chat)
    await h.settle()
    assert [m.id for m in reminders(h, andrey)] == [reminder.id]
    # What his turn cost his chat after the hand: the reminder, and no edit for the clock.
    assert [c.method for c in h.api.calls(None, andrey, since=since)] == ["sendMessage"]
    assert reminders(h, irina) == []


async def test_no_reminder_comes_too_late_to_help(h: Harness) -> None:
    table, game = await h.match_at(ANDREY_TO_ACT)
    andrey, _ = table.users
    await h.hand_for(andrey, game.version)
    await h.settle()
    await h.expire(table.chat)  # the whole turn went by (the bot was held up, say)
    await h.until(lambda: _moved_on(table, game.version), "the move made for him")
    await h.settle()
    assert reminders(h, andrey) == []


async def test_the_next_turn_has_a_reminder_of_its_own(h: Harness) -> None:
    table, game = await h.match_at(ANDREY_TO_ACT)
    andrey, _ = table.users
    await h.hand_for(andrey, game.version)
    assert game.deadline is not None
    h.clock.advance(game.deadline - 29 - h.clock())
    await h.sync(table.chat)
    await h.wait(lambda api: len(reminders(h, andrey)) == 1, "the first reminder")
    (first,) = reminders(h, andrey)
    await h.play_any(andrey, game.version)  # his move; Ирина's turn, then his again
    # His turn is over: its reminder goes (it would speak of a turn that is not running).
    await h.wait(lambda api: api.message(andrey, first.id).deleted, "the reminder deleted")

    async def his_turn_again() -> bool:
        found = await table.game()
        return found.version > game.version and await table.to_act() == andrey

    while not await his_turn_again():
        await h.play_any(table.users[1], (await table.game()).version)
        await h.settle()
    again = await table.game()
    await h.hand_for(andrey, again.version)
    assert again.deadline is not None
    h.clock.advance(again.deadline - 29 - h.clock())
    await h.sync(table.chat)
    await h.wait(lambda api: len(reminders(h, andrey)) == 1, "the second turn's reminder")
    sent = reminders(h, andrey, deleted=True)
    assert len(sent) == 2 and sent[0].id == first.id and sent[0].deleted


async def _moved_on(table: Table, version: int) -> bool:
    return (await table.game()).version > version


# -- no clock ----------------------------------------------------------------------------


async def test_the_lobby_offers_no_clock_and_says_what_it_means(h: Harness) -> None:
    await h.relaunch(no_clock_reminder_hours=3, no_clock_end_hours=20)
    table = await no_clock_table(h)
    lobby = h.api.message(table.chat, table.lobby.id).content
    assert "· без часов" in lobby, lobby
    note = "⏳ Без часов: если хода нет 3 ч, бот напомнит; если нет 20 ч, игра закончится."
    assert note in lobby, lobby
    # The next press goes back to the shortest time: the note goes with it.
    await h.lobby_button(table.users[0], table.chat, table.lobby, "tm")
    game = await h.lobby_settled(table.chat)
    assert game.turn_seconds == 30
    lobby = h.api.message(table.chat, table.lobby.id).content
    assert "30 с на ход" in lobby and "Без часов" not in lobby


async def test_no_clock_has_no_deadline_reminds_once_and_ends_after_the_silence(
    h: Harness,
) -> None:
    await h.relaunch(no_clock_reminder_hours=3, no_clock_end_hours=20)
    table = await no_clock_table(h)
    game = await table.start()
    user = await table.to_act()
    assert user is not None
    seat = game.seat_of(user)
    assert seat is not None
    name = game.seats[seat].name
    assert game.deadline is not None and 20 * HOUR - 60 < game.deadline - h.clock() <= 20 * HOUR
    remind_at = game.deadline - 17 * HOUR  # three hours into his turn
    hand = await h.hand_for(user, game.version)
    assert "⏳ Без часов: если хода не будет 20 ч, игра закончится." in (hand.caption or "")
    await table.board_caption(f"⏳ {name}: без часов")

    # No time per move: two hours later (more than any clock) nobody moved for him.
    h.clock.advance(2 * HOUR)
    await h.sync(table.chat)
    await h.settle()
    assert (await table.game()).version == game.version
    assert reminders(h, user) == []

    # The reminder: not a second before three hours, and once after them.
    h.clock.advance(remind_at - 1 - h.clock())
    await h.sync(table.chat)
    await h.settle()
    assert reminders(h, user) == []
    h.clock.advance(2)
    await h.sync(table.chat)
    await h.wait(lambda api: reminders(h, user), "the reminder")
    (reminder,) = reminders(h, user)
    assert reminder.text == "⏳ Ждём вашего хода. Если его не будет, игра закончится через 17 ч."
    assert reminder.reply_to == hand.id
    h.clock.advance(HOUR)
    await h.sync(table.chat)
    await h.settle()
    assert len(reminders(h, user)) == 1

    # A minute before the twenty hours the game still waits for him.
    h.clock.advance(game.deadline - 60 - h.clock())
    await h.sync(table.chat)
    await h.settle()
    assert (await table.game()).status == "playing"

    # After them it ends, and the group is told in a new message (found by the sweep):
    # nobody moved, so it has no winner and no table of places.
    photos = h.api.count_calls("sendPhoto", table.chat)
    await h.expire(table.chat)
    told = await h.api.wait_message_async(
        table.chat, contains="⌛ Ходов не было 20 ч: игра окончена."
    )
    assert told.photo is None
    assert "Никто не сделал ни одного хода: победителя нет" in (told.text or "")
    assert h.api.count_calls("sendPhoto", table.chat) == photos
    ended = await table.game()
    assert (ended.status, ended.ended, ended.deadline) == ("cancelled", "silence", None)
    assert ended.version == game.version  # nothing was played for anyone
    await h.settle()
    # The game is over, so the reminder of its last turn is deleted; one was sent in all.
    assert reminders(h, user) == []
    assert [m.id for m in reminders(h, user, deleted=True)] == [reminder.id]


async def test_a_move_in_a_game_without_a_clock_starts_the_silence_again(h: Harness) -> None:
    await h.relaunch(no_clock_reminder_hours=3, no_clock_end_hours=20)
    table = await no_clock_table(h)
    game = await table.start()
    user = await table.to_act()
    assert user is not None
    h.clock.advance(10 * HOUR)
    await h.play_any(user, game.version)

    async def moved() -> bool:
        return (await table.game()).version > game.version

    await h.until(moved, "his move")
    after = await table.game()
    assert after.deadline is not None
    assert 20 * HOUR - 60 < after.deadline - h.clock() <= 20 * HOUR  # from his move, not before


# -- the pure parts ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("seconds", "ru", "en"),
    [
        (0, "0 с", "0 s"),
        (7.4, "7 с", "7 s"),
        (28.6, "30 с", "30 s"),
        (90.2, "90 с", "90 s"),
        (97.6, "1 мин 40 с", "1 min 40 s"),
        (100, "1 мин 40 с", "1 min 40 s"),
        (597, "10 мин", "10 min"),
        (HOUR - 10, "1 ч", "1 h"),
        (10 * HOUR - 60, "9 ч 59 мин", "9 h 59 min"),
        (10 * HOUR - 20, "10 ч", "10 h"),
        (14.4 * HOUR, "14 ч", "14 h"),
        (180, "3 мин", "3 min"),
        (1500, "25 мин", "25 min"),
        (3 * HOUR, "3 ч", "3 h"),
        (2.5 * HOUR, "2 ч 30 мин", "2 h 30 min"),
        (17 * HOUR - 1, "17 ч", "17 h"),
        (-5, "0 с", "0 s"),
    ],
)
def test_durations_read_as_a_clock_is_read(seconds: float, ru: str, en: str) -> None:
    assert duration(translator("ru"), seconds) == ru
    assert duration(translator("en"), seconds) == en


def settings(**values: float) -> Settings:
    return Settings(_env_file=None, telegram_bot_token=TOKEN, **values)  # type: ignore[call-arg,arg-type]


def test_the_reminder_time_is_counted_back_from_the_deadline() -> None:
    match = Match(id="g1", chat_id=-1, creator_id=1, status="playing", deadline=1000.0)
    match.turn_seconds = 90
    assert reminder_at(match, settings()) == 970.0
    match.turn_seconds = NO_CLOCK
    hours = settings(no_clock_reminder_hours=3, no_clock_end_hours=20)
    assert reminder_at(match, hours) == 1000.0 - 17 * HOUR
    match.status = "over"
    assert reminder_at(match, hours) is None


def test_a_reminder_is_due_once_for_the_hand_that_shows_the_turn() -> None:
    want = HandWant("A:1:2:7:-1", True, "1:2")
    shown = HandDelivery(message_id=5, shows="A:1:2:7:-1", live=True)
    assert reminder_due(want, shown, 50.0) == 50.0
    assert reminder_due(want, shown.model_copy(update={"reminded": "1:2"}), 50.0) is None
    assert reminder_due(want, shown.model_copy(update={"shows": "A:1:2:6:-1"}), 50.0) is None
    assert reminder_due(want, shown.model_copy(update={"closed": True}), 50.0) is None
    assert reminder_due(HandWant("P:x", False), shown, 50.0) is None
    assert reminder_due(want, shown, None) is None


def test_no_clock_must_end_after_its_reminder() -> None:
    with pytest.raises(ValueError, match="NO_CLOCK_REMINDER_HOURS"):
        settings(no_clock_reminder_hours=5, no_clock_end_hours=4)
