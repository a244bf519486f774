"""The people the rules are about: a Telegram user as the game needs him, and his seat."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from bot.storage.models import Match, Seat

NAME_LENGTH = 40
# Characters a client shows as nothing (besides spaces and format characters): a name of
# only these is no name.
_BLANK = frozenset("\u115f\u1160\u2800\u3164\uffa0\u180e")


@dataclass(frozen=True)
class Person:
    """A Telegram user as the service needs him (`lang`: his private chat's language)."""

    user_id: int
    name: str
    lang: str

    def seat(self) -> Seat:
        """His place at a table."""
        return Seat(name=self.name, user_id=self.user_id, lang=self.lang)


def playing(match: Match | None) -> frozenset[int]:
    """The people a lobby or a running game seats as players now (not those whose seat
    the computer took over); nobody, once it ended."""
    if match is None or not match.active:
        return frozenset()
    return frozenset(s.user_id for s in match.seats if s.user_id is not None and not s.computer)


def clean_text(text: object) -> str:
    """`text` as one line without control characters; "" if it shows nothing."""
    if not isinstance(text, str):
        return ""
    kept = "".join(ch for ch in text if unicodedata.category(ch) != "Cc")
    line = " ".join(kept.split())
    visible = any(
        not ch.isspace() and ch not in _BLANK and unicodedata.category(ch) != "Cf" for ch in line
    )
    return line if visible else ""


def visible_name(first_name: object, last_name: object, username: object) -> str:
    """A Telegram user's own name as it shows ("" if he has none that does): his first and
    last names, else his username. The same for an update's user and the live table's."""
    parts = (clean_text(first_name), clean_text(last_name))
    name = " ".join(part for part in parts if part)[:NAME_LENGTH].strip()
    return name or clean_text(username)[:NAME_LENGTH]
