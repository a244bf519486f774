"""A seat's own tiles, numbered as the bot's buttons number them."""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.render.kit import sprites, theme
from bot.render.kit.draw import felt, length, text
from bot.render.kit.picture import Picture, encode
from bot.render.words.ends import EndName, end_names, names_or_own
from bot.render.words.naming import Translate, identity, player_name
from engine.moves import Doubles, Draw, Pass, Play
from engine.tiles import End, Tile
from engine.view import SeatView

HAND_WIDTH = 1280
HAND_TILE = 144  # long side of a tile in the hand picture
SLOT = HAND_TILE // 2 + 36  # horizontal step between tiles
PER_ROW = (HAND_WIDTH - 80) // SLOT
HEADER = 104  # one line of header (its band is 20 px shorter), before the tiles
HEADER_LINE = 50  # each further line of it
HEADER_SIZES = (36, 32, 28)  # the header's font sizes, largest first
HEADER_MARGIN = 32
HEADER_GAP = 40  # between the title and the status on one line
HAND_ROW = HAND_TILE + 104  # a tile, its number and the ends it fits
FOOTER = 92
LIFT = 14  # playable tiles stand a little higher


@dataclass(frozen=True, slots=True)
class HandSlot:
    """Where the hand's n-th tile (numbered from 1) is drawn."""

    number: int
    tile: Tile
    x: int
    y: int
    playable: bool
    dimmed: bool
    ends: tuple[End, ...]  # the ends it can go to now (empty for an opening)
    names: tuple[EndName, ...] = ()  # those ends' names, marked under the tile


@dataclass(frozen=True, slots=True)
class HeaderLine:
    """One text of the header: drawn whole unless it is wider than the picture."""

    words: str
    size: int
    x: int
    baseline: int
    anchor: str  # "ls": from the left, "rs": up to the right
    width: float  # the room it is fitted to


@dataclass(frozen=True, slots=True)
class Header:
    lines: tuple[HeaderLine, ...]
    height: int  # where the tiles' area starts


def header_layout(title: str, status: str) -> Header:
    """The title on the left and the status on the right, laid out from their widths.

    Both on one line at the largest size they fit; else each on a line of its
    own, at the largest size it fits (cut only if wider than the whole picture
    even at the smallest size).
    """
    room = HAND_WIDTH - 2 * HEADER_MARGIN
    first = 58
    for size in HEADER_SIZES:
        title_w = length(title, size, True)
        status_w = HEADER_GAP + length(status, size, True) if status else 0.0
        if title_w + status_w <= room:
            lines = [HeaderLine(title, size, HEADER_MARGIN, first, "ls", room - status_w)]
            if status:
                status_x = HAND_WIDTH - HEADER_MARGIN
                lines.append(HeaderLine(status, size, status_x, first, "rs", room - title_w))
            return Header(tuple(lines), HEADER)
    lines = []
    for i, words in enumerate(w for w in (title, status) if w):
        size = next((s for s in HEADER_SIZES if length(words, s, True) <= room), HEADER_SIZES[-1])
        lines.append(HeaderLine(words, size, HEADER_MARGIN, first + i * HEADER_LINE, "ls", room))
    return Header(tuple(lines), HEADER + HEADER_LINE * (len(lines) - 1))


def render_hand(view: SeatView, tr: Translate = identity) -> Picture:
    """The seat's tiles, numbered 1..n in `view.hand` order; playable ones marked on its turn."""
    return encode(draw_hand(view, tr), "hand")


def hand_slots(view: SeatView, top: int = HEADER) -> list[HandSlot]:
    """The geometry of the hand picture (the tests check numbering against it).

    `top`: where the tiles' area starts (`Header.height`).
    """
    fits: dict[Tile, list[End]] = {}
    for move in view.legal:
        plays = (
            move.plays if isinstance(move, Doubles) else (move,) if isinstance(move, Play) else ()
        )
        for play in plays:
            ends = fits.setdefault(play.tile, [])
            if play.end is not None and play.end not in ends:
                ends.append(play.end)
    turn = view.my_turn
    count = len(view.hand)
    names = end_names(view.table, view.variant) if turn else {}
    slots = []
    for i, tile in enumerate(view.hand):
        row, col = divmod(i, PER_ROW)
        in_row = min(PER_ROW, count - row * PER_ROW)
        left = (HAND_WIDTH - in_row * SLOT) // 2 + (SLOT - HAND_TILE // 2) // 2
        playable = turn and tile in fits
        y = top + 30 + row * HAND_ROW - (LIFT if playable else 0)
        fitting = tuple(sorted(fits.get(tile, ()))) if playable else ()
        slots.append(
            HandSlot(
                number=i + 1,
                tile=tile,
                x=left + col * SLOT,
                y=y,
                playable=playable,
                dimmed=turn and not playable,
                ends=fitting,
                names=tuple(names_or_own(names, end) for end in fitting),
            )
        )
    return slots


def hand_height(count: int, top: int = HEADER) -> int:
    rows = max(1, -(-count // PER_ROW))
    return top + 30 + rows * HAND_ROW + FOOTER


def hand_header(view: SeatView, tr: Translate = identity) -> tuple[Header, theme.RGB]:
    """The header's layout, and the status's colour."""
    title = tr("Your tiles")
    if view.seat is not None:
        title += f" · {player_name(tr, view, view.seat)}"
    status, color = _status(view, tr)
    return header_layout(title, status), color


def draw_hand(view: SeatView, tr: Translate = identity) -> Image.Image:
    header, color = hand_header(view, tr)
    height = hand_height(len(view.hand), header.height)
    canvas = felt(HAND_WIDTH, height).copy()
    draw = ImageDraw.Draw(canvas)
    draw.rectangle((0, 0, HAND_WIDTH, header.height - 20), fill=theme.PANEL)
    for i, line in enumerate(header.lines):
        fill = theme.TEXT if i == 0 else color
        x, y = line.x, line.baseline
        text(canvas, (x, y), line.words, line.size, fill, True, line.anchor, line.width)
    for slot in hand_slots(view, header.height):
        if slot.playable:
            sprites.glow(HAND_TILE // 2, HAND_TILE, theme.PLAYABLE).paste(canvas, slot.x, slot.y)
        sprite = sprites.tile(slot.tile.high, slot.tile.low, True, HAND_TILE, dim=slot.dimmed)
        sprite.paste(canvas, slot.x, slot.y)
        cx = slot.x + HAND_TILE // 4
        base = slot.y + HAND_TILE + (LIFT if slot.playable else 0)
        badge = 23
        fill = (
            theme.PLAYABLE
            if slot.playable
            else (235, 235, 225)
            if not slot.dimmed
            else (150, 160, 150)
        )
        draw.ellipse((cx - badge, base + 16, cx + badge, base + 16 + 2 * badge), fill=fill)
        text(canvas, (cx, base + 16 + badge), str(slot.number), 28, theme.PANEL, True, "mm")
        if slot.names:
            step = 32
            x0 = cx - (len(slot.names) - 1) * step // 2
            for k, name in enumerate(slot.names):
                sprites.name_mark(name, 28).paste(canvas, x0 + k * step, base + 80)
    _draw_ends(canvas, draw, view, height - FOOTER // 2)
    return canvas


def _status(view: SeatView, tr: Translate) -> tuple[str, theme.RGB]:
    if view.over:
        return tr("Game over"), theme.GOLD
    if view.my_turn:
        if any(isinstance(m, Draw) for m in view.legal):
            return tr("No tile fits: draw"), theme.TURN
        if view.legal and all(isinstance(m, Pass) for m in view.legal):
            penalty = view.rules.pass_penalty
            if penalty:  # twolane: a pass costs points, and the player should see how many
                line = tr("No tile fits: pass, penalty +{points}").format(points=penalty)
                return line, theme.TURN
            return tr("No tile fits: pass"), theme.TURN
        return tr("Your turn"), theme.TURN
    if view.turn is not None:
        return tr("Turn: {name}").format(name=player_name(tr, view, view.turn)), theme.TEXT_DIM
    return "", theme.TEXT


def footer_ends(view: SeatView) -> tuple[tuple[EndName, int], ...]:
    """The table's open ends as the footer shows them: each end's name and its number."""
    names = end_names(view.table, view.variant)
    return tuple((names_or_own(names, end), value) for end, value in view.table.ends)


def _draw_ends(canvas: Image.Image, draw: ImageDraw.ImageDraw, view: SeatView, y: int) -> None:
    """The table's open ends and their values, marked as the board marks them."""
    ends = footer_ends(view)
    if not ends:
        return
    draw.rectangle((0, y - FOOTER // 2 + 6, HAND_WIDTH, y + FOOTER // 2), fill=theme.PANEL)
    step = 140
    x = (HAND_WIDTH - step * len(ends)) // 2 + 40
    for name, value in ends:
        sprites.name_mark(name, 44).paste(canvas, x, y + 4)
        text(canvas, (x + 32, y + 4), str(value), 40, theme.TEXT, True, "lm")
        x += step
