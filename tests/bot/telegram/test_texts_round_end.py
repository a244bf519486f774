"""Every round end says why, and who got what for it; the final table explains its marks.

The points are checked against the engine's own round record: what a seat got at
the round's end is its round points less the points its moves scored.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from bot.i18n import translator
from bot.render import (
    Mark,
    board_text,
    final_layout,
    final_text,
    legend,
    render_board,
    render_final,
    round_end_points,
)
from bot.telegram.texts import describe_entries
from bot.telegram.webapp_texts import round_end_lines
from engine import Game, MoveEntry, view_for
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
            assert bonus[winner] == 2
            # Said once: the line of his points says what for.
            assert f"{PLAYERS[winner]}: +2 points for going out" in text
            assert "went out" not in text
            assert board_text(view, RU).count("кости кончились") == 1
            continue
        assert "Blocked" in text
        # Independently: the fewest points when the round was blocked, its own plays' points in.
        at_block = totals_before(game, rnd)
        for entry in rnd.moves:
            at_block[entry.seat] += entry.points
        fewest = [seat for seat, total in enumerate(at_block) if total == min(at_block)]
        assert [seat for seat, b in enumerate(bonus) if b] == fewest
        for seat in fewest:
            # The score that made it the fewest, named as a score (never as pips).
            line = f"{PLAYERS[seat]}: +1 point, the lowest score in the match: {min(at_block)}"
            assert line in text
            said = f"{PLAYERS[seat]}: +1 очко — наименьший счёт в партии: {min(at_block)}"
            assert said in board_text(view, RU)
    assert seen["out"] and seen["blocked"]


def division(pips: int) -> str:
    """«26 ÷ 5 = 5, the remainder is dropped», worked out here."""
    whole = f"{pips} ÷ 5 = {pips // 5}"
    return whole + (", the remainder is dropped" if pips % 5 else "")


def test_muggins_names_the_tiles_left_and_drops_the_remainder() -> None:
    seen = set()
    remainders = 0
    for _, rnd, view in finished_rounds("muggins", range(12)):
        text = board_text(view, EN)
        bonus = end_bonus(rnd)
        pips = [sum(t.pips for t in hand) for hand in rnd.hands]
        seen.add(rnd.end)
        hands = ", ".join(
            f"{PLAYERS[seat]} {' '.join(f'{t.high}:{t.low}' for t in hand)} ({pips[seat]})"
            for seat, hand in enumerate(rnd.hands)
            if hand and seat != (rnd.out[0] if rnd.out else None)
        )
        if rnd.end == "out":
            winner = rnd.out[0]
            others = sum(pips) - pips[winner]
            assert bonus[winner] == others // 5
            line = f"{PLAYERS[winner]}: +{others // 5} — left in the other hands: {hands}; "
            assert line + division(others) in text
            remainders += others % 5 != 0
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
                listed = ", ".join(
                    part for part in hands.split(", ") if not part.startswith(PLAYERS[seat] + " ")
                )
                line = (
                    f"{PLAYERS[seat]}: +{others // 5} — the fewest pips in hand ({pips[seat]}); "
                    f"the other hands: {listed}; {division(others)}"
                )
                assert line in text
        else:  # 51 reached mid-round
            assert rnd.end == "target"
            winner = view.standings.winners[0]
            assert f"{PLAYERS[winner]} reached {view.totals[winner]} points" in text
            assert not any(bonus)
    assert {"out", "target"} <= seen
    assert remainders  # some rounds did drop a remainder


def test_the_muggins_round_end_in_russian() -> None:
    for _, rnd, view in finished_rounds("muggins", range(12)):
        if rnd.end != "out":
            continue
        pips = sum(t.pips for hand in rnd.hands for t in hand)
        if not pips % 5:
            continue
        assert view.last_round is not None
        line = round_end_points(RU, view, view.last_round)[0]
        assert "на руках у соперников: " in line
        assert f"{pips} ÷ 5 = {pips // 5}, остаток отбрасывается" in line
        return
    pytest.fail("no muggins round went out with a remainder among the seeds")


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
    layout = final_layout(view, RU, {0: 7})
    drawn = " ".join(line.words for line in layout.footer)
    for note in legend(
        RU, layout.marks, view.target
    ):  # every mark the picture shows, explained there
        assert " ".join(note.split()) in drawn
    assert Mark.RATING in layout.marks
    assert "рейтинг — на сколько изменился рейтинг игрока в этом чате" in drawn
    text = final_text(view, RU)
    record = view.standings.record
    if record is not None and record > 0:
        assert Mark.RECORD in layout.marks
        assert "Отрыв — очки победителя минус очки всех остальных" in text
    if view.standings.losers:
        assert "Проигрыш — меньше всех очков, когда кто-то набрал 51" in text
    if variant == "twolane":
        assert "✓ — кости кончились" in text and "Сыграно конов" not in text
        assert Mark.PENALTY_PLACES in layout.marks
    else:
        assert Mark.PLACES in layout.marks
    assert render_final(view, RU).data


def test_a_record_at_or_below_zero_is_not_shown() -> None:
    """The fives record may be below zero by the rules; the bot shows only a margin."""
    seen = {"below": 0, "above": 0}
    for seed in range(40):
        view = view_for(played("fives", seed))
        record = view.standings.record
        if record is None:
            continue
        text = final_text(view, RU)
        layout = final_layout(view, RU)
        if record > 0:
            seen["above"] += 1
            assert f"Отрыв: +{record}" in text and Mark.RECORD in layout.marks
        else:
            seen["below"] += 1
            assert "Отрыв" not in text and Mark.RECORD not in layout.marks
    assert seen["below"] and seen["above"]


def test_a_players_draws_in_a_row_are_told_as_one() -> None:
    game = Game.new("fives", ["Андрей", "Ирина"], seed=1)
    view = view_for(game)
    tr = translator("ru")
    entries = [
        MoveEntry(0, "draw", 0),
        MoveEntry(0, "draw", 0),
        MoveEntry(0, "draw", 0),
        MoveEntry(0, "pass", 0),
        MoveEntry(1, "draw", 0),
    ]
    told = describe_entries(tr, view, entries, [None] * len(entries))
    assert told == [
        "Андрей: берёт из базара 3 кости",
        "Андрей: пас",
        "Ирина: берёт из базара",
    ]


def test_the_tables_round_end_says_who_went_out_once() -> None:
    """The table's lines under the next round's board: «кости кончились» once, in the
    points' line, not also in the heading above it."""
    seen = 0
    for seed in range(12):
        game = Game.new("fives", PLAYERS, seed=seed)
        rng = random.Random(seed)
        while not game.over:
            rounds_before = len(game.rounds)
            game.push(rng.choice(game.legal_moves()))
            last = game.rounds[rounds_before - 1]
            if len(game.rounds) > rounds_before and last.end == "out":
                lines = round_end_lines(RU, view_for(game, 0))
                assert lines and lines[0].startswith(f"Кон {last.number} окончен"), lines
                assert "\n".join(lines).count("кости кончились") == 1, lines
                seen += 1
    assert seen
