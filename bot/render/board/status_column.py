"""The panel's right column: whose turn it is or how the round ended, the ends' count,
and the latest moves with the ends they went to."""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image

from bot.render.kit import sprites, theme
from bot.render.kit.draw import length, text
from bot.render.kit.fonts import font, wrap
from bot.render.kit.lines import Line, Paragraph, draw_lines, stack
from bot.render.layout.board_geometry import (
    BOARD_HEIGHT,
    PANEL_MARGIN,
    PICTURE_HEIGHT,
    PICTURE_WIDTH,
)
from bot.render.words.ends import EndName, end_names, names_or_own
from bot.render.words.history import names_at
from bot.render.words.move_words import (
    LEFT_OUT,
    RecentAction,
    action_points,
    action_words,
    count_parts,
    play_parts,
    recent_actions,
    scores,
    term_text,
)
from bot.render.words.naming import Translate, identity, player_name, winner_names
from bot.render.words.round_end import round_end_points, round_end_words
from engine.tiles import End
from engine.view import SeatView

ACTION_SIZE = 30  # the panel's recent moves
ACTION_MARK = 34  # an end's mark in them
STATUS_LEFT = 690
STATUS_WIDTH = PICTURE_WIDTH - PANEL_MARGIN - STATUS_LEFT
COUNT_SIZES = (40, 36, 32, 28, 24)
COUNT_MARK_GAP = 6  # after an end's mark in the count
STATUS_TOP = BOARD_HEIGHT + 88  # the status column, right of the players
STATUS_RIGHT = STATUS_LEFT + STATUS_WIDTH
STATUS_BOTTOM = PICTURE_HEIGHT - 10  # no ink below this
# How a round's end is tried in the status column until it fits: (the shorter forms,
# the size, what is kept). The last ones leave out why the round ended, then what it
# gave: only at the end of a game whose long names crowd the column (the final table
# that follows tells the round whole).
STATUS_FORMS = (
    (False, 1.0, "all"),
    (False, 0.9, "all"),
    (True, 1.0, "all"),
    (True, 0.9, "all"),
    (True, 0.8, "all"),
    (True, 0.8, "points"),
    (True, 0.8, "reason"),
    (True, 0.8, "heading"),
)


@dataclass(frozen=True, slots=True)
class StatusLayout:
    """The status column's texts when a round or the game is over, and the baseline
    where the rest of the column (the last moves) may go on."""

    lines: tuple[Line, ...]
    next_y: float


def status_layout(view: SeatView, tr: Translate = identity) -> StatusLayout | None:
    """Why the round or the game ended and who got what for it, measured and wrapped
    to the status column: never cut, and kept above the picture's bottom by trying
    shorter forms and smaller sizes in turn (None: the round is still being played)."""
    last = view.last_round
    ended = view.turn is None and last is not None and last.number == view.round_number
    if not view.over and not ended:
        return None
    lines: list[Line] = []
    y = 0.0
    for compact, factor, kept in STATUS_FORMS:
        shown = _status_paragraphs(view, tr, compact, kept)
        paragraphs = [p.scaled(factor) for p in shown]
        lines, y = stack(paragraphs, STATUS_LEFT, STATUS_TOP + 40, STATUS_WIDTH)
        if all(line.bottom <= STATUS_BOTTOM for line in lines):
            break
    return StatusLayout(tuple(lines), y)


def _status_paragraphs(
    view: SeatView, tr: Translate, compact: bool, kept: str = "all"
) -> list[Paragraph]:
    """`kept`: "all"; "points" (not why the round ended); "reason" (not what it gave);
    "heading" (neither)."""
    last = view.last_round
    paragraphs: list[Paragraph] = []
    reason = round_end_words(tr, view, last.end, last.out) if last else ""
    if kept in ("points", "heading"):
        reason = ""
    if view.over:
        line = tr("Winner: {names}").format(names=winner_names(tr, view))
        if compact:  # one paragraph, closer to what follows
            line = f"{tr('Game over')} · {line}"
            paragraphs.append(Paragraph(line, 32, theme.GOLD, True, leading=38, step=46))
        else:
            paragraphs.append(Paragraph(tr("Game over"), 42, theme.GOLD, True, step=50))
            paragraphs.append(Paragraph(line, 32, theme.TEXT, True, leading=40, step=58))
        if reason:
            paragraphs.append(Paragraph(reason, 28, leading=34, step=40))
    elif last is not None:
        heading = tr("Round {number} is over").format(number=last.number)
        paragraphs.append(Paragraph(heading, 40, theme.GOLD, True, step=48 if reason else 106))
        if reason:
            paragraphs.append(Paragraph(reason, 30, leading=36, step=58))
    if last is not None and last.number == view.round_number and kept in ("all", "points"):
        notes = round_end_points(tr, view, last, compact=compact)
        paragraphs += [Paragraph(note, 26, theme.GOLD, leading=32, step=38) for note in notes]
        if notes:  # a little air before the last moves
            end = paragraphs[-1]
            paragraphs[-1] = Paragraph(end.words, end.size, end.fill, end.bold, 32, 48)
    return paragraphs


def draw_status(
    canvas: Image.Image,
    view: SeatView,
    tr: Translate,
    left: int,
    top: int,
    right: int,
    banner: str = "",
) -> None:
    """The column between `left` and `right`: the banner, the round's end or whose turn
    it is; then the ends' count and the latest moves, as far as there is room."""
    width = right - left
    y: float = top + 40
    status = None if banner else status_layout(view, tr)
    if banner:
        for line in wrap(banner, font(32, True), width, 3):  # a name is 40 characters at most
            text(canvas, (left, y), line, 32, theme.GOLD, True, width=width)
            y += 42
        y += 12
    elif status is not None:
        draw_lines(canvas, status.lines)
        y = status.next_y
    elif view.turn is not None:
        line = tr("Turn: {name}").format(name=player_name(tr, view, view.turn))
        text(canvas, (left, y), line, 42, theme.TURN, True, width=width)
        y += 66
    if status is None and view.rules.scores_plays and view.table.opening is not None:
        y = _draw_count(canvas, view, tr, left, round(y), width)
    actions = recent_actions(view, 2 if y < top + 200 else 1)
    named = _names_before(view, actions)
    for action in actions:
        if y + 44 > canvas.height:  # no room left in the panel
            break
        who = player_name(tr, view, action.seat)
        points = action_points(view, action)
        room = width - 90
        if action.text in ("draw", "pass"):
            drawn = text(
                canvas, (left, y), f"{who}: {action_words(tr, view, action)}", 30, width=room
            )
        else:
            drawn = _draw_play(canvas, left, y, who, action.text, named.get(action.index), room)
        if points:
            text(canvas, (left + drawn + 14, y), points, 30, theme.GOLD, True)
        y += 44


def _names_before(view: SeatView, actions: list[RecentAction]) -> dict[int, dict[End, EndName]]:
    """The ends' names just before each play among `actions`, by the play's index."""
    plays = [a.index for a in actions if a.text not in ("draw", "pass")]
    return names_at(view.variant, [entry.text for entry in view.moves], plays)


def _draw_play(
    canvas: Image.Image,
    left: int,
    y: float,
    who: str,
    play: str,
    names: dict[End, EndName] | None,
    room: float,
) -> float:
    """«Ирина: 6:6 (disc)»: the tiles of a play, each followed by its end's mark, drawn
    as the board draws it (the fonts have no emoji). Returns the width drawn."""
    size, mark, gap = ACTION_SIZE, ACTION_MARK, 8
    parts = play_parts(play)
    joiner = " + "
    needed = sum(length(" " + tile, size) for tile, _ in parts)
    needed += length(joiner, size) * (len(parts) - 1)
    needed += sum(gap + mark for _, end in parts if end is not None)
    x = left + text(canvas, (left, y), f"{who}:", size, width=max(40.0, room - needed))
    for i, (tile, end) in enumerate(parts):
        if i:
            x += text(canvas, (x, y), joiner, size)
        x += text(canvas, (x, y), " " + tile, size)
        if end is not None:
            sprite = sprites.name_mark(names_or_own(names, end), mark)
            sprite.paste(canvas, round(x + gap + mark // 2), round(y) - 10)
            x += gap + mark
    return x - left


def count_size(
    before: str, arithmetic: str, after: str, width: float, marks: int = 0
) -> int | None:
    """The largest font size at which the count fits on one line (None: it needs two),
    `marks` ends' marks drawn in it.

    The sum itself is never cut.
    """
    for size in COUNT_SIZES:
        small = size - 4
        needed = length(before, small) + length(arithmetic, size, True) + length(after, small)
        if needed + marks * (_mark(size) + COUNT_MARK_GAP) <= width:
            return size
    return None


def _mark(size: int) -> int:
    """An end's mark beside a count written at `size`."""
    return round(size * 0.9)


def _draw_count(
    canvas: Image.Image, view: SeatView, tr: Translate, left: int, y: int, width: int
) -> int:
    parts = count_parts(view)
    if parts is None:
        message = tr("Ends count once all four arms are taken")
        for line in wrap(message, font(28), width, 2):
            text(canvas, (left, y - 4), line, 28, theme.TEXT_DIM)
            y += 36
        return y + 20
    # Each counted end after its mark, a double by its two halves where both count
    # («4+4»): the sum can be checked against the picture.
    names = end_names(view.table, view.variant)
    counted = [part for part in parts if part.counted]
    terms = [(part.end, term_text(part)) for part in counted]
    total = sum(part.adds for part in counted)
    tail = f" = {total}" if len(terms) > 1 or terms[0][1] != str(total) else ""
    arithmetic = " + ".join(term for _, term in terms) + tail
    marks = sum(1 for end, _ in terms if end is not None)
    before, _, after = tr("Ends: {sum}").partition("{sum}")
    color = theme.GOLD if scores(tuple(part.adds for part in counted)) else theme.TEXT
    size = count_size(before, arithmetic, after, width, marks)
    if size is None:  # a long label: on its own line, the sum below it
        label = f"{before.strip()} … {after.strip()}".strip(" …")
        text(canvas, (left, y - 10), label, 26, theme.TEXT_DIM, width=width)
        size = count_size("", arithmetic, "", width, marks) or COUNT_SIZES[-1]
        _draw_terms(canvas, names, terms, tail, left, y + 32, size, color)
        y += 84
    else:
        x = left + text(canvas, (left, y), before, size - 4)
        x = _draw_terms(canvas, names, terms, tail, x, y, size, color)
        if after:
            text(canvas, (x, y), after, size - 4)
        y += 60
    for part in parts:  # the open ends the count leaves out, and why
        if part.counted or part.end is None:
            continue
        mark, base = 26, y - 14
        sprites.name_mark(names_or_own(names, part.end), mark).paste(canvas, left + 13, base - 9)
        words = tr(LEFT_OUT).format(end=part.value)
        text(canvas, (left + mark + 8, base), words, 24, theme.TEXT_DIM, width=width - mark - 8)
        y += 34
    return y


def _draw_terms(
    canvas: Image.Image,
    names: dict[End, EndName],
    terms: list[tuple[End | None, str]],
    tail: str,
    x: float,
    y: float,
    size: int,
    color: theme.RGB,
) -> float:
    """«(mark) 4+4 + (mark) 1 = 5» from `x` on the baseline `y`; returns where it ends."""
    mark = _mark(size)
    for index, (end, term) in enumerate(terms):
        if index:
            x += text(canvas, (x, y), " + ", size, color, True)
        if end is not None:
            sprite = sprites.name_mark(names_or_own(names, end), mark)
            sprite.paste(canvas, round(x + mark / 2), round(y - size * 0.36))
            x += mark + COUNT_MARK_GAP
        x += text(canvas, (x, y), term, size, color, True)
    if tail:
        x += text(canvas, (x, y), tail, size, color, True)
    return x
