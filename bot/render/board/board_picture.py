"""The group's picture: the table with its tiles, and a panel with the game's state."""

from __future__ import annotations

from functools import cache

from PIL import Image, ImageDraw

from bot.render.board.board_lanes import draw_lanes
from bot.render.board.panel import draw_panel
from bot.render.kit import sprites, theme
from bot.render.kit.draw import felt, text
from bot.render.kit.lines import Line, Paragraph, draw_lines, stack
from bot.render.kit.picture import BOARD_QUALITY, Picture, encode
from bot.render.layout.board_geometry import (
    BOARD_HEIGHT,
    BOARD_WIDTH,
    PANEL_MARGIN,
    PICTURE_HEIGHT,
    PICTURE_WIDTH,
    BoardLayout,
    EndMark,
    mark_size,
)
from bot.render.layout.board_layout import board_layout
from bot.render.words.ends import EndName, end_names, names_or_own
from bot.render.words.naming import Translate, identity, player_name, signed
from bot.render.words.round_end import round_end_points, round_end_words
from bot.render.words.takeover_words import Takeovers
from engine.view import SeatView

POINTS_GAP = "   "  # between the players' points for the round, under a new round's number


def render_board(
    view: SeatView, tr: Translate = identity, banner: str = "", taken: Takeovers | None = None
) -> Picture:
    """The table as everyone sees it, with whose turn it is, scores and the count.

    `banner`: how a game that ended before its end ended, said where the turn would be;
    `taken`: the seats the computer took over from their people, and why.
    """
    return encode(draw_board(view, tr, banner, taken), "board", BOARD_QUALITY)


def draw_board(
    view: SeatView, tr: Translate = identity, banner: str = "", taken: Takeovers | None = None
) -> Image.Image:
    canvas = _background().copy()
    lanes = view.rules.lanes
    layout = board_layout(view.table, view.variant)
    if lanes and layout.center is not None:
        draw_lanes(canvas, layout, tr)
    _draw_tiles(canvas, layout, end_marks(view))
    if not layout.boxes:
        _draw_empty_table(canvas, view, tr)
    draw_panel(canvas, view, tr, BOARD_HEIGHT, banner, taken)
    return canvas


@cache
def _background() -> Image.Image:
    canvas = Image.new("RGB", (PICTURE_WIDTH, PICTURE_HEIGHT), theme.PANEL)
    canvas.paste(felt(BOARD_WIDTH, BOARD_HEIGHT), (0, 0))
    draw = ImageDraw.Draw(canvas)
    draw.rectangle((0, BOARD_HEIGHT, PICTURE_WIDTH, BOARD_HEIGHT + 4), fill=theme.PANEL_LINE)
    draw.line(
        (PANEL_MARGIN, BOARD_HEIGHT + 76, PICTURE_WIDTH - PANEL_MARGIN, BOARD_HEIGHT + 76),
        fill=theme.PANEL_LINE,
        width=2,
    )
    return canvas


def end_marks(view: SeatView) -> list[tuple[EndMark, EndName]]:
    """Each open end's mark on the board: where it lies, and the name it shows (the
    end's colour, and the way the next tile there will be drawn)."""
    layout = board_layout(view.table, view.variant)
    names = end_names(view.table, view.variant)
    return [(mark, names_or_own(names, mark.end)) for mark in layout.marks]


def _draw_tiles(
    canvas: Image.Image, layout: BoardLayout, marks: list[tuple[EndMark, EndName]]
) -> None:
    long = layout.tile
    for box in layout.boxes:
        if box.last:
            sprites.glow(box.w, box.h, theme.LAST_GLOW).paste(canvas, box.x, box.y)
    # Shadows fall to the lower right: tiles further down and right go on top.
    for box in sorted(layout.boxes, key=lambda b: b.x + b.y):
        sprite = sprites.tile(box.first, box.second, box.vertical, long, hub=box.hub)
        sprite.paste(canvas, box.x, box.y)
    for mark, name in marks:
        sprites.name_mark(name, mark_size(layout.tile)).paste(canvas, mark.x, mark.y)


def _draw_empty_table(canvas: Image.Image, view: SeatView, tr: Translate) -> None:
    """Before the opening: the round's number, and how the last round ended."""
    cx, cy = BOARD_WIDTH // 2, BOARD_HEIGHT // 2
    title = tr("Round {number}").format(number=view.round_number)
    text(canvas, (cx, cy - 20), title, 54, bold=True, anchor="ms")
    draw_lines(canvas, empty_table_layout(view, tr))


def empty_table_layout(view: SeatView, tr: Translate = identity) -> list[Line]:
    """Under a new round's number: how the last round ended and who got what for it,
    wrapped to the table's width (never cut)."""
    last = view.last_round
    if last is None or last.number != view.round_number - 1:
        return []
    heading = tr("Round {number} is over").format(number=last.number)
    reason = round_end_words(tr, view, last.end, last.out)
    line = heading + (f" · {reason}" if reason else "")
    paragraphs = [Paragraph(line, 32, theme.TEXT_DIM, leading=40, step=50)]
    parts = [
        f"{player_name(tr, view, seat)} {signed(points)}"
        for seat, points in enumerate(last.points)
        if points
    ]
    if parts:
        paragraphs.append(
            Paragraph(POINTS_GAP.join(parts), 32, theme.GOLD, True, 42, 50, POINTS_GAP)
        )
    paragraphs += [
        Paragraph(note, 28, leading=36, step=50) for note in round_end_points(tr, view, last)
    ]
    lines, _ = stack(paragraphs, BOARD_WIDTH // 2, BOARD_HEIGHT // 2 + 50, BOARD_WIDTH - 80, "ms")
    return lines
