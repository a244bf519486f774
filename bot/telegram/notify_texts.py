"""What /notify says: to the subscriber in private, in the group, and in each call.

Telegram HTML: `place` (the group and its topic, as `endings.group_place` names
them) is escaped here.
"""

from __future__ import annotations

from html import escape

from bot.i18n import N_, Translator
from bot.storage.models import Match
from bot.telegram import endings, texts

ONLY_IN_GROUPS = N_("Type /notify in the group whose games you want.")  # /notify in private
USAGE = N_("/notify: I call you whenever a game opens here; /notify off stops it.")
START_FIRST = N_(  # the bot may not write to him first: he must press Start in private
    "To be called, open a private chat with me and press Start, then type /notify here again."
)
UNSUBSCRIBED = N_("🔕 I will not call you to games in «{place}» any more.")
NOT_SUBSCRIBED = N_("You were not being called to games in «{place}».")


def unsubscribed(tr: Translator, place: str, was: bool) -> str:
    """/notify off: no more calls (`was`: he had been called until now)."""
    return tr(UNSUBSCRIBED if was else NOT_SUBSCRIBED).format(place=escape(place))


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


def call(tr: Translator, match: Match) -> str:
    """A subscriber's call to a new lobby."""
    text = tr("🔔 A new game opens in «{place}»: {game}. Press Join to take a seat.")
    return text.format(
        place=escape(endings.place_name(match, tr)),
        game=escape(texts.variant_name(tr, match.variant)),
    )
