"""The words of a match's notes (the events a board caption tells), chosen when shown."""

from __future__ import annotations

from bot.i18n import N_, Translator
from bot.storage.models import Note

NOTE_TEXTS = {
    "timed_out": N_("{name} ran out of time; the move was made for them."),
    "missed_turns": N_("{name} missed three turns; the computer plays for them now."),
    "left": N_("{name} left; the computer plays for them."),
    # His private chat refused the bot: he never opened it, or blocked the bot.
    "blocked_bot": N_(
        "{name}: the bot cannot write to their private chat; the computer plays for them."
    ),
}


def note_text(tr: Translator, note: Note) -> str:
    """The note as people read it (plain text): a "text" note as it was written."""
    if note.code == "text":
        return note.text
    return tr(NOTE_TEXTS[note.code]).format(name=note.name)
