"""Whole games through the real bot process, played only by pressing buttons."""

from __future__ import annotations

import json
import random
import re

import pytest

from engine import replay, summary
from tests.e2e.harness import (
    BotProcess,
    Human,
    board_messages,
    final_totals,
    hand_buttons,
    play_to_the_end,
    round_of,
    tiles_on,
)
from tests.fakebotapi import FakeBotApi

NAMES = ["Андрей", "Ирина", "Ольга", "Вадим"]
JOIN = re.compile("Присоединиться")

# (variant, seats): "h" a person, "e"/"s" an easy/strong computer player.
TABLES = [
    ("fives", "hh"),
    ("fives", "hhe"),
    ("fives", "hhes"),
    ("muggins", "hh"),
    ("muggins", "hee"),
    ("muggins", "hhhe"),
    ("twolane", "hh"),
    ("twolane", "hhe"),
    ("twolane", "hhee"),
]


def open_table(api: FakeBotApi, variant: str, seats: str) -> tuple[int, dict[int, str], int]:
    """A group, its people (user id -> name), and a started game with the seats asked for."""
    people = {
        api.add_user(NAMES[i], language_code="ru"): NAMES[i]
        for i, kind in enumerate(seats)
        if kind == "h"
    }
    users = list(people)
    group = api.add_group("Домино", owner=users[0], members=users[1:])
    sent = api.send_text(users[0], group, f"/newgame {variant}")
    lobby = api.wait_message(group, after=sent, where=lambda m: bool(m.buttons))
    for kind in seats:
        label = {"e": "Лёгкий", "s": "Сильный"}.get(kind)
        if label is None:
            continue
        edits = api.message(group, lobby.id).edit_count
        query = api.press_button(users[0], group, lobby.id, re.compile(label))
        assert not api.callback_answer(query).show_alert
        api.wait_edit(group, lobby.id, after_edits=edits)
    for user in users:
        edits = api.message(group, lobby.id).edit_count
        api.follow_url_button(user, group, lobby.id, JOIN)
        api.wait_edit(group, lobby.id, after_edits=edits)
    query = api.press_button(users[0], group, lobby.id, re.compile("Начать"))
    text, alert = api.callback_answer(query)
    assert not alert, text
    return group, people, lobby.id


def export_record(api: FakeBotApi, user: int, group: int) -> dict:
    sent = api.send_text(user, group, "/export")
    document = api.wait_message(group, after=sent, where=lambda m: m.document is not None)
    return json.loads(document.document)


@pytest.mark.parametrize(("variant", "seats"), TABLES, ids=[f"{v}-{s}" for v, s in TABLES])
def test_a_whole_game(api: FakeBotApi, bot: BotProcess, variant: str, seats: str) -> None:
    group, people, lobby_id = open_table(api, variant, seats)
    humans = [Human(api, user, random.Random(user)) for user in people]
    final = play_to_the_end(api, group, humans)

    record = export_record(api, next(iter(people)), group)
    replayed = summary(replay(record))
    assert replayed["finished"]
    rounds = len(record["rounds"])

    # One board picture per round, edited in place; then the final table.
    boards = board_messages(api, group)
    assert len(boards) == rounds
    assert all(board.edit_count >= 1 for board in boards)
    assert lobby_id not in {m.id for m in api.messages(group)}  # the lobby made way for the game

    # The final table shows the scores an engine replay of the record gives.
    shown = final_totals(final.caption)
    players = record["players"]
    assert shown == dict(zip(players, replayed["totals"], strict=True))

    # Each hand reached only its owner: every tile on a player's buttons was dealt to
    # him in that round or lay in the boneyard (which he drew from).
    for user, name in people.items():
        seat = players.index(name)
        for message in api.messages(user, from_bot=True):
            tiles = tiles_on(hand_buttons(message))
            if not tiles:
                continue
            deal = record["rounds"][round_of(message) - 1]
            own = {_code(t) for t in deal["hands"][seat] + deal["boneyard"]}
            assert tiles <= own, (user, message.caption)
    # Nothing of a hand ever went to the group.
    assert not any(hand_buttons(m) for m in api.messages(group))
    assert sum(h.moves for h in humans) > 0


def _code(tile: str) -> str:
    a, b = (int(x) for x in tile.split(":"))
    return f"{max(a, b)}{min(a, b)}"
