"""One name per game in each language (issue "Edges", point 7): the registry's title.

`bot.variants` gives each game one title; the lobby, the buttons, the pictures, the
captions, /rules, /stats and the private messages all show it, and so do the rulebook
pages and the documents. A word that begins like a game's name («Пятёрки», «пятерном»,
«Muggins») anywhere else than inside that exact title is a second spelling, and fails
here: in every catalog entry, every rulebook page, every document, and every text and
button the bot builds for a game.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from bot.i18n import LANGUAGES, translator
from bot.render import board_text, final_text
from bot.storage.models import Match, RatingLine, Seat, StatLine
from bot.telegram import command_texts, notify_texts, rating_texts, texts
from bot.variants import shown
from engine import Game, view_for
from engine.variants import VARIANTS
from tests.bot.conftest import every_keyboard

ROOT = Path(__file__).resolve().parents[1]
PRODUCT = ("fives", "muggins", "twolane")
# Words that begin like a game's name and are not one: the fives' scoring term
# «пятёрка» (ends adding up to a multiple of 5).
TERMS = {"пятерка"}
DOCUMENTS = [ROOT / "README.md", ROOT / "deploy" / "README.md", *sorted(ROOT.glob("docs/*.md"))]


def fold(word: str) -> str:
    return word.replace("ё", "е").replace("Ё", "Е").lower()


def titles(lang: str) -> dict[str, str]:
    """Each product game's one name in `lang`."""
    tr = translator(lang)
    return {variant: tr(shown(variant).title) for variant in PRODUCT}


def stems(names: Iterable[str]) -> set[str]:
    """How a game's name begins: the first five letters of each title's first word."""
    return {fold(name.split()[0])[:5] for name in names}


def second_spellings(text: str, names: Iterable[str]) -> list[str]:
    """The words of `text` that begin like a game's name outside an exact title (a
    command's argument, `/newgame fives`, names a game by its id and is left out)."""
    names = list(names)
    rest = re.sub(r"<code>.*?</code>|/\w+ (?:fives|muggins|twolane)", " ", text)
    for name in sorted(names, key=len, reverse=True):
        rest = rest.replace(name, " ")
    begins = stems(names)
    words = re.findall(r"[^\W\d_][\w-]*", rest)
    return [w for w in words if fold(w)[:5] in begins and fold(w) not in TERMS]


def test_the_checker_finds_a_second_spelling() -> None:
    names = ["Пятерное домино", "Пятёрки (до 51)", "Двухполосное домино"]
    assert second_spellings("Лобби · Пятёрки (до 51) · Пятерное домино", names) == []
    assert second_spellings("«пятёрка» даёт +4; /newgame muggins", names) == []
    found = "Пятёрки, до 51 · лучший отрыв в пятерном · Двухполосное"
    assert second_spellings(found, names) == ["Пятёрки", "пятерном", "Двухполосное"]


def test_each_game_has_one_name_in_each_language() -> None:
    for lang in LANGUAGES:
        names = titles(lang)
        assert len(set(names.values())) == len(PRODUCT), (lang, names)
        assert all(names.values()), (lang, names)
    assert titles("ru") == {
        "fives": "Пятерное домино",
        "muggins": "Пятёрки (до 51)",
        "twolane": "Двухполосное домино",
    }


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_catalog_entry_spells_a_game_otherwise(lang: str) -> None:
    with (ROOT / "bot" / "locales" / lang / "LC_MESSAGES" / "messages.po").open("rb") as f:
        catalog = read_po(f, locale=lang)
    shown_texts: list[str] = []
    for message in catalog:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        # English texts are the message ids (the English catalog leaves them untranslated).
        shown_texts += [s for s in strings if s] or list(ids)
    assert len(shown_texts) > 200
    names = titles(lang).values()
    assert [
        (t, second_spellings(t, names)) for t in shown_texts if second_spellings(t, names)
    ] == []


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("variant", PRODUCT)
def test_each_rulebook_page_opens_with_its_game_s_name(lang: str, variant: str) -> None:
    page = (ROOT / "bot" / "rulebook" / lang / f"{variant}.html").read_text(encoding="utf-8")
    names = titles(lang)
    assert page.startswith(f"<b>{names[variant]}</b> · "), page.splitlines()[0]
    assert second_spellings(page, names.values()) == []


@pytest.mark.parametrize("path", DOCUMENTS, ids=[str(p.relative_to(ROOT)) for p in DOCUMENTS])
def test_the_documents_name_each_game_as_the_bot_does(path: Path) -> None:
    """The documents are English and name the games by their Russian names."""
    text = path.read_text(encoding="utf-8")
    assert second_spellings(text, titles("ru").values()) == []


def a_match(variant: str, status: str = "playing") -> Match:
    return Match(
        id="g1",
        chat_id=-100123,
        creator_id=1,
        creator_name="Андрей",
        variant=variant,
        status=status,  # type: ignore[arg-type]
        seats=[Seat(name="Андрей", user_id=1), Seat(name="Ирина", user_id=2)],
        chat_title="Домино",
    )


def built_texts(lang: str) -> list[str]:
    """What the bot builds that names a game: the lobby and its call, the board, the
    final table, a hand, /newgame's list of games, /stats and /top, every button."""
    tr = translator(lang)
    found: list[str] = []
    for variant in PRODUCT:
        game = Game.new(variant, ["Андрей", "Ирина"], seed=3)
        while not game.over:
            game.push(game.legal_moves()[0])
        match = a_match(variant)
        found += [
            texts.lobby_text(a_match(variant, "lobby"), tr),
            notify_texts.call(tr, match),
            texts.hand_caption(match, view_for(game, 0), tr, live=False),
            board_text(view_for(game), tr),
            final_text(view_for(game), tr),
        ]
    found.append(command_texts.unknown_game(tr, "newgame", VARIANTS))
    ratings = {v: {1: RatingLine(name="Андрей", mu=25.0, sigma=8.0, games=1)} for v in PRODUCT}
    line = StatLine(name="Андрей", games=2, wins=1, points=30, best_record=12)
    found += [rating_texts.stats_text(tr, {1: line}, ratings), rating_texts.top_text(tr, ratings)]
    for markup in every_keyboard(lang):
        found += [button.text for row in markup.inline_keyboard for button in row]
    return found


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_text_and_button_the_bot_builds_names_a_game_one_way(lang: str) -> None:
    names = titles(lang)
    built = built_texts(lang)
    for variant, name in names.items():  # each game is named somewhere: the check reads
        assert sum(name in text for text in built) >= 5, (variant, name)
    assert [
        (t, second_spellings(t, names.values()))
        for t in built
        if second_spellings(t, names.values())
    ] == []
