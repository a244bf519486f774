"""The engine's errors: one class per kind of failure, each with a stable code.

The code doubles as the bot's translation key; the message is for logs, records
and the replay command.
"""

from __future__ import annotations


class DominoError(ValueError):
    """Base of every error the engine raises on purpose."""

    code = "error"

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code

    @property
    def message(self) -> str:
        return str(self.args[0])


class NotationError(DominoError):
    """A tile or move could not be read at all."""

    code = "bad_notation"


class IllegalMoveError(DominoError):
    """A well-formed move that the rules do not allow now."""

    code = "illegal"


class AmbiguousMoveError(IllegalMoveError):
    """A play written without its end that fits more than one end."""

    code = "ambiguous_end"


class WrongTurnError(IllegalMoveError):
    """A move by a seat that is not the one to act."""

    code = "not_your_turn"


class GameOverError(IllegalMoveError):
    """A move after the game has ended."""

    code = "game_over"


class StateError(DominoError):
    """A stored game state that cannot be read back."""

    code = "bad_state"


class NewerFormatError(StateError):
    """A stored game state in a later format than this engine's: a newer release wrote it."""

    code = "newer_state"


class RecordError(DominoError):
    """A game record the rules do not allow; the message names the place."""

    code = "bad_record"
