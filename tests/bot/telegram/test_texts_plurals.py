"""Plural forms: every counted message takes Russian's three forms and English's two.

«1 очко», «2 очка», «5 очков», «21 очко», «до 51 очка», «2 кости» — never «до 51 очков».
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po

from bot.i18n import LANGUAGES, translator
from bot.render import PLURALS

LOCALES = Path(__file__).resolve().parents[3] / "bot" / "locales"
COUNTS = (*range(31), 101, 111)
# Any number a plural message may carry: the counted one and the others alike.
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def russian_form(n: int) -> int:
    """CLDR's Russian rule, written out here rather than read from the catalog's header."""
    if n % 10 == 1 and n % 100 != 11:
        return 0  # one: 1, 21, 101
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return 1  # few: 2-4, 22-24, 102
    return 2  # many: 0, 5-20, 25-30, 111


@cache
def catalog(lang: str) -> Catalog:
    with (LOCALES / lang / "LC_MESSAGES" / "messages.po").open("rb") as source:
        return read_po(source, locale=lang)


def plural_entries(lang: str) -> list[Message]:
    return [m for m in catalog(lang) if m.id and isinstance(m.id, tuple)]


def filled(text: str, n: int) -> str:
    return text.format(**{name: n for name in PLACEHOLDER.findall(text)})


def test_the_catalogs_declare_babels_plural_rules() -> None:
    assert catalog("ru").num_plurals == 3
    assert catalog("en").num_plurals == 2
    header = catalog("ru").plural_forms
    assert header.startswith("nplurals=3;") and "n % 10 == 1" in header


def test_every_plural_message_of_the_pictures_is_in_both_catalogs_with_all_forms() -> None:
    for lang in LANGUAGES:
        found = {m.id for m in plural_entries(lang)}
        assert set(PLURALS) <= found, lang
    for entry in plural_entries("ru"):
        forms = entry.string
        assert isinstance(forms, tuple) and len(forms) == 3 and all(forms), entry.id
        assert len(set(forms)) >= 2, entry.id  # the forms differ somewhere


def test_there_are_plural_messages_to_check() -> None:
    ids = {m.id for m in plural_entries("ru")}
    assert ("to {target} point", "to {target} points") in ids
    assert ("drew {count} tile", "drew {count} tiles") in ids
    assert len(ids) >= 9


@pytest.mark.parametrize("n", COUNTS)
def test_russian_picks_the_right_form_for_every_count(n: int) -> None:
    tr = translator("ru")
    for entry in plural_entries("ru"):
        singular, many = entry.id
        shown = tr.n(singular, many, n)
        assert shown == entry.string[russian_form(n)], (entry.id, n)
        assert filled(shown, n)  # formats with the number


@pytest.mark.parametrize("n", COUNTS)
def test_english_has_one_and_many(n: int) -> None:
    tr = translator("en")
    for entry in plural_entries("en"):
        singular, many = entry.id
        assert tr.n(singular, many, n) == (singular if n == 1 else many), (entry.id, n)


@pytest.mark.parametrize(
    ("n", "expected"),
    [
        (1, "до 1 очка"),
        (11, "до 11 очков"),
        (20, "до 20 очков"),
        (21, "до 21 очка"),
        (25, "до 25 очков"),
        (51, "до 51 очка"),
        (100, "до 100 очков"),
        (101, "до 101 очка"),
        (111, "до 111 очков"),
    ],
)
def test_the_lobby_target_reads_as_russian(n: int, expected: str) -> None:
    tr = translator("ru")
    assert tr.n("to {target} point", "to {target} points", n).format(target=n) == expected


@pytest.mark.parametrize(
    ("n", "noun"),
    [
        (1, "очко"),
        (2, "очка"),
        (4, "очка"),
        (5, "очков"),
        (11, "очков"),
        (12, "очков"),
        (21, "очко"),
        (22, "очка"),
        (25, "очков"),
        (101, "очко"),
        (111, "очков"),
        (0, "очков"),
    ],
)
def test_points_for_going_out_read_as_russian(n: int, noun: str) -> None:
    tr = translator("ru")
    text = tr.n(
        "{name}: +{points} point for going out", "{name}: +{points} points for going out", n
    ).format(name="Ирина", points=n)
    assert text.startswith(f"Ирина: +{n} {noun} ")


@pytest.mark.parametrize(
    ("n", "expected"),
    [
        (1, "1 кость"),
        (2, "2 кости"),
        (3, "3 кости"),
        (5, "5 костей"),
        (11, "11 костей"),
        (14, "14 костей"),
        (21, "21 кость"),
        (22, "22 кости"),
    ],
)
def test_tiles_drawn_read_as_russian(n: int, expected: str) -> None:
    tr = translator("ru")
    text = tr.n("drew {count} tile", "drew {count} tiles", n).format(count=n)
    assert text.endswith(expected)


def test_passes_and_penalties_read_as_russian() -> None:
    tr = translator("ru")
    one, many = (
        "{name}: {count} pass, +{points} penalty points",
        ("{name}: {count} passes, +{points} penalty points"),
    )
    shown = [tr.n(one, many, n).format(name="Ира", count=n, points=10 * n) for n in (1, 3, 5)]
    assert shown == [
        "Ира: 1 пас — штраф +10",
        "Ира: 3 паса — штраф +30",
        "Ира: 5 пасов — штраф +50",
    ]
    cost = tr.n(
        "No tile fits: a pass costs {points} penalty point.",
        "No tile fits: a pass costs {points} penalty points.",
        10,
    ).format(points=10)
    assert cost == "Ходить нечем: пас — это 10 штрафных очков."


# A number placeholder right before a counted noun: that message needs plural forms.
COUNTED = re.compile(r"\{\w+\}\s+(очк\w*|кост\w*|пас\w*|дубл\w*|ход\w*|секунд\w*|минут\w*)")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_plain_message_counts_a_noun_after_a_number(lang: str) -> None:
    """«до {target} очков» in a plain message is wrong for 51: such texts use ngettext."""
    problems = []
    for entry in catalog(lang):
        if not entry.id or isinstance(entry.id, tuple):
            continue
        text = entry.string or entry.id
        assert isinstance(text, str)
        if COUNTED.search(text) or re.search(r"\{\w+\} (points|tiles|passes)\b", text):
            problems.append(text)
    assert problems == []
