"""Where everything on the final table's picture goes: the seats' order, the per-round
grid in blocks of columns, the rounds played and the legend under it. Pure geometry
and measured words; `bot.render.final.final_picture` draws it."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from bot.render.kit import theme
from bot.render.kit.draw import length
from bot.render.kit.lines import Line, Paragraph, stack
from bot.render.words.marks import Mark, legend, shown_record
from bot.render.words.naming import Translate, identity, player_name
from bot.render.words.rounds import MatchGrid, final_order, grid_marks, match_grid
from engine.view import SeatView

FINAL_WIDTH = 1280
FINAL_TOP = 300
FINAL_ROW = 100
CARD = 40  # the cards' left margin (and right)
SCORE_X = FINAL_WIDTH - 90  # the points' right edge, in the table and the grid
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


def picture_marks(
    view: SeatView, grid: MatchGrid, changes: dict[int, int] | None, forfeited: Collection[int]
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
    y = FINAL_TOP + FINAL_ROW * len(view.players)
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
    lines, end = stack(paragraphs, FINAL_WIDTH // 2, y + 66, FINAL_WIDTH - 2 * CARD - 20, "ms")
    return FinalLayout(round(end), grid_layout, tuple(lines), marks)


def _cell_width(words: str, mark: str, size: int, bold: bool) -> float:
    width = length(words, size, bold)
    return width + (MARK_GAP + length(mark, size, bold) if mark else 0)


def _grid_layout(view: SeatView, tr: Translate, grid: MatchGrid, top: int) -> GridLayout:
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
        FINAL_WIDTH - 2 * GRID_LEFT,
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
