"""The board's round-end texts are measured and wrapped, never cut: every line fits its
room and stays inside the picture, and nothing of the words is left out."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator

import pytest

from bot.i18n import LANGUAGES, Translator, translator
from bot.render.board import status_column
from bot.render.board.board_picture import empty_table_layout
from bot.render.board.status_column import status_layout
from bot.render.kit.lines import MIN_SIZE, Line
from bot.render.layout.board_geometry import BOARD_HEIGHT, BOARD_WIDTH
from bot.render.words.naming import player_name
from bot.render.words.round_end import round_end_points, round_end_words
from engine import Game, view_for
from engine.view import SeatView

# Long names as the bot keeps them (40 characters at most): with spaces, without any,
# and short ones beside them.
NAMES = [
    "Александра Константиновна Преображенская",
    "Ж" * 40,
    "Вадим Петрович Сидоров-Иванович Оглы",
    "Ирина",
]


def round_ends(names: list[str] = NAMES) -> Iterator[tuple[str, SeatView]]:
    """Every finished round of random matches, as the board shows it when it ends (the
    last one: the game over), and as the next round's empty table shows it."""
    for variant in ("fives", "muggins", "twolane"):
        for players in (2, 3, 4):
            for seed in range(6 if variant != "twolane" else 14):
                game = Game.new(variant, names[:players], seed=seed)
                rng = random.Random(seed)
                while not game.over:
                    dealt = len(game.rounds)
                    game.push(rng.choice(game.legal_moves()))
                    if len(game.rounds) > dealt:  # a round ended and the next was dealt
                        yield f"{variant}-{players}-{seed}-{dealt + 1}", view_for(game)
                for rnd in game.rounds:
                    if rnd.end is not None:
                        view = view_for(game, round_number=rnd.number)
                        yield f"{variant}-{players}-{seed}-{rnd.number}-end", view


VIEWS = list(round_ends())


def squeezed(text: str) -> str:
    """The text without its spaces: what wrapping keeps, wherever it breaks the lines."""
    return "".join(text.split())


def assert_whole(lines: list[Line], left: float, right: float, bottom: float) -> None:
    for line in lines:
        assert "…" not in line.words, line
        assert line.size >= MIN_SIZE, line
        assert line.width <= line.room + 0.5, line
        assert left - 0.5 <= line.left and line.left + line.width <= right + 0.5, line
        assert line.bottom <= bottom, line


def status_shown(view: SeatView, tr: Translator) -> tuple[str, str, str, str]:
    """What the status column drew, and the round's reason and points in full and short."""
    status = status_layout(view, tr)
    assert status is not None
    lines = list(status.lines)
    assert_whole(
        lines, status_column.STATUS_LEFT, status_column.STATUS_RIGHT, status_column.STATUS_BOTTOM
    )
    last = view.last_round
    assert last is not None
    drawn = squeezed(" ".join(line.words for line in lines))
    reason = squeezed(round_end_words(tr, view, last.end, last.out))
    full = squeezed(" ".join(round_end_points(tr, view, last)))
    short = squeezed(" ".join(round_end_points(tr, view, last, compact=True)))
    return drawn, reason, full, short


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_status_column_never_cuts_a_round_end(lang: str) -> None:
    """Long names: every line whole and inside the panel. A round's end is told in
    full or in its short form; only at the end of a game, which the final table tells
    in full, may the longest names leave no room for why it ended or what it gave."""
    tr = translator(lang)
    counts = {"shown": 0, "short": 0, "left out": 0}
    for name, view in VIEWS:
        if view.table.opening is None:
            continue  # the next round: drawn on the empty table (below)
        drawn, reason, full, short = status_shown(view, tr)
        if view.over:
            for seat in view.standings.winners:
                assert squeezed(player_name(tr, view, seat)) in drawn, name
        told = reason in drawn and (full in drawn or short in drawn)
        if not told:
            assert view.over, name
            counts["left out"] += 1
        counts["short"] += told and full not in drawn
        counts["shown"] += 1
    assert counts["shown"] > 300
    assert counts["short"]  # some round ends needed the shorter forms to fit
    assert counts["left out"] < counts["shown"] // 5, counts  # 34 of 317 when written


def test_with_usual_names_the_status_column_tells_every_round_end_in_full() -> None:
    tr = translator("ru")
    for name, view in round_ends(["Андрей", "Ирина", "Ольга", "Вадим"]):
        if view.table.opening is not None:
            drawn, reason, full, _ = status_shown(view, tr)
            assert reason in drawn and full in drawn, name


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_new_rounds_table_says_the_last_ones_end_whole(lang: str) -> None:
    tr = translator(lang)
    shown = 0
    for name, view in VIEWS:
        if view.table.opening is not None:
            continue
        lines = empty_table_layout(view, tr)
        assert lines, name
        assert_whole(lines, 40, BOARD_WIDTH - 40, BOARD_HEIGHT)
        drawn = squeezed(" ".join(line.words for line in lines))
        last = view.last_round
        assert last is not None
        assert squeezed(round_end_words(tr, view, last.end, last.out)) in drawn, name
        assert squeezed(" ".join(round_end_points(tr, view, last))) in drawn, name
        for seat, points in enumerate(last.points):
            if points:
                assert squeezed(f"{player_name(tr, view, seat)} +{points}") in drawn, name
        shown += 1
    assert shown > 100


def test_the_measure_finds_a_line_too_wide() -> None:
    """The check can fail: a line laid out wider than its room is caught."""
    view = next(view for _, view in VIEWS if view.over and view.variant == "muggins")
    status = status_layout(view, translator("ru"))
    assert status is not None
    wide = dataclasses.replace(status.lines[0], room=status.lines[0].width / 2)
    with pytest.raises(AssertionError):
        assert_whole([wide], status_column.STATUS_LEFT, BOARD_WIDTH, status_column.STATUS_BOTTOM)
