"""What a rule of the bot decides: a change to store, nothing to do, or a refusal.

The rules (`lobby`, `turns`, `chats`) are plain functions of the match as stored,
its engine game and what was asked; they never change what they are given. The
game service stores a `Change`, stores nothing for `UNCHANGED`, and raises a
`Refusal` for the handlers to answer.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any, TypeAlias

from bot.storage.models import Match
from engine import Game, MoveEntry


class Refusal(Exception):
    """A user's request the rules of the bot or the game do not allow; nothing changed.

    A rule returns it; the service raises it. `code` is a key of
    `bot.telegram.texts.REFUSALS` (and of engine error codes). Two refusals are equal
    when they say the same.
    """

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Refusal):
            return NotImplemented
        return (self.code, self.params) == (other.code, other.params)

    def __hash__(self) -> int:
        return hash(self.code)

    def __repr__(self) -> str:
        params = "".join(f", {key}={value!r}" for key, value in self.params.items())
        return f"Refusal({self.code!r}{params})"


class Kept(Enum):
    """The engine game of a change that leaves it as it was."""

    KEPT = "kept"


KEPT = Kept.KEPT


@dataclass(frozen=True)
class Change:
    """The match to store (a new object: the rule's input stays as it was), its engine
    game (KEPT: the one it had; None: none yet), and the moves the change made."""

    match: Match
    game: Game | Kept | None = KEPT
    entries: tuple[MoveEntry, ...] = ()


@dataclass(frozen=True)
class Unchanged:
    """Nothing to do: the request is met already, or no longer due."""


UNCHANGED = Unchanged()

Outcome: TypeAlias = Change | Unchanged | Refusal
