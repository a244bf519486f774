"""The words the chats hold after real games (issue "Edges", point 7), through the real bot.

- Each game has one name in every text and button (the lobby, its buttons, /rules,
  /newgame's list, the board, /score, the hands, /stats).
- Whoever stops or cancels a game is not told about himself in the third person.
- A lobby that closed without a game says that the lobby closed, never that a game was
  cut short.
- A no-clock game that ended before anyone moved has no winner, no places and no table,
  and counts toward no stats.
- After a rematch, the old final table's Rematch button goes; /stats shows what twolane
  counts (penalties), not «очков 0».
"""

from __future__ import annotations

import random
import re

import pytest

from bot.game.options import LobbyAction
from bot.telegram.callbacks import RematchPress
from tests.e2e.reading import all_texts, bot_messages
from tests.fakebotapi import FakeBotApi
from tests.fakebotapi.views import MessageView
from tests.support.bot_process import BotProcess, bot_environment
from tests.support.buttons import lobby_button, of_kind
from tests.support.players import (
    JOIN,
    Human,
    open_table,
    play_to_the_end,
    press_lobby,
)
from tests.test_game_names import second_spellings, titles

# A game without a clock ends after this long without a move (and reminds before it).
SILENCE_HOURS = 0.002  # 7.2 s
REMINDER_HOURS = 0.0005


@pytest.fixture
def bot_env(api: FakeBotApi, redis_url: str, key_prefix: str) -> dict[str, str]:
    return bot_environment(
        api,
        redis_url,
        key_prefix,
        NO_CLOCK_REMINDER_HOURS=str(REMINDER_HOURS),
        NO_CLOCK_END_HOURS=str(SILENCE_HOURS),
    )


def say(api: FakeBotApi, user: int, group: int, text: str) -> MessageView:
    sent = api.send_text(user, group, text)
    return api.wait_message(group, after=sent, where=lambda m: m.reply_to == sent, timeout=15)


def texts_of(api: FakeBotApi, user: int) -> list[str]:
    return [m.content for m in bot_messages(api, user)]


def open_lobby(api: FakeBotApi, variant: str, *names: str) -> tuple[int, list[int], int]:
    """A group whose first person opened a lobby, and everyone seated by the Join link."""
    users = [api.add_user(name, language_code="ru") for name in names]
    group = api.add_group("Домино", owner=users[0], members=users[1:])
    sent = api.send_text(users[0], group, f"/newgame {variant}".strip())
    lobby = api.wait_message(group, after=sent, where=lambda m: bool(m.buttons))
    for user in users:
        edits = api.message(group, lobby.id).edit_count
        api.follow_url_button(user, group, lobby.id, JOIN)
        api.wait_edit(group, lobby.id, after_edits=edits)
    return group, users, lobby.id


def test_each_game_has_one_name_in_every_chat(api: FakeBotApi, bot: BotProcess) -> None:
    names = titles("ru")

    # /newgame with no such game lists the games; /rules shows each one's page.
    (outsider,) = [api.add_user("Вадим", language_code="ru")]
    rules_group = api.add_group("Правила", owner=outsider)
    listed = say(api, outsider, rules_group, "/newgame chess")
    assert all(name in listed.content for name in names.values()), listed.content
    page = say(api, outsider, rules_group, "/rules")
    assert page.content.startswith(f"{names['fives']} · "), page.content
    for name in (names["muggins"], names["twolane"]):
        edits = api.message(rules_group, page.id).edit_count
        query = api.press_button(outsider, rules_group, page.id, re.compile(re.escape(name)))
        api.callback_answer(query)
        shown = api.wait_edit(rules_group, page.id, after_edits=edits)
        assert shown.content.startswith(f"{name} · "), shown.content

    # A muggins game: its lobby, its board, /score, the hands.
    group, people, lobby = open_lobby(api, "muggins", "Андрей", "Ирина")
    andrey, irina = people
    assert api.message(group, lobby).content.startswith(f"🁫 {names['muggins']}")
    query = press_lobby(api, andrey, group, lobby, LobbyAction.START)
    assert not api.callback_answer(query).show_alert
    humans = [Human(api, user, random.Random(user)) for user in people]
    for _ in range(4):
        for human in humans:
            human.act()
    # Each has his tiles (a hand message) before the game is stopped.
    api.wait_for(
        lambda a: all(any(m.photo for m in bot_messages(a, u)) for u in people), 20, "hands"
    )
    board = api.wait_message(group, where=lambda m: m.photo is not None, timeout=20)
    assert names["muggins"] in (board.caption or ""), board.caption
    assert names["muggins"] in say(api, irina, group, "/score").content
    check_names(api)


def check_names(api: FakeBotApi) -> None:
    """Every text, caption and button sent names each game one way only."""
    names = titles("ru")
    api.wait_quiet(1.0, 30)
    shown = all_texts(api)
    assert any(name in text for text in shown for name in names.values())
    wrong = [(t, second_spellings(t, names.values())) for t in shown]
    assert [(t, w) for t, w in wrong if w] == []


def test_who_stops_or_cancels_is_not_named_to_himself_and_a_closed_lobby_says_so(
    api: FakeBotApi, bot: BotProcess
) -> None:
    # A game its creator stops while it is played.
    group, people, lobby = open_lobby(api, "fives", "Андрей", "Ирина")
    andrey, irina = people
    query = press_lobby(api, andrey, group, lobby, LobbyAction.START)
    assert not api.callback_answer(query).show_alert
    api.wait_for(
        lambda a: all(any(m.photo for m in bot_messages(a, u)) for u in people), 20, "hands"
    )
    question = say(api, andrey, group, "/stop")
    query = api.press_button(andrey, group, question.id, re.compile("Да"))
    assert not api.callback_answer(query).show_alert
    stopped_named = "Игра остановлена по команде /stop (Андрей)."
    api.wait_for(
        lambda a: any(stopped_named in t for t in texts_of(a, irina)), 20, "Ирина told who"
    )
    stopped = "Игра остановлена по команде /stop."
    api.wait_for(lambda a: any(stopped in t for t in texts_of(a, andrey)), 20, "Андрей told")
    # The group is told who stopped it; Андрей himself is not told about «Андрей».
    api.wait_for(
        lambda a: any(stopped_named in m.content for m in bot_messages(a, group)), 20, "board"
    )
    assert not any("(Андрей)" in text for text in texts_of(api, andrey)), texts_of(api, andrey)

    # A lobby its creator cancels: the one who joined is told who did; he is not.
    cancelled, (olga, petr), cancelled_lobby = open_lobby(api, "", "Ольга", "Пётр")
    query = press_lobby(api, olga, cancelled, cancelled_lobby, LobbyAction.CANCEL)
    assert not api.callback_answer(query).show_alert
    told = "Игру в «Домино» отменили до начала"
    api.wait_message(petr, where=lambda m: m.text == f"{told} (Ольга).", timeout=20)
    api.wait_message(olga, where=lambda m: m.text == f"{told}.", timeout=20)
    assert not any("(Ольга)" in text for text in texts_of(api, olga)), texts_of(api, olga)

    # A lobby whose group removed the bot: the lobby closed, no game was cut short; and a
    # Join link followed afterwards says the same.
    removed, (nina, kira), removed_lobby = open_lobby(api, "twolane", "Нина", "Кира")
    api.kick_bot(removed, by=nina)
    closed = "Бота удалили из «Домино», поэтому лобби закрыто: игры там не будет."
    api.wait_message(kira, where=lambda m: m.text == closed, timeout=20)
    late = api.add_user("Лев", language_code="ru")
    sent = api.follow_url_button(late, removed, removed_lobby, JOIN)
    refused = api.wait_message(late, after=sent, timeout=15)
    assert "лобби закрыто" in (refused.text or ""), refused.text
    for user in (nina, kira, late):
        assert not any("прервана" in text for text in texts_of(api, user)), texts_of(api, user)

    check_names(api)


def test_a_game_nobody_played_has_no_winner_and_counts_nowhere(
    api: FakeBotApi, bot: BotProcess
) -> None:
    group, people, lobby = open_lobby(api, "fives", "Андрей", "Ирина")
    andrey = people[0]
    for _ in range(3):  # 90 s a move -> 180 -> 300 -> no clock
        current = api.message(group, lobby)
        button = lobby_button(current, LobbyAction.TIME, value=None)
        assert button is not None and button.callback_data is not None
        edits = current.edit_count
        query = api.press(andrey, group, lobby, button.callback_data)
        assert not api.callback_answer(query).show_alert
        api.wait_edit(group, lobby, after_edits=edits)
    assert "без часов" in api.message(group, lobby).content
    query = press_lobby(api, andrey, group, lobby, LobbyAction.START)
    assert not api.callback_answer(query).show_alert
    # Nobody moves: after the silence the group is told, in a new message.
    ended = api.wait_message(
        group, contains="игра окончена", timeout=60, where=lambda m: m.id > lobby
    )
    api.wait_quiet(1.0, 30)
    end = [m for m in bot_messages(api, group) if "Ходов не было" in m.content]
    assert len(end) == 1, [m.content for m in bot_messages(api, group)]
    (told,) = end
    assert told.photo is None, told.caption  # no table of places, no trophy
    assert "Никто не сделал ни одного хода: победителя нет" in told.content, told.content
    assert "Победител" not in told.content.replace("победителя нет", ""), told.content
    assert "1." not in told.content, told.content  # no places
    assert ended is not None
    # It counts toward no stats and no rating.
    assert say(api, andrey, group, "/stats").content == "В этом чате ещё нет законченных игр."
    assert "Рейтинг" not in say(api, andrey, group, "/top").content
    for user in people:
        private = " ".join(texts_of(api, user))
        assert "Ваше место" not in private and "Победител" not in private, private


def test_a_rematch_takes_the_old_rematch_button_off(api: FakeBotApi, bot: BotProcess) -> None:
    group, seated, _ = open_table(api, "twolane", "hhe")
    people = list(seated)
    humans = [Human(api, user, random.Random(user)) for user in people]
    final = play_to_the_end(api, group, humans, timeout=180)
    assert of_kind(final.buttons, RematchPress)

    # twolane counts penalties: /stats shows them, never «очков 0».
    stats = say(api, people[0], group, "/stats").content
    board = stats.split("\n\n")[0].splitlines()[1:]
    assert board and all("штрафные очки: " in row for row in board), stats
    assert not any("очки: " in row.replace("штрафные очки: ", "") for row in board), stats

    query = api.press_button(people[1], group, final.id, re.compile("Реванш"))
    assert not api.callback_answer(query).show_alert
    rematch = api.wait_message(group, after=final.id, where=lambda m: bool(m.buttons))
    # The old table keeps its picture and loses its button: the rematch is below it.
    api.wait_for(lambda a: a.message(group, final.id).buttons == [], 20, "old Rematch gone")
    assert api.message(group, final.id).photo is not None
    assert rematch.buttons
    api.wait_quiet(1.0, 30)
    with_rematch = [m.id for m in bot_messages(api, group) if of_kind(m.buttons, RematchPress)]
    assert with_rematch == []
