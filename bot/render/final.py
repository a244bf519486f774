"""The final table: places, names and points, for the group to keep."""

from __future__ import annotations

from PIL import Image, ImageDraw

from bot.render import sprites, theme
from bot.render.draw import check, felt, length, text
from bot.render.picture import Picture, encode
from bot.render.words import (
    Translate,
    final_legend,
    identity,
    player_name,
    signed,
    variant_title,
    winner_names,
)
from engine.view import SeatView

WIDTH = 1280
TOP = 300
ROW = 100
BOTTOM = 110
LEGEND_LINE = 44  # each note under the table that explains a mark


def render_final(
    view: SeatView, tr: Translate = identity, changes: dict[int, int] | None = None
) -> Picture:
    """Places, names and points; the fives record, the muggins losers, twolane penalties;
    each rated seat's rating change (`changes`, by seat)."""
    return encode(draw_final(view, tr, changes), "final")


def final_order(view: SeatView) -> list[int]:
    """Seats from the first place down (seat order within a shared place)."""
    return sorted(range(len(view.players)), key=lambda s: (view.standings.places[s], s))


def draw_final(
    view: SeatView, tr: Translate = identity, changes: dict[int, int] | None = None
) -> Image.Image:
    legend = final_legend(view, tr)
    height = TOP + ROW * len(view.players) + BOTTOM + LEGEND_LINE * len(legend)
    canvas = felt(WIDTH, height).copy()
    draw = ImageDraw.Draw(canvas)
    standings = view.standings
    sprites.trophy(190).paste(canvas, 70, 50)
    left, room = 300, WIDTH - 340
    heading = tr("Game over") if standings.finished else tr("Standings")
    text(canvas, (left, 104), heading, 62, theme.GOLD, True, width=room)
    text(canvas, (left, 152), variant_title(tr, view.variant), 32, theme.TEXT_DIM, width=room)
    if standings.winners:
        names = tr("Winner: {names}").format(names=winner_names(tr, view))
        text(canvas, (left, 218), names, 42, bold=True, width=room)
    # The table itself, on a darker card.
    draw.rounded_rectangle(
        (40, TOP - 20, WIDTH - 40, TOP + ROW * len(view.players)), 24, fill=theme.PANEL
    )
    twolane = view.variant == "twolane"
    score_x = WIDTH - 90
    tiles_x = score_x - 230  # twolane: the tiles left decide between equal penalties
    column = tr("Penalties") if twolane else tr("Points")
    text(canvas, (score_x, TOP - 34), column, 26, theme.TEXT_DIM, anchor="rs", width=200)
    if twolane:
        text(canvas, (tiles_x, TOP - 34), tr("Tiles"), 26, theme.TEXT_DIM, anchor="ms", width=160)
    y = TOP
    for seat in final_order(view):
        _draw_row(canvas, draw, view, tr, seat, y, score_x, tiles_x if twolane else None)
        if changes and seat in changes:  # small, under the points
            change = changes[seat]
            color = theme.GREEN if change > 0 else theme.RED if change < 0 else theme.TEXT_DIM
            text(canvas, (score_x, y + 90), signed(change), 22, color, True, anchor="rs")
        y += ROW
    y = TOP + ROW * len(view.players) + 66
    if not twolane:  # a twolane game is a single round
        footer = tr("Rounds played: {count}").format(count=len(view.finished_rounds))
        text(canvas, (WIDTH // 2, y), footer, 30, theme.TEXT_DIM, anchor="ms", width=WIDTH - 80)
        y += LEGEND_LINE
    for note in legend:
        text(canvas, (WIDTH // 2, y), note, 26, theme.TEXT_DIM, anchor="ms", width=WIDTH - 80)
        y += LEGEND_LINE
    return canvas


def _draw_row(
    canvas: Image.Image,
    draw: ImageDraw.ImageDraw,
    view: SeatView,
    tr: Translate,
    seat: int,
    y: int,
    score_x: int,
    tiles_x: int | None,
) -> None:
    place = view.standings.places[seat]
    winner = seat in view.standings.winners
    if winner:
        draw.rounded_rectangle((52, y + 6, WIDTH - 52, y + ROW - 6), 18, fill=(46, 60, 44))
    sprites.medal(place, 60).paste(canvas, 80, y + 20)
    digit = theme.PANEL if place <= 3 else theme.TEXT
    text(canvas, (110, y + 52), str(place), 30, digit, True, "mm")
    note, note_color = _note(view, tr, seat)
    note_w = length(note, 30, True) + 32 if note else 0
    right = (tiles_x - 60 if tiles_x is not None else score_x - 120) - 170
    name = player_name(tr, view, seat)
    color = theme.GOLD if winner else theme.TEXT
    name_room = right - (note_w + 24 if note else 0) - (40 if seat in view.out else 0)
    x = 170 + text(canvas, (170, y + 62), name, 40, color, winner, width=name_room)
    if seat in view.out:  # twolane: went out (ranked before those still holding tiles)
        check(draw, x + 16, y + 46, theme.GREEN)
        x += 40
    if note:
        draw.rounded_rectangle((x + 24, y + 28, x + 24 + note_w, y + 74), 22, fill=note_color)
        text(canvas, (x + 24 + note_w / 2, y + 52), note, 30, theme.PANEL, True, "mm")
    if tiles_x is not None:
        sprites.tile_back(34).paste(canvas, tiles_x - 40, y + 32)
        text(canvas, (tiles_x - 12, y + 62), str(view.hand_sizes[seat]), 40)
    text(canvas, (score_x, y + 62), str(view.totals[seat]), 48, bold=True, anchor="rs")


def _note(view: SeatView, tr: Translate, seat: int) -> tuple[str, theme.RGB]:
    """The badge after a name: the fives winner's record, a muggins loser."""
    standings = view.standings
    if standings.record is not None and seat in standings.winners:
        return tr("Record: {points}").format(points=signed(standings.record)), theme.GOLD
    if seat in standings.losers:
        return tr("Lost"), theme.RED
    return "", theme.TEXT
