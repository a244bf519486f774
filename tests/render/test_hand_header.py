"""The hand picture's header: never cut while there is room, in either language."""

from __future__ import annotations

import dataclasses
import io

import pytest
from PIL import Image

from bot.i18n import LANGUAGES, translator
from bot.render import render_hand
from bot.render.hand.hand_picture import (
    HAND_WIDTH,
    HEADER,
    HEADER_GAP,
    HEADER_MARGIN,
    HEADER_SIZES,
    Header,
    hand_header,
    header_layout,
)
from bot.render.kit.draw import length
from bot.render.kit.fonts import fit, font
from engine.view import view_for
from tests.support.samples import play

STATUSES = ("Game over", "No tile fits: draw", "No tile fits: pass", "Your turn", "Turn: {name}")
# Long names people and the bot use: a computer player, a long Russian full name,
# an English one, and one at Telegram's length for a first name (64 characters).
NAMES = (
    "Computer 4",
    "Александра Константиновна Преображенская",
    "Maximilian Alexander Wolfeschlegel",
    "Ж" * 64,
)
ROOM = HAND_WIDTH - 2 * HEADER_MARGIN


def _texts(lang: str) -> list[tuple[str, str]]:
    """Every (title, status) pair the header can show, with the long names."""
    tr = translator(lang)
    pairs = []
    for own in NAMES:
        name = tr("Computer {number}").format(number=4) if own == "Computer 4" else own
        title = f"{tr('Your tiles')} · {name}"
        for status in STATUSES:
            for other in NAMES:
                other_name = (
                    tr("Computer {number}").format(number=4) if other == "Computer 4" else other
                )
                pairs.append((title, tr(status).format(name=other_name)))
    return pairs


def _drawn(header: Header) -> list[str]:
    """The texts as `draw.text` will draw them (fitted to each line's width)."""
    return [fit(line.words, font(line.size, True), round(line.width)) for line in header.lines]


def _fits_alone(words: str) -> bool:
    return length(words, HEADER_SIZES[-1], True) <= ROOM


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_header_is_never_cut_while_there_is_room(lang: str) -> None:
    split = 0
    for title, status in _texts(lang):
        header = header_layout(title, status)
        drawn = _drawn(header)
        for words, shown in zip((title, status), drawn, strict=True):
            if _fits_alone(words):
                assert shown == words, (title, status, header)
            else:
                assert shown.endswith("…") and len(shown) < len(words)
        if len(header.lines) == 2 and header.lines[0].baseline == header.lines[1].baseline:
            # One line: the title ends before the status begins.
            title_line, status_line = header.lines
            title_end = title_line.x + length(title, title_line.size, True)
            status_start = status_line.x - length(status, status_line.size, True)
            assert title_end + HEADER_GAP <= status_start + 0.5
        else:
            split += 1
            assert header.height > HEADER
    assert split  # the longest texts do need a second line


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_usual_header_stays_on_one_line_at_full_size(lang: str) -> None:
    """A computer to act, or the longest status with a short name: one line, 36 px."""
    tr = translator(lang)
    computer = tr("Computer {number}").format(number=2)
    for status in (
        tr("Turn: {name}").format(name=computer),
        tr("No tile fits: draw"),
        tr("No tile fits: pass"),
    ):
        header = header_layout(f"{tr('Your tiles')} · Андрей", status)
        assert [line.words for line in header.lines] == [
            f"{tr('Your tiles')} · Андрей",
            status,
        ]
        assert {line.size for line in header.lines} == {HEADER_SIZES[0]}
        assert header.height == HEADER
        assert _drawn(header) == [line.words for line in header.lines]


def test_a_long_header_takes_two_lines_and_the_picture_grows() -> None:
    game = play("fives", ["Андрей", "Ирина"], seed=3, until=lambda g: g.turn == 1)
    view = view_for(game, 0)  # waiting: «Ходит: …» with the other player's long name
    long_view = dataclasses.replace(
        view, players=("Андрей", "Александра Константиновна Преображенская")
    )
    tr = translator("ru")
    short, _ = hand_header(view, tr)
    long, _ = hand_header(long_view, tr)
    assert len(short.lines) == 2 and short.height == HEADER
    assert long.height > short.height
    assert [line.words for line in long.lines] == [
        "Ваши кости · Андрей",
        tr("Turn: {name}").format(name="Александра Константиновна Преображенская"),
    ]
    small = Image.open(io.BytesIO(render_hand(view, tr).data))
    tall = Image.open(io.BytesIO(render_hand(long_view, tr).data))
    assert tall.height - small.height == long.height - short.height
