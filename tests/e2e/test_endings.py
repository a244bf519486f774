"""Every way a game ends, through the real bot process: each message tells the truth after it.

One bot, five groups: a game played to its end, one stopped, one whose group removed
the bot, one everyone left, and a lobby nobody touched (with a short LOBBY_IDLE_SECONDS).
At the end no message in any chat has live buttons but the final table's Rematch, and
each player's hand message names how his game ended.
"""

from __future__ import annotations

import random
import re
import time

import pytest

from tests.e2e.harness import (
    JOIN,
    BotProcess,
    Human,
    bot_environment,
    final_message,
    open_table,
    play_to_the_end,
)
from tests.fakebotapi import FakeBotApi
from tests.fakebotapi.views import MessageView

IDLE_SECONDS = 8

FINISHED = "Игра окончена."
STOPPED = "Игра остановлена по команде /stop (Андрей)."
REMOVED = "Бота удалили из группы — игра прервана."
EVERYONE_LEFT = "Все вышли из игры — она окончена."
IDLE_CLOSED = "Лобби закрыто: 1 мин никто ничего не нажимал."


@pytest.fixture
def bot_env(api: FakeBotApi, redis_url: str, key_prefix: str) -> dict[str, str]:
    # The shared `bot` fixture (tests/e2e/conftest.py) runs the bot with these settings.
    return bot_environment(api, redis_url, key_prefix, LOBBY_IDLE_SECONDS=str(IDLE_SECONDS))


def hand_pictures(api: FakeBotApi, user: int) -> list[MessageView]:
    return [m for m in api.messages(user, from_bot=True) if m.photo is not None]


def wait_hands_say(api: FakeBotApi, users: list[int], text: str, timeout: float = 30) -> None:
    """Until each user's last hand message says `text`."""

    def told(a: FakeBotApi) -> bool:
        return all(
            (hands := hand_pictures(a, user)) and text in (hands[-1].caption or "")
            for user in users
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
        rematch = all((b.callback_data or "").startswith("RM:") for b in message.buttons)
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
    wait_hands_say(api, stopped_users, STOPPED)

    # The bot removed from the group in the middle of a game.
    removed, removed_people, _ = open_table(api, "fives", "hh")
    removed_users = list(removed_people)
    wait_first_hands(api, removed_users)
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

    # The idle lobby closed by itself, and says so.
    closed = api.wait_for(
        lambda a: IDLE_CLOSED in (a.message(idle_group, idle_lobby).text or ""),
        IDLE_SECONDS + 30,
        "the idle lobby closed",
    )
    assert closed

    api.wait_quiet(1.0, 30)
    people = idle_users + stopped_users + removed_users + left_users + list(finished_people)
    for chat in [idle_group, stopped, left, finished, *people]:
        assert live_buttons(api, chat) == [], (chat, live_buttons(api, chat))
    # The group that removed the bot keeps what it showed: the bot may not write there, and
    # does not try.
    assert api.calls(chat_id=removed, since=handled_at) == []
    # No edit that changed nothing (each ending is shown once, in its final words).
    failed = [c for c in api.calls(None, None, ok=False) if c.error_code == 400]
    assert failed == [], [(c.method, c.description) for c in failed]
    for users, text in [
        (stopped_users, STOPPED),
        (removed_users, REMOVED),
        (left_users, EVERYONE_LEFT),
        (list(finished_people), FINISHED),
    ]:
        for user in users:
            assert text in (hand_pictures(api, user)[-1].caption or ""), user
