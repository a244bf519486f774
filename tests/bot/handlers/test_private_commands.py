"""/score, /leave and /stop in the private chat name the user's games and where the
command works (issue 27, point 4): they answered «Здесь нет игры. Начните её командой
/newgame.» while he sat in two running games. The games come from a per-person index
kept beside the matches and checked against each match when read."""

from __future__ import annotations

from bot.game.profiles import Profiles
from bot.storage.models import Match, Seat
from tests.bot.conftest import Harness, Table, ru
from tests.bot.game.test_practice import practice

NO_GAME = "Здесь нет игры. Начните её командой /newgame."


async def two_games(h: Harness) -> tuple[int, int, Table, int, int]:
    """Андрей plays a running game in the group «Домино» (with Ирина) and sits in a lobby
    of the forum «Клуб», topic «Пятница»: (Андрей, Ирина, the table, the forum, its topic)."""
    table = await h.table("fives", people=2)
    a, b = table.users
    forum = h.api.add_group("Клуб", owner=a, members=[b], is_forum=True)
    topic = h.api.add_topic(forum, "Пятница")
    await h.settle()
    await h.newgame(a, forum, "twolane", thread_id=topic)  # he is seated at once
    assert [seat.user_id for seat in (await h.lobby_settled(forum, topic)).seats] == [a]
    return a, b, table, forum, topic


def lines_of(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("• ")]


async def test_score_in_private_lists_the_users_games(h: Harness) -> None:
    a, b, _, _, _ = await two_games(h)
    answer = await h.say(a, a, "/score")
    text = answer.content
    assert text.startswith("Ваши игры:"), text
    listed = lines_of(text)
    assert len(listed) == 2, text
    running = next(line for line in listed if line.startswith("• Домино"))
    assert running.startswith("• Домино — Пятерное домино: Кон 1 · ")
    assert running.endswith(" · очки: 0")
    assert "· ваш ход ·" in running or "· Ходит: Ирина ·" in running
    lobby = next(line for line in listed if "Клуб · Пятница" in line)
    assert lobby.endswith(" — Двухполосное домино: лобби, игра ещё не началась")
    assert text.splitlines()[-1] == "/score в чате игры покажет её таблицу целиком."
    # The forum's game (a supergroup's) is a link to its message there.
    assert any(e.get("type") == "text_link" for e in answer.entities), answer.entities

    # Ирина sits in one of them.
    answer = await h.say(b, b, "/score")
    assert len(lines_of(answer.content)) == 1 and "Домино" in answer.content


async def test_leave_and_stop_in_private_say_where_they_work_and_change_nothing(
    h: Harness,
) -> None:
    a, _, table, forum, topic = await two_games(h)
    before = await h.raw(table.chat), await h.raw(forum, topic)
    answer = await h.say(a, a, "/leave")
    text = answer.content
    assert text.startswith("В этом чате игры нет. Ваши игры:"), text
    assert len(lines_of(text)) == 2 and "Клуб · Пятница" in text
    assert text.splitlines()[-1] == (
        "Отправьте /leave в чате игры, из которой выходите (если игра в теме форума — в этой теме)."
    )
    answer = await h.say(a, a, "/stop")
    assert len(lines_of(answer.content)) == 2
    assert "остановить её может создатель игры или администратор" in answer.content
    assert NO_GAME not in answer.content
    await h.settle()
    assert (await h.raw(table.chat), await h.raw(forum, topic)) == before


async def test_a_game_that_no_longer_seats_him_is_not_listed(h: Harness) -> None:
    a, b, table, forum, topic = await two_games(h)
    # Андрей leaves the running game: the computer plays his seat there.
    answer = await h.say(a, table.chat, "/leave")
    assert "Компьютер играет за вас" in answer.content
    answer = await h.say(a, a, "/score")
    listed = lines_of(answer.content)
    assert len(listed) == 1 and "Клуб · Пятница" in listed[0]
    # The lobby is cancelled: nothing left to list, and the answer is as before.
    lobby = await h.snapshot(forum, topic)
    assert lobby is not None and lobby.lobby_message_id is not None
    cancel = await h.lobby_button(a, forum, h.api.message(forum, lobby.lobby_message_id), "cx")
    assert not cancel.show_alert
    await h.settle()
    answer = await h.say(a, a, "/score")
    assert answer.content == NO_GAME
    answer = await h.say(a, a, "/leave")
    assert answer.content == ru("no_game")
    # Ирина still plays; her game is still listed.
    answer = await h.say(b, b, "/score")
    assert len(lines_of(answer.content)) == 1


async def test_a_practice_game_here_is_the_one_meant(h: Harness) -> None:
    a, _, _, _, _ = await two_games(h)
    lobby = await practice(h, a)
    answer = await h.say(a, a, "/score")  # the practice lobby here: not started yet
    assert answer.content == ru("not_started")
    answer = await h.lobby_button(a, a, lobby, "st")
    assert not answer.show_alert
    answer = await h.say(a, a, "/score")  # its table, as before
    assert "Ваши игры:" not in answer.content and "Компьютер 1" in answer.content


async def test_an_index_entry_whose_match_no_longer_seats_him_is_dropped(h: Harness) -> None:
    (a,) = h.people("Андрей")
    profiles = Profiles(h.store)
    store = h.store
    # Noted for a game that was never written (a lost write), and for a match that seats
    # someone else there now.
    await store.user_games.note([a], -100_500, None, "lost")
    seats = [Seat(name="Ирина", user_id=9)]
    other = Match(id="other", chat_id=-100_600, creator_id=9, seats=seats)
    nothing = await store.games.read_match(-100_600, None)
    await store.games.write(store.keys.game(-100_600, None), nothing, other)
    await store.user_games.note([a], -100_600, None, "other")
    assert len(await store.user_games.seated(a)) == 2
    assert await profiles.games_of(a) == []
    assert await store.user_games.seated(a) == []
