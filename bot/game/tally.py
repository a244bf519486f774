"""A chat's tables, as the game keeps them: a finished match is added to the stats and
rated here, once (the service does it before the delivery hears the match ended), and
its final table reads the changes back."""

from __future__ import annotations

import contextlib

from bot.game import ratings, score_lines
from bot.game.match_records import Current
from bot.storage.models import RatingLine, StatLine
from bot.storage.scores import Scores
from bot.storage.store_errors import StoreError


class Tally:
    def __init__(self, scores: Scores) -> None:
        self.scores = scores

    async def count(self, current: Current) -> None:
        """A finished match counts in its chat's stats and ratings (once, whoever calls)."""
        lines = score_lines.stat_lines(current.match, current.game)
        if lines is None or current.game is None:
            return
        match = current.match
        await self.scores.add_to_stats(match.chat_id, match.id, lines)
        await ratings.rate_once(self.scores, match, current.game)

    async def final_changes(self, current: Current) -> dict[int, int] | None:
        """What the finished match changed of its people's ratings, by user id (None: it
        is not rated). Read as counting stored it; should nothing be stored yet (the
        process that ended the match died before it counted it), it is counted now."""
        match, game = current.match, current.game
        if game is None or ratings.finishing_ranks(match, game) is None:
            return None
        changes = await self.scores.rating_changes(match.chat_id, match.id)
        if changes is None:
            with contextlib.suppress(StoreError):  # then drawn without; it counts later
                await self.count(current)
            changes = await self.scores.rating_changes(match.chat_id, match.id)
        return changes

    async def stats(self, chat_id: int) -> dict[int, StatLine]:
        return await self.scores.stats(chat_id)

    async def ratings(self, chat_id: int) -> dict[str, dict[int, RatingLine]]:
        """The chat's ratings of every variant."""
        return await ratings.chat_ratings(self.scores, chat_id)
