"""Whatever name Telegram gives a user (none, blanks, only a username), no handler fails."""

from __future__ import annotations

from typing import Any

import pytest
from telegram import User

from bot.handlers.common import display_name, person, shown_name
from tests.bot.conftest import Harness


def user(first: Any, last: Any = None, username: str | None = None, lang: str = "ru") -> User:
    return User(1, first, False, last_name=last, username=username, language_code=lang)


@pytest.mark.parametrize(
    ("first", "last", "username", "expected"),
    [
        ("Андрей", None, "andrey", "Андрей"),
        ("  Андрей \n", "  Петров ", None, "Андрей Петров"),
        ("", "Петров", None, "Петров"),
        ("", None, "andrey", "andrey"),
        (None, None, "andrey", "andrey"),
        ("\u2800", "\u200b", "andrey", "andrey"),  # shows as nothing
        ("ㅤ", None, None, ""),
        ("\u200b \u200b", "ㅤ ㅤ", "andrey", "andrey"),  # blanks between spaces: nothing
        ("", None, None, ""),
        (None, None, None, ""),
        ("x" * 60, None, None, "x" * 40),
    ],
)
def test_shown_name(first: Any, last: Any, username: str | None, expected: str) -> None:
    assert shown_name(user(first, last, username)) == expected


def test_a_nameless_user_is_player_n_in_the_chats_language() -> None:
    nobody = user(None, lang="en")
    assert display_name(nobody, 3, "ru") == "Игрок 3"
    assert display_name(nobody, 2, "en") == "Player 2"
    assert display_name(nobody) == "Player"  # no seat known: his own language
    assert display_name(user("", lang="ru")) == "Игрок"
    assert person(user(None, None, "andrey"), 2, "ru").name == "andrey"


def nameless(h: Harness, first: Any, username: str | None = None) -> int:
    return int(h.api.add_user(first, username=username, language_code="ru"))


@pytest.mark.parametrize("first", ["", None, "\u3164"])
async def test_joining_without_a_name(h: Harness, first: Any) -> None:
    (a,) = h.people("Андрей")
    b = nameless(h, first)
    c = nameless(h, first, username="irina_k")
    group = h.group(a, [b, c])
    lobby = await h.newgame(a, group)
    await h.join(a, group, lobby)
    await h.lobby_settled(group)
    answer = await h.join(b, group, lobby)
    assert answer.text == "Вы присоединились к игре в чате «Домино». Ваши кости придут сюда."
    await h.lobby_settled(group)
    answer = await h.join(c, group, lobby)
    assert answer.text.startswith("Вы присоединились к игре")
    game = await h.lobby_settled(group)
    assert [seat.name for seat in game.seats] == ["Андрей", "Игрок 2", "irina_k"]
    shown = h.api.message(group, lobby.id).content
    assert "2. Игрок 2" in shown and "3. irina_k" in shown


async def test_a_nameless_creator_starts_and_plays(h: Harness) -> None:
    a = nameless(h, None)
    b = nameless(h, "")
    group = h.group(a, [b])
    await h.start_bot(a)  # the bot can write to him: he is seated at once
    lobby = await h.newgame(a, group)
    assert "Игрок 1" in lobby.content
    await h.join(b, group, lobby)
    game = await h.lobby_settled(group)
    assert [seat.name for seat in game.seats] == ["Игрок 1", "Игрок 2"]
    answer = await h.lobby_button(a, group, lobby, "st")
    assert not answer.show_alert, answer
    score = await h.say(b, group, "/score")
    assert "Игрок 1" in score.content and "Игрок 2" in score.content
