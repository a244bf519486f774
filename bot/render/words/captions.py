"""The board and the final table as text: photo captions, and for screen readers.

The texts are Telegram HTML (names are escaped; titles are bold) and never
longer than `CAPTION_LIMIT` characters.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from html import escape

from bot.render.words.ends import end_names, label
from bot.render.words.history import names_before
from bot.render.words.marks import OUT_MARK, Mark, legend, shown_record
from bot.render.words.move_words import (
    action_points,
    action_words,
    count_parts,
    count_words,
    recent_actions,
)
from bot.render.words.naming import Translate, identity, localized_name, signed, variant_title
from bot.render.words.round_end import points_name_who_went_out, round_end_points, round_end_words
from bot.render.words.rounds import final_order, grid_marks, match_grid, round_line
from bot.render.words.takeover_words import HISTORY, Takeovers, takeover_tag
from engine.view import SeatView

CAPTION_LIMIT = 1024
NAME_LIMIT = 40  # characters of a name shown in a caption


def board_text(view: SeatView, tr: Translate = identity, taken: Takeovers | None = None) -> str:
    """Whose turn, the ends and their count, the last move, scores and the boneyard;
    `taken`: the seats the computer took over, and why (said on their lines)."""
    lines = [f"<b>{escape(board_heading(view, tr))}</b>"]
    last = view.last_round
    if view.table.opening is None and last is not None and last.number == view.round_number - 1:
        # A round just dealt: how the one before it ended, and who got what for it.
        heading = escape(tr("Round {number} is over").format(number=last.number))
        reason = _round_reason(view, tr)
        lines.append(heading + (f" · {reason}" if reason else ""))
        lines.extend(_round_points(view, tr))
    lines.append(_state(view, tr))
    if last is not None and last.number == view.round_number and view.turn is None:
        if view.over:  # the last round: why it ended, under the winner
            reason = _round_reason(view, tr)
            if reason:
                lines.append(reason)
        lines.extend(_round_points(view, tr))
    if view.table.ends:
        # Each end by its name, as the picture marks it and its buttons say.
        names = end_names(view.table, view.variant)
        lines.append(" · ".join(label(names[end], value) for end, value in view.table.ends))
    if view.rules.scores_plays and view.table.opening is not None:  # a game that counts the ends
        parts = count_parts(view)
        if parts is None:
            lines.append(escape(tr("Ends count once all four arms are taken")))
        else:
            # Each end by its name, a double as it counts: to check against the picture.
            names = end_names(view.table, view.variant)
            lines.extend(count_words(tr, parts, names, escape))
    for action in recent_actions(view, 1):
        named = None
        if action.text not in ("draw", "pass"):
            # The end the tile went to, named as it was just before the move.
            moves = [entry.text for entry in view.moves[: action.index + 1]]
            named = names_before(view.variant, moves, action.index)[0]
        what = action_words(tr, view, action, named)
        points = action_points(view, action)
        lines.append(
            f"{_name(view, action.seat, tr)}: {escape(what)}" + (f" ({points})" if points else "")
        )
    score = tr("Penalties") if view.rules.penalty_scoring else tr("Points")
    for seat in range(len(view.players)):
        marker = "▶ " if seat == view.turn else ""
        why = (taken or {}).get(seat)
        lines.append(
            f"{marker}{_name(view, seat, tr)} — {escape(score)}: {view.totals[seat]}, "
            f"{escape(tr('Tiles'))}: {view.hand_sizes[seat]}"
            + (f" · {escape(takeover_tag(tr, why))}" if why else "")
        )
    lines.append(escape(tr("Boneyard: {count}").format(count=view.boneyard_size)))
    return _limit(lines)


def final_text(
    view: SeatView,
    tr: Translate = identity,
    changes: dict[int, int] | None = None,
    forfeited: Collection[int] = (),
    notes: Sequence[str] = (),
    taken: Takeovers | None = None,
) -> str:
    """Places, names, points; the record, the losers, who left the game or whose seat
    the computer took over; the match round by round; what the marks mean; each rated
    seat's rating change (`changes`, by seat).

    `view` carries the standings as the bot shows them (bot.game.forfeits) and
    `forfeited` the seats whose person left; `taken` the seats the computer took over,
    and why. `notes` (HTML lines) go under the heading.
    Whole lines only: the rounds that do not fit are named in a line instead.
    """
    standings = view.standings
    heading = tr("Game over") if standings.finished else tr("Standings")
    head = [f"<b>{escape(heading)}</b> · {escape(variant_title(tr, view.variant))}", *notes]
    if standings.winners:
        winners = ", ".join(_name(view, seat, tr) for seat in standings.winners)
        line = escape(tr("Winner: {names}")).format(names=winners)
        record = shown_record(view)
        if record is not None:
            line += " · " + escape(tr("Record: {points}").format(points=signed(record)))
        head.append(line)
    penalties = view.rules.penalty_scoring
    score = tr("Penalties") if penalties else tr("Points")
    order = final_order(view)
    for seat in order:
        name = _name(view, seat, tr)
        line = f"{standings.places[seat]}. {name} — {escape(score)}: {view.totals[seat]}"
        if seat in view.out and view.rules.play_on_after_out:
            line += f" {OUT_MARK}"
        if seat in standings.losers:
            line += f" · {escape(tr('Lost'))}"
        if changes and seat in changes:
            line += " · " + escape(tr("rating {change}").format(change=signed(changes[seat])))
        head.append(line)
    for seat in order:
        why = (taken or {}).get(seat)
        if seat in forfeited:
            message = escape(tr("{name} left the game: the last place"))
            head.append(message.format(name=_name(view, seat, tr)))
        elif why in HISTORY:  # he keeps his place: only who played it is told
            head.append(escape(tr(HISTORY[why])).format(name=_name(view, seat, tr)))
    grid = match_grid(view, tr)
    marks = set(grid_marks(grid))
    if shown_record(view) is not None:
        marks.add(Mark.RECORD)
    if standings.losers:
        marks.add(Mark.LOST)
    tail = []
    if penalties:
        marks.add(Mark.PENALTY_PLACES)
        if view.out and view.rules.play_on_after_out:
            marks.add(Mark.OUT)
        rounds = _twolane_lines(view, tr)
    else:
        tail.append(escape(tr("Rounds played: {count}").format(count=len(view.finished_rounds))))
        rounds = [
            round_line(tr, view, summary, order, lambda seat: _name(view, seat, tr), escape)
            for summary in view.finished_rounds
        ]
    tail += [escape(note) for note in legend(tr, marks, view.target)]
    return _limit(head + _fitting_rounds(tr, rounds, head + tail) + tail)


def _twolane_lines(view: SeatView, tr: Translate) -> list[str]:
    """The single round of twolane: its passes, and the order of going out."""
    last = view.last_round
    if last is None:
        return []
    lines = _round_points(view, tr)
    if view.out:
        names = ", ".join(_name(view, seat, tr) for seat in view.out)
        lines.append(escape(tr("Out of tiles: {names}")).format(names=names))
    return lines


def _fitting_rounds(tr: Translate, rounds: list[str], others: list[str]) -> list[str]:
    """All the round lines if they fit beside `others`; else the latest that do, after a
    line naming the rounds left to the picture (never a line cut in two)."""
    room = CAPTION_LIMIT - len("\n".join(others))
    if sum(len(line) + 1 for line in rounds) <= room:
        return rounds
    for skipped in range(1, len(rounds) + 1):
        if skipped == 1:
            note = tr("Round {number} is in the picture").format(number=1)
        else:
            note = tr("Rounds {first}–{last} are in the picture").format(first=1, last=skipped)
        kept = [escape(note), *rounds[skipped:]]
        if sum(len(line) + 1 for line in kept) <= room:
            return kept
    return []


def board_heading(view: SeatView, tr: Translate = identity) -> str:
    """«Fives · Round 2 · Target: 61», the heading of the board's caption (and the table's)."""
    parts = [variant_title(tr, view.variant)]
    if not view.rules.one_round:
        parts.append(tr("Round {number}").format(number=view.round_number))
        if view.target is not None:
            parts.append(tr("Target: {points}").format(points=view.target))
    return " · ".join(parts)


def _state(view: SeatView, tr: Translate) -> str:
    last = view.last_round
    if view.over:
        winners = ", ".join(_name(view, seat, tr) for seat in view.standings.winners)
        return f"<b>{escape(tr('Game over'))}</b> · " + escape(tr("Winner: {names}")).format(
            names=winners
        )
    if view.turn is None and last is not None and last.number == view.round_number:
        heading = escape(tr("Round {number} is over").format(number=last.number))
        reason = _round_reason(view, tr)
        return f"<b>{heading}</b>" + (f" · {reason}" if reason else "")
    if view.turn is not None:
        return escape(tr("Turn: {name}")).format(name=f"<b>{_name(view, view.turn, tr)}</b>")
    return ""


def _round_end(view: SeatView, tr: Translate, end: str, out: int | None) -> str:
    return round_end_words(tr, view, end, out, lambda seat: _name(view, seat, tr), escape)


def _round_reason(view: SeatView, tr: Translate) -> str:
    """Why the last round ended, unless its points' lines below say it (each thing once:
    not «Андрей went out» above «Андрей: +2 points for going out»)."""
    last = view.last_round
    if last is None or points_name_who_went_out(view, last):
        return ""
    return _round_end(view, tr, last.end, last.out)


def _round_points(view: SeatView, tr: Translate) -> list[str]:
    last = view.last_round
    if last is None:
        return []
    return round_end_points(tr, view, last, lambda seat: _name(view, seat, tr), escape)


def _name(view: SeatView, seat: int, tr: Translate) -> str:
    """A seat's name as typed (emoji are fine in captions), shortened and escaped."""
    name = " ".join(localized_name(tr, view.players[seat]).split()) or "?"
    if len(name) > NAME_LIMIT:
        name = name[: NAME_LIMIT - 1].rstrip() + "…"
    return escape(name, quote=False)


def _limit(lines: list[str]) -> str:
    """Drop lines from the end until the text fits in a caption."""
    lines = [line for line in lines if line]
    while len("\n".join(lines)) > CAPTION_LIMIT and len(lines) > 1:
        lines.pop()
    return "\n".join(lines)[:CAPTION_LIMIT]
