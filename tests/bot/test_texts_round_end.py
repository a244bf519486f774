"""Every round end says why, and who got what for it; the final table explains its marks.

The points are checked against the engine's own round record: what a seat got at
the round's end is its round points less the points its moves scored.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from bot.i18n import translator
from bot.render import board_text, final_text, render_board, render_final
from bot.render.words import final_legend, round_end_points
from engine import Game, view_for
from engine.game import Round
from engine.view import SeatView

PLAYERS = ["Андрей", "Ирина", "Ольга"]
EN = translator("en")
RU = translator("ru")


def played(variant: str, seed: int) -> Game:
    """A whole match of random legal moves."""
    game = Game.new(variant, PLAYERS, seed=seed)
    rng = random.Random(seed)
    while not game.over:
        game.push(rng.choice(game.legal_moves()))
    return game


def end_bonus(rnd: Round) -> list[int]:
    """What each seat got at the round's end: round points less its moves' points."""
    bonus = list(rnd.points)
    for entry in rnd.moves:
        bonus[entry.seat] -= entry.points
    return bonus


def finished_rounds(variant: str, seeds: range) -> Iterator[tuple[Game, Round, SeatView]]:
    for seed in seeds:
        game = played(variant, seed)
        for rnd in game.rounds:
            if rnd.end is not None:
                yield game, rnd, view_for(game, round_number=rnd.number)


def totals_before(game: Game, rnd: Round) -> list[int]:
    """Each seat's total before `rnd` began."""
    totals = [0] * len(game.players)
    for earlier in game.rounds[: rnd.number - 1]:
        for seat, points in enumerate(earlier.points):
            totals[seat] += points + earlier.penalties[seat]
    return totals


def test_fives_says_who_went_out_and_the_block_bonus() -> None:
    seen = {"out": 0, "blocked": 0}
    for game, rnd, view in finished_rounds("fives", range(12)):
        text = board_text(view, EN)
        bonus = end_bonus(rnd)
        seen[str(rnd.end)] += 1
        if rnd.end == "out":
            winner = rnd.out[0]
            assert f"{PLAYERS[winner]} went out" in text
            assert bonus[winner] == 2
            assert f"{PLAYERS[winner]}: +2 points for going out" in text
            continue
        assert "Blocked" in text
        # Independently: the fewest points when the round was blocked, its own plays' points in.
        at_block = totals_before(game, rnd)
        for entry in rnd.moves:
            at_block[entry.seat] += entry.points
        fewest = [seat for seat, total in enumerate(at_block) if total == min(at_block)]
        assert [seat for seat, b in enumerate(bonus) if b] == fewest
        for seat in fewest:
            assert f"{PLAYERS[seat]}: +1 point, the fewest points" in text
    assert seen["out"] and seen["blocked"]


def test_muggins_gives_the_other_hands_pips_divided_by_five() -> None:
    seen = set()
    for _, rnd, view in finished_rounds("muggins", range(12)):
        text = board_text(view, EN)
        bonus = end_bonus(rnd)
        pips = [sum(t.pips for t in hand) for hand in rnd.hands]
        seen.add(rnd.end)
        if rnd.end == "out":
            winner = rnd.out[0]
            others = sum(pips) - pips[winner]
            assert bonus[winner] == others // 5
            word = "point" if others // 5 == 1 else "points"
            line = (
                f"{PLAYERS[winner]}: +{others // 5} {word} ({others} pips in the other hands ÷ 5)"
            )
            assert line in text
        elif rnd.end == "blocked":
            assert "Blocked" in text
            holders = [seat for seat, p in enumerate(pips) if p == min(pips)]
            if len(holders) > 1:
                assert "Nobody scores: the fewest pips are shared" in text
                assert not any(bonus)
            else:
                seat = holders[0]
                others = sum(pips) - pips[seat]
                assert bonus[seat] == others // 5
                assert f"{PLAYERS[seat]}: +{others // 5} " in text
                assert f"the fewest pips ({others} in the other hands ÷ 5)" in text
        else:  # 51 reached mid-round
            assert rnd.end == "target"
            winner = view.standings.winners[0]
            assert f"{PLAYERS[winner]} reached {view.totals[winner]} points" in text
            assert not any(bonus)
    assert {"out", "target"} <= seen


def test_twolane_gives_each_players_passes_and_penalties() -> None:
    for _, rnd, view in finished_rounds("twolane", range(8)):
        text = board_text(view, EN)
        for seat, penalty in enumerate(rnd.penalties):
            passes = sum(1 for e in rnd.moves if e.seat == seat and e.text == "pass")
            assert penalty == 10 * passes
            if passes:
                word = "pass" if passes == 1 else "passes"
                assert f"{PLAYERS[seat]}: {passes} {word}, +{penalty} penalty points" in text
        if not any(rnd.penalties):
            assert "Nobody passed: no penalties" in text
        if rnd.out:
            assert "Out of tiles: " + ", ".join(PLAYERS[s] for s in rnd.out) in text
        assert "Round" not in text  # a single round: no round wording


def test_a_new_rounds_caption_and_picture_say_how_the_last_one_ended() -> None:
    game = Game.new("fives", PLAYERS, seed=3)
    rng = random.Random(3)
    while len(game.rounds) < 2:
        game.push(rng.choice(game.legal_moves()))
    view = view_for(game)
    assert view.table.opening is None and view.last_round is not None
    lines = round_end_points(RU, view, view.last_round)
    assert lines and all("очк" in line for line in lines)
    text = board_text(view, RU)
    assert "Кон 1 окончен" in text and all(line in text for line in lines)
    assert render_board(view, RU).data  # drawn too (the lines under the round's heading)


@pytest.mark.parametrize("variant", ["fives", "muggins", "twolane"])
def test_the_final_table_explains_its_marks(variant: str) -> None:
    game = played(variant, 5)
    view = view_for(game)
    notes = final_legend(view, RU)
    text = final_text(view, RU)
    assert all(note in text for note in notes)
    if view.standings.record is not None:
        assert "Отрыв — очки победителя минус очки всех остальных" in notes
    if view.standings.losers:
        assert "Проигрыш — меньше всех очков, когда кто-то набрал 51" in notes
    if variant == "twolane":
        assert "✓ — кости кончились" in notes and "Сыграно конов" not in text
    assert notes  # every game has a mark to explain
    assert "−" in text or view.standings.record is None or view.standings.record >= 0
    assert render_final(view, RU).data


def test_the_record_is_written_with_a_minus_sign() -> None:
    for seed in range(30):
        view = view_for(played("fives", seed))
        record = view.standings.record
        if record is not None and record < 0:
            assert f"Отрыв: −{-record}" in final_text(view, RU)
            return
    pytest.fail("no fives game with a record below zero among the seeds")
