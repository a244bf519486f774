"""This project's rules of each game, as the /rules command shows them (Telegram HTML).

/rules with no game named opens on the game of its chat (its lobby, running game or
the one just finished): that is the one its players want to read up on.
"""

from __future__ import annotations

from functools import cache
from importlib import resources

from bot.i18n import DEFAULT_LANGUAGE, LANGUAGES

VARIANTS = ("fives", "muggins", "twolane")


@cache
def text(lang: str, variant: str) -> str:
    lang = lang if lang in LANGUAGES else DEFAULT_LANGUAGE
    variant = variant if variant in VARIANTS else VARIANTS[0]
    page = resources.files("bot") / "rulebook" / lang / f"{variant}.html"
    return page.read_text(encoding="utf-8").strip()


def opening_variant(asked: str, played: str | None) -> str:
    """The game /rules opens on: the one asked for, else the chat's game, else the first."""
    if asked in VARIANTS:
        return asked
    return played if played in VARIANTS else VARIANTS[0]
