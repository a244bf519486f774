"""The names the ends had when each move of a round was made.

Captions and the board's panel list the latest moves with the end each tile went
to, named as the player saw it at the time: its colour, and the arrow its button
showed just before the move (`bot.render.words.ends`), not the arrow it shows now.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache

from bot.render.words.ends import EndName, end_names
from engine.ai.greedy import laid
from engine.moves import Doubles, Play, parse_move
from engine.table import Table
from engine.tiles import End
from engine.variants import ruleset


def names_before(variant: str, moves: Sequence[str], first: int = 0) -> list[dict[End, EndName]]:
    """For each of `moves[first:]` (a round's moves in record notation), the name of
    every end open just before it."""
    played = tuple(moves)
    return [
        end_names(_table_after(variant, played[:index]), variant)
        for index in range(first, len(played))
    ]


# Every caption and view names a round's latest moves: the tables before them are those
# of a move ago plus one, kept here rather than replayed from the round's first move each
# time. Sized for a few hundred games: each one's latest few tables. (Never changed: the
# tables kept are only read.)
@lru_cache(maxsize=2048)
def _table_after(variant: str, moves: tuple[str, ...]) -> Table:
    """The round's table once `moves` are made."""
    if not moves:
        return Table()
    before = _table_after(variant, moves[:-1])
    move = parse_move(moves[-1])
    if isinstance(move, Play | Doubles):
        return laid(ruleset(variant), before, move)
    return before


def names_at(
    variant: str, moves: Sequence[str], indexes: Iterable[int]
) -> dict[int, dict[End, EndName]]:
    """The name of every end open just before each of the moves numbered `indexes`, by
    that number: one replay of the round for them all."""
    wanted = sorted(set(indexes))
    if not wanted:
        return {}
    first = wanted[0]
    found = names_before(variant, moves[: wanted[-1] + 1], first)
    return {index: found[index - first] for index in wanted}
