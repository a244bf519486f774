"""The final table: places, names and points, for the group to keep."""

from __future__ import annotations

from PIL import Image, ImageDraw

from bot.render import sprites, theme
from bot.render.draw import felt, length, text
from bot.render.picture import Picture, encode
from bot.render.words import Translate, identity, player_name, signed, variant_title, winner_names
from engine.view import SeatView

WIDTH = 1280
TOP = 300
ROW = 100
BOTTOM = 110


def render_final(view: SeatView, tr: Translate = identity) -> Picture:
    """Places, names and points; the fives record, the muggins losers, twolane penalties."""
    return encode(draw_final(view, tr), "final")


def final_order(view: SeatView) -> list[int]:
    """Seats from the first place down (seat order within a shared place)."""
    return sorted(range(len(view.players)), key=lambda s: (view.standings.places[s], s))


def draw_final(view: SeatView, tr: Translate = identity) -> Image.Image:
    height = TOP + ROW * len(view.players) + BOTTOM
    canvas = felt(WIDTH, height).copy()
    draw = ImageDraw.Draw(canvas)
    standings = view.standings
    sprites.trophy(190).paste(canvas, 70, 50)
    left = 300
    heading = tr("Game over") if standings.finished else tr("Standings")
    text(canvas, (left, 104), heading, 62, theme.GOLD, True, "ls", WIDTH - left - 40)
    text(
        canvas,
        (left, 152),
        variant_title(tr, view.variant),
        32,
        theme.TEXT_DIM,
        False,
        "ls",
        WIDTH - left - 40,
    )
    if standings.winners:
        names = tr("Winner: {names}").format(names=winner_names(tr, view))
        text(canvas, (left, 218), names, 42, theme.TEXT, True, "ls", WIDTH - left - 40)
    # The table itself, on a darker card.
    card_top = TOP - 20
    draw.rounded_rectangle(
        (40, card_top, WIDTH - 40, card_top + ROW * len(view.players) + 20), 24, fill=theme.PANEL
    )
    penalties = view.variant == "twolane"
    column = tr("Penalties") if penalties else tr("Points")
    score_x = WIDTH - 90
    y = TOP
    for seat in final_order(view):
        place = standings.places[seat]
        winner = seat in standings.winners
        if winner:
            draw.rounded_rectangle((52, y + 6, WIDTH - 52, y + ROW - 6), 18, fill=(46, 60, 44))
        sprites.medal(place, 60).paste(canvas, 80, y + 20)
        text(canvas, (110, y + 52), str(place), 30, theme.PANEL, True, "mm")
        name = player_name(tr, view, seat)
        note, note_color = _note(view, tr, seat)
        note_w = length(note, 30, True) + 40 if note else 0
        name_w = score_x - 240 - 200 - note_w
        drawn = text(
            canvas,
            (170, y + 62),
            name,
            40,
            theme.GOLD if winner else theme.TEXT,
            winner,
            "ls",
            name_w,
        )
        if note:
            draw.rounded_rectangle(
                (170 + drawn + 24, y + 28, 170 + drawn + 24 + note_w - 16, y + 74),
                22,
                fill=note_color,
            )
            text(
                canvas,
                (170 + drawn + 24 + (note_w - 16) / 2, y + 52),
                note,
                30,
                theme.PANEL,
                True,
                "mm",
            )
        text(canvas, (score_x, y + 62), str(view.totals[seat]), 48, theme.TEXT, True, "rs")
        y += ROW
    text(canvas, (score_x, TOP - 34), column, 26, theme.TEXT_DIM, False, "rs")
    rounds = len(view.finished_rounds)
    footer = tr("Rounds played: {count}").format(count=rounds)
    text(canvas, (WIDTH // 2, height - 44), footer, 30, theme.TEXT_DIM, False, "ms")
    return canvas


def _note(view: SeatView, tr: Translate, seat: int) -> tuple[str, theme.RGB]:
    """The badge after a name: the fives winner's record, a muggins loser."""
    standings = view.standings
    if standings.record is not None and seat in standings.winners:
        return tr("Record: {points}").format(points=signed(standings.record)), theme.GOLD
    if seat in standings.losers:
        return tr("Lost"), theme.RED
    return "", theme.TEXT
