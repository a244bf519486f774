"""Button labels fit a phone: a button sharing its row shows about 18 characters."""

from __future__ import annotations

import pytest
from telegram import InlineKeyboardMarkup

from bot.game.service import new_game_id
from bot.i18n import LANGUAGES, translator
from bot.storage.models import Match, Seat
from bot.telegram import keyboards
from engine import End, Tile, pack, view_for
from tests.bot.conftest import position

POSITIONS = (
    ("fives", ["6:5 6:2 1:0 4:3 1:1 0:0", "5:2 3:1 4:1 3:2 2:0 4:2"], ["6:5", "5:2@E"]),
    # muggins: the second seat holds 3:3 and 2:2 for the ends 3 and 2 (several doubles).
    ("muggins", ["3:2 6:6 6:5 6:4 5:5 5:4 4:4", "3:3 2:2 1:0 0:0 6:0 1:1 4:0"], ["3:2"]),
    ("twolane", ["6:6 6:4 4:4 2:2 2:1", "5:3 0:0 1:0 6:0 5:5"], []),
)


def every_keyboard(lang: str) -> list[InlineKeyboardMarkup]:
    tr = translator(lang)
    made = []
    for variant, hands, moves in POSITIONS:
        engine_game = position(variant, ["A", "B"], hands, moves=moves)
        game = Match(
            id=new_game_id(),
            chat_id=-100123,
            creator_id=1,
            variant=variant,  # type: ignore[arg-type]
            seats=[Seat(name="A", user_id=1), Seat(name="B", user_id=2)],
            status="playing",
            engine=pack(engine_game),
        )
        view = view_for(engine_game, engine_game.turn)
        made += [
            keyboards.lobby(game, tr, "domino_test_bot"),
            keyboards.board(game, tr),
            keyboards.final(game, tr),
            keyboards.stop_confirmation(game, tr),
            keyboards.rules(variant, tr),
            keyboards.hand(game, view, tr),
        ]
        made += [keyboards.ends_for(game, view, tile, tr) for tile in view.hand]
        if variant == "muggins":
            picked = [(Tile.parse("3:3"), End.W), (Tile.parse("2:2"), End.E)]
            made += [
                keyboards.doubles(game, view, [], tr),
                keyboards.doubles(game, view, picked, tr),
            ]
    return made


def shared_row_labels(lang: str) -> list[str]:
    """Labels of buttons that share their row with another one."""
    return [
        button.text
        for markup in every_keyboard(lang)
        for row in markup.inline_keyboard
        if len(row) > 1
        for button in row
    ]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_longest_half_width_label_fits_a_phone(lang: str) -> None:
    labels = shared_row_labels(lang)
    assert len(labels) > 15  # the lobby, the hand, the choices of an end and of doubles
    longest = max(labels, key=len)
    assert len(longest) <= keyboards.HALF_WIDTH_LABEL, longest


@pytest.mark.parametrize("lang", LANGUAGES)
def test_computer_buttons_name_the_level_briefly(lang: str) -> None:
    labels = shared_row_labels(lang)
    expected = {"ru": ("🤖 + Лёгкий", "🤖 + Сильный"), "en": ("🤖 + Easy", "🤖 + Strong")}[lang]
    assert set(expected) <= set(labels)


def test_the_labels_the_e2e_players_press_are_there() -> None:
    labels = {b.text for m in every_keyboard("ru") for row in m.inline_keyboard for b in row}
    for word in ("Лёгкий", "Сильный", "Начать", "Мои кости"):
        assert any(word in label for label in labels), word


@pytest.mark.parametrize("lang", LANGUAGES)
def test_doubles_buttons_show_the_end_and_the_tile_only(lang: str) -> None:
    """«🔵⬅️ 3:3», not «3:3 🔵⬅️ 3»: a double fits only the end showing its number."""
    made = every_keyboard(lang)
    doubles = [b.text for m in made for row in m.inline_keyboard for b in row if ":" in b.text]
    doubles += [b.text for m in made for row in m.inline_keyboard for b in row if "▶️" in b.text]
    assert "🔵⬅️ 3:3" in doubles and "🟠➡️ 2:2" in doubles
    assert "✅ 🔵⬅️ 3:3" in doubles and "✅ 🟠➡️ 2:2" in doubles
    lay = {"ru": "▶️ Ход: 2 дубля", "en": "▶️ Lay 2 doubles"}[lang]
    assert lay in doubles
    assert not any(label.endswith((" 2", " 3", "⬅️", "➡️")) for label in doubles)
