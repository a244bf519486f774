"""A seat the computer took over is told beside its name, in the picture and the caption,
and in the final table; names stay whole and the words are never hidden by a long one."""

from __future__ import annotations

import inspect
from typing import Any

import pytest

from bot.i18n import translator
from bot.render import board_text, final_text
from bot.render.board import panel as panel_module
from bot.render.board.board_picture import draw_board
from bot.render.kit.draw import _fitted
from bot.render.words.takeover_words import Takeovers
from engine.view import SeatView, view_for
from tests.support.samples import play

RU, EN = translator("ru"), translator("en")
LONG = "Александра Константиновна Длиннофамильная"


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str]]:
    """What the players' table draws: (the words asked for, what was drawn of them)."""
    words_drawn: list[tuple[str, str]] = []
    original = panel_module.text
    signature = inspect.signature(original)

    def recording(*args: Any, **kwargs: Any) -> float:
        asked = signature.bind(*args, **kwargs)
        asked.apply_defaults()
        words, size, bold, width = (asked.arguments[k] for k in ("words", "size", "bold", "width"))
        words_drawn.append(
            (words, words if width is None else _fitted(words, size, bold, round(width)))
        )
        return original(*args, **kwargs)

    monkeypatch.setattr(panel_module, "text", recording)
    return words_drawn


def a_view(names: list[str]) -> SeatView:
    return view_for(play("fives", names, seed=5, until=lambda g: g.version > 6))


def test_the_panel_names_the_seat_and_says_the_computer_plays_it(
    drawn: list[tuple[str, str]],
) -> None:
    view = a_view(["Андрей", "Никита", LONG, "Ирина"])
    taken: Takeovers = {1: "left", 2: "blocked_bot", 3: "missed_turns"}
    draw_board(view, RU, "", taken)
    shown = dict(drawn)
    assert shown["Андрей"] == "Андрей" and shown["Никита"] == "Никита"
    for words in (
        "компьютер: игрок вышел из игры",
        "компьютер: личный чат закрыт",
        "компьютер: 3 хода пропущено",
    ):
        assert shown[words] == words  # whole, beside even the longest name
    assert shown[LONG].endswith("…") and len(shown[LONG]) > 10  # the name is cut, not the words
    draw_board(view, EN, "", taken)
    assert dict(drawn)["computer: left the game"] == "computer: left the game"


def test_a_seat_nobody_took_over_has_no_words_under_its_name(
    drawn: list[tuple[str, str]],
) -> None:
    draw_board(a_view(["Андрей", "Никита"]), RU)
    assert not any(words.startswith("компьютер") for words, _ in drawn)


def test_the_caption_says_it_on_the_seats_line() -> None:
    view = a_view(["Андрей", "Никита", "Ирина"])
    lines = board_text(view, RU, {1: "left", 2: "missed_turns"}).splitlines()
    nikita = next(line for line in lines if "Никита — " in line)
    assert nikita.endswith(" · компьютер: игрок вышел из игры")
    assert next(line for line in lines if "Ирина — " in line).endswith(
        " · компьютер: 3 хода пропущено"
    )
    assert not next(line for line in lines if "Андрей — " in line).count("компьютер")


def test_the_final_table_tells_who_did_not_play_his_seat_to_the_end() -> None:
    view = view_for(play("fives", ["Андрей", "Никита", "Ирина"], seed=6))
    assert view.over
    text = final_text(view, RU, None, {1}, (), {1: "left", 2: "blocked_bot"})
    assert "Никита — выход из игры: последнее место" in text
    assert text.count("Никита") >= 2 and "Никита: " not in text  # one line for the forfeit
    assert "Ирина: бот не мог писать в личный чат — место доигрывал компьютер" in text
    missed = final_text(view, RU, None, (), (), {0: "missed_turns"})
    assert "Андрей: три хода подряд пропущено — место доигрывал компьютер" in missed
