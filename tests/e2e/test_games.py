"""Whole games through the real bot process, played only by pressing buttons."""

from __future__ import annotations

import random

import pytest

from tests.bot.telegram.test_texts_sent import GENDER_SUFFIX, NOTATION, texts_in
from tests.e2e.harness import check_finished_game, check_ratings_moved
from tests.fakebotapi import FakeBotApi
from tests.support.bot_process import BotProcess
from tests.support.players import Human, open_table, play_to_the_end

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


@pytest.mark.parametrize(("variant", "seats"), TABLES, ids=[f"{v}-{s}" for v, s in TABLES])
def test_a_whole_game(api: FakeBotApi, bot: BotProcess, variant: str, seats: str) -> None:
    group, people, lobby_id = open_table(api, variant, seats)
    humans = [Human(api, user, random.Random(user)) for user in people]
    final = play_to_the_end(api, group, humans)
    check_finished_game(api, group, people, final, lobby_id)
    assert sum(h.moves for h in humans) > 0
    if seats == "hh":  # a rated match of two newcomers (the others have computers)
        check_ratings_moved(api, group, people, final)
    # Everything people were shown reads like the bot: no record notation («6:2@E»), no
    # «вышел(а)».
    shown = [text for call in api.calls() for text in texts_in(call.params)]
    assert len(shown) > 10
    assert [t for t in shown if NOTATION.search(t) or GENDER_SUFFIX.search(t)] == []
