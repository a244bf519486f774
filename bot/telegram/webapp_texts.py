"""The live table's words: its page's labels, and the game told as the captions and
pictures tell it (the same message ids, so the same translations), as plain text.

Nothing here is HTML: the page puts every text in as text, so names need no escaping.
"""

from __future__ import annotations

import html
import re
from collections.abc import Collection, Sequence

from bot.i18n import Translator
from bot.render import (
    action_points,
    action_words,
    board_heading,
    count_parts,
    count_words,
    end_names,
    final_text,
    label,
    localized_name,
    names_at,
    points_name_who_went_out,
    recent_actions,
    round_end_points,
    round_end_words,
    variant_title,
)
from bot.settings import Settings
from bot.storage.models import Match
from bot.telegram import clock_texts, endings, press_texts, texts
from engine import Play, SeatView
from engine.variants import ruleset

RECENT_MOVES = 4  # the last moves the table lists
_TAG = re.compile(r"<[^>]+>")


def page_words(tr: Translator) -> dict[str, str]:
    """The page's own labels and the templates its clock fills in (the page writes none)."""
    return {
        "join": tr("🙋 Join"),
        "leave": tr("🚪 Leave"),
        "start": tr("▶️ Start"),
        "cancel": tr("✖️ Cancel"),
        "add_easy": tr("🤖 + Easy"),
        "add_strong": tr("🤖 + Strong"),
        "remove_computer": tr("🤖 −"),
        "game": tr("🎲 Game"),
        "target": tr("🎯 Target"),
        "time": tr("⏱ Move time"),
        "hand": tr("Your tiles"),
        "watching": tr("You are watching this game."),
        "playable": tr("🟢 fits now"),
        "tiles": tr("Tiles"),
        "connecting": tr("Connecting…"),
        "offline": tr("No connection. Reconnecting…"),
        "unauthorized": tr("Telegram did not confirm who you are. Open the table from Telegram."),
        "no_game": tr("That game is over or no longer here."),
        "creator_note": tr("You created this game: choose its options and press Start."),
        "you": tr("you"),
        # Playing: the same words as the hand's buttons.
        "which_end": tr(press_texts.WHICH_END),
        "pick_doubles": tr(press_texts.PICK_DOUBLES),
        "draw": tr("📥 Draw"),
        "pass": tr("⏭ Pass"),
        "doubles": tr("🁣 Several doubles"),
        "hint": tr("💡 Hint"),
        "back": tr("↩️ Back"),
        "rematch": tr("🔁 Rematch"),
        "strong": tr("strong"),
        "easy": tr("easy"),
        # The clock, counted down by the page (clock_texts.duration's units).
        "clock_line": tr("⏳ {name}: {time} left"),
        "no_clock_line": tr("⏳ {name}: no clock"),
        "seconds": tr("{seconds} s"),
        "minutes_seconds": tr("{minutes} min {seconds} s"),
        "minutes": tr("{minutes} min"),
        "hours_minutes": tr("{hours} h {minutes} min"),
        "hours": tr("{hours} h"),
    }


def plain(line: str) -> str:
    """A caption line (Telegram HTML) as plain text."""
    return html.unescape(_TAG.sub("", line))


# -- the lobby -----------------------------------------------------------------------------


def lobby_lines(
    match: Match, tr: Translator, settings: Settings, *, can_join: bool, creator: bool
) -> list[str]:
    """What the lobby says under its seats to its reader: its options, and who starts it
    (Join only to whom it is offered; nothing to the creator, whom the page tells what
    to do)."""
    players = max(len(match.seats), 2)
    target = match.target or _default_target(match, players)
    options = []
    if target is not None:
        options.append(
            tr.n("to {target} point", "to {target} points", target).format(target=target)
        )
    options.append(clock_texts.lobby_option(tr, match.turn_seconds))
    lines = [
        tr("New game: {seats} of 4 seats taken").format(seats=len(match.seats)),
        " · ".join(options),
    ]
    note = clock_texts.lobby_note(tr, match.turn_seconds, settings)
    if note:
        lines.append(plain(note))
    if match.practice or creator:
        return lines
    if can_join:
        starts = tr("Press Join to take a seat. {creator} presses Start when everyone is in.")
    else:
        starts = tr("{creator} presses Start when everyone is in.")
    lines.append(starts.format(creator=match.creator_name))
    return lines


def _default_target(match: Match, players: int) -> int | None:
    return ruleset(match.variant).default_target(players)


def option_label(tr: Translator, kind: str) -> str:
    """A lobby option's name, as its button says."""
    labels = {"variant": tr("🎲 Game"), "target": tr("🎯 Target"), "time": tr("⏱ Move time")}
    return labels[kind]


def option_value(tr: Translator, kind: str, value: object) -> str:
    """One value a lobby option offers, in the lobby's words."""
    if kind == "variant":
        return texts.variant_name(tr, str(value))
    number = int(str(value))
    if kind == "target":
        return tr.n("to {target} point", "to {target} points", number).format(target=number)
    return clock_texts.lobby_option(tr, number)


def seat_kind(tr: Translator, level: str) -> str:
    return tr("strong") if level == "strong" else tr("easy")


def seat_name(tr: Translator, name: str) -> str:
    """A seat's name as the captions show it (a computer's in the chat's language)."""
    return localized_name(tr, name)


# -- a running or finished game -----------------------------------------------------------


def heading(tr: Translator, view: SeatView) -> str:
    """«Fives · Round 2 · Target: 61», as the captions head the board."""
    return board_heading(view, tr)


def round_title(tr: Translator, view: SeatView) -> str:
    """What an empty table says before the round's first tile, as the board picture does."""
    if view.rules.one_round:
        return variant_title(tr, view.variant)
    return tr("Round {number}").format(number=view.round_number)


def state_line(tr: Translator, view: SeatView) -> str:
    """Whose turn it is, or how the round or the game ended."""
    last = view.last_round
    if view.over:
        winners = ", ".join(_name(tr, view, seat) for seat in view.standings.winners)
        return tr("Game over") + " · " + tr("Winner: {names}").format(names=winners)
    if view.turn is None and last is not None and last.number == view.round_number:
        reason = round_end_words(tr, view, last.end, last.out, lambda s: _name(tr, view, s))
        heading = tr("Round {number} is over").format(number=last.number)
        return heading + (f" · {reason}" if reason else "")
    if view.turn is not None:
        return tr("Turn: {name}").format(name=_name(tr, view, view.turn))
    return ""


def round_end_lines(tr: Translator, view: SeatView) -> list[str]:
    """The last round's end as the captions give it: how it ended and who got what for it
    (while its table is shown, or just after the next round was dealt); [] otherwise."""
    last = view.last_round
    if last is None:
        return []
    fresh = view.table.opening is None and last.number == view.round_number - 1
    if not fresh and not (last.number == view.round_number and view.turn is None):
        return []
    lines = []
    if fresh:
        # Each thing once, as the captions say it: not «Андрей: кости кончились» above
        # «Андрей: +2 очка — кости кончились».
        said_below = points_name_who_went_out(view, last)
        reason = (
            ""
            if said_below
            else round_end_words(tr, view, last.end, last.out, lambda s: _name(tr, view, s))
        )
        heading = tr("Round {number} is over").format(number=last.number)
        lines.append(heading + (f" · {reason}" if reason else ""))
    lines += round_end_points(tr, view, last, lambda s: _name(tr, view, s))
    return lines


def ends_line(view: SeatView) -> str:
    """Each open end by its name, as the picture marks it: «🔵⬅️ 5 · 🟠➡️ 3»."""
    if not view.table.ends:
        return ""
    names = end_names(view.table, view.variant)
    return " · ".join(label(names[end], value) for end, value in view.table.ends)


def count_line(tr: Translator, view: SeatView) -> str:
    """The ends' count, in a game that counts them ("" otherwise)."""
    if not view.rules.scores_plays or view.table.opening is None:
        return ""
    parts = count_parts(view)
    if parts is None:
        return tr("Ends count once all four arms are taken")
    # Each end by its name, a double as it counts: as the captions say it.
    return "\n".join(count_words(tr, parts, end_names(view.table, view.variant)))


def recent_moves(tr: Translator, view: SeatView) -> list[str]:
    """The round's last moves, oldest first: «Андрей: 5:3 🟠➡️ (+4)»."""
    lines = []
    actions = recent_actions(view, RECENT_MOVES)
    plays = [action.index for action in actions if action.text not in ("draw", "pass")]
    named = names_at(view.variant, [entry.text for entry in view.moves], plays)
    for action in actions:
        what = action_words(tr, view, action, named.get(action.index))
        points = action_points(view, action)
        lines.append(f"{_name(tr, view, action.seat)}: {what}" + (f" ({points})" if points else ""))
    return lines


def score_label(tr: Translator, view: SeatView) -> str:
    return tr("Penalties") if view.rules.penalty_scoring else tr("Points")


def boneyard(tr: Translator, view: SeatView) -> str:
    return tr("Boneyard: {count}").format(count=view.boneyard_size)


def hand_prompt(tr: Translator, view: SeatView) -> str:
    """What the hand of the player to act says, as his private hand caption does."""
    if not view.my_turn:
        return ""
    ends = ends_line(view)
    if ends:
        return tr("Your move! Ends: {ends}").format(ends=ends)
    if any(isinstance(move, Play) for move in view.legal):
        return texts.opening_prompt(tr, view)
    return tr("No tile fits.")


def ending(tr: Translator, match: Match) -> str:
    """How a cancelled game ended."""
    return endings.ending_words(match, tr)


def final_lines(
    tr: Translator,
    view: SeatView,
    changes: dict[int, int] | None,
    forfeited: Collection[int],
    notes: Sequence[str] = (),
) -> list[str]:
    """The final table as its caption gives it, line by line."""
    return [plain(line) for line in final_text(view, tr, changes, forfeited, notes).splitlines()]


def _name(tr: Translator, view: SeatView, seat: int) -> str:
    return " ".join(localized_name(tr, view.players[seat]).split()) or "?"


def refusal(tr: Translator, code: str) -> str:
    """What a refused table request says: the table's own codes, else the bot's."""
    own = {
        "other_game": tr("That was meant for another game: this table shows a different one."),
        "too_fast": tr("Too many presses at once. Please slow down."),
        "bad_message": tr("The table sent something I cannot read. Please reopen it."),
    }
    return own.get(code) or texts.refusal(tr, code)
