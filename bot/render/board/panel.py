"""The panel under the board: the game's name, round and target, the boneyard, and the
players' table (names, tiles in hand, points); the state column on its right is
`bot.render.board.status_column`'s."""

from __future__ import annotations

from PIL import Image, ImageDraw

from bot.render.board.status_column import STATUS_LEFT, STATUS_WIDTH, draw_status
from bot.render.kit import sprites, theme
from bot.render.kit.draw import check, length, text
from bot.render.layout.board_geometry import PANEL_MARGIN, PICTURE_WIDTH
from bot.render.words.naming import Translate, player_name, variant_title
from bot.render.words.takeover_words import Takeovers, takeover_tag
from engine.view import SeatView

PLAYERS_RIGHT = 640  # the players' table ends here; the state column starts after it
TAG_SIZES = (22, 20)  # who plays a seat taken over, under its name: the larger that fits
TAG_OVERHANG = 30


def draw_panel(
    canvas: Image.Image,
    view: SeatView,
    tr: Translate,
    top: int,
    banner: str = "",
    taken: Takeovers | None = None,
) -> None:
    """The panel from `top` down; `banner` goes where the turn would be; `taken`: the
    seats the computer took over, and why (said under their names)."""
    # Header: the game, the round and the target; the boneyard on the right.
    y = top + 52
    boneyard = tr("Boneyard: {count}").format(count=view.boneyard_size)
    right = PICTURE_WIDTH - PANEL_MARGIN
    boneyard_x = right - length(boneyard, 30)
    text(canvas, (right, y), boneyard, 30, anchor="rs")
    sprites.tile_back(34).paste(canvas, round(boneyard_x - 32), y - 30)
    room = boneyard_x - 60 - PANEL_MARGIN
    head = variant_title(tr, view.variant)
    used = text(canvas, (PANEL_MARGIN, y), head, 36, bold=True, width=room * 0.6)
    details = []
    if not view.rules.one_round:
        details.append(tr("Round {number}").format(number=view.round_number))
        if view.target is not None:
            details.append(tr("Target: {points}").format(points=view.target))
    if details:
        line = " · ".join(details)
        text(
            canvas, (PANEL_MARGIN + used + 18, y), line, 30, theme.TEXT_DIM, width=room - used - 18
        )
    _draw_players(canvas, view, tr, 20, top + 88, PLAYERS_RIGHT, taken or {})
    draw_status(canvas, view, tr, STATUS_LEFT, top + 88, STATUS_LEFT + STATUS_WIDTH, banner)


def _draw_players(
    canvas: Image.Image,
    view: SeatView,
    tr: Translate,
    left: int,
    top: int,
    right: int,
    taken: Takeovers,
) -> None:
    draw = ImageDraw.Draw(canvas)
    score_label = tr("Penalties") if view.rules.penalty_scoring else tr("Points")
    tiles_x = right - 150
    text(canvas, (tiles_x, top + 20), tr("Tiles"), 22, theme.TEXT_DIM, anchor="ms", width=100)
    text(canvas, (right - 12, top + 20), score_label, 22, theme.TEXT_DIM, anchor="rs", width=130)
    row_h = 64
    y = top + 30
    for seat in range(len(view.players)):
        turn = view.turn == seat
        if turn:
            draw.rounded_rectangle((left, y, right, y + row_h - 6), 12, fill=theme.PANEL_ROW)
            draw.rounded_rectangle((left, y, left + 8, y + row_h - 6), 4, fill=theme.TURN)
        base = y + row_h // 2 + 9
        name_x = left + 22
        if view.over:
            place = view.standings.places[seat]
            sprites.medal(place, 34).paste(canvas, name_x, y + 12)
            digit = theme.PANEL if place <= 3 else theme.TEXT
            text(canvas, (name_x + 17, base - 2), str(place), 20, digit, True, "ms")
            name_x += 46
        name = player_name(tr, view, seat)
        color = theme.TURN if turn else theme.TEXT
        room = tiles_x - 70 - name_x
        why = taken.get(seat)
        if why is None:
            drawn = text(canvas, (name_x, base), name, 32, color, turn, "ls", room)
            mark_y = base - 12
        else:
            # His name, and under it who plays the seat now and why: both whole lines,
            # each cut to the room on its own (a long name never hides the words).
            drawn = text(canvas, (name_x, base - 9), name, 28, color, turn, "ls", room)
            tag = takeover_tag(tr, why)
            tag_room = room + TAG_OVERHANG  # it may run on under the gap before the tiles
            size = next((s for s in TAG_SIZES if length(tag, s) <= tag_room), TAG_SIZES[-1])
            text(canvas, (name_x, base + 15), tag, size, theme.TEXT_DIM, False, "ls", tag_room)
            mark_y = base - 20
        if seat in view.out:
            check(draw, name_x + drawn + 14, mark_y, theme.GREEN)
        sprites.tile_back(30).paste(canvas, tiles_x - 34, y + 14)
        text(canvas, (tiles_x - 10, base), str(view.hand_sizes[seat]), 30)
        text(canvas, (right - 12, base), str(view.totals[seat]), 34, bold=True, anchor="rs")
        y += row_h
