"""The languages the bot speaks, listed once (bot.i18n): each has its catalog and rules
pages, the settings take exactly them, and the words that name them are written from the
list (no message id spells them by hand)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import get_args

import pytest
from babel.messages.pofile import read_po
from pydantic import ValidationError

from bot.i18n import DEFAULT_LANGUAGE, LANGUAGES, translator
from bot.settings import Settings
from bot.telegram import command_texts
from bot.telegram.command_texts import LANG, choose_language, line

BOT = Path(__file__).resolve().parents[3] / "bot"
SOURCE = "en"  # the message ids' language: its catalog needs no translations
TOKEN = "123456:" + "a" * 35


def folders(path: Path) -> set[str]:
    return {child.name for child in path.iterdir() if child.is_dir()}


def test_each_language_has_its_catalog_and_rules_pages_and_no_other_has() -> None:
    assert set(LANGUAGES) == folders(BOT / "locales") == folders(BOT / "rulebook")
    assert DEFAULT_LANGUAGE in LANGUAGES and SOURCE in LANGUAGES


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != SOURCE])
def test_each_language_translates_every_text(lang: str) -> None:
    with (BOT / "locales" / "messages.pot").open("rb") as source:
        template = read_po(source)
    with (BOT / "locales" / lang / "LC_MESSAGES" / "messages.po").open("rb") as source:
        catalog = read_po(source, locale=lang)
    missing = []
    for message in template:
        if not message.id:
            continue
        entry = catalog.get(message.id)
        if entry is None or entry.fuzzy:
            missing.append(message.id)
            continue
        strings = entry.string if isinstance(entry.string, tuple) else (entry.string,)
        if not all(strings):
            missing.append(message.id)
    assert missing == []


def test_the_settings_take_exactly_the_languages() -> None:
    annotation = Settings.model_fields["default_language"].annotation
    assert get_args(annotation) == LANGUAGES
    for lang in LANGUAGES:
        settings = Settings(_env_file=None, telegram_bot_token=TOKEN, default_language=lang)  # type: ignore[call-arg]
        assert settings.default_language == lang
    with pytest.raises(ValidationError):
        Settings(_env_file=None, telegram_bot_token=TOKEN, default_language="xx")  # type: ignore[call-arg]


def test_no_message_id_spells_the_languages() -> None:
    with (BOT / "locales" / "messages.pot").open("rb") as source:
        template = read_po(source)
    codes = re.compile(r"\b(" + "|".join(LANGUAGES) + r")\b")
    spelled = [
        form
        for message in template
        for form in (message.id if isinstance(message.id, tuple) else (message.id,))
        if codes.search(form)
    ]
    assert spelled == []


def test_the_words_naming_the_languages_say_them_as_before() -> None:
    ru, en = translator("ru"), translator("en")
    assert line(ru, LANG.menu or "") == "Язык: ru или en"
    assert line(en, LANG.menu or "") == "Language: ru or en"
    assert line(ru, LANG.help or "") == "/lang ru|en — язык"
    assert line(en, LANG.help or "") == "/lang ru|en — language"
    assert choose_language(ru) == "Выберите язык: /lang ru или /lang en"
    assert choose_language(en) == "Choose a language: /lang ru or /lang en"


def test_the_words_naming_the_languages_follow_the_list(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(command_texts, "LANGUAGES", (*LANGUAGES, "de"))
    ru, en = translator("ru"), translator("en")
    assert line(ru, LANG.menu or "") == "Язык: ru, en или de"
    assert line(en, LANG.menu or "") == "Language: ru, en, or de"
    assert line(en, LANG.help or "") == "/lang ru|en|de — language"
    assert choose_language(ru) == "Выберите язык: /lang ru, /lang en или /lang de"
