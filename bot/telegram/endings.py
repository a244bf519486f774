"""How a game ended, in the words every private message of it uses (Telegram HTML).

A game ends finished, stopped, because the bot left its group, because every person
left it, or as a lobby nobody touched. Each player's hand message says which, and
at the end of a finished game it carries his result and a link to the final table.
"""

from __future__ import annotations

import dataclasses
from html import escape

from bot.game import forfeits
from bot.i18n import Translator
from bot.render.words import localized_name, signed
from bot.storage.models import Match
from engine import SeatView


def place_name(match: Match, tr: Translator) -> str:
    """Where the game is played, as private messages name it: the group, and its forum
    topic (two topics of one forum are two games)."""
    if match.practice:
        return tr("Practice")
    return group_place(tr, match.chat_title, match.topic)


def group_place(tr: Translator, title: str | None, topic: str | None) -> str:
    """A group, and its forum topic, as private messages name them."""
    shown = title or tr("the group")
    return f"{shown} · {topic}" if topic else shown


def ending_line(match: Match, tr: Translator) -> str:
    """One line on how a cancelled game ended (HTML)."""
    return escape(ending_words(match, tr), quote=False)


def ending_words(match: Match, tr: Translator) -> str:
    """How a cancelled game ended, as plain text (the board picture says it too)."""
    if match.ended == "bot_removed":
        return tr("The bot was removed from the group — the game was cut short.")
    if match.ended == "everyone_left":
        return tr("Everyone left the game — it is over.")
    if match.ended == "idle":
        return tr("The lobby was closed: nobody pressed anything for a long while.")
    if match.ended == "silence":  # a game without a clock (bot.game.clock)
        return tr("Nobody moved for too long — the game is over.")
    if match.stopped_by:
        return tr("The game was stopped with /stop ({name}).").format(name=match.stopped_by)
    return tr("The game was stopped.")


def as_ended(view: SeatView) -> SeatView:
    """The view of a game that ended before its end: nobody is to move any more."""
    return dataclasses.replace(view, turn=None, legal=())


def lobby_closed_line(match: Match, tr: Translator) -> str:
    """What a player who had joined a group's lobby is told in private when it closed
    without a game (his tiles, he was told, would come there: they will not)."""
    place = escape(place_name(match, tr))
    if match.ended == "idle":
        line = tr("The lobby in «{place}» was closed: nobody pressed anything for a long while.")
    elif match.ended == "bot_removed":
        line = tr("The bot was removed from «{place}», so its game did not start.")
    elif match.stopped_by:
        line = tr("The game in «{place}» was cancelled before it began ({name}).")
    else:
        line = tr("The game in «{place}» was cancelled before it began.")
    return line.format(place=place, name=escape(match.stopped_by))


def closed_lobby_text(match: Match, tr: Translator, idle_minutes: int) -> str:
    """What a group's lobby message says once the lobby closed without a game (HTML);
    `idle_minutes`: how long a lobby may lie untouched."""
    if match.ended == "bot_removed":
        return ending_line(match, tr)
    if match.ended == "idle":
        return idle_lobby_text(idle_minutes, tr)
    return tr("The game was cancelled.")


def lobby_started_text(tr: Translator) -> str:
    """A started game's lobby message, where the bot may not delete it."""
    return tr("The game has started.")


def idle_lobby_text(minutes: int, tr: Translator) -> str:
    """What a closed idle lobby's message says in the group."""
    text = tr("The lobby was closed: nobody pressed anything for {minutes} min.")
    return text.format(minutes=minutes) + " " + tr("Start a new one with /newgame.")


def result_lines(
    match: Match, view: SeatView, tr: Translator, link: str | None, rating: int | None = None
) -> list[str]:
    """A finished game's result for one seat: place, points, his rating's change (`rating`,
    None if the game is not rated), the winner, the final table.

    A seat its person gave up with /leave is last (bot.game.forfeits), and he is told
    so. A practice game's final table is posted in the same chat: no group to point to.
    """
    view = forfeits.match_view(view, match)
    seat = view.seat
    standings = view.standings
    lines = []
    if seat is not None:
        place, players = standings.places[seat], len(view.players)
        if seat < len(match.seats) and match.seats[seat].left:
            line = tr("You left the game: the last place ({place} of {players})")
            lines.append(line.format(place=place, players=players))
        else:
            line = tr("Your place: {place} of {players}").format(place=place, players=players)
            points = (
                tr("penalty points: {points}")
                if view.rules.penalty_scoring
                else tr("points: {points}")
            )
            lines.append(line + " · " + points.format(points=view.totals[seat]))
    if rating is not None:
        lines.append(tr("Your rating in the group: {change}").format(change=signed(rating)))
    names = ", ".join(escape(localized_name(tr, view.players[s])) for s in standings.winners)
    if len(standings.winners) > 1:
        lines.append(tr("Winners: {names}").format(names=names))
    elif names:
        lines.append(tr("Winner: {names}").format(names=names))
    if match.practice:
        lines.append(tr("The final table is in this chat."))
    elif link is not None:
        lines.append(tr('<a href="{link}">The final table</a> is in the group.').format(link=link))
    else:  # a basic group's messages have no links
        lines.append(tr("The final table is in the group."))
    return lines


def linkable(chat_id: int) -> bool:
    """Whether the chat's messages have links: a supergroup's do, a basic group's not."""
    return str(chat_id).startswith("-100")


def message_link(chat_id: int, thread_id: int | None, message_id: int | None) -> str | None:
    """A t.me link to a message of a supergroup (a basic group's messages have none)."""
    text = str(chat_id)
    if message_id is None or not linkable(chat_id):
        return None
    internal = text.removeprefix("-100")
    if thread_id is not None:
        return f"https://t.me/c/{internal}/{thread_id}/{message_id}"
    return f"https://t.me/c/{internal}/{message_id}"


def whole_minutes(seconds: float) -> int:
    """A setting's pause as whole minutes, for texts (at least 1)."""
    return max(1, round(seconds / 60))
