"""A group board's caption: the board text, the moves since the last picture and the
events since, within Telegram's caption limit in whole lines."""

from __future__ import annotations

import html

from bot.game import takeovers
from bot.i18n import Translator
from bot.render import board_text, names_before
from bot.storage.models import GroupDelivery, Match
from bot.telegram import texts
from bot.telegram.note_texts import note_text
from engine import Game, SeatView

CAPTION_LIMIT = 1024
RECENT_SHOWN = 8  # moves listed in a caption at most


def board_caption(
    match: Match,
    game: Game,
    view: SeatView,
    tr: Translator,
    shown: GroupDelivery,
    round_number: int,
    finishing: bool,
    clock: str = "",
) -> str:
    """The board text (with the `clock` line: whose turn, for how long), the moves since the
    last picture (of that round) and the events since."""
    taken = takeovers.taken_seats(match)
    base = "\n".join(filter(None, [board_text(view, tr, taken), clock]))
    notes = match.notes_since(shown.notes_shown)
    extra = [html.escape(note_text(tr, note)) for note in notes]
    same_board = shown.board.round_number == round_number
    already = shown.board.shows_actions if same_board else 0
    moves = game.rounds[round_number - 1].moves
    entries = moves[already:]
    if len(entries) > 1 and not finishing:  # the board text already names the last one
        # Each move names its end as the buttons did just before it; a player's draws in
        # a row are one line, and the latest lines are kept.
        named = names_before(game.variant, [e.text for e in moves], already)
        described = texts.describe_entries(tr, view, entries, named)
        if len(described) > RECENT_SHOWN:
            described = ["…", *described[-RECENT_SHOWN:]]
        extra.insert(0, texts.since_last_picture(tr, described))
    # Whole lines only: cutting Telegram HTML mid-tag would break the caption.
    while extra and len(base) + sum(len(part) + 2 for part in extra) > CAPTION_LIMIT:
        extra.pop(0 if len(extra) > len(notes) else -1)
    return "\n\n".join([base, *extra])


def with_line(caption: str, line: str) -> str:
    """`line` (HTML) first, then as much of the caption as still fits, in whole lines."""
    lines = [f"<b>{line}</b>", *caption.split("\n")]
    while len("\n".join(lines)) > CAPTION_LIMIT and len(lines) > 1:
        lines.pop()
    return "\n".join(lines)
