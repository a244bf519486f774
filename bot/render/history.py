"""The arrows the picture showed at the ends when each move of a round was made.

Captions list the latest moves with an arrow for the end each tile went to. That
arrow is the one the player saw there at the time (the picture's, after any
corner: the one his button named), not the arm's own name.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.render.layout import end_arrows
from bot.render.words import EMOJI_ARROWS
from engine.ai.greedy import laid
from engine.moves import Doubles, Play, parse_move
from engine.table import Table
from engine.tiles import End
from engine.variants import ruleset


def arrows_before(variant: str, moves: Sequence[str], first: int = 0) -> list[dict[End, str]]:
    """For each of `moves[first:]` (a round's moves in record notation), the emoji
    arrow of every end open just before it, ready for `play_words`."""
    rules = ruleset(variant)
    lanes = variant == "twolane"
    table = Table()
    found: list[dict[End, str]] = []
    for index, text in enumerate(moves):
        if index >= first:
            shown = end_arrows(table, lanes=lanes)
            found.append({end: EMOJI_ARROWS[arrow] for end, arrow in shown.items()})
        if index == len(moves) - 1:
            break  # the table after the last move is not asked for
        move = parse_move(text)
        if isinstance(move, Play | Doubles):
            table = laid(rules, table, move)
    return found
