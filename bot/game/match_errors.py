"""What reading or changing a match may raise, for the layers above the game (the
handlers know no storage)."""

from __future__ import annotations

from bot.storage.store_errors import (
    BrokenGameError,
    ConflictError,
    GameLostError,
    NewerGameError,
    StoreError,
)

__all__ = ["BrokenGameError", "ConflictError", "GameLostError", "NewerGameError", "StoreError"]
