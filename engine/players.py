"""Players' names as a game keeps them: text the engine never reads, a front end shows.

A computer seat is named by a mark (`computer_player`), a form no person's name takes
(it starts with a control character, which a front end cleans out of people's names),
so that a front end names it in its own words, in the language of the moment.
"""

from __future__ import annotations

import re

_COMPUTER = re.compile("\x1fcomputer ([0-9]{1,3})")


def computer_player(number: int) -> str:
    """The name of computer player `number` (from 1) in a game."""
    return f"\x1fcomputer {number}"


def computer_number(name: str) -> int | None:
    """The number of the computer player `name` names; None for anyone else's name."""
    found = _COMPUTER.fullmatch(name)
    return None if found is None else int(found.group(1))
