"""A match's notes are codes; their words are chosen when a board caption shows them."""

from __future__ import annotations

from typing import get_args

import pytest

from bot.delivery.group.caption import board_caption
from bot.i18n import translator
from bot.storage.models import NOTES_KEPT, GroupDelivery, Match, Note, NoteCode, Seat
from bot.telegram.note_texts import NOTE_TEXTS, note_text
from engine import Game, view_for

RU, EN = translator("ru"), translator("en")


def test_every_code_has_words_in_every_language() -> None:
    assert set(NOTE_TEXTS) == set(get_args(NoteCode)) - {"text"}
    for code in NOTE_TEXTS:
        note = Note(code=code, name="Андрей")  # type: ignore[arg-type]
        russian, english = note_text(RU, note), note_text(EN, note)
        assert russian.startswith("Андрей") and english.startswith("Андрей")
        assert russian != english and "{" not in russian + english


@pytest.mark.parametrize(
    ("note", "russian", "english"),
    [
        (
            Note(code="timed_out", name="Ирина"),
            "Ирина: время вышло, ход сделан автоматически.",
            "Ирина ran out of time; the move was made for them.",
        ),
        (
            Note(code="missed_turns", name="Ирина"),
            "Ирина пропускает третий ход подряд — место занимает компьютер.",
            "Ирина missed three turns; the computer plays for them now.",
        ),
        # A name holding braces is a name, not a placeholder.
        (
            Note(code="left", name="{x}"),
            "{x} выходит из игры — место занимает компьютер.",
            "{x} left; the computer plays for them.",
        ),
        # A note kept as a sentence by an earlier release: as it was written, in any language.
        (
            Note(code="text", text="Андрей: время вышло."),
            "Андрей: время вышло.",
            "Андрей: время вышло.",
        ),
    ],
)
def test_a_note_in_words(note: Note, russian: str, english: str) -> None:
    assert note_text(RU, note) == russian
    assert note_text(EN, note) == english


def test_a_caption_tells_the_notes_since_the_last_one_in_the_chats_language_now() -> None:
    game = Game.new("fives", ["Андрей", "Ирина"], seed=5)
    match = Match(id="g", chat_id=-1, creator_id=1, status="playing", lang="ru")
    match.seats = [Seat(name="Андрей", user_id=1), Seat(name="Ирина", user_id=2)]
    match.add_note(Note(code="timed_out", name="Андрей"))
    match.add_note(Note(code="text", text="Ирина <b>ушла</b>."))
    shown = GroupDelivery(game_id="g")
    view = view_for(game)
    for tr, told in ((RU, "Андрей: время вышло"), (EN, "Андрей ran out of time")):
        caption = board_caption(match, game, view, tr, shown, 1, False)
        assert told in caption
        assert "Ирина &lt;b&gt;ушла&lt;/b&gt;." in caption  # escaped: the caption is HTML
    shown.notes_shown = 1  # the first one was told already
    caption = board_caption(match, game, view, RU, shown, 1, False)
    assert "время вышло" not in caption and "ушла" in caption


def test_only_the_last_notes_are_kept_and_counted_on() -> None:
    match = Match(id="g", chat_id=-1, creator_id=1)
    for number in range(NOTES_KEPT + 3):
        match.add_note(Note(code="left", name=str(number)))
    assert len(match.notes) == NOTES_KEPT and match.notes_dropped == 3
    assert match.notes_total == NOTES_KEPT + 3
    assert match.notes_since(NOTES_KEPT + 1) == [
        Note(code="left", name=str(NOTES_KEPT + 1)),
        Note(code="left", name=str(NOTES_KEPT + 2)),
    ]
    assert match.notes_since(0)[0] == Note(code="left", name="3")
