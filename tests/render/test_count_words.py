"""A count says what it adds up: each end by its name, a double as it counts, and the
open ends it leaves out, so a person can check the sum against the picture (the
caption and the board's panel alike)."""

from __future__ import annotations

import dataclasses

import pytest

from bot.i18n import translator
from bot.render import board_text
from bot.render.board import status_column as column
from bot.render.board.board_picture import draw_board
from bot.render.words.ends import end_names
from engine.tiles import End
from engine.view import SeatView, view_for
from tests.engine.helpers import build_table
from tests.support.samples import play

RU = translator("ru")
# The table of the report: ends 4 (a 4:4), 1, 0 (the house's empty side) and 2 (a 2:2).
HOUSE = "0:0 0:4@W 4:4@W 0:1@E 0:2@S 2:2@S"


def on_table(variant: str, plays: str) -> SeatView:
    """A game's view with the table `plays` lay (the rest of the view as played)."""
    game = play(variant, ["Андрей", "Ирина"], seed=2, until=lambda g: g.version > 3)
    view = view_for(game)
    table = build_table(variant, plays)
    terms = view.rules.count_terms(table)
    return dataclasses.replace(view, table=table, count_terms=tuple(terms or ()))


def count_lines(text: str) -> list[str]:
    lines = text.splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("Концы: "))
    return lines[first : first + 2]


def test_muggins_caption_shows_doubles_twice_and_the_end_it_leaves_out() -> None:
    view = on_table("muggins", HOUSE)
    names = end_names(view.table, view.variant)
    w, e, n, s = (names[end].text for end in (End.W, End.E, End.N, End.S))
    count, left_out = count_lines(board_text(view, RU))
    assert count == f"Концы: {w} 4+4 (дубль) + {e} 1 + {s} 2+2 (дубль) = 13"
    assert left_out == f"{n} 0 не считается, пока к нему не приставят кость"


def test_a_lone_opening_double_and_the_first_opening() -> None:
    lone = on_table("muggins", "5:5")
    assert count_lines(board_text(lone, RU))[0] == "Концы: 5+5 (дубль) = 10"
    opening = on_table("muggins", "3:2")
    names = end_names(opening.table, opening.variant)
    line = count_lines(board_text(opening, RU))[0]
    assert line == f"Концы: {names[End.W].text} 3 + {names[End.E].text} 2 = 5"


def test_fives_counts_a_double_at_an_end_once_and_says_so() -> None:
    view = on_table("fives", "6:6 6:1@W 6:3@E 6:2@N 6:5@S 5:5@S")
    names = end_names(view.table, view.variant)
    w, e, n, s = (names[end].text for end in (End.W, End.E, End.N, End.S))
    count = count_lines(board_text(view, RU))[0]
    assert count == f"Концы: {w} 1 + {e} 3 + {n} 2 + {s} 5 (дубль — один раз) = 11"


def test_the_english_caption_says_the_same() -> None:
    view = on_table("muggins", HOUSE)
    count, left_out = (
        line
        for line in board_text(view, translator("en")).splitlines()
        if "4+4" in line or "not" in line
    )
    assert "4+4 (double) + " in count and count.endswith(" = 13")
    assert left_out.endswith(" 0 is not counted until a tile lies there")


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The words the status column draws, in order."""
    words: list[str] = []
    original = column.text

    def recording(canvas, xy, text, *args, **kwargs):  # type: ignore[no-untyped-def]
        words.append(text)
        return original(canvas, xy, text, *args, **kwargs)

    monkeypatch.setattr(column, "text", recording)
    return words


def test_the_panel_writes_each_term_as_it_counts(drawn: list[str]) -> None:
    view = on_table("muggins", HOUSE)
    draw_board(view, RU)
    assert drawn[2:8] == ["4+4", " + ", "1", " + ", "2+2", " = 13"], drawn
    assert "0 не считается, пока к нему не приставят кость" in drawn


def test_the_longest_count_with_its_marks_fits_the_column(drawn: list[str]) -> None:
    """Four doubles at the four ends: the sum and its marks on a line of their own, whole."""
    longest = "6+6 + 6+6 + 6+6 + 6+6 = 48"
    assert column.count_size("", longest, "", column.STATUS_WIDTH, 4) is not None
    view = on_table("muggins", "6:6 6:5@W 5:5@W 6:4@E 4:4@E 6:3@N 3:3@N 6:2@S 2:2@S")
    draw_board(view, RU)
    assert "Концы:" in drawn and " = 28" in drawn, drawn
