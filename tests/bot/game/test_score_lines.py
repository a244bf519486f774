"""What a finished match adds to its chat's stats (bot.game.score_lines), as plain data.

Converted from a test that played a whole game through the bot only to read these
lines back (a player who left is not credited with his seat's win, test_lifecycle.py).
"""

from __future__ import annotations

import random

import pytest

from bot.game import score_lines
from bot.i18n import translator
from bot.storage.models import Match, Seat, StatLine
from bot.telegram import rating_texts
from engine import Game, view_for

NAMES = ["Андрей", "Ирина", "Компьютер 1"]


def finished(variant: str, seed: int, players: int = 3) -> tuple[Match, Game]:
    """A finished match of Андрей, Ирина (and a computer), played out at random."""
    game = Game.new(variant, NAMES[:players], seed=seed)
    rng = random.Random(seed)
    while not game.over:
        game.push(rng.choice(game.legal_moves()))
    match = Match(id=f"g{seed}", chat_id=-100, creator_id=1, variant=variant, status="over")
    match.seats = [Seat(name="Андрей", user_id=1), Seat(name="Ирина", user_id=2)]
    match.seats += [Seat(name="Компьютер 1", computer=True)][: players - 2]
    return match, game


@pytest.mark.parametrize("variant", ["fives", "muggins", "twolane"])
def test_each_person_counts_one_game_his_win_and_his_points(variant: str) -> None:
    for seed in range(6):
        match, game = finished(variant, seed)
        lines = score_lines.stat_lines(match, game)
        assert lines is not None and set(lines) == {1, 2}  # the computer has no line
        winners = view_for(game).standings.winners
        for seat, user in ((0, 1), (1, 2)):
            line = lines[user]
            assert (line.name, line.games, line.wins) == (NAMES[seat], 1, int(seat in winners))
            # Two-lane counts penalty points: they are kept as such, apart from points.
            penalties = variant == "twolane"
            assert line.points == (0 if penalties else game.totals[seat])
            assert line.penalties == (game.totals[seat] if penalties else 0)
            assert line.penalty_games == int(penalties)


def test_only_a_fives_record_above_zero_is_kept() -> None:
    seen = set()
    for seed in range(30):
        match, game = finished("fives", seed, players=2)
        lines = score_lines.stat_lines(match, game)
        assert lines is not None
        standings = view_for(game).standings
        for seat, user in ((0, 1), (1, 2)):
            record = lines[user].best_record
            if seat in standings.winners and (standings.record or 0) > 0:
                assert record == standings.record
                seen.add("kept")
            else:
                assert record is None
                seen.add("none")
    assert seen == {"kept", "none"}
    muggins, game = finished("muggins", 1)
    assert all(
        line.best_record is None for line in (score_lines.stat_lines(muggins, game) or {}).values()
    )


def test_a_player_who_left_is_not_credited_with_the_seats_win() -> None:
    for seed in range(6):
        match, game = finished("fives", seed, players=2)
        winner = view_for(game).standings.winners[0]
        match.seats[winner].left = match.seats[winner].computer = True
        lines = score_lines.stat_lines(match, game)
        assert lines is not None
        gone, stayed = lines[winner + 1], lines[2 - winner]
        assert (gone.games, gone.wins, gone.points) == (1, 0, 0)
        assert (stayed.games, stayed.wins) == (1, 1)  # the win goes to the best of the others
    for seat in match.seats:
        seat.left = True
    both = score_lines.stat_lines(match, game)
    assert both is not None
    assert {user: (line.games, line.wins, line.points) for user, line in both.items()} == {
        1: (1, 0, 0),
        2: (1, 0, 0),
    }


def test_a_match_not_finished_or_of_practice_counts_toward_no_table() -> None:
    match, game = finished("fives", 2)
    for status in ("lobby", "playing", "cancelled"):
        unfinished = match.model_copy(update={"status": status})
        assert score_lines.stat_lines(unfinished, game) is None
    assert score_lines.stat_lines(match, None) is None
    practice = match.model_copy(update={"chat_id": 7001})  # a private chat's id
    assert practice.practice and score_lines.stat_lines(practice, game) is None


def test_a_match_nobody_played_counts_toward_no_table() -> None:
    game = Game.new("fives", NAMES[:2], seed=1)
    assert not score_lines.played(game)
    match = Match(id="g1", chat_id=-100, creator_id=1, status="over")
    match.seats = [Seat(name="Андрей", user_id=1), Seat(name="Ирина", user_id=2)]
    assert score_lines.stat_lines(match, game) is None
    game.push(game.legal_moves()[0])
    assert score_lines.played(game)


def test_the_leaderboard_shows_what_each_persons_games_counted() -> None:
    """Points for fives and muggins, penalties for twolane, both for who played both."""
    lines = {
        1: StatLine(name="Андрей", games=2, wins=1, points=30, best_record=12),
        2: StatLine(name="Ирина", games=1, wins=1, penalties=20, penalty_games=1),
        3: StatLine(name="Ольга", games=3, wins=0, points=8, penalties=10, penalty_games=1),
    }
    rows = rating_texts.stats_text(translator("ru"), lines, {}).splitlines()
    assert rows == [
        "<b>Таблица лидеров</b>",
        "1. Андрей — побед 1 из 2, очки: 30 · лучший отрыв (Пятерное домино): +12",
        "2. Ирина — побед 1 из 1, штрафные очки: 20",
        "3. Ольга — побед 0 из 3, очки: 8, штрафные очки: 10",
    ]
