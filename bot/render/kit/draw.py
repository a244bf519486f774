"""Drawing helpers shared by the pictures: backgrounds and text.

Text is rasterised once per (words, size, weight, anchor) and kept: a game's
board shows the same names and labels after every move, and pasting a cached
mask is several times quicker than laying the text out again.
"""

from __future__ import annotations

import math
from functools import cache, lru_cache

from PIL import Image, ImageDraw

from bot.render.kit import theme
from bot.render.kit.fonts import fit, font


@cache
def felt(width: int, height: int) -> Image.Image:
    """Green felt, darker towards the edges (made once per size; copy before drawing on it)."""
    glow = Image.radial_gradient("L").resize((width, height), Image.Resampling.BILINEAR)
    # radial_gradient is 0 in the middle and 255 at the rim: ease it so the middle stays flat.
    mask = glow.point(lambda v: min(255, max(0, (v - 90) * 255 // 200)))
    return Image.composite(
        Image.new("RGB", (width, height), theme.FELT_EDGE),
        Image.new("RGB", (width, height), theme.FELT),
        mask,
    )


@lru_cache(maxsize=1024)
def _ink(words: str, size: int, bold: bool, anchor: str) -> tuple[Image.Image, int, int]:
    """The text's coverage mask and where its top-left lies relative to the anchor point."""
    face = font(size, bold)
    left, top, right, bottom = (math.floor(v) for v in face.getbbox(words, anchor=anchor))
    mask = Image.new("L", (max(1, right - left + 1), max(1, bottom - top + 1)), 0)
    ImageDraw.Draw(mask).text((-left, -top), words, font=face, fill=255, anchor=anchor)
    return mask, left, top


@lru_cache(maxsize=4096)
def _fitted(words: str, size: int, bold: bool, width: float) -> str:
    return fit(words, font(size, bold), width)


def text(
    image: Image.Image,
    xy: tuple[float, float],
    words: str,
    size: int,
    fill: theme.RGB = theme.TEXT,
    bold: bool = False,
    anchor: str = "ls",
    width: float | None = None,
) -> float:
    """Draw `words` at `xy` (cut with an ellipsis to `width`, if given); returns its width."""
    if width is not None:
        words = _fitted(words, size, bold, round(width))
    if not words:
        return 0.0
    mask, left, top = _ink(words, size, bold, anchor)
    x, y = round(xy[0]) + left, round(xy[1]) + top
    image.paste(fill, (x, y, x + mask.width, y + mask.height), mask)
    return length(words, size, bold)


@lru_cache(maxsize=4096)
def length(words: str, size: int, bold: bool = False) -> float:
    return font(size, bold).getlength(words)


def check(draw: ImageDraw.ImageDraw, x: float, y: float, color: theme.RGB) -> None:
    """A tick mark (went out), about 20 pixels wide, its top at `y`."""
    draw.line((x, y + 10, x + 7, y + 17, x + 20, y), fill=color, width=5, joint="curve")
