"""The people the rules are about: a Telegram user as the game needs him, and his seat."""

from __future__ import annotations

from dataclasses import dataclass

from bot.storage.models import Match, Seat


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
