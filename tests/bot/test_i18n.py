"""Translations: every text the bot can show has its Russian, and languages are chosen well."""

from __future__ import annotations

import ast
import io
import re
from functools import cache
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from bot.game import rulebook as rules
from bot.i18n import DEFAULT_LANGUAGE, LANGUAGES, normalize, translator
from bot.render import MESSAGES
from bot.telegram.texts import REFUSALS
from engine import VARIANTS

BOT = Path(__file__).resolve().parents[2] / "bot"
PLACEHOLDER = re.compile(r"\{(\w*)\}")
# tr("…"), N_("…"), tr.n("one", "many", n); words' plural(tr, "one", "many", n) and
# N_plural("one", "many")
KEYWORDS = {"tr": None, "N_": None, "n": (1, 2), "plural": (2, 3), "N_plural": (1, 2)}


@cache
def catalog(lang: str) -> Catalog:
    with (BOT / "locales" / lang / "LC_MESSAGES" / "messages.po").open("rb") as source:
        return read_po(source, locale=lang)


@cache
def used_ids() -> dict[str | tuple[str, ...], list[str]]:
    """Every message id the code marks, with where: Babel's extraction over bot/."""
    found: dict[str | tuple[str, ...], list[str]] = {}
    for filename, lineno, message, _, _ in extract_from_dir(
        str(BOT), method_map=[("**.py", "python")], keywords=KEYWORDS
    ):
        found.setdefault(message, []).append(f"{filename}:{lineno}")
    return found


def placeholders(text: str) -> list[str]:
    return sorted(PLACEHOLDER.findall(text))


def test_extraction_finds_the_bots_texts() -> None:
    ids = used_ids()
    assert len(ids) > 100
    assert set(REFUSALS.values()) <= set(ids)
    forms = {
        form for message in ids for form in (message if isinstance(message, tuple) else (message,))
    }
    assert set(MESSAGES) <= forms


def test_every_text_has_a_russian_translation_with_the_same_placeholders() -> None:
    ru = catalog("ru")
    problems = []
    for message, where in used_ids().items():
        singular = message[0] if isinstance(message, tuple) else message
        entry = ru.get(singular)
        if entry is None or not entry.string or entry.fuzzy:
            problems.append(f"untranslated {singular!r} ({where[0]})")
            continue
        strings = entry.string if isinstance(entry.string, tuple) else (entry.string,)
        for text in strings:
            if not text or placeholders(text) != placeholders(singular):
                problems.append(f"{singular!r} -> {text!r}: placeholders differ")
    assert problems == []


def test_every_text_is_in_the_english_catalog_too() -> None:
    en = catalog("en")
    missing = [m for m in used_ids() if en.get(m[0] if isinstance(m, tuple) else m) is None]
    assert missing == []


def test_texts_given_to_any_translator_are_extracted() -> None:
    """A translator kept under another name (`group_tr(...)`) is invisible to extraction;
    its literal texts must be marked with N_ (or be in the catalog some other way)."""
    ru = catalog("ru")
    problems = []
    for path in BOT.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            name = getattr(node.func, "id", getattr(node.func, "attr", ""))
            first = node.args[0]
            if (
                name.endswith("_tr")
                and isinstance(first, ast.Constant)
                and isinstance(first.value, str)
                and not ru.get(first.value)
            ):
                problems.append(f"{path.name}:{node.lineno} {first.value!r}")
    assert problems == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_catalogs_compile(lang: str) -> None:
    errors = [(message.id, problems) for message, problems in catalog(lang).check()]
    assert errors == []
    compiled = io.BytesIO()
    write_mo(compiled, catalog(lang))
    assert compiled.getvalue()
    assert translator(lang).lang == lang


def test_the_translators_speak_their_languages() -> None:
    assert translator("ru")("Points") == "Очки"
    assert translator("en")("Points") == "Points"
    assert translator("ru")(REFUSALS["stale_button"]) == "Эта кнопка устарела."


@pytest.mark.parametrize("lang", ["de", "", "xx", "EN", "en-GB"])
def test_unknown_languages_fall_back_to_russian(lang: str) -> None:
    assert translator(lang).lang == DEFAULT_LANGUAGE == "ru"
    assert translator(lang)("Points") == "Очки"


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        ("en-GB", "en"),
        ("en", "en"),
        ("EN_us", "en"),
        ("ru", "ru"),
        ("ru-RU", "ru"),
        ("uk", "ru"),
        ("be", "ru"),
        ("kk", "ru"),
        ("de", "en"),
        ("pt-br", "en"),
        (None, "ru"),
        ("", "ru"),
    ],
)
def test_normalize(code: str | None, expected: str) -> None:
    assert normalize(code) == expected


def test_normalize_uses_the_fallback_given() -> None:
    assert normalize(None, "en") == "en"
    assert normalize("", "en") == "en"


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_the_rulebook_has_every_game_in_every_language(lang: str, variant: str) -> None:
    text = rules.text(lang, variant)
    assert text.startswith("<b>") and len(text) > 300
    assert rules.text("de", variant) == rules.text("ru", variant)


CODE_SPAN = re.compile(r"<code>.*?</code>", re.S)
VARIANT_CODE = re.compile(r"\b(fives|muggins|twolane)\b")


def _russian_texts() -> list[str]:
    texts = [
        form
        for message in catalog("ru")
        if message.id
        for form in (message.string if isinstance(message.string, tuple) else (message.string,))
    ]
    return texts + [rules.text("ru", variant) for variant in VARIANTS]


def test_russian_texts_name_games_in_words_not_codes() -> None:
    """A game's code (fives, muggins, twolane) is a /newgame argument: Russian texts show
    it only as code to type, and call the spinner by the rules' own words."""
    codes = [t for t in _russian_texts() if VARIANT_CODE.search(CODE_SPAN.sub("", t))]
    assert codes == []
    assert [t for t in _russian_texts() if "спиннер" in t.lower()] == []
    typed = [t for t in _russian_texts() if "<code>/newgame fives</code>" in t]
    assert typed, "the fives rules say how to start one"
