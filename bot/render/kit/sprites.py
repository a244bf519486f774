"""Small pictures drawn once and pasted many times: tiles, end marks, icons.

Each sprite is drawn four times larger and scaled down (smooth edges without
per-shape antialiasing), then cached; a board pastes 28 cached sprites.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Protocol

from PIL import Image, ImageDraw, ImageFilter

from bot.render.kit import theme
from engine.tiles import End

SUPER = 4  # drawing scale before the downscale
PIP_RADIUS = 0.11  # of the tile's short side
PIP_GRID = (0.2, 0.5, 0.8)  # pip centres across and along a half, of its side

# Pip places in a half, as (column, row) on a 3x3 grid, for a tile standing upright.
PIPS: dict[int, tuple[tuple[int, int], ...]] = {
    0: (),
    1: ((1, 1),),
    2: ((2, 0), (0, 2)),
    3: ((2, 0), (1, 1), (0, 2)),
    4: ((0, 0), (2, 0), (0, 2), (2, 2)),
    5: ((0, 0), (2, 0), (1, 1), (0, 2), (2, 2)),
    6: ((0, 0), (0, 1), (0, 2), (2, 0), (2, 1), (2, 2)),
}


# A part of a sprite: where it lies in the sprite, its colours, and its coverage
# (None: fully opaque, pasted as it is).
Piece = tuple[int, int, Image.Image, Image.Image | None]


@dataclass(frozen=True, slots=True)
class Sprite:
    pad: int  # the tile's top-left corner lies `pad` pixels inside the picture
    # The picture, in pieces pasted one by one: a tile's opaque core and the soft rim
    # around it (blending costs per pixel, and a tile's face is most of it; a board
    # pastes 28), or one piece, the whole picture. Only the pieces are kept: the
    # cached tiles of every size are much of the bot's memory.
    pieces: tuple[Piece, ...]

    def paste(self, canvas: Image.Image, x: int, y: int) -> None:
        left, top = x - self.pad, y - self.pad
        for dx, dy, colours, coverage in self.pieces:
            canvas.paste(colours, (left + dx, top + dy), coverage)


def whole(image: Image.Image, pad: int) -> Sprite:
    """A sprite of one piece: `image` (RGBA) pasted through its own alpha."""
    return Sprite(pad, ((0, 0, image, image),))


def _pieces(image: Image.Image, core: tuple[int, int, int, int]) -> tuple[Piece, ...]:
    """`image` as its opaque `core` (left, top, right, bottom) and four rim strips."""
    width, height = image.size
    left, top, right, bottom = core
    rgb, alpha = image.convert("RGB"), image.getchannel("A")
    strips = [
        (0, 0, width, top),
        (0, bottom, width, height),
        (0, top, left, bottom),
        (right, top, width, bottom),
    ]
    pieces: list[Piece] = [(left, top, rgb.crop(core), None)]
    for box in strips:
        if box[2] > box[0] and box[3] > box[1]:
            pieces.append((box[0], box[1], rgb.crop(box), alpha.crop(box)))
    return tuple(pieces)


# Bounded: a board needs at most 7 x 7 x 2 pictures per size (and the hand's), but a
# long-running bot should not keep every combination it ever drew. Room for every tile
# at every size (17 x 56, the hubs' and the hand's besides): with a few hundred games
# at once the boards use them all, and a smaller cache drew tiles again and again.
@lru_cache(maxsize=1536)
def tile(
    first: int,
    second: int,
    vertical: bool,
    long: int,
    hub: bool = False,
    dim: bool = False,
) -> Sprite:
    """A tile `long` pixels long showing `first` on its top/left half, `second` on the other.

    `hub`: a gold ring (the spinner or house); `dim`: greyed (a hand's tile that
    cannot be played now). Highlights are separate sprites (`glow`) pasted under it.
    """
    short = long // 2
    w, h = (short, long) if vertical else (long, short)
    pad = _pad(long)
    size = (w + 2 * pad, h + 2 * pad)
    box = (pad, pad, pad + w - 1, pad + h - 1)
    radius = round(short * 0.18)
    # The shadow is soft anyway: drawn at full size, then blurred.
    image = _soft(size, _shift(box, 2, 3), radius, (0, 0, 0), 60 if dim else 120, 2.2)
    image.alpha_composite(_face(first, second, vertical, long, pad, hub))
    if dim:
        image = _dimmed(image)
    # Between the rounded corners, a little in from the edge, the face is opaque.
    core = (pad + radius + 2, pad + 3, pad + w - radius - 2, pad + h - 3)
    return Sprite(pad, _pieces(image, core))


@lru_cache(maxsize=64)
def glow(w: int, h: int, color: theme.RGB) -> Sprite:
    """A soft halo around a `w` x `h` tile: the latest move, a playable tile."""
    long = max(w, h)
    pad = _glow_pad(long)
    size = (w + 2 * pad, h + 2 * pad)
    box = (pad, pad, pad + w - 1, pad + h - 1)
    radius = round(long * 0.09)
    image = _soft(size, _grow(box, 5), radius + 5, color, 255, 3)
    image.alpha_composite(_soft(size, _grow(box, 2), radius + 2, color, 255, 1.2))
    return whole(image, pad)


def _pad(long: int) -> int:
    """Room around a tile for its shadow and the hub's ring: every pasted pixel costs."""
    return max(6, min(9, long // 8))


def _glow_pad(long: int) -> int:
    return max(6, min(13, long // 8))


def _soft(
    size: tuple[int, int],
    box: tuple[int, int, int, int],
    radius: int,
    color: tuple[int, int, int],
    alpha: int,
    blur: float,
) -> Image.Image:
    """A blurred rounded rectangle: a shadow or a glow."""
    mask = Image.new("L", size, 0)
    ImageDraw.Draw(mask).rounded_rectangle(box, radius, fill=alpha)
    layer = Image.new("RGBA", size, (*color, 0))
    layer.putalpha(mask.filter(ImageFilter.GaussianBlur(blur)))
    return layer


def _face(first: int, second: int, vertical: bool, long: int, pad: int, hub: bool) -> Image.Image:
    """The tile itself (and the hub's ring), drawn large and scaled down for smooth edges."""
    s = SUPER
    short = long // 2
    w, h = (short, long) if vertical else (long, short)
    size = ((w + 2 * pad) * s, (h + 2 * pad) * s)
    box = (pad * s, pad * s, (pad + w) * s - 1, (pad + h) * s - 1)
    radius = round(short * 0.18 * s)
    layers = Image.new("RGBA", size, (0, 0, 0, 0))
    draw = ImageDraw.Draw(layers)
    draw.rounded_rectangle(box, radius, fill=(*theme.IVORY_EDGE, 255))
    inset = max(1, round(short * 0.035 * s))
    draw.rounded_rectangle(_grow(box, -inset), radius - inset, fill=(*theme.IVORY, 255))
    x0, y0, x1, y1 = box
    line = max(1, round(short * 0.05 * s))
    margin = round(short * 0.16 * s)
    if vertical:
        mid = (y0 + y1) // 2
        draw.line((x0 + margin, mid, x1 - margin, mid), fill=(*theme.DIVIDER, 255), width=line)
    else:
        mid = (x0 + x1) // 2
        draw.line((mid, y0 + margin, mid, y1 - margin), fill=(*theme.DIVIDER, 255), width=line)
    pin = round(short * 0.06 * s)
    cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
    draw.ellipse((cx - pin, cy - pin, cx + pin, cy + pin), fill=(*theme.BRASS, 255))
    half = short * s
    # Pips a fifth of the tile's width, spread wide enough that a six's rows
    # stay apart when a phone shows the board 400 px wide.
    pip = round(short * PIP_RADIUS * s)
    grid = PIP_GRID
    for number, value in enumerate((first, second)):
        hx = x0 + (0 if vertical else number * half)
        hy = y0 + (number * half if vertical else 0)
        for col, row in PIPS[value]:
            if not vertical:  # the upright pattern turned a quarter anticlockwise
                col, row = row, 2 - col
            px = hx + grid[col] * half
            py = hy + grid[row] * half
            draw.ellipse((px - pip, py - pip, px + pip, py + pip), fill=(*theme.PIP, 255))
    if hub:
        grow = round(2.5 * s)
        draw.rounded_rectangle(
            _grow(box, grow), radius + grow, outline=(*theme.HUB_RING, 255), width=3 * s
        )
    return _downscale(layers)


class MarkedEnd(Protocol):
    """What an end's mark shows of its name (`bot.render.words.ends.EndName` is one):
    the kit draws it without knowing the ends' words."""

    @property
    def colour(self) -> theme.RGB: ...
    @property
    def ink(self) -> theme.RGB: ...
    @property
    def direction(self) -> End | None: ...


def name_mark(name: MarkedEnd, diameter: int) -> Sprite:
    """The mark of an end named `name` (its colour, its arrow)."""
    return end_mark(name.colour, name.ink, name.direction, diameter)


@cache
def end_mark(disc: theme.RGB, ink: theme.RGB, direction: End | None, diameter: int) -> Sprite:
    """An end's mark: a disc of the end's colour, with a light rim that keeps it apart
    from the felt and the lanes, and an arrow pointing `direction` (None: no arrow)."""
    s = SUPER
    size = diameter * s
    image = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.ellipse((0, 0, size - 1, size - 1), fill=(*theme.MARK_RIM, 255))
    rim = max(s, round(size * 0.07))
    draw.ellipse((rim, rim, size - 1 - rim, size - 1 - rim), fill=(*disc, 255))
    if direction is None:
        return whole(_downscale(image), diameter // 2)
    c = size / 2
    r = size * 0.3
    # An arrow pointing right (a shaft and a head), turned to the end's direction.
    points = [
        (c - r, c - r * 0.24),
        (c + r * 0.1, c - r * 0.24),
        (c + r * 0.1, c - r * 0.66),
        (c + r, c),
        (c + r * 0.1, c + r * 0.66),
        (c + r * 0.1, c + r * 0.24),
        (c - r, c + r * 0.24),
    ]
    turn = {End.E: 0, End.N: 1, End.W: 2, End.S: 3}[direction]
    for _ in range(turn):  # a quarter turn anticlockwise (y grows downwards)
        points = [(y, size - x) for x, y in points]
    draw.polygon(points, fill=(*ink, 255))
    return whole(_downscale(image), diameter // 2)


@cache
def tile_back(long: int) -> Sprite:
    """A small face-down tile standing upright: the icon for tile counts."""
    s = SUPER
    short = long // 2
    image = Image.new("RGBA", (short * s, long * s), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    radius = round(short * 0.22 * s)
    draw.rounded_rectangle((0, 0, short * s - 1, long * s - 1), radius, fill=(*theme.IVORY, 255))
    inset = round(short * 0.12 * s)
    draw.rounded_rectangle(
        (inset, inset, short * s - 1 - inset, long * s - 1 - inset),
        max(1, radius - inset),
        outline=(*theme.IVORY_EDGE, 255),
        width=max(1, round(short * 0.08 * s)),
    )
    return whole(_downscale(image), 0)


@cache
def medal(place: int, diameter: int) -> Sprite:
    """A medal for places 1-3 (gold, silver, bronze), a plain disc after that."""
    colors = {1: theme.GOLD, 2: theme.SILVER, 3: theme.BRONZE}
    color = colors.get(place, (90, 110, 100))
    s = SUPER
    size = diameter * s
    image = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.ellipse((0, 0, size - 1, size - 1), fill=(*_darker(color, 0.7), 255))
    ring = round(size * 0.08)
    draw.ellipse((ring, ring, size - 1 - ring, size - 1 - ring), fill=(*color, 255))
    shine = round(size * 0.22)
    draw.ellipse(
        (shine, shine, size - 1 - shine, size - 1 - shine),
        outline=(*_lighter(color, 0.35), 255),
        width=max(1, round(size * 0.03)),
    )
    return whole(_downscale(image), 0)


@cache
def trophy(height: int) -> Sprite:
    """A gold cup drawn from ellipses and polygons."""
    s = SUPER
    w, h = round(height * 0.9) * s, height * s
    image = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    gold, dark = (*theme.GOLD, 255), (*theme.GOLD_DARK, 255)
    cx = w / 2
    cup_w, cup_h = w * 0.56, h * 0.5
    # Handles: rings either side of the cup.
    handle = w * 0.17
    for side in (-1, 1):
        hx = cx + side * cup_w * 0.5
        draw.ellipse(
            (hx - handle, h * 0.1, hx + handle, h * 0.1 + handle * 2.2),
            outline=dark,
            width=round(w * 0.045),
        )
    # The bowl: a half-ellipse under a flat rim.
    draw.pieslice(
        (cx - cup_w / 2, h * 0.02 - cup_h, cx + cup_w / 2, h * 0.02 + cup_h), 0, 180, fill=gold
    )
    draw.rectangle((cx - cup_w / 2, h * 0.02, cx + cup_w / 2, h * 0.06), fill=dark)
    # Stem and base.
    draw.polygon(
        [
            (cx - w * 0.05, h * 0.5),
            (cx + w * 0.05, h * 0.5),
            (cx + w * 0.09, h * 0.76),
            (cx - w * 0.09, h * 0.76),
        ],
        fill=dark,
    )
    draw.rounded_rectangle(
        (cx - w * 0.24, h * 0.76, cx + w * 0.24, h * 0.86), radius=w * 0.02, fill=gold
    )
    draw.rounded_rectangle(
        (cx - w * 0.3, h * 0.86, cx + w * 0.3, h * 0.99), radius=w * 0.02, fill=dark
    )
    # A star on the bowl.
    star = _star(cx, h * 0.25, w * 0.11)
    draw.polygon(star, fill=(255, 246, 200, 255))
    return whole(_downscale(image), 0)


def _star(cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    import math

    points = []
    for i in range(10):
        angle = -math.pi / 2 + i * math.pi / 5
        radius = r if i % 2 == 0 else r * 0.45
        points.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    return points


def _downscale(image: Image.Image) -> Image.Image:
    """A drawing made `SUPER` times too large, brought to size for smooth edges.

    Each pixel is the mean of its SUPER x SUPER block (the box filter that
    supersampling calls for): as smooth as a Lanczos resize at a fifth of its
    cost, which a board pays for each sprite it has not drawn at that size yet.
    """
    # Premultiplied alpha, so transparent edges do not darken.
    return image.convert("RGBa").reduce(SUPER).convert("RGBA")


def _dimmed(image: Image.Image) -> Image.Image:
    rgb = image.convert("RGB")
    grey = Image.new("RGB", image.size, (120, 132, 124))
    out = Image.blend(rgb, grey, 0.55).convert("RGBA")
    out.putalpha(image.getchannel("A"))
    return out


def _grow(box: tuple[int, int, int, int], by: int) -> tuple[int, int, int, int]:
    return (box[0] - by, box[1] - by, box[2] + by, box[3] + by)


def _shift(box: tuple[int, int, int, int], dx: int, dy: int) -> tuple[int, int, int, int]:
    return (box[0] + dx, box[1] + dy, box[2] + dx, box[3] + dy)


def _darker(color: theme.RGB, factor: float) -> theme.RGB:
    return (round(color[0] * factor), round(color[1] * factor), round(color[2] * factor))


def _lighter(color: theme.RGB, amount: float) -> theme.RGB:
    return (
        round(color[0] + (255 - color[0]) * amount),
        round(color[1] + (255 - color[1]) * amount),
        round(color[2] + (255 - color[2]) * amount),
    )
