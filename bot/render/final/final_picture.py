"""The final table: places, names and points, the match round by round, and what every
mark on it means, for the group to keep. Where each part goes is
`bot.render.final.final_layout`'s; this draws it."""

from __future__ import annotations

from collections.abc import Collection

from PIL import Image, ImageDraw

from bot.render.final.final_layout import (
    CARD,
    FINAL_ROW,
    FINAL_TOP,
    FINAL_WIDTH,
    GRID_LEFT,
    GRID_MEDAL,
    GRID_ROW,
    MARK_GAP,
    SCORE_X,
    GridLayout,
    final_layout,
)
from bot.render.kit import sprites, theme
from bot.render.kit.draw import check, felt, length, text
from bot.render.kit.lines import draw_lines
from bot.render.kit.picture import Picture, encode
from bot.render.words.marks import shown_record
from bot.render.words.naming import (
    Translate,
    identity,
    player_name,
    signed,
    variant_title,
    winner_names,
)
from bot.render.words.rounds import final_order
from engine.view import SeatView


def render_final(
    view: SeatView,
    tr: Translate = identity,
    changes: dict[int, int] | None = None,
    forfeited: Collection[int] = (),
) -> Picture:
    """Places, names and points; the fives record, the muggins losers, twolane penalties;
    the match round by round; each rated seat's rating change (`changes`, by seat).

    `view` carries the standings as the bot shows them (bot.game.forfeits), and
    `forfeited` the seats whose person left the game: last, whatever they scored."""
    return encode(draw_final(view, tr, changes, forfeited), "final")


def draw_final(
    view: SeatView,
    tr: Translate = identity,
    changes: dict[int, int] | None = None,
    forfeited: Collection[int] = (),
) -> Image.Image:
    layout = final_layout(view, tr, changes, forfeited)
    canvas = felt(FINAL_WIDTH, layout.height).copy()
    draw = ImageDraw.Draw(canvas)
    standings = view.standings
    sprites.trophy(190).paste(canvas, 70, 50)
    left, room = 300, FINAL_WIDTH - 340
    heading = tr("Game over") if standings.finished else tr("Standings")
    text(canvas, (left, 104), heading, 62, theme.GOLD, True, width=room)
    text(canvas, (left, 152), variant_title(tr, view.variant), 32, theme.TEXT_DIM, width=room)
    if standings.winners:
        names = tr("Winner: {names}").format(names=winner_names(tr, view))
        text(canvas, (left, 218), names, 42, bold=True, width=room)
    # The table itself, on a darker card.
    draw.rounded_rectangle(
        (CARD, FINAL_TOP - 20, FINAL_WIDTH - CARD, FINAL_TOP + FINAL_ROW * len(view.players)),
        24,
        fill=theme.PANEL,
    )
    penalties = view.rules.penalty_scoring
    column = tr("Penalties") if penalties else tr("Points")
    text(canvas, (SCORE_X, FINAL_TOP - 34), column, 26, theme.TEXT_DIM, anchor="rs", width=200)
    y = FINAL_TOP
    for seat in final_order(view):
        _draw_row(canvas, draw, view, tr, seat, y, seat in forfeited)
        if changes and seat in changes:  # under the points, named: it is not a score
            change = changes[seat]
            color = theme.GREEN if change > 0 else theme.RED if change < 0 else theme.TEXT_DIM
            label = tr("rating {change}").format(change=signed(change))
            text(canvas, (SCORE_X, y + 89), label, 26, color, True, anchor="rs")
        y += FINAL_ROW
    if layout.grid is not None:
        _draw_grid(canvas, draw, view, layout.grid)
    draw_lines(canvas, layout.footer)
    return canvas


def _draw_grid(
    canvas: Image.Image, draw: ImageDraw.ImageDraw, view: SeatView, grid: GridLayout
) -> None:
    draw.rounded_rectangle((CARD, grid.top, FINAL_WIDTH - CARD, grid.bottom), 24, fill=theme.PANEL)
    draw_lines(canvas, [grid.title])
    for number, (top, _, highlighted) in enumerate(grid.rows):
        fill = (46, 60, 44) if highlighted else theme.PANEL_ROW if number % 2 else None
        if fill is not None:
            draw.rounded_rectangle(
                (CARD + 12, top, FINAL_WIDTH - CARD - 12, top + GRID_ROW), 12, fill=fill
            )
    for seat, medal_top, name in grid.labels:
        place = view.standings.places[seat]
        sprites.medal(place, GRID_MEDAL).paste(canvas, GRID_LEFT, medal_top)
        digit = theme.PANEL if place <= 3 else theme.TEXT
        text(
            canvas,
            (GRID_LEFT + GRID_MEDAL / 2, medal_top + GRID_MEDAL / 2),
            str(place),
            20,
            digit,
            True,
            "mm",
        )
        text(
            canvas,
            (name.x, name.baseline),
            name.words,
            name.size,
            name.fill,
            name.bold,
            width=name.room,
        )
    for item in grid.texts:
        x = item.left
        x += text(canvas, (x, item.baseline), item.words, item.size, item.fill, item.bold)
        if item.mark:
            text(
                canvas,
                (x + MARK_GAP, item.baseline),
                item.mark,
                item.size,
                item.mark_fill,
                item.bold,
            )


def _draw_row(
    canvas: Image.Image,
    draw: ImageDraw.ImageDraw,
    view: SeatView,
    tr: Translate,
    seat: int,
    y: int,
    left_the_game: bool,
) -> None:
    place = view.standings.places[seat]
    winner = seat in view.standings.winners
    if winner:
        draw.rounded_rectangle(
            (52, y + 6, FINAL_WIDTH - 52, y + FINAL_ROW - 6), 18, fill=(46, 60, 44)
        )
    sprites.medal(place, 60).paste(canvas, 80, y + 20)
    digit = theme.PANEL if place <= 3 else theme.TEXT
    text(canvas, (110, y + 52), str(place), 30, digit, True, "mm")
    note, note_color = _note(view, tr, seat, left_the_game)
    note_w = length(note, 30, True) + 32 if note else 0
    right = SCORE_X - 120 - 170
    name = player_name(tr, view, seat)
    color = theme.GOLD if winner else theme.TEXT
    went_out = seat in view.out and view.rules.play_on_after_out
    name_room = right - (note_w + 24 if note else 0) - (40 if went_out else 0)
    x = 170 + text(canvas, (170, y + 62), name, 40, color, winner, width=name_room)
    if went_out:  # twolane: went out (ranked before those still holding tiles)
        check(draw, x + 16, y + 46, theme.GREEN)
        x += 40
    if note:
        draw.rounded_rectangle((x + 24, y + 28, x + 24 + note_w, y + 74), 22, fill=note_color)
        text(canvas, (x + 24 + note_w / 2, y + 52), note, 30, theme.PANEL, True, "mm")
    text(canvas, (SCORE_X, y + 58), str(view.totals[seat]), 48, bold=True, anchor="rs")


def _note(view: SeatView, tr: Translate, seat: int, left_the_game: bool) -> tuple[str, theme.RGB]:
    """The badge after a name: left the game, the fives winner's record, a muggins loser."""
    standings = view.standings
    if left_the_game:
        return tr("Left the game"), theme.TEXT_DIM
    record = shown_record(view)
    if record is not None and seat in standings.winners:
        return tr("Record: {points}").format(points=signed(record)), theme.GOLD
    if seat in standings.losers:
        return tr("Lost"), theme.RED
    return "", theme.TEXT
