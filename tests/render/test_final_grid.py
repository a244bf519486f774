"""The final table round by round: every round's points in their cell, nothing cut,
everything inside the picture and large enough to read on a phone; its caption a line
per round within Telegram's limit."""

from __future__ import annotations

import io
import random
import re

import pytest
from PIL import Image

from bot.i18n import LANGUAGES, translator
from bot.render import final_text, render_final
from bot.render.final.final_layout import (
    CARD,
    FINAL_WIDTH,
    SCORE_X,
    FinalLayout,
    final_layout,
)
from bot.render.kit.lines import MIN_SIZE
from bot.render.words.captions import CAPTION_LIMIT
from bot.render.words.marks import Mark
from bot.render.words.rounds import final_order
from engine import Game, view_for
from engine.view import SeatView

PHONE_WIDTH = 400
READABLE = 26  # px on the 1280 px picture: 8 px when a phone shows it 400 px wide
NAMES = ["Андрей", "Ирина", "Ольга", "Вадим"]
LONG = ["Александра Константиновна Преображенская", "Ж" * 40, "Вадим Петрович Сидоров", "Ира"]


def played(variant: str, names: list[str], seed: int, target: int | None = None) -> Game:
    game = Game.new(variant, names, seed=seed, target=target)
    rng = random.Random(seed)
    while not game.over:
        game.push(rng.choice(game.legal_moves()))
    return game


MATCHES = {
    "fives-2": view_for(played("fives", NAMES[:2], 3)),
    "fives-4-to-100": view_for(played("fives", NAMES, 4, target=100)),
    "fives-long-names-to-100": view_for(played("fives", LONG, 5, target=100)),
    "muggins-3": view_for(played("muggins", NAMES[:3], 2)),
    "muggins-4-long": view_for(played("muggins", LONG, 6)),
    "twolane-4": view_for(played("twolane", NAMES, 1)),
    "twolane-long": view_for(played("twolane", LONG, 3)),
}


def check_layout(view: SeatView, layout: FinalLayout) -> None:
    """Each text whole in its column, each column inside the card, the card and the legend
    inside the picture."""
    grid = layout.grid
    assert grid is not None
    for item in grid.texts:
        assert item.width <= item.room + 0.5, item
        assert item.left >= CARD + 12 and item.left + item.width <= SCORE_X + 0.5, item
        assert grid.top < item.baseline < grid.bottom, item
        assert "…" not in item.words + item.mark, item
        assert item.size >= READABLE, item
    for _, _, name in grid.labels:
        assert name.size >= READABLE
    for line in layout.footer:
        assert "…" not in line.words
        assert line.width <= line.room + 0.5 and 0 <= line.left <= FINAL_WIDTH - line.width
        assert line.size >= READABLE and line.bottom <= layout.height
    assert grid.bottom < layout.height


@pytest.mark.parametrize("name", sorted(MATCHES))
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_rounds_points_are_in_their_cell(name: str, lang: str) -> None:
    view = MATCHES[name]
    tr = translator(lang)
    layout = final_layout(view, tr, {0: 25, 1: -7})
    check_layout(view, layout)
    grid = layout.grid
    assert grid is not None
    cells = {(t.seat, t.column): t for t in grid.texts}
    if view.variant == "twolane":
        last = view.last_round
        assert last is not None
        for seat in range(len(view.players)):
            assert cells[(seat, 0)].words == str(last.penalties[seat] // 10)  # passes
            out = cells[(seat, 1)]
            if seat in view.out:
                assert out.words == str(view.out.index(seat) + 1) and out.mark == "✓"
            else:
                assert out.words == "—" and not out.mark
            assert cells[(seat, 2)].words == str(len(last.hands_left[seat]))
            assert cells[(seat, 3)].words == str(sum(t.pips for t in last.hands_left[seat]))
    else:
        assert len({t.column for t in grid.texts if t.column is not None}) == len(
            view.finished_rounds
        )
        for index, summary in enumerate(view.finished_rounds):
            header = cells[(None, index)]
            assert header.words == str(summary.number)
            assert header.mark == {"blocked": "⊘", "target": "⚑"}.get(summary.end, "")
            for seat in range(len(view.players)):
                cell = cells[(seat, index)]
                assert cell.words == str(summary.points[seat])
                assert (cell.mark == "✓") == (summary.end == "out" and summary.out == seat)
        # Each seat's round points add up to its total, shown at the end of its row.
        for seat in range(len(view.players)):
            points = sum(int(cells[(seat, i)].words) for i in range(len(view.finished_rounds)))
            assert cells[(seat, None)].words == str(view.totals[seat]) == str(points)
    # The rows follow the final order in every block.
    order = final_order(view)
    rows = [seat for _, seat, _ in grid.rows]
    assert rows == order * grid.blocks


def test_many_rounds_wrap_into_blocks_that_line_up() -> None:
    view = MATCHES["fives-4-to-100"]
    assert len(view.finished_rounds) > 20
    layout = final_layout(view, translator("ru"))
    grid = layout.grid
    assert grid is not None and grid.blocks >= 3
    headers = [t for t in grid.texts if t.seat is None and t.column is not None]
    # Round 1's column and the first column of every later block start at one place.
    starts = sorted({round(t.x) for t in headers})
    firsts = [t for t in headers if round(t.x) == starts[0]]
    assert len(firsts) == grid.blocks
    image = Image.open(io.BytesIO(render_final(view, translator("ru")).data))
    assert image.size == (FINAL_WIDTH, layout.height)


def test_the_final_picture_reads_on_a_phone() -> None:
    """All the grid's and the legend's text is at least 8 px high at 400 px wide."""
    for view in MATCHES.values():
        layout = final_layout(view, translator("ru"), {0: 3})
        sizes = [t.size for t in layout.grid.texts] if layout.grid else []
        sizes += [line.size for line in layout.footer]
        assert min(sizes) * PHONE_WIDTH / FINAL_WIDTH >= 8
    assert READABLE >= MIN_SIZE


def test_the_check_finds_a_cell_too_narrow() -> None:
    import dataclasses

    view = MATCHES["muggins-3"]
    layout = final_layout(view, translator("ru"))
    assert layout.grid is not None
    narrow = dataclasses.replace(layout.grid.texts[0], room=1.0)
    broken = dataclasses.replace(layout.grid, texts=(narrow,))
    with pytest.raises(AssertionError):
        check_layout(view, dataclasses.replace(layout, grid=broken))


# -- the caption --------------------------------------------------------------------

ROUND_LINE = re.compile(r"^Кон (\d+)( [⊘⚑])?: (.+)$")


@pytest.mark.parametrize("name", sorted(MATCHES))
def test_the_caption_tells_each_round_in_a_line(name: str) -> None:
    view = MATCHES[name]
    tr = translator("ru")
    changes = {0: 78, 1: -4}
    text = final_text(view, tr, changes)
    assert len(text) <= CAPTION_LIMIT
    lines = text.split("\n")
    assert all(line.count("<b>") == line.count("</b>") for line in lines)  # none cut
    for seat, change in changes.items():
        sign = "+" if change > 0 else "−"
        assert f" · рейтинг {sign}{abs(change)}" in text
        assert f"{view.players[seat][:39]}" in text
    record = view.standings.record
    assert "Отрыв: −" not in text
    if record is not None and record > 0:
        assert f"Отрыв: +{record}" in text
    if view.variant == "twolane":
        assert not any(ROUND_LINE.match(line) for line in lines)
        assert "Места: меньше штраф" in text
        return
    rounds = {int(m.group(1)): m for line in lines if (m := ROUND_LINE.match(line))}
    finished = view.finished_rounds
    assert rounds, text
    skipped = [s.number for s in finished if s.number not in rounds]
    if skipped:  # the earliest, named in one line
        assert skipped == list(range(1, len(skipped) + 1))
        named = f"Коны 1–{len(skipped)}" if len(skipped) > 1 else "Кон 1"
        assert f"{named} — на картинке" in text
    marks = set()
    for summary in finished:
        if summary.number not in rounds:
            continue
        found = rounds[summary.number]
        mark = {"blocked": " ⊘", "target": " ⚑"}.get(summary.end)
        assert found.group(2) == mark
        marks.add(mark)
        for seat, points in enumerate(summary.points):
            entry = f"{view.players[seat]} +{points}" if points else None
            if entry is not None:
                assert entry in found.group(3), (summary, found.group(0))
            if summary.end == "out" and summary.out == seat:
                assert found.group(3).count("✓") == 1
                assert re.search(re.escape(view.players[seat]) + r" [+0-9]+ ✓", found.group(3))
    if " ⊘" in marks:
        assert "⊘ — рыба" in text
    if " ⚑" in marks:
        assert "⚑ — кон прерван" in text
    assert "✓ — кости кончились" in text


def test_a_short_match_has_every_round_in_its_caption() -> None:
    view = MATCHES["muggins-3"]
    text = final_text(view, translator("ru"))
    assert "на картинке" not in text
    for summary in view.finished_rounds:
        assert f"Кон {summary.number}" in text


def test_the_legend_on_the_picture_explains_each_mark_once() -> None:
    view = MATCHES["muggins-4-long"]
    tr = translator("ru")
    layout = final_layout(view, tr, {0: 5}, {2})
    notes = " ".join(line.words for line in layout.footer)
    assert {Mark.PLACES, Mark.OUT, Mark.LOST, Mark.RATING, Mark.FORFEIT} <= layout.marks
    for mark in layout.marks:
        first = tr(mark.value).split()[0]
        assert notes.count(first) >= 1
    assert notes.count("рейтинг —") == 1
