"""The group's picture: the table with its tiles, and a panel with the game's state."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from PIL import Image, ImageDraw

from bot.render import sprites, theme
from bot.render.draw import check, felt, length, text
from bot.render.ends import COLOURS, EndName, end_names, names_or_own
from bot.render.fonts import font, wrap
from bot.render.history import names_before
from bot.render.layout import (
    BOARD_HEIGHT,
    BOARD_WIDTH,
    BoardLayout,
    EndMark,
    TileBox,
    board_layout,
)
from bot.render.lines import Line, Paragraph, draw_lines, stack
from bot.render.picture import BOARD_QUALITY, Picture, encode
from bot.render.words import (
    Action,
    Translate,
    action_points,
    action_words,
    count_sum,
    identity,
    play_parts,
    player_name,
    recent_actions,
    round_end_points,
    round_end_words,
    scores,
    signed,
    variant_title,
    winner_names,
)
from engine.tiles import End
from engine.view import SeatView

PANEL_HEIGHT = 380
WIDTH = BOARD_WIDTH
HEIGHT = BOARD_HEIGHT + PANEL_HEIGHT
# twolane's lanes: darker shades of their ends' colours (`bot.render.ends`), so
# that the ends' discs still stand out on them.
LANE_COLORS = {End.W: (30, 80, 146), End.E: (150, 82, 22)}
ACTION_SIZE = 30  # the panel's recent moves
ACTION_MARK = 34  # an end's mark in them
LANE_PAD = 9
MARGIN = 28  # the panel's left and right margins
PLAYERS_RIGHT = 640  # the players' table ends here; the state column starts after it
STATUS_LEFT = 690
STATUS_WIDTH = WIDTH - MARGIN - STATUS_LEFT
COUNT_SIZES = (40, 36, 32, 28, 24)
STATUS_TOP = BOARD_HEIGHT + 88  # the status column, right of the players
STATUS_RIGHT = STATUS_LEFT + STATUS_WIDTH
STATUS_BOTTOM = HEIGHT - 10  # no ink below this
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
POINTS_GAP = "   "  # between the players' points for the round, under a new round's number


def render_board(view: SeatView, tr: Translate = identity, banner: str = "") -> Picture:
    """The table as everyone sees it, with whose turn it is, scores and the count.

    `banner`: how a game that ended before its end ended, said where the turn would be.
    """
    return encode(draw_board(view, tr, banner), "board", BOARD_QUALITY)


def draw_board(view: SeatView, tr: Translate = identity, banner: str = "") -> Image.Image:
    canvas = _background().copy()
    lanes = view.rules.lanes
    layout = board_layout(view.table, lanes=lanes)
    if lanes and layout.center is not None:
        _draw_lanes(canvas, layout, tr)
    _draw_tiles(canvas, layout, end_marks(view))
    if not layout.boxes:
        _draw_empty_table(canvas, view, tr)
    _draw_panel(canvas, view, tr, BOARD_HEIGHT, banner)
    return canvas


@cache
def _background() -> Image.Image:
    canvas = Image.new("RGB", (WIDTH, HEIGHT), theme.PANEL)
    canvas.paste(felt(BOARD_WIDTH, BOARD_HEIGHT), (0, 0))
    draw = ImageDraw.Draw(canvas)
    draw.rectangle((0, BOARD_HEIGHT, WIDTH, BOARD_HEIGHT + 4), fill=theme.PANEL_LINE)
    draw.line(
        (MARGIN, BOARD_HEIGHT + 76, WIDTH - MARGIN, BOARD_HEIGHT + 76),
        fill=theme.PANEL_LINE,
        width=2,
    )
    return canvas


def mark_size(tile: int) -> int:
    """The end marks' diameter, for tiles `tile` pixels long."""
    return round(tile * 0.4)


def end_marks(view: SeatView) -> list[tuple[EndMark, EndName]]:
    """Each open end's mark on the board: where it lies, and the name it shows (the
    end's colour, and the way the next tile there will be drawn)."""
    layout = board_layout(view.table, lanes=view.rules.lanes)
    names = end_names(view.table, view.variant)
    return [(mark, names_or_own(names, mark.end)) for mark in layout.marks]


def _draw_tiles(
    canvas: Image.Image, layout: BoardLayout, marks: list[tuple[EndMark, EndName]]
) -> None:
    long = layout.tile
    for box in layout.boxes:
        if box.last:
            sprites.glow(box.w, box.h, theme.LAST_GLOW).paste(canvas, box.x, box.y)
    # Shadows fall to the lower right: tiles further down and right go on top.
    for box in sorted(layout.boxes, key=lambda b: b.x + b.y):
        sprite = sprites.tile(box.first, box.second, box.vertical, long, hub=box.hub)
        sprite.paste(canvas, box.x, box.y)
    for mark, name in marks:
        sprites.name_mark(name, mark_size(layout.tile)).paste(canvas, mark.x, mark.y)


def _draw_lanes(canvas: Image.Image, layout: BoardLayout, tr: Translate) -> None:
    """twolane: each lane on its own coloured strip, with a labelled tab at the opening.

    The W lane snakes upwards and the E lane downwards, so the space below the
    W lane's first row and above the E lane's is free for the tabs.
    """
    draw = ImageDraw.Draw(canvas)
    center = layout.center
    assert center is not None
    pad = LANE_PAD
    middle = center.x + center.w // 2
    for end, color in LANE_COLORS.items():
        # The lane starts on its half of the opening.
        x0 = center.x if end is End.W else middle
        rects = [(x0, center.y, x0 + center.w // 2, center.y + center.h)]
        rects += [b.box for b in layout.rays.get(end, ())]
        mark = next((m for m in layout.marks if m.end is end), None)
        if mark is not None:
            r = mark_size(layout.tile) // 2
            rects.append((mark.x - r, mark.y - r, mark.x + r, mark.y + r))
        for left, top, right, bottom in _merge_rows(rects):
            draw.rounded_rectangle(
                (left - pad, top - pad, right + pad - 1, bottom + pad - 1), 12, fill=color
            )
        _draw_lane_tab(canvas, end, color, middle, center, tr)


def _draw_lane_tab(
    canvas: Image.Image, end: End, color: theme.RGB, middle: int, center: TileBox, tr: Translate
) -> None:
    """The lane's tab by the opening: a small disc of its end's colour and «Lane» (the
    way it runs is the end mark's to say: a lane that turned runs back)."""
    draw = ImageDraw.Draw(canvas)
    size, disc, pad = 26, 24, LANE_PAD
    label = tr("Lane")
    width = round(14 + disc + 10 + length(label, size, True) + 16)
    if end is End.W:  # below the W half of the opening, ending at its middle
        top, left = center.y + center.h, middle - width
        box = (left, top, middle, top + pad + 40)
        baseline = top + pad + 26
    else:  # above the E half, starting at its middle
        top, left = center.y - pad - 40, middle
        box = (left, top, middle + width, center.y)
        baseline = center.y - pad - 14
    draw.rounded_rectangle(box, 12, fill=color)
    colour = COLOURS[end]
    sprites.end_mark(colour.disc, colour.ink, None, disc).paste(
        canvas, left + 14 + disc // 2, baseline - 9
    )
    text(canvas, (left + 14 + disc + 10, baseline), label, size, bold=True)


def _merge_rows(rects: list[tuple[int, int, int, int]]) -> list[tuple[int, int, int, int]]:
    """Runs of rectangles in one row (same top and bottom, in order) as one rectangle each."""
    merged: list[tuple[int, int, int, int]] = []
    for rect in rects:
        if merged and merged[-1][1] == rect[1] and merged[-1][3] == rect[3]:
            left, top, right, bottom = merged[-1]
            merged[-1] = (min(left, rect[0]), top, max(right, rect[2]), bottom)
        else:
            merged.append(rect)
    return merged


def _draw_empty_table(canvas: Image.Image, view: SeatView, tr: Translate) -> None:
    """Before the opening: the round's number, and how the last round ended."""
    cx, cy = BOARD_WIDTH // 2, BOARD_HEIGHT // 2
    title = tr("Round {number}").format(number=view.round_number)
    text(canvas, (cx, cy - 20), title, 54, bold=True, anchor="ms")
    draw_lines(canvas, empty_table_layout(view, tr))


def empty_table_layout(view: SeatView, tr: Translate = identity) -> list[Line]:
    """Under a new round's number: how the last round ended and who got what for it,
    wrapped to the table's width (never cut)."""
    last = view.last_round
    if last is None or last.number != view.round_number - 1:
        return []
    heading = tr("Round {number} is over").format(number=last.number)
    reason = round_end_words(tr, view, last.end, last.out)
    line = heading + (f" · {reason}" if reason else "")
    paragraphs = [Paragraph(line, 32, theme.TEXT_DIM, leading=40, step=50)]
    parts = [
        f"{player_name(tr, view, seat)} {signed(points)}"
        for seat, points in enumerate(last.points)
        if points
    ]
    if parts:
        paragraphs.append(
            Paragraph(POINTS_GAP.join(parts), 32, theme.GOLD, True, 42, 50, POINTS_GAP)
        )
    paragraphs += [
        Paragraph(note, 28, leading=36, step=50) for note in round_end_points(tr, view, last)
    ]
    lines, _ = stack(paragraphs, BOARD_WIDTH // 2, BOARD_HEIGHT // 2 + 50, BOARD_WIDTH - 80, "ms")
    return lines


def _draw_panel(
    canvas: Image.Image, view: SeatView, tr: Translate, top: int, banner: str = ""
) -> None:
    # Header: the game, the round and the target; the boneyard on the right.
    y = top + 52
    boneyard = tr("Boneyard: {count}").format(count=view.boneyard_size)
    right = WIDTH - MARGIN
    boneyard_x = right - length(boneyard, 30)
    text(canvas, (right, y), boneyard, 30, anchor="rs")
    sprites.tile_back(34).paste(canvas, round(boneyard_x - 32), y - 30)
    room = boneyard_x - 60 - MARGIN
    head = variant_title(tr, view.variant)
    used = text(canvas, (MARGIN, y), head, 36, bold=True, width=room * 0.6)
    details = []
    if not view.rules.one_round:
        details.append(tr("Round {number}").format(number=view.round_number))
        if view.target is not None:
            details.append(tr("Target: {points}").format(points=view.target))
    if details:
        line = " · ".join(details)
        text(canvas, (MARGIN + used + 18, y), line, 30, theme.TEXT_DIM, width=room - used - 18)
    _draw_players(canvas, view, tr, 20, top + 88, PLAYERS_RIGHT)
    _draw_status(canvas, view, tr, STATUS_LEFT, top + 88, STATUS_LEFT + STATUS_WIDTH, banner)


def _draw_players(
    canvas: Image.Image, view: SeatView, tr: Translate, left: int, top: int, right: int
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
        drawn = text(canvas, (name_x, base), name, 32, color, turn, "ls", tiles_x - 70 - name_x)
        if seat in view.out:
            check(draw, name_x + drawn + 14, base - 12, theme.GREEN)
        sprites.tile_back(30).paste(canvas, tiles_x - 34, y + 14)
        text(canvas, (tiles_x - 10, base), str(view.hand_sizes[seat]), 30)
        text(canvas, (right - 12, base), str(view.totals[seat]), 34, bold=True, anchor="rs")
        y += row_h


@dataclass(frozen=True, slots=True)
class Status:
    """The status column's texts when a round or the game is over, and the baseline
    where the rest of the column (the last moves) may go on."""

    lines: tuple[Line, ...]
    next_y: float


def status_layout(view: SeatView, tr: Translate = identity) -> Status | None:
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
    return Status(tuple(lines), y)


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


def _draw_status(
    canvas: Image.Image,
    view: SeatView,
    tr: Translate,
    left: int,
    top: int,
    right: int,
    banner: str = "",
) -> None:
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


def _names_before(view: SeatView, actions: list[Action]) -> dict[int, dict[End, EndName]]:
    """The ends' names just before each play among `actions`, by the play's index."""
    plays = [a.index for a in actions if a.text not in ("draw", "pass")]
    if not plays:
        return {}
    moves = [entry.text for entry in view.moves]
    first = min(plays)
    found = names_before(view.variant, moves[: max(plays) + 1], first)
    return {index: found[index - first] for index in plays}


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


def count_size(before: str, arithmetic: str, after: str, width: float) -> int | None:
    """The largest font size at which the count fits on one line (None: it needs two).

    The sum itself is never cut.
    """
    for size in COUNT_SIZES:
        small = size - 4
        needed = length(before, small) + length(arithmetic, size, True) + length(after, small)
        if needed <= width:
            return size
    return None


def _draw_count(
    canvas: Image.Image, view: SeatView, tr: Translate, left: int, y: int, width: int
) -> int:
    terms = view.count_terms
    if terms is None:
        message = tr("Ends count once all four arms are taken")
        for line in wrap(message, font(28), width, 2):
            text(canvas, (left, y - 4), line, 28, theme.TEXT_DIM)
            y += 36
        return y + 20
    before, _, after = tr("Ends: {sum}").partition("{sum}")
    arithmetic = count_sum(terms)
    color = theme.GOLD if scores(terms) else theme.TEXT
    size = count_size(before, arithmetic, after, width)
    if size is None:  # a long label: on its own line, the sum below it
        label = f"{before.strip()} … {after.strip()}".strip(" …")
        text(canvas, (left, y - 10), label, 26, theme.TEXT_DIM, width=width)
        size = count_size("", arithmetic, "", width) or COUNT_SIZES[-1]
        text(canvas, (left, y + 32), arithmetic, size, color, True)
        return y + 84
    small = size - 4
    x = left + text(canvas, (left, y), before, small)
    x += text(canvas, (x, y), arithmetic, size, color, True)
    if after:
        text(canvas, (x, y), after, small)
    return y + 60
