"""What /notify says: to the subscriber in private, in the group, and in each call.

Telegram HTML: `place` (the group and its topic, as `endings.group_place` names
them) is escaped here.
"""

from __future__ import annotations

from html import escape

from bot.i18n import Translator
from bot.storage.models import Match
from bot.telegram import endings, texts


def only_in_groups(tr: Translator) -> str:
    """/notify in private."""
    return tr("Type /notify in the group whose games you want.")


def usage(tr: Translator) -> str:
    return tr("/notify: I call you whenever a game opens here; /notify off stops it.")


def unsubscribed(tr: Translator, place: str, was: bool) -> str:
    """/notify off: no more calls (`was`: he had been called until now)."""
    if was:
        text = tr("🔕 I will not call you to games in «{place}» any more.")
    else:
        text = tr("You were not being called to games in «{place}».")
    return text.format(place=escape(place))


def subscribed(tr: Translator, place: str) -> str:
    text = tr(
        "🔔 I will call you here whenever a new game opens in «{place}», "
        "until you type /notify off there."
    )
    return text.format(place=escape(place))


def full(tr: Translator, most: int) -> str:
    """No room for another subscriber: there are `most`."""
    text = tr.n(
        "There is already {count} subscriber here: that is the most.",
        "There are already {count} subscribers here: that is the most.",
        most,
    )
    return text.format(count=most)


def start_first(tr: Translator) -> str:
    """The bot may not write to him first: he must press Start in its private chat."""
    return tr(
        "To be called, open a private chat with me and press Start, then type /notify here again."
    )


def call(tr: Translator, match: Match) -> str:
    """A subscriber's call to a new lobby."""
    text = tr("🔔 A new game opens in «{place}»: {game}. Press Join to take a seat.")
    return text.format(
        place=escape(endings.place_name(match, tr)),
        game=escape(texts.variant_name(tr, match.variant)),
    )
