"""This project's rules of each game, as the /rules command shows them (Telegram HTML).

/rules with no game named opens on the game of its chat (its lobby, running game or
the one just finished): that is the one its players want to read up on. Each game's
page is found where `bot.variants` says its pages are.
"""

from __future__ import annotations

from functools import cache

from bot.i18n import DEFAULT_LANGUAGE, LANGUAGES
from bot.variants import first_variant, shown
from engine.variants import VARIANTS


@cache
def text(lang: str, variant: str) -> str:
    lang = lang if lang in LANGUAGES else DEFAULT_LANGUAGE
    variant = variant if variant in VARIANTS else first_variant()
    page = shown(variant).pages / lang / f"{variant}.html"
    return page.read_text(encoding="utf-8").strip()


def opening_variant(asked: str, played: str | None) -> str:
    """The game /rules opens on: the one asked for, else the chat's game, else the first."""
    if asked in VARIANTS:
        return asked
    return played if played is not None and played in VARIANTS else first_variant()
