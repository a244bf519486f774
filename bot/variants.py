"""What the bot shows of each game in `engine.VARIANTS`: its title and its /rules pages.

The engine holds the rules and nothing a person reads; the words are the bot's, so
they live here, keyed by `Ruleset.name`. A game has one name in each language, the
same in the lobby, the buttons, the pictures, the captions, /rules, /stats and every
private message: its title, a message id of the bot's catalogs. Its pages are
`bot/rulebook/<lang>/<name>.html`, which open with that title. A game defined outside
the product (registered with `engine.variants.register`) is described with
`describe`, which may name the folders of its own pages and words.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable

from bot.i18n import N_, add_words
from engine.variants import VARIANTS, Fives, Muggins, Twolane, ruleset

RULEBOOK = resources.files("bot") / "rulebook"


@dataclass(frozen=True, slots=True)
class Shown:
    """How one game is named and explained."""

    title: str  # message id: the game's one name, «Fives» («Пятерное домино»)
    pages: Traversable  # holds <lang>/<name>.html, the game's /rules page (Telegram HTML)


_SHOWN: dict[str, Shown] = {}


def describe(
    name: str,
    title: str,
    pages: Traversable = RULEBOOK,
    words: Traversable | None = None,
) -> None:
    """Give the registered game `name` its title and the folder of its /rules pages;
    `words`: a folder of catalogs like bot/locales, for titles the bot's own lack."""
    ruleset(name)  # a ValueError for a game the engine does not know
    _SHOWN[name] = Shown(title, pages)
    if words is not None:
        add_words(words)


def shown(name: str) -> Shown:
    """How the game `name` is shown (a game nobody described: by its name)."""
    found = _SHOWN.get(name)
    return found if found is not None else Shown(name, RULEBOOK)


def first_variant() -> str:
    """The game offered first: the lobby's game when none is named."""
    return next(iter(VARIANTS))


describe(Fives.name, N_("Fives"))
describe(Muggins.name, N_("Muggins (to 51)"))
describe(Twolane.name, N_("Two-lane dominoes"))
