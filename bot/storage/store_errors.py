"""What storage raises. The game layer re-exports these (bot.game.match_errors) for the
handlers, which know no storage."""

from __future__ import annotations


class StoreError(Exception):
    """Storage failed; nothing was changed."""


class BrokenGameError(StoreError):
    """The stored game cannot be read (corrupted or from an incompatible version).

    `raw`: the bytes that could not be read (None if not known), so that exactly
    those can be set aside. `code`: what the people in the chat are told.
    """

    code = "broken_game"

    def __init__(self, message: str, raw: bytes | None = None) -> None:
        super().__init__(message)
        self.raw = raw


class NewerGameError(BrokenGameError):
    """The stored game is of a newer release (a rolling deploy): left for its processes."""

    code = "newer_game"


class GameLostError(BrokenGameError):
    """The stored game could not be read and was set aside: the chat may start a new one."""

    code = "game_lost"


class ConflictError(StoreError):
    """Too many concurrent writers: the change was given up."""
