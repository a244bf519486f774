"""What the turn clock says: in the lobby, the hand caption, the board caption, the reminder.

Times are relative («⏳ 90 с», «4 ч»): the players' time zones are unknown, and a
relative time read a little later is still nearly right. Each is worked out when
the message is drawn, so none needs an edit of its own to stay true. Abbreviated
units («с», «мин», «ч») need no plural forms. Texts are Telegram HTML.
"""

from __future__ import annotations

from html import escape

from bot.game.clock import HOUR
from bot.game.options import has_clock
from bot.i18n import Translator
from bot.render import localized_name
from bot.settings import Settings
from bot.storage.models import Match
from engine import SeatView

NAME_LIMIT = 40  # characters of a name shown in the board's clock line


def duration(tr: Translator, seconds: float) -> str:
    """«90 с», «1 мин 40 с», «5 мин», «2 ч 30 мин», «24 ч»: rounded as a clock is read
    (each unit chosen after rounding, so 59 min 50 s reads «1 ч», never «60 мин»)."""
    left = max(0, round(seconds))
    if left < 20:
        return tr("{seconds} s").format(seconds=left)
    if 5 * round(left / 5) < 100:  # a lagging picture still reads «30 с», not «29 с»
        return tr("{seconds} s").format(seconds=5 * round(left / 5))
    if 10 * round(left / 10) < 600:
        minutes, rest = divmod(10 * round(left / 10), 60)
        if rest:
            return tr("{minutes} min {seconds} s").format(minutes=minutes, seconds=rest)
        return tr("{minutes} min").format(minutes=minutes)
    if round(left / 60) < 60:
        return tr("{minutes} min").format(minutes=round(left / 60))
    hours, minutes = divmod(round(left / 60), 60)
    if minutes and hours < 10:
        return tr("{hours} h {minutes} min").format(hours=hours, minutes=minutes)
    return tr("{hours} h").format(hours=round(left / HOUR))


def lobby_option(tr: Translator, turn_seconds: int) -> str:
    """The lobby's time option: «90 с на ход», «3 мин на ход» or «без часов»."""
    if has_clock(turn_seconds):
        return tr("{time} per move").format(time=duration(tr, turn_seconds))
    return tr("no clock")


def lobby_note(tr: Translator, turn_seconds: int, settings: Settings) -> str:
    """What a game without a clock means, for the lobby ("" for a game with one)."""
    if has_clock(turn_seconds):
        return ""
    text = tr(
        "⏳ No clock: after {reminder} without a move the bot reminds the player; "
        "after {end}, the game ends."
    )
    return escape(
        text.format(
            reminder=duration(tr, settings.no_clock_reminder_hours * HOUR),
            end=duration(tr, settings.no_clock_end_hours * HOUR),
        )
    )


def hand_line(tr: Translator, match: Match, now: float) -> str:
    """The time left, for the hand of the player to act ("" if nothing runs against him)."""
    if match.deadline is None:
        return ""
    left = duration(tr, match.deadline - now)
    if has_clock(match.turn_seconds):
        return escape(tr("⏳ {time} left to move").format(time=left))
    return escape(
        tr("⏳ No clock: if there is no move for {time}, the game ends.").format(time=left)
    )


def board_line(tr: Translator, match: Match, name: str, now: float) -> str:
    """Whose turn and the time he has left, for the group's board: «⏳ Ирина: осталось 85 с»."""
    shown = " ".join(name.split()) or "?"
    if len(shown) > NAME_LIMIT:
        shown = shown[: NAME_LIMIT - 1].rstrip() + "…"
    if not has_clock(match.turn_seconds):
        return escape(tr("⏳ {name}: no clock").format(name=shown))
    left = duration(tr, (match.deadline or now) - now)
    return escape(tr("⏳ {name}: {time} left").format(name=shown, time=left))


def turn_line(tr: Translator, match: Match, view: SeatView, now: float) -> str:
    """Whose turn and how long he has, when a person is to act ("" otherwise): for the
    board and /score, worked out when they are drawn (never edited just for this)."""
    turn = view.turn
    if match.status != "playing" or turn is None or not match.seats[turn].human:
        return ""
    return board_line(tr, match, localized_name(tr, view.players[turn]), now)


def reminder(tr: Translator, match: Match, now: float) -> str:
    """The one reminder a player gets in a turn (a reply to his hand message)."""
    left = duration(tr, (match.deadline or now) - now)
    if has_clock(match.turn_seconds):
        return escape(tr("⏳ {time} left for your move.").format(time=left))
    text = tr("⏳ We are waiting for your move. If none comes, the game ends in {time}.")
    return escape(text.format(time=left))


def reminder_over(tr: Translator) -> str:
    """A reminder whose turn is over, where it could not be deleted."""
    return escape(tr("⏳ That turn is over."))


def silence_end(tr: Translator, settings: Settings) -> str:
    """Why a game without a clock ended, as the group is told (plain text: a caption's
    first line, escaped there)."""
    hours = duration(tr, settings.no_clock_end_hours * HOUR)
    return tr("⌛ No move for {time}: the game is over.").format(time=hours)
