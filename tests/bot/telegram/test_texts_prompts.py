"""Prompts say what is true for the game and the round; moves read in words and arrows."""

from __future__ import annotations

import random

import pytest

from bot.i18n import Translator, translator
from bot.render import board_text, localized_name
from bot.storage.models import Match, Seat
from bot.telegram.texts import describe_entry, hand_caption, lobby_text, move_words
from engine import Game, MoveEntry, Pass, view_for
from engine.players import computer_player
from engine.view import SeatView

RU = translator("ru")
EN = translator("en")
PLAYERS = ["Андрей", "Ирина"]


def match_for(game: Game) -> Match:
    return Match(
        id="abcd1234",
        chat_id=-100,
        creator_id=1,
        variant=game.variant,  # type: ignore[arg-type]
        status="playing",
        chat_title="Домино",
        seats=[Seat(name=name, user_id=n + 1) for n, name in enumerate(game.players)],
    )


def opening_prompt_of(game: Game, tr: Translator = RU) -> str:
    seat = game.turn
    assert seat is not None
    view = view_for(game, seat)
    assert view.table.opening is None
    return hand_caption(match_for(game), view, tr, live=True)


def test_muggins_round_one_asks_for_three_two() -> None:
    game = Game.new("muggins", PLAYERS, seed=4)
    caption = opening_prompt_of(game)
    assert "Ваш ход! Начните с 3:2." in caption
    assert "любой" not in caption
    assert "Your move! Open with 3:2." in opening_prompt_of(game, EN)


def test_later_muggins_rounds_open_with_any_tile() -> None:
    game = Game.new("muggins", PLAYERS, seed=4)
    rng = random.Random(4)
    while len(game.rounds) < 2:
        game.push(rng.choice(game.legal_moves()))
    assert "Ваш ход! Начните кон с любой кости." in opening_prompt_of(game)


def test_fives_opens_a_round_with_any_tile() -> None:
    assert "Начните кон с любой кости." in opening_prompt_of(Game.new("fives", PLAYERS, seed=1))


def test_twolane_has_no_rounds_in_its_prompts() -> None:
    game = Game.new("twolane", PLAYERS, seed=2)
    caption = opening_prompt_of(game)
    assert "Ваш ход! Начните игру с любой кости." in caption
    assert "кон" not in caption.lower().replace("кост", "")
    english = opening_prompt_of(game, EN)
    assert "round" not in english.lower()


def a_twolane_pass(seed: int) -> tuple[Game, SeatView]:
    """A twolane position whose player to act can only pass."""
    game = Game.new("twolane", PLAYERS, seed=seed)
    rng = random.Random(seed)
    while not game.over:
        legal = game.legal_moves()
        if legal and all(isinstance(m, Pass) for m in legal):
            assert game.turn is not None
            return game, view_for(game, game.turn)
        game.push(rng.choice(legal))
    raise AssertionError("no pass")


def test_a_twolane_pass_says_what_it_costs() -> None:
    for seed in range(20):
        try:
            game, view = a_twolane_pass(seed)
        except AssertionError:
            continue
        caption = hand_caption(match_for(game), view, RU, live=True)
        assert "Ходить нечем: пас — это 10 штрафных очков." in caption
        english = hand_caption(match_for(game), view, EN, live=True)
        assert "No tile fits: a pass costs 10 penalty points." in english
        return
    raise AssertionError("no seed gave a twolane pass")


def test_moves_read_with_arrows_never_the_record_notation() -> None:
    assert move_words("6:2@E") == "6:2 🟠➡️"
    assert move_words("3:3@W+2:2@E") == "3:3 🔵⬅️ + 2:2 🟠➡️"
    assert move_words("3:2") == "3:2"  # the opening has no end
    game = Game.new("fives", PLAYERS, seed=1)
    view = view_for(game)
    played = describe_entry(RU, view, MoveEntry(0, "6:2@N", 4))
    assert played == "Андрей: 6:2 ⚪⬆️ (+4)"
    assert describe_entry(RU, view, MoveEntry(1, "draw", 0)) == "Ирина: берёт из базара"


def test_a_twolane_pass_in_the_caption_names_its_penalty() -> None:
    view = view_for(Game.new("twolane", PLAYERS, seed=1))
    assert describe_entry(RU, view, MoveEntry(1, "pass", 0)) == "Ирина: пас — штраф (+10)"
    fives = view_for(Game.new("fives", PLAYERS, seed=1))
    assert describe_entry(RU, fives, MoveEntry(1, "pass", 0)) == "Ирина: пас"


def test_computer_players_are_named_in_the_chats_language() -> None:
    assert localized_name(RU, computer_player(2)) == "Компьютер 2"
    assert localized_name(EN, computer_player(3)) == "Computer 3"
    assert localized_name(RU, "Computerphile") == "Computerphile"  # a person's own name
    assert localized_name(RU, "Андрей") == "Андрей"
    game = Game.new("fives", [computer_player(1), "Ирина"], seed=1)
    text = board_text(view_for(game), RU)
    assert "Компьютер 1" in text and "Computer" not in text
    match = match_for(game)
    match.status = "lobby"
    match.seats[0] = Seat(name="", number=1, level="easy", computer=True)
    assert "🤖 Компьютер 1 (лёгкий)" in lobby_text(match, RU)
    assert "🤖 Computer 1 (easy)" in lobby_text(match, EN)


@pytest.mark.parametrize("name", ["Computer 2", "Компьютер 2"])
def test_a_person_named_like_a_computer_keeps_his_name(name: str) -> None:
    """Only a computer seat is named in the chat's words: a person's name is his own."""
    for tr in (RU, EN):
        assert localized_name(tr, name) == name
    game = Game.new("fives", [name, computer_player(2)], seed=1)
    andrey = Game.new("fives", ["Андрей", computer_player(2)], seed=1)
    match = match_for(game)
    match.status = "lobby"
    match.seats[1] = Seat(name="", number=2, level="easy", computer=True)
    for tr, computer in ((RU, "Компьютер 2"), (EN, "Computer 2")):
        expected = board_text(view_for(andrey), tr).replace("Андрей", name)
        assert board_text(view_for(game), tr) == expected
        lobby = lobby_text(match, tr)
        assert f"1. {name}\n" in lobby and f"🤖 {computer} (" in lobby
