"""Texts laid out as measured lines: wrapped to the room they have, never cut.

A layout function returns `Line`s (what is drawn where, and the width it must keep
to), the drawing code draws them as they are, and the tests measure them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from PIL import Image

from bot.render.kit import theme
from bot.render.kit.draw import length, text
from bot.render.kit.fonts import font, wrap_all

# The smallest text the pictures use for what must be read: a picture 1280 px wide is
# shown about 400 px wide on a phone, where 22 px become 7.
MIN_SIZE = 22


@dataclass(frozen=True, slots=True)
class Line:
    """One line of text, drawn whole at (x, baseline) by its anchor."""

    words: str
    size: int
    x: float
    baseline: float
    room: float  # the width it keeps to
    fill: theme.RGB = theme.TEXT
    bold: bool = False
    anchor: str = "ls"  # "ls": from x; "ms": centred on x; "rs": ending at x

    @property
    def width(self) -> float:
        return length(self.words, self.size, self.bold)

    @property
    def bottom(self) -> float:
        """Where the lowest ink can reach (the font's descent below the baseline)."""
        return self.baseline + font(self.size, self.bold).getmetrics()[1]

    @property
    def left(self) -> float:
        shift = {"l": 0.0, "m": 0.5, "r": 1.0}[self.anchor[0]]
        return self.x - shift * self.width


@dataclass(frozen=True, slots=True)
class Paragraph:
    """A text to wrap: `leading` between its own lines, `step` from its last line's
    baseline to the next paragraph's."""

    words: str
    size: int
    fill: theme.RGB = theme.TEXT
    bold: bool = False
    leading: int = 0  # 0: 1.25 times the size
    step: int = 0  # 0: the leading
    separator: str = ""  # if set: items, side by side as many as fit on a line

    def pieces(self, room: float) -> list[str]:
        if self.separator:
            items = self.words.split(self.separator)
            return packed(items, self.separator, self.size, self.bold, room)
        return wrapped(self.words, self.size, self.bold, room)

    def scaled(self, factor: float) -> Paragraph:
        """The paragraph at `factor` times its size (not below MIN_SIZE), spaced alike."""
        size = max(MIN_SIZE, round(self.size * factor))
        ratio = size / self.size
        return Paragraph(
            self.words,
            size,
            self.fill,
            self.bold,
            round(self.spacing * ratio),
            round((self.step or self.spacing) * ratio),
            self.separator,
        )

    @property
    def spacing(self) -> int:
        return self.leading or round(self.size * 1.25)


def wrapped(words: str, size: int, bold: bool, room: float) -> list[str]:
    """`words` in lines no wider than `room` at this size, nothing left out."""
    return wrap_all(words, font(size, bold), room)


def packed(items: Sequence[str], separator: str, size: int, bold: bool, room: float) -> list[str]:
    """Items side by side, as many to a line as fit; an item too wide for a line of its
    own is wrapped (items are never split between lines otherwise)."""
    lines: list[str] = []
    current = ""
    for item in items:
        candidate = f"{current}{separator}{item}" if current else item
        if length(candidate, size, bold) <= room:
            current = candidate
            continue
        if current:
            lines.append(current)
        pieces = wrapped(item, size, bold, room)
        lines.extend(pieces[:-1])
        current = pieces[-1] if pieces else ""
    if current:
        lines.append(current)
    return lines


def stack(
    paragraphs: Iterable[Paragraph], x: float, baseline: float, room: float, anchor: str = "ls"
) -> tuple[list[Line], float]:
    """The paragraphs one under another, the first line's baseline at `baseline`; the
    lines, and the baseline where a next paragraph would go."""
    lines: list[Line] = []
    y = baseline
    for paragraph in paragraphs:
        pieces = paragraph.pieces(room)
        for i, piece in enumerate(pieces):
            if i:
                y += paragraph.spacing
            lines.append(
                Line(piece, paragraph.size, x, y, room, paragraph.fill, paragraph.bold, anchor)
            )
        y += paragraph.step or paragraph.spacing
    return lines, y


def draw_lines(canvas: Image.Image, lines: Iterable[Line]) -> None:
    """Draw each line whole (a layout has already made it fit)."""
    for line in lines:
        text(
            canvas,
            (line.x, line.baseline),
            line.words,
            line.size,
            line.fill,
            line.bold,
            line.anchor,
        )
