"""The engine's errors: one class per kind of failure, each with a stable code.

The code doubles as the bot's translation key; the message is for logs, records
and the replay command.
"""

from __future__ import annotations

# The most of a refused value an error message repeats (a record's move may be 100,000
# characters long: the one-line error of `domino-replay` must stay one readable line).
QUOTE_LIMIT = 200


def quoted(value: object, limit: int = QUOTE_LIMIT) -> str:
    """`value` as `repr` shows it, cut to `limit` characters with an ellipsis where it
    was cut (a text keeps its closing quote, so it still reads as quoted)."""
    shown = repr(value)
    if len(shown) <= limit:
        return shown
    if isinstance(value, str):
        return shown[: limit - 2] + "…" + shown[-1]
    return shown[: limit - 1] + "…"


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
