"""The names the ends had when each move of a round was made.

Captions and the board's panel list the latest moves with the end each tile went
to, named as the player saw it at the time: its colour, and the arrow its button
showed just before the move (`bot.render.words.ends`), not the arrow it shows now.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from bot.render.words.ends import EndName, end_names
from engine.ai.greedy import laid
from engine.moves import Doubles, Play, parse_move
from engine.table import Table
from engine.tiles import End
from engine.variants import ruleset


def names_before(variant: str, moves: Sequence[str], first: int = 0) -> list[dict[End, EndName]]:
    """For each of `moves[first:]` (a round's moves in record notation), the name of
    every end open just before it."""
    rules = ruleset(variant)
    table = Table()
    found: list[dict[End, EndName]] = []
    for index, text in enumerate(moves):
        if index >= first:
            found.append(end_names(table, variant))
        if index == len(moves) - 1:
            break  # the table after the last move is not asked for
        move = parse_move(text)
        if isinstance(move, Play | Doubles):
            table = laid(rules, table, move)
    return found


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
