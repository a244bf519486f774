"""A match told round by round: what each seat scored in each round, and how it ended.

The final picture draws it as a grid and the final caption as one line per round;
both take it from here. `twolane` is a single round: its grid is what decides the
places instead (passes, the order of going out, the tiles and pips left).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bot.render.words.marks import BLOCKED_MARK, OUT_MARK, TARGET_MARK, Mark
from bot.render.words.naming import Translate, identity, signed
from engine.view import RoundSummary, SeatView


@dataclass(frozen=True, slots=True)
class Cell:
    """One seat's entry in a column: a number, and a mark after it."""

    text: str
    mark: str = ""  # OUT_MARK: this seat ran out of tiles
    quiet: bool = False  # nothing scored: drawn dim


@dataclass(frozen=True, slots=True)
class Column:
    header: str  # the round's number, or what the column counts
    mark: str  # after the header: BLOCKED_MARK, TARGET_MARK
    cells: tuple[Cell, ...]  # by seat


@dataclass(frozen=True, slots=True)
class MatchGrid:
    title: str
    columns: tuple[Column, ...]
    total_header: str
    totals: tuple[str, ...]  # by seat
    rounds: bool  # one column per round (equal widths, so wrapped blocks line up)


def final_order(view: SeatView) -> list[int]:
    """Seats from the first place down (seat order within a shared place)."""
    return sorted(range(len(view.players)), key=lambda s: (view.standings.places[s], s))


def round_mark(summary: RoundSummary) -> str:
    """How a round ended, as its column's mark: blocked, or cut short by the target."""
    return {"blocked": BLOCKED_MARK, "target": TARGET_MARK}.get(summary.end, "")


def went_out(summary: RoundSummary, seat: int) -> bool:
    return summary.end == "out" and summary.out == seat


def match_grid(view: SeatView, tr: Translate = identity) -> MatchGrid:
    """The grid of the final table (no columns when no round has finished yet)."""
    seats = range(len(view.players))
    rules = view.rules
    if not rules.penalty_scoring:
        columns = tuple(
            Column(
                str(summary.number),
                round_mark(summary),
                tuple(
                    Cell(
                        str(summary.points[seat]),
                        OUT_MARK if went_out(summary, seat) else "",
                        quiet=not summary.points[seat] and not went_out(summary, seat),
                    )
                    for seat in seats
                ),
            )
            for summary in view.finished_rounds
        )
        totals = tuple(str(view.totals[seat]) for seat in seats)
        return MatchGrid(tr("Round by round"), columns, tr("Total"), totals, rounds=True)
    last = view.last_round
    if last is None:
        return MatchGrid("", (), tr("Penalties"), (), rounds=False)
    penalty = rules.pass_penalty or 1
    order = {seat: place for place, seat in enumerate(view.out, start=1)}
    pips = [sum(t.pips for t in hand) for hand in last.hands_left]
    passes = Column(
        tr("Passes"),
        "",
        tuple(
            Cell(str(last.penalties[seat] // penalty), quiet=not last.penalties[seat])
            for seat in seats
        ),
    )
    out = Column(
        tr("Out"),
        "",
        tuple(
            Cell(str(order[seat]), OUT_MARK) if seat in order else Cell("—", quiet=True)
            for seat in seats
        ),
    )
    tiles = Column(tr("Tiles"), "", tuple(Cell(str(len(last.hands_left[s]))) for s in seats))
    left = Column(tr("Pips"), "", tuple(Cell(str(pips[seat])) for seat in seats))
    totals = tuple(str(view.totals[seat]) for seat in seats)
    title = tr("How the places came about")
    return MatchGrid(title, (passes, out, tiles, left), tr("Penalties"), totals, rounds=False)


def grid_marks(grid: MatchGrid) -> set[Mark]:
    """The marks the grid shows, for the legend."""
    shown = {cell.mark for column in grid.columns for cell in column.cells}
    shown |= {column.mark for column in grid.columns}
    found = {BLOCKED_MARK: Mark.BLOCKED, TARGET_MARK: Mark.TARGET, OUT_MARK: Mark.OUT}
    return {mark for sign, mark in found.items() if sign in shown}


def round_line(
    tr: Translate,
    view: SeatView,
    summary: RoundSummary,
    order: list[int],
    name_of: Callable[[int], str],
    markup: Callable[[str], str] = identity,
) -> str:
    """One round in a line: «Кон 3: Андрей +8 ✓, Ирина +4» (the seats that scored, or
    went out, in `order`; a blocked or cut-short round's mark after its number)."""
    head = markup(tr("Round {number}").format(number=summary.number))
    mark = round_mark(summary)
    entries = [
        f"{name_of(seat)} {signed(summary.points[seat])}"
        + (f" {OUT_MARK}" if went_out(summary, seat) else "")
        for seat in order
        if summary.points[seat] or went_out(summary, seat)
    ]
    return f"{head}{' ' + mark if mark else ''}: {', '.join(entries) or '—'}"
