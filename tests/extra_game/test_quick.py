"""A game only the tests define plays through the engine, the computer players and the
pictures as the product's own games do (its whole game through the bot: tests/e2e)."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

import pytest

from bot.i18n import translator
from bot.render import (
    PICTURE_HEIGHT,
    PICTURE_WIDTH,
    board_text,
    final_text,
    render_board,
    render_final,
    render_hand,
)
from bot.storage.models import Match
from bot.telegram import keyboards
from bot.telegram.texts import lobby_text
from engine import VARIANTS, Game, pack, replay, to_record, unpack, view_for
from engine.ai import ExpertPlayer, RandomPlayer
from tests.engine.test_ai import follow_the_engine, play_whole_games
from tests.extra_game import Quick, quick_registered
from tests.render.test_pictures import decoded, positions
from tests.support.samples import sample_views

NAMES = ["Андрей", "Ирина", "Ольга", "Вадим"]
RU = translator("ru")


@pytest.fixture(autouse=True)
def quick() -> Iterator[Quick]:
    with quick_registered() as rules:
        yield rules


def random_match(players: int, seed: int, target: int | None) -> Game:
    game = Game.new("quick", NAMES[:players], seed=seed, target=target)
    rng = random.Random(seed)
    while not game.over:
        game.push(rng.choice(game.legal_moves()))
    return game


def test_it_is_registered_after_the_product_games_and_only_inside_the_tests() -> None:
    assert list(VARIANTS)[-1] == "quick" and len(VARIANTS) == 4


@pytest.mark.parametrize("target", [None, 51])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_whole_matches_keep_its_rules_and_replay_from_their_records(
    players: int, target: int | None
) -> None:
    for seed in range(6):
        game = random_match(players, seed, target)
        goal = target or 31
        assert game.target == goal
        assert all(len(hand) == 5 for rnd in game.rounds for hand in rnd.dealt)
        assert max(game.totals) >= goal
        record = json.loads(json.dumps(to_record(game)))
        assert record["variant"] == "quick" and record["target"] == goal  # a chosen target
        again = replay(record)
        assert again.totals == game.totals and again.over
        assert [r.moves for r in again.rounds] == [r.moves for r in game.rounds]
        assert unpack(pack(game)) == game


def test_reaching_31_ends_the_match_at_once() -> None:
    cut = [
        g for g in (random_match(2, seed, None) for seed in range(30)) if g.round.end == "target"
    ]
    assert cut
    for game in cut:  # the play that reached 31 ended it, long before 51
        assert 31 <= max(game.totals) < 51
        assert game.round.moves[-1].points > 0


def test_a_target_it_does_not_offer_is_refused() -> None:
    with pytest.raises(ValueError, match="31 or 51"):
        Game.new("quick", NAMES[:2], seed=1, target=40)


@pytest.mark.parametrize("target", [None, 51])
def test_the_simulation_follows_the_engine(target: int | None) -> None:
    follow_the_engine("quick", target, games=24)


def test_the_computer_players_play_whole_matches() -> None:
    play_whole_games("quick")


def test_the_expert_beats_random_play_more_often_than_not() -> None:
    wins = 0
    for seed in range(6):
        game = Game.new("quick", NAMES[:2], seed=seed)
        players = [ExpertPlayer(seed, rollouts=40, time_cap=None), RandomPlayer(seed)]
        if seed % 2:
            players.reverse()
        expert = seed % 2
        while not game.over:
            seat = game.turn
            assert seat is not None
            game.push(players[seat].choose(view_for(game, seat)), seat)
        wins += game.totals[expert] > game.totals[1 - expert]
    assert wins >= 4


@pytest.mark.parametrize("players", [2, 4])
def test_its_pictures_and_captions_are_drawn(players: int) -> None:
    for name, view in positions("quick", players).items():
        assert decoded(render_board(view, RU)).size == (PICTURE_WIDTH, PICTURE_HEIGHT), name
        text = board_text(view, RU)
        assert "Быстрые пятёрки" in text and "Цель: 31" in text, (name, text)
    over = random_match(players, 3, None)
    view = view_for(over)
    decoded(render_final(view, RU))
    text = final_text(view, RU)
    assert text.startswith("<b>Игра окончена</b> · Быстрые пятёрки"), text
    if view.standings.losers:  # the legend says which target made the losers
        assert "кто-то набрал 31" in text and "51" not in text
    game = Game.new("quick", NAMES[:players], seed=4)
    assert game.turn is not None
    decoded(render_hand(view_for(game, game.turn), RU))


def test_the_sample_pictures_include_it() -> None:
    views = {name: view for name, view in sample_views().items() if name.startswith("quick-")}
    assert sorted(views) == ["quick-board", "quick-final", "quick-full", "quick-hand"]
    assert views["quick-final"].finished_rounds[-1].end == "target"
    for name, view in views.items():
        render = render_final if name.endswith("final") else render_board
        decoded((render_hand if name.endswith("hand") else render)(view, RU))


def test_the_lobby_offers_it_and_its_targets() -> None:
    match = Match(id="abcd", chat_id=-5, variant="quick", creator_id=1, seats=[])
    assert "Быстрые пятёрки" in lobby_text(match, RU) and "до 31 очка" in lobby_text(match, RU)
    buttons = [b for row in keyboards.lobby(match, RU, "domino_bot").inline_keyboard for b in row]
    data = {b.text: b.callback_data for b in buttons}
    assert data["🎯 Цель"] == "L:abcd:t:51"  # the next target offered
    assert data["🎲 Игра"] == "L:abcd:v:fives"  # after the last game comes the first
    rules = [b.text for row in keyboards.rules("quick", RU).inline_keyboard for b in row]
    assert rules[-1] == "• Быстрые пятёрки"
