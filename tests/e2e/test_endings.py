"""Every way a game ends, through the real bot process: each message tells the truth after it.

One bot, six groups: a game played to its end, one a player left (a forfeit, then its
rematch), one stopped, one whose group removed the bot (and later let it back), one
everyone left, and a lobby nobody touched (with a short LOBBY_IDLE_SECONDS). At the end
no message in any chat has live buttons but the final table's Rematch, none claims a
turn, and each player's hand message names how his game ended.
"""

from __future__ import annotations

import random
import re
import time

import pytest

from bot.telegram.callbacks import RematchPress
from tests.e2e.reading import bot_messages, claims_a_turn, contents
from tests.fakebotapi import FakeBotApi
from tests.fakebotapi.views import MessageView
from tests.support.bot_process import BotProcess, bot_environment
from tests.support.buttons import of_kind
from tests.support.players import JOIN, Human, final_message, open_table, play_to_the_end

IDLE_SECONDS = 8

FINISHED = "Игра окончена."
STOPPED = "Игра остановлена по команде /stop (Андрей)."
STOPPED_BY_YOU = "Игра остановлена по команде /stop."  # what Андрей reads: not «(Андрей)»
REMOVED = "Бота удалили из группы — игра прервана."
LOBBY_CLOSED = "Лобби в «Домино» закрыто: долго никто ничего не нажимал. Игра не началась."
EVERYONE_LEFT = "Все вышли из игры — она окончена."
IDLE_CLOSED = "Лобби закрыто: 1 мин никто ничего не нажимал."


@pytest.fixture
def bot_env(api: FakeBotApi, redis_url: str, key_prefix: str) -> dict[str, str]:
    # The shared `bot` fixture (tests/e2e/conftest.py) runs the bot with these settings.
    return bot_environment(api, redis_url, key_prefix, LOBBY_IDLE_SECONDS=str(IDLE_SECONDS))


def hand_pictures(api: FakeBotApi, user: int) -> list[MessageView]:
    """A user's hand messages: the pictures, and a finished game's result (a text)."""
    return [m for m in api.messages(user, from_bot=True) if m.content.startswith("🁫")]


def wait_hands_say(api: FakeBotApi, users: list[int], text: str, timeout: float = 30) -> None:
    """Until each user's last hand message says `text`."""

    def told(a: FakeBotApi) -> bool:
        return all(
            (hands := hand_pictures(a, user)) and text in hands[-1].content for user in users
        )

    api.wait_for(told, timeout, f"every hand says {text!r}")


def wait_first_hands(api: FakeBotApi, users: list[int]) -> None:
    api.wait_for(
        lambda a: all(hand_pictures(a, user) for user in users), 20, "the first hands sent"
    )


def say(api: FakeBotApi, user: int, group: int, text: str) -> MessageView:
    sent = api.send_text(user, group, text)
    return api.wait_message(group, after=sent, where=lambda m: m.reply_to == sent, timeout=15)


def open_idle_lobby(api: FakeBotApi) -> tuple[int, int, list[int]]:
    """A lobby with one person seated, which nobody touches after that."""
    users = [api.add_user(name, language_code="ru") for name in ("Андрей", "Ирина")]
    group = api.add_group("Домино", owner=users[0], members=users[1:])
    sent = api.send_text(users[0], group, "/newgame")
    lobby = api.wait_message(group, after=sent, where=lambda m: bool(m.buttons))
    edits = api.message(group, lobby.id).edit_count
    api.follow_url_button(users[1], group, lobby.id, JOIN)
    api.wait_edit(group, lobby.id, after_edits=edits)
    return group, lobby.id, users


def live_buttons(api: FakeBotApi, chat: int) -> list[tuple[int, str]]:
    """The bot's messages in a chat that still carry buttons, but a final table's Rematch."""
    final = final_message(api, chat)
    found = []
    for message in api.messages(chat, from_bot=True):
        if not message.buttons:
            continue
        rematch = of_kind(message.buttons, RematchPress) == message.buttons
        if final is not None and message.id == final.id and rematch:
            continue
        found.append((message.id, message.describe_buttons()))
    return found


def test_every_way_a_game_ends_leaves_every_message_true(api: FakeBotApi, bot: BotProcess) -> None:
    idle_group, idle_lobby, idle_users = open_idle_lobby(api)

    # Stopped: its creator confirms /stop while a hand is live.
    stopped, stopped_people, _ = open_table(api, "fives", "hh")
    stopped_users = list(stopped_people)
    wait_first_hands(api, stopped_users)
    question = say(api, stopped_users[0], stopped, "/stop")
    query = api.press_button(stopped_users[0], stopped, question.id, re.compile("Да"))
    assert not api.callback_answer(query).show_alert
    wait_hands_say(api, stopped_users[1:], STOPPED)
    wait_hands_say(api, stopped_users[:1], STOPPED_BY_YOU)

    # The bot removed from the group in the middle of a game.
    removed, removed_people, _ = open_table(api, "fives", "hh")
    removed_users = list(removed_people)
    wait_first_hands(api, removed_users)
    # (once its board is up: the bot is to tell that board how the game ended when let back)
    api.wait_for(lambda a: any(m.photo for m in bot_messages(a, removed)), 20, "the board")
    api.kick_bot(removed, by=removed_users[0])
    wait_hands_say(api, removed_users, REMOVED)
    handled_at = time.time()  # (a board call already on its way may still have gone)

    # Everyone left: the game ends with the last one.
    left, left_people, _ = open_table(api, "fives", "hh")
    left_users = list(left_people)
    wait_first_hands(api, left_users)
    assert "до конца этой игры" in (say(api, left_users[0], left, "/leave").text or "")
    assert say(api, left_users[1], left, "/leave").text == EVERYONE_LEFT
    wait_hands_say(api, left_users, EVERYONE_LEFT)

    # Finished: one person and an easy computer play twolane (a single deal) to its end.
    finished, finished_people, _ = open_table(api, "twolane", "he")
    players = [Human(api, user, random.Random(user)) for user in finished_people]
    play_to_the_end(api, finished, players, timeout=120)
    wait_hands_say(api, list(finished_people), FINISHED)
    wait_hands_say(api, list(finished_people), "Ваше место:")
    wait_hands_say(api, list(finished_people), "Итоговая таблица — в группе.")  # a basic group

    # Finished with a forfeit: Андрей leaves, the computer plays his seat to the end, and
    # whatever it made of it he is last, and told so.
    forfeit, forfeit_people, _ = open_table(api, "twolane", "hhe")
    quitter, stayer = list(forfeit_people)
    wait_first_hands(api, [quitter, stayer])
    assert "до конца этой игры" in (say(api, quitter, forfeit, "/leave").text or "")
    play_to_the_end(api, forfeit, [Human(api, stayer, random.Random(stayer))], timeout=120)
    wait_hands_say(api, [quitter], "Вы вышли из игры: последнее место (3 из 3)")
    table = final_message(api, forfeit)
    assert table is not None
    assert "Андрей — выход из игры: последнее место" in (table.caption or ""), table.caption
    assert not (table.caption or "").startswith("Победитель: Андрей")

    # Its rematch is for its players: someone who watched and the one who left are
    # refused; the first player to press runs it, without the one who left.
    watcher = api.add_user("Вадим", language_code="ru")
    api.set_member(forfeit, watcher)
    for user in (watcher, quitter):
        query = api.press_button(user, forfeit, table.id, re.compile("Реванш"))
        assert api.callback_answer(query).show_alert, user
    query = api.press_button(stayer, forfeit, table.id, re.compile("Реванш"))
    assert not api.callback_answer(query).show_alert
    rematch = api.wait_message(forfeit, after=table.id, where=lambda m: bool(m.buttons))
    assert "Ирина" in rematch.content and "Андрей" not in rematch.content, rematch.content

    # The idle lobby closed by itself, and says so.
    closed = api.wait_for(
        lambda a: IDLE_CLOSED in (a.message(idle_group, idle_lobby).text or ""),
        IDLE_SECONDS + 30,
        "the idle lobby closed",
    )
    assert closed

    # Who had joined the idle lobby is told in private that no game came of it.
    api.wait_message(idle_users[1], where=lambda m: m.text == LOBBY_CLOSED, timeout=30)

    api.wait_quiet(1.0, 30)
    people = idle_users + stopped_users + removed_users + left_users + list(finished_people)
    for chat in [idle_group, stopped, left, finished, *people]:
        assert live_buttons(api, chat) == [], (chat, live_buttons(api, chat))
    # Nothing claims a turn in a game that is over: no «Ваш ход», no «Ходит», no ▶.
    for chat in [idle_group, stopped, left, finished, *people, quitter, stayer]:
        claiming = [contents(m) for m in bot_messages(api, chat) if claims_a_turn(m)]
        assert claiming == [], (chat, claiming)
    # /score in the stopped group says how its game ended, not whose turn it was.
    score = say(api, stopped_users[1], stopped, "/score")
    assert (score.text or "").startswith(STOPPED), score.text
    assert not claims_a_turn(score)
    # The group that removed the bot keeps what it showed: the bot may not write there, and
    # does not try.
    assert api.calls(chat_id=removed, since=handled_at) == []
    # No edit that changed nothing (each ending is shown once, in its final words).
    failed = [c for c in api.calls(None, None, ok=False) if c.error_code == 400]
    assert failed == [], [(c.method, c.description) for c in failed]
    for users, text in [
        (stopped_users[1:], STOPPED),
        (stopped_users[:1], STOPPED_BY_YOU),
        (removed_users, REMOVED),
        (left_users, EVERYONE_LEFT),
        (list(finished_people), FINISHED),
    ]:
        for user in users:
            assert text in hand_pictures(api, user)[-1].content, user

    # Let back into the group that removed it, the bot tells its old board how that game
    # ended: nobody's turn any more.
    api.set_bot_status(removed, "member", by=removed_users[0])
    board = api.wait_for(
        lambda a: next((m for m in bot_messages(a, removed) if REMOVED in m.content), None),
        30,
        "the old board told",
    )
    assert board.photo is not None
    api.wait_quiet(1.0, 30)
    assert [m.content for m in bot_messages(api, removed) if claims_a_turn(m)] == []
