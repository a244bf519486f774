"""The final table: places, names and points, the match round by round, and what every
mark on it means, for the group to keep."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.render import sprites, theme
from bot.render.draw import check, felt, length, text
from bot.render.lines import Line, Paragraph, draw_lines, stack
from bot.render.picture import Picture, encode
from bot.render.rounds import Grid, grid_marks, match_grid
from bot.render.words import (
    Mark,
    Translate,
    identity,
    legend,
    player_name,
    shown_record,
    signed,
    variant_title,
    winner_names,
)
from engine.view import SeatView

WIDTH = 1280
TOP = 300
ROW = 100
CARD = 40  # the cards' left margin (and right)
SCORE_X = WIDTH - 90  # the points' right edge, in the table and the grid
# The per-round grid.
GRID_LEFT = 64
GRID_MEDAL = 34
LABEL_ROOM = 230  # a name in the grid's rows (whole in the table above, if it fits there)
CELLS_LEFT = GRID_LEFT + GRID_MEDAL + 12 + LABEL_ROOM + 16
CELL_SIZE = 30
HEAD_SIZE = 26
CELL_GAP = 18  # at least this much air beside a cell's text
MIN_CELL = 56
MARK_GAP = 5  # between a cell's number and its mark
HEAD_ROW = 40
GRID_ROW = 46
BLOCK_GAP = 22
LEGEND_SIZE = 26


@dataclass(frozen=True, slots=True)
class GridText:
    """One text of the grid: a column's header, a seat's cell or a total, centred on
    `x` and drawn whole; `room` is its column's width."""

    seat: int | None  # None: a header
    column: int | None  # the grid column; None: the totals
    words: str
    mark: str
    size: int
    x: float
    baseline: float
    room: float
    fill: theme.RGB = theme.TEXT
    bold: bool = False
    mark_fill: theme.RGB = theme.GREEN

    @property
    def width(self) -> float:
        return _cell_width(self.words, self.mark, self.size, self.bold)

    @property
    def left(self) -> float:
        return self.x - self.width / 2


@dataclass(frozen=True, slots=True)
class GridLayout:
    """Where the grid goes: its card, its title, the rows' labels and every text."""

    top: int
    bottom: int
    title: Line
    labels: tuple[tuple[int, int, Line], ...]  # (seat, medal's top, its name)
    texts: tuple[GridText, ...]
    rows: tuple[tuple[int, int, bool], ...]  # (top, seat, highlighted) of every row drawn
    blocks: int


@dataclass(frozen=True, slots=True)
class FinalLayout:
    height: int
    grid: GridLayout | None
    footer: tuple[Line, ...]  # the rounds played, and the legend
    marks: frozenset[Mark]


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


def final_order(view: SeatView) -> list[int]:
    """Seats from the first place down (seat order within a shared place)."""
    return sorted(range(len(view.players)), key=lambda s: (view.standings.places[s], s))


def picture_marks(
    view: SeatView, grid: Grid, changes: dict[int, int] | None, forfeited: Collection[int]
) -> frozenset[Mark]:
    """Every mark the picture shows, so that the legend explains each once."""
    marks = set(grid_marks(grid))
    marks.add(Mark.PENALTY_PLACES if view.rules.penalty_scoring else Mark.PLACES)
    if view.out and view.rules.play_on_after_out:  # the ✓ after a name
        marks.add(Mark.OUT)
    if shown_record(view) is not None:
        marks.add(Mark.RECORD)
    if view.standings.losers:
        marks.add(Mark.LOST)
    if any(seat in forfeited for seat in range(len(view.players))):
        marks.add(Mark.FORFEIT)
    if changes and any(seat in changes for seat in range(len(view.players))):
        marks.add(Mark.RATING)
    return frozenset(marks)


def final_layout(
    view: SeatView,
    tr: Translate = identity,
    changes: dict[int, int] | None = None,
    forfeited: Collection[int] = (),
) -> FinalLayout:
    """The geometry under the table: the grid, the rounds played and the legend."""
    grid = match_grid(view, tr)
    y = TOP + ROW * len(view.players)
    grid_layout = None
    if grid.columns:
        grid_layout = _grid_layout(view, tr, grid, y + 36)
        y = grid_layout.bottom
    marks = picture_marks(view, grid, changes, forfeited)
    paragraphs = []
    if grid.rounds:
        footer = tr("Rounds played: {count}").format(count=len(view.finished_rounds))
        paragraphs.append(Paragraph(footer, 30, theme.TEXT_DIM, leading=38, step=48))
    paragraphs += [
        Paragraph(note, LEGEND_SIZE, theme.TEXT_DIM, leading=34, step=42)
        for note in legend(tr, marks, view.target)
    ]
    lines, end = stack(paragraphs, WIDTH // 2, y + 66, WIDTH - 2 * CARD - 20, "ms")
    return FinalLayout(round(end), grid_layout, tuple(lines), marks)


def _cell_width(words: str, mark: str, size: int, bold: bool) -> float:
    width = length(words, size, bold)
    return width + (MARK_GAP + length(mark, size, bold) if mark else 0)


def _grid_layout(view: SeatView, tr: Translate, grid: Grid, top: int) -> GridLayout:
    """The grid's columns in blocks, as many to a block as the width holds (rows: the
    players in final order; the totals at the end of the last block)."""
    order = final_order(view)
    winners = set(view.standings.winners)
    widths = [
        max(
            [_cell_width(column.header, column.mark, HEAD_SIZE, False)]
            + [_cell_width(cell.text, cell.mark, CELL_SIZE, False) for cell in column.cells]
        )
        + CELL_GAP
        for column in grid.columns
    ]
    if grid.rounds:  # equal widths: the blocks' columns line up
        widths = [max(max(widths), MIN_CELL)] * len(widths)
    total_width = (
        max(
            [length(grid.total_header, HEAD_SIZE)]
            + [length(total, CELL_SIZE, True) for total in grid.totals]
        )
        + CELL_GAP
    )
    blocks = _blocks(widths, SCORE_X - CELLS_LEFT, SCORE_X - total_width - 12 - CELLS_LEFT)
    title_size = 30
    title = Line(
        grid.title,
        title_size,
        GRID_LEFT,
        top + 44,
        WIDTH - 2 * GRID_LEFT,
        theme.TEXT_DIM,
        True,
    )
    labels: list[tuple[int, int, Line]] = []
    texts: list[GridText] = []
    rows: list[tuple[int, int, bool]] = []
    y = top + 64
    for number, block in enumerate(blocks):
        last = number == len(blocks) - 1
        x = float(CELLS_LEFT)
        centres = []
        for index in block:
            centres.append(x + widths[index] / 2)
            x += widths[index]
        head = y + 28
        for index, cx in zip(block, centres, strict=True):
            column = grid.columns[index]
            texts.append(
                GridText(
                    None,
                    index,
                    column.header,
                    column.mark,
                    HEAD_SIZE,
                    cx,
                    head,
                    widths[index],
                    theme.TEXT_DIM,
                    mark_fill=theme.GOLD,
                )
            )
        total_x = SCORE_X - total_width / 2
        if last:
            texts.append(
                GridText(
                    None,
                    None,
                    grid.total_header,
                    "",
                    HEAD_SIZE,
                    total_x,
                    head,
                    total_width,
                    theme.TEXT_DIM,
                )
            )
        row_top = y + HEAD_ROW
        for seat in order:
            rows.append((row_top, seat, seat in winners))
            baseline = row_top + 33
            name = player_name(tr, view, seat)
            color = theme.GOLD if seat in winners else theme.TEXT
            labels.append(
                (
                    seat,
                    row_top + (GRID_ROW - GRID_MEDAL) // 2,
                    Line(name, 28, GRID_LEFT + GRID_MEDAL + 12, baseline, LABEL_ROOM, color),
                )
            )
            for index, cx in zip(block, centres, strict=True):
                cell = grid.columns[index].cells[seat]
                fill = theme.TEXT_DIM if cell.quiet else theme.TEXT
                texts.append(
                    GridText(
                        seat,
                        index,
                        cell.text,
                        cell.mark,
                        CELL_SIZE,
                        cx,
                        baseline,
                        widths[index],
                        fill,
                    )
                )
            if last:
                texts.append(
                    GridText(
                        seat,
                        None,
                        grid.totals[seat],
                        "",
                        CELL_SIZE,
                        total_x,
                        baseline,
                        total_width,
                        color,
                        True,
                    )
                )
            row_top += GRID_ROW
        y = row_top + BLOCK_GAP
    bottom = y - BLOCK_GAP + 16
    return GridLayout(top, bottom, title, tuple(labels), tuple(texts), tuple(rows), len(blocks))


def _blocks(widths: list[float], room: float, last_room: float) -> list[list[int]]:
    """The columns (by index) in blocks of at most `room` px, the last block's at most
    `last_room` (the totals follow it)."""
    blocks: list[list[int]] = [[]]
    used = 0.0
    for index, width in enumerate(widths):
        if blocks[-1] and used + width > room:
            blocks.append([])
            used = 0.0
        blocks[-1].append(index)
        used += width
    spill: list[int] = []
    while sum(widths[i] for i in blocks[-1]) > last_room and len(blocks[-1]) > 1:
        spill.insert(0, blocks[-1].pop())
    if spill:
        blocks.append(spill)
    return blocks


def draw_final(
    view: SeatView,
    tr: Translate = identity,
    changes: dict[int, int] | None = None,
    forfeited: Collection[int] = (),
) -> Image.Image:
    layout = final_layout(view, tr, changes, forfeited)
    canvas = felt(WIDTH, layout.height).copy()
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
        (CARD, TOP - 20, WIDTH - CARD, TOP + ROW * len(view.players)), 24, fill=theme.PANEL
    )
    penalties = view.rules.penalty_scoring
    column = tr("Penalties") if penalties else tr("Points")
    text(canvas, (SCORE_X, TOP - 34), column, 26, theme.TEXT_DIM, anchor="rs", width=200)
    y = TOP
    for seat in final_order(view):
        _draw_row(canvas, draw, view, tr, seat, y, seat in forfeited)
        if changes and seat in changes:  # under the points, named: it is not a score
            change = changes[seat]
            color = theme.GREEN if change > 0 else theme.RED if change < 0 else theme.TEXT_DIM
            label = tr("rating {change}").format(change=signed(change))
            text(canvas, (SCORE_X, y + 89), label, 26, color, True, anchor="rs")
        y += ROW
    if layout.grid is not None:
        _draw_grid(canvas, draw, view, layout.grid)
    draw_lines(canvas, layout.footer)
    return canvas


def _draw_grid(
    canvas: Image.Image, draw: ImageDraw.ImageDraw, view: SeatView, grid: GridLayout
) -> None:
    draw.rounded_rectangle((CARD, grid.top, WIDTH - CARD, grid.bottom), 24, fill=theme.PANEL)
    draw_lines(canvas, [grid.title])
    for number, (top, _, highlighted) in enumerate(grid.rows):
        fill = (46, 60, 44) if highlighted else theme.PANEL_ROW if number % 2 else None
        if fill is not None:
            draw.rounded_rectangle(
                (CARD + 12, top, WIDTH - CARD - 12, top + GRID_ROW), 12, fill=fill
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
        draw.rounded_rectangle((52, y + 6, WIDTH - 52, y + ROW - 6), 18, fill=(46, 60, 44))
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
