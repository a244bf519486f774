"""Button labels fit a phone: a button sharing its row shows about 18 characters."""

from __future__ import annotations

import pytest

from bot.i18n import LANGUAGES
from bot.telegram import keyboards
from tests.bot.conftest import every_keyboard


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
