"""The engine state of stored matches, parsed once per process and kept up to date.

A match stores its game as `engine.pack()` text, which only ever grows at the
end as the game goes on. This process keeps the last game it saw of each match:
reading a later version then applies just the moves made since
(`engine.catch_up`) instead of replaying the whole match.
"""

from __future__ import annotations

from collections import OrderedDict

from engine import Game, StateError, catch_up, pack, unpack

KEPT = 1024  # matches remembered (a few KB each)


class EngineCache:
    def __init__(self, size: int = KEPT) -> None:
        self.size = size
        self._games: OrderedDict[str, tuple[str, Game]] = OrderedDict()

    def game(self, match_id: str, text: str) -> Game:
        """The game `text` describes, as a new object the caller may change.

        Raises `engine.StateError` if the text cannot be read.
        """
        found = self._games.get(match_id)
        if found is not None:
            known, game = found
            if known == text:
                self._games.move_to_end(match_id)
                return game.copy()
            if text.startswith(known):
                try:
                    game = catch_up(game.copy(), known, text)
                except StateError:
                    game = unpack(text)
                self._keep(match_id, text, game)
                return game.copy()
        game = unpack(text)
        self._keep(match_id, text, game)
        return game.copy()

    def keep(self, match_id: str, game: Game, text: str | None = None) -> str:
        """Remember `game` (which the caller must not change any more); its text (`text`:
        its `pack()`, if the caller has it already)."""
        text = pack(game) if text is None else text
        self._keep(match_id, text, game)
        return text

    def _keep(self, match_id: str, text: str, game: Game) -> None:
        self._games[match_id] = (text, game)
        self._games.move_to_end(match_id)
        while len(self._games) > self.size:
            self._games.popitem(last=False)
