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
from bot.render import localized_name, signed
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


def ending_line(match: Match, tr: Translator, seat: int | None = None) -> str:
    """One line on how a cancelled game ended (HTML); `seat`: the reader's, in his own
    private messages (None: the group's)."""
    return escape(ending_words(match, tr, seat), quote=False)


def ending_words(match: Match, tr: Translator, seat: int | None = None) -> str:
    """How a cancelled game ended, as plain text (the board picture says it too); `seat`:
    the reader's, in his own private messages (None: the group's)."""
    if match.ended == "bot_removed":
        return tr("The bot was removed from the group — the game was cut short.")
    if match.ended == "everyone_left":
        closed = closed_chats(match)
        if closed:  # not one of them chose to leave: say why they are gone
            text = tr(
                "{names}: the bot cannot write to their private chat, so the tiles "
                "cannot be sent — the game is over."
            )
            return text.format(names=", ".join(closed))
        return tr("Everyone left the game — it is over.")
    if match.ended == "idle":
        return tr("The lobby was closed: nobody pressed anything for a long while.")
    if match.ended == "silence":  # a game without a clock (bot.game.clock)
        return tr("Nobody moved for too long — the game is over.")
    if match.stopped_by and not may_have_stopped(match, seat):
        return tr("The game was stopped with /stop ({name}).").format(name=match.stopped_by)
    if match.stopped_by:
        return tr("The game was stopped with /stop.")
    return tr("The game was stopped.")


def may_have_stopped(match: Match, seat: int | None) -> bool:
    """Whether the reader may be the person who stopped or cancelled the game: his own
    messages then say it without his name (nobody is told about himself in the third
    person). A practice game's one person did it himself. Only the name of who did it
    is kept: a seat of that name, or the creator's seat while the creator bears it,
    reads the words without a name, which are true whoever did it."""
    if match.practice:
        return True
    if seat is None or seat >= len(match.seats) or not match.stopped_by:
        return False
    person = match.seats[seat]
    if person.name == match.stopped_by:
        return True
    return person.user_id == match.creator_id and match.creator_name == match.stopped_by


def unplayed_text(tr: Translator, ending: str) -> str:
    """What the group is told of a game that ended before anyone moved (HTML): how it
    ended (`ending`, plain text), and that it has no winner and counts toward nothing."""
    unplayed = tr("Nobody made a move: no winner, and the game counts toward no stats.")
    return f"<b>{escape(ending, quote=False)}</b>\n{escape(unplayed, quote=False)}"


def closed_chats(match: Match) -> list[str]:
    """Who could not be written to in private (`blocked_bot` notes: never opened the chat,
    or blocked the bot), if that is how the last person left the table; else nobody."""
    if not match.notes or match.notes[-1].code != "blocked_bot":
        return []
    names = [note.name for note in match.notes if note.code == "blocked_bot"]
    return list(dict.fromkeys(names))


def as_ended(view: SeatView) -> SeatView:
    """The view of a game that ended before its end: nobody is to move any more."""
    return dataclasses.replace(view, turn=None, legal=())


def lobby_closed_line(match: Match, tr: Translator, seat: int | None = None) -> str:
    """What a player who had joined a group's lobby is told in private when it closed
    without a game (his tiles, he was told, would come there: they will not); `seat`:
    his (whoever cancelled it is not named to himself)."""
    place = escape(place_name(match, tr))
    if match.ended == "idle":
        line = tr("The lobby in «{place}» was closed: nobody pressed anything for a long while.")
    elif match.ended == "bot_removed":
        line = tr("The bot was removed from «{place}», so its lobby closed: no game there.")
    elif match.stopped_by and not may_have_stopped(match, seat):
        line = tr("The game in «{place}» was cancelled before it began ({name}).")
    else:
        line = tr("The game in «{place}» was cancelled before it began.")
    return line.format(place=place, name=escape(match.stopped_by))


def closed_lobby_text(match: Match, tr: Translator, idle_minutes: int) -> str:
    """What a group's lobby message says once the lobby closed without a game (HTML);
    `idle_minutes`: how long a lobby may lie untouched."""
    if match.ended == "bot_removed" and match.engine is None:  # no game was cut short
        return escape(tr("The bot was removed from the group, so the lobby closed."))
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
