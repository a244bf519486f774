"""Shipped fonts: Cyrillic draws with real glyphs, missing glyphs never show as boxes."""

from __future__ import annotations

import pytest
from PIL import Image, ImageDraw

from bot.render.kit.draw import text
from bot.render.kit.fonts import (
    BOLD,
    ELLIPSIS,
    REGULAR,
    can_draw,
    coverage,
    fit,
    font,
    printable,
    wrap,
)
from bot.render.words.naming import player_name
from engine.view import view_for
from tests.support.samples import play

NOTDEF = "\U0010fffd"  # a private-use code point no font maps: drawn as the .notdef box


def mask(char: str, bold: bool = False) -> bytes:
    return bytes(font(40, bold).getmask(char))


@pytest.mark.parametrize("bold", [False, True])
def test_cyrillic_has_real_glyphs(bold: bool) -> None:
    notdef = mask(NOTDEF, bold)
    for char in "АндрейИринаОльгаВадимЁёЙй":
        glyph = font(40, bold).getmask(char)
        assert glyph.getbbox() is not None, char  # it has ink
        assert bytes(glyph) != notdef, char  # and it is not the missing-glyph box
        assert can_draw(char)


def test_the_character_map_agrees_with_the_rendered_glyphs() -> None:
    """`can_draw` (read from the cmap) says no exactly where FreeType draws .notdef."""
    notdef = mask(NOTDEF)
    samples = "Aa Zz Ёё Ωω ñ ß € → ← ↑ ↓ · … × ★ ☺ ❤ 🎉 🦊 😀 王 한 ✓ ⬅ 𝔸 \u0301"
    for char in samples.replace(" ", ""):
        missing = mask(char) == notdef
        assert can_draw(char) == (not missing), repr(char)


def test_fonts_come_from_the_package() -> None:
    from importlib import resources

    folder = resources.files("bot.render.kit") / "fonts"
    for name in (REGULAR, BOLD, "LICENSE"):
        assert (folder / name).is_file()
    assert ord("Ж") in coverage(REGULAR) and ord("Ж") in coverage(BOLD)
    assert 0x1F389 not in coverage(REGULAR)  # 🎉


@pytest.mark.parametrize(
    ("name", "shown"),
    [
        ("Андрей", "Андрей"),
        ("Андрей 🎉", "Андрей"),
        ("👨‍👩‍👧 Ольга", "Ольга"),
        ("Ирина ❤️", "Ирина ❤"),
        ("Вадим\u200b\u200e", "Вадим"),
        ("  Оля   Петрова ", "Оля Петрова"),
        ("🦊", ""),
    ],
)
def test_printable_drops_what_the_font_cannot_draw(name: str, shown: str) -> None:
    assert printable(name) == shown
    assert all(can_draw(c) for c in printable(name) if c != " ")


def test_names_with_emoji_render_without_boxes() -> None:
    game = play("fives", ["Андрей 🎉", "🦊", "Ольга", "Вадим"], seed=1, moves=0)
    view = view_for(game)
    notdef = mask(NOTDEF, True)
    first, second = player_name(str, view, 0), player_name(str, view, 1)
    assert first == "Андрей"
    assert second == f"Player {2}"
    for char in first + second:
        if char != " ":
            assert mask(char, True) != notdef
    # Drawn, the cleaned name has the ink of its letters only.
    image = Image.new("RGB", (400, 60))
    drawn = Image.new("RGB", (400, 60))
    text(image, (10, 45), first, 40, (255, 255, 255))
    ImageDraw.Draw(drawn).text((10, 45), "Андрей", font=font(40), fill=(255, 255, 255), anchor="ls")
    assert image.tobytes() == drawn.tobytes()
    assert image.getbbox() is not None


def test_long_names_end_with_an_ellipsis() -> None:
    face = font(32, True)
    name = "Константин Константинопольский-Задунайский"
    cut = fit(name, face, 300)
    assert cut.endswith(ELLIPSIS) and face.getlength(cut) <= 300
    assert fit("Оля", face, 300) == "Оля"
    lines = wrap("Концы считаются, когда заняты все четыре луча", font(28), 300, 2)
    assert len(lines) == 2 and all(font(28).getlength(line) <= 300 for line in lines)
