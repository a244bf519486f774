"""How the pictures and captions ask for their words, and how they name people and games.

Every text shown goes through `tr` with an English message id; placeholders
are filled in after translation. `bot.render.words.message_ids` lists every id used.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.render.kit.fonts import printable
from bot.variants import shown
from engine.players import computer_number
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


def computer_name(tr: Translate, number: int) -> str:
    """Computer player `number`'s name: «Компьютер 2», "Computer 2"."""
    return tr(COMPUTER_NAME).format(number=number)


def localized_name(tr: Translate, name: str) -> str:
    """A player's name as shown: a computer player's in `tr`'s language (the game keeps
    a mark for it, `engine.players`), a person's as it is."""
    number = computer_number(name)
    return name if number is None else computer_name(tr, number)


def winner_names(tr: Translate, view: SeatView) -> str:
    return ", ".join(player_name(tr, view, seat) for seat in view.standings.winners)


def signed(number: int) -> str:
    return f"+{number}" if number > 0 else f"−{-number}" if number < 0 else "0"
