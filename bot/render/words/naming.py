"""How the pictures and captions ask for their words, and how they name people and games.

Every text shown goes through `tr` with an English message id; placeholders
are filled in after translation. `bot.render.words.message_ids` lists every id used.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache

from bot.i18n import LANGUAGES, translator
from bot.render.kit.fonts import printable
from bot.variants import shown
from engine.view import SeatView

Translate = Callable[[str], str]


def identity(message: str) -> str:
    """The default `tr`: the English message ids themselves."""
    return message


def N_(message: str) -> str:
    return message


def plural(tr: Translate, singular: str, many: str, count: int) -> str:
    """The form of a message for `count` (gettext's ngettext when `tr` has it)."""
    forms = getattr(tr, "n", None)
    if callable(forms):
        return str(forms(singular, many, count))
    return tr(singular if count == 1 else many)


def N_plural(singular: str, many: str) -> tuple[str, str]:
    return singular, many


COMPUTER_NAME = N_("Computer {number}")


def variant_title(tr: Translate, variant: str) -> str:
    """The game's one name, as every text and picture gives it (see `bot.variants`)."""
    return tr(shown(variant).title)


def player_name(tr: Translate, view: SeatView, seat: int) -> str:
    """A seat's name as the fonts can draw it (a fallback if nothing is left)."""
    name = printable(localized_name(tr, view.players[seat]))
    return name or tr("Player {number}").format(number=seat + 1)


@cache
def _computer_name_pattern() -> re.Pattern[str]:
    """«Computer 2», «Компьютер 2»: a computer's name in any of the bot's languages."""
    words = {translator(lang)(COMPUTER_NAME).partition("{number}")[0] for lang in LANGUAGES}
    words.add(COMPUTER_NAME.partition("{number}")[0])
    choices = "|".join(re.escape(word) for word in sorted(words, key=len, reverse=True))
    return re.compile(rf"(?:{choices})(\d{{1,2}})")


def computer_name(lang: str, number: int) -> str:
    """The name a computer player is given when it takes a seat: «Компьютер 2» in a chat
    that speaks Russian (`localized_name` shows it in the chat's language later)."""
    return translator(lang)(COMPUTER_NAME).format(number=number)


def localized_name(tr: Translate, name: str) -> str:
    """A computer player's name in the chat's language now (it was named in the lobby's,
    and the chat may have switched language since); any other name as it is."""
    found = _computer_name_pattern().fullmatch(name)
    if found is None:
        return name
    return tr(COMPUTER_NAME).format(number=found.group(1))


def winner_names(tr: Translate, view: SeatView) -> str:
    return ", ".join(player_name(tr, view, seat) for seat in view.standings.winners)


def signed(number: int) -> str:
    return f"+{number}" if number > 0 else f"−{-number}" if number < 0 else "0"
