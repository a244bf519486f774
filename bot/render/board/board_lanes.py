"""twolane's lanes on the board: each lane on a strip of its end's colour, with a tab
by the opening that names it."""

from __future__ import annotations

from PIL import Image, ImageDraw

from bot.render.kit import sprites, theme
from bot.render.kit.draw import length, text
from bot.render.layout.board_geometry import BoardLayout, TileBox, mark_size
from bot.render.words.ends import COLOURS
from bot.render.words.naming import Translate
from engine.tiles import End

# twolane's lanes: darker shades of their ends' colours (`bot.render.words.ends`), so
# that the ends' discs still stand out on them.
LANE_COLORS = {End.W: (30, 80, 146), End.E: (150, 82, 22)}
LANE_PAD = 9


def draw_lanes(canvas: Image.Image, layout: BoardLayout, tr: Translate) -> None:
    """twolane: each lane on its own coloured strip, with a labelled tab at the opening.

    The W lane snakes upwards and the E lane downwards, so the space below the
    W lane's first row and above the E lane's is free for the tabs.
    """
    draw = ImageDraw.Draw(canvas)
    center = layout.center
    assert center is not None
    pad = LANE_PAD
    middle = center.x + center.w // 2
    for end, color in LANE_COLORS.items():
        # The lane starts on its half of the opening.
        x0 = center.x if end is End.W else middle
        rects = [(x0, center.y, x0 + center.w // 2, center.y + center.h)]
        rects += [b.box for b in layout.rays.get(end, ())]
        mark = next((m for m in layout.marks if m.end is end), None)
        if mark is not None:
            r = mark_size(layout.tile) // 2
            rects.append((mark.x - r, mark.y - r, mark.x + r, mark.y + r))
        for left, top, right, bottom in _merge_rows(rects):
            draw.rounded_rectangle(
                (left - pad, top - pad, right + pad - 1, bottom + pad - 1), 12, fill=color
            )
        _draw_lane_tab(canvas, end, color, middle, center, tr)


def _draw_lane_tab(
    canvas: Image.Image, end: End, color: theme.RGB, middle: int, center: TileBox, tr: Translate
) -> None:
    """The lane's tab by the opening: a small disc of its end's colour and «Lane» (the
    way it runs is the end mark's to say: a lane that turned runs back)."""
    draw = ImageDraw.Draw(canvas)
    size, disc, pad = 26, 24, LANE_PAD
    label = tr("Lane")
    width = round(14 + disc + 10 + length(label, size, True) + 16)
    if end is End.W:  # below the W half of the opening, ending at its middle
        top, left = center.y + center.h, middle - width
        box = (left, top, middle, top + pad + 40)
        baseline = top + pad + 26
    else:  # above the E half, starting at its middle
        top, left = center.y - pad - 40, middle
        box = (left, top, middle + width, center.y)
        baseline = center.y - pad - 14
    draw.rounded_rectangle(box, 12, fill=color)
    colour = COLOURS[end]
    sprites.end_mark(colour.disc, colour.ink, None, disc).paste(
        canvas, left + 14 + disc // 2, baseline - 9
    )
    text(canvas, (left + 14 + disc + 10, baseline), label, size, bold=True)


def _merge_rows(rects: list[tuple[int, int, int, int]]) -> list[tuple[int, int, int, int]]:
    """Runs of rectangles in one row (same top and bottom, in order) as one rectangle each."""
    merged: list[tuple[int, int, int, int]] = []
    for rect in rects:
        if merged and merged[-1][1] == rect[1] and merged[-1][3] == rect[3]:
            left, top, right, bottom = merged[-1]
            merged[-1] = (min(left, rect[0]), top, max(right, rect[2]), bottom)
        else:
            merged.append(rect)
    return merged
