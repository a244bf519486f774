"""This project's rules of each game, as the /rules command shows them (Telegram HTML)."""

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
