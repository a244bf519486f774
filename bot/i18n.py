"""Translations: gettext catalogs (Babel .po files) for Russian and English.

Message ids are the English texts. The .po files are compiled in memory when
first used, so nothing binary is committed or built at install time.
"""

from __future__ import annotations

import gettext
import io
from dataclasses import dataclass
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Literal, get_args

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

# The languages the bot speaks: each has its catalog (locales/<lang>) and its rules pages
# (rulebook/<lang>). Everything that lists them (settings, /lang, its words) reads them here.
Language = Literal["ru", "en"]
LANGUAGES: tuple[Language, ...] = get_args(Language)
DEFAULT_LANGUAGE: Language = "ru"


@dataclass(frozen=True)
class Translator:
    """`tr("text")` translates; `tr.n("one", "many", n)` picks the plural form."""

    lang: str
    catalog: gettext.NullTranslations

    def __call__(self, message: str) -> str:
        return self.catalog.gettext(message)

    def n(self, singular: str, plural: str, count: int) -> str:
        return self.catalog.ngettext(singular, plural, count)


def normalize(code: str | None, fallback: str = DEFAULT_LANGUAGE) -> str:
    """A supported language for a Telegram `language_code` such as "en-GB"."""
    if not code:
        return fallback
    base = code.split("-")[0].split("_")[0].lower()
    if base in LANGUAGES:
        return base
    # Speakers of the region's other languages read Russian more often than English.
    return "ru" if base in {"uk", "be", "kk", "uz", "ky", "tg", "hy", "az", "ka"} else "en"


@cache
def translator(lang: str) -> Translator:
    lang = lang if lang in LANGUAGES else DEFAULT_LANGUAGE
    return Translator(lang, compiled(resources.files("bot") / "locales", lang))


def compiled(locales: Traversable, lang: str) -> gettext.GNUTranslations:
    """The catalog `locales/<lang>/LC_MESSAGES/messages.po`, compiled in memory."""
    with (locales / lang / "LC_MESSAGES" / "messages.po").open("rb") as source:
        catalog = read_po(source, locale=lang)
    mo = io.BytesIO()
    write_mo(mo, catalog)
    mo.seek(0)
    return gettext.GNUTranslations(mo)


def add_words(locales: Traversable) -> None:
    """Catalogs in a folder laid out like bot/locales, asked for the messages the bot's
    own catalogs lack: the words of a game defined outside the product."""
    for lang in LANGUAGES:
        if (locales / lang / "LC_MESSAGES" / "messages.po").is_file():
            translator(lang).catalog.add_fallback(compiled(locales, lang))


def N_(message: str) -> str:
    """Marks a text for extraction where it is translated later."""
    return message
