"""A player who leaves mid-game, read as the others would read the chats (issue "Edges",
points 3 and 5).

Three people play a fives match in a group by pressing buttons; Ольга types /leave.
From then on every board the group sees says on her line that the computer plays her
seat and why, every round's board to the end; the final table gives her the last
place. Each private chat ends with the result in words: the place, the points and the
rating's change as the final table shows it, and nothing else of the match but the
line that said he joined.
"""

from __future__ import annotations

import random
import re

from bot.render import signed
from tests.e2e.harness import board_messages, final_rating_changes, final_totals, round_of
from tests.e2e.reading import bot_messages
from tests.fakebotapi import FakeBotApi
from tests.fakebotapi.views import MessageView
from tests.support.bot_process import BotProcess
from tests.support.players import Human, open_table, play_moves, play_to_the_end

TAKEN_OVER = "Компьютер играет за вас до конца этой игры."
# Ольга's line on a board once she left: her points and tiles, then who plays her seat.
OLGA_TAKEN = re.compile(r"^(▶ )?Ольга — Очки: \d+, Кости: \d+ · компьютер: игрок вышел из игры$")
JOINED = "Вы присоединились к игре"


def olga_line(board: MessageView) -> str:
    return next(line for line in board.content.splitlines() if "Ольга — " in line)


def test_a_player_who_leaves_stays_told_and_everyone_gets_the_result_in_words(
    api: FakeBotApi, bot: BotProcess
) -> None:
    group, people, _ = open_table(api, "fives", "hhh")
    *_, olga = people
    humans = [Human(api, user, random.Random(user)) for user in people]

    # A few moves, then Ольга leaves in the group.
    play_moves(humans, 3)
    before = board_messages(api, group)[-1]
    assert not OLGA_TAKEN.match(olga_line(before)), before.content
    sent = api.send_text(olga, group, "/leave")
    assert api.wait_message(group, after=sent, contains=TAKEN_OVER).content == TAKEN_OVER

    # The board says it on her line: as soon as it is next shown, and from then on.
    def told(a: FakeBotApi) -> MessageView | None:
        board = board_messages(a, group)[-1]
        return board if OLGA_TAKEN.match(olga_line(board)) else None

    api.wait_for(told, 30, "the board says the computer plays Ольга's seat")
    final = play_to_the_end(api, group, humans[:2], timeout=300)
    boards = board_messages(api, group)
    assert round_of(boards[-1]) >= 2, "a match of several rounds"
    # Every round's board, each as it was left (the round's end), says it.
    for board in boards:
        assert OLGA_TAKEN.match(olga_line(board)), board.content
    caption = final.caption or ""
    assert "Ольга — выход из игры: последнее место" in caption, caption
    changes = final_rating_changes(caption)
    assert changes["Ольга"][0] == 3, caption

    # Each private chat: the line that said he joined, and his result in words.
    def tidy(a: FakeBotApi) -> bool:
        return all(len(bot_messages(a, user)) <= 2 for user in people)

    api.wait_for(tidy, 60, "the private chats tidied")
    api.wait_quiet(1.0, 30)
    for user, name in people.items():
        joined, result = bot_messages(api, user)
        assert (joined.text or "").startswith(JOINED), joined.text
        assert result.photo is None and result.buttons == [], result.content
        said = result.text or ""
        lines = said.splitlines()
        assert lines[0] == "🁫 Пятерное домино · Домино" and lines[1] == "Игра окончена.", said
        place, change = changes[name]
        if user == olga:
            assert lines[2] == "Вы вышли из игры: последнее место (3 из 3)", said
        else:
            total = final_totals(caption)[name]
            assert lines[2] == f"Ваше место: {place} из 3 · очки: {total}", said
        assert lines[3] == f"Ваш рейтинг в группе: {signed(change)}", said
        assert lines[-1] == "Итоговая таблица — в группе.", said
