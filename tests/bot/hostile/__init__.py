"""Hostile presses and racing taps through the real handlers, and what must hold after each.

Shared by the fuzz (`test_fuzz_presses.py`), the races (`test_races.py`) and their long
version (`bench/hardening.py`):

- `pressing`: any data on any message (or on a new message of the bot's own that carries
  it, as a stale button would), polled by the bot or handed straight to one of two bot
  processes (`tap`);
- `judging`: what a press may change in a stored game (`judge`): nothing, or one legal move
  of the seat to act by its own player, or the "My tiles" count of the presser's seat; and
  a run of moves (`replayed`): each new action of the record legal in turn, the stored game
  exactly what they make;
- `watch`: every message the bot sends or edits: hand buttons only in their owner's private
  chat and only with his own tiles, and no hand caption in a group;
- `choosing`: the choices of a case, from a tape hypothesis drew or from a seeded random;
- `tables`, `fuzz` and `races`: the groups played at and the cases made there.

What is found is a list of `Problem`s by kind (lost, doubled, illegal, leaked, crashed,
unanswered): the tests require none, the bench script counts them.
"""

from tests.bot.hostile.choosing import TAPES, Chooser, RandomChooser, TapeChooser, in_one_world
from tests.bot.hostile.fuzz import SOURCES, FuzzWorld, Press
from tests.bot.hostile.judging import (
    Problem,
    Stored,
    engine_problems,
    judge,
    judged,
    read,
    replayed,
)
from tests.bot.hostile.pressing import Answers, query, second_process, tap
from tests.bot.hostile.races import RaceWorld, Tap
from tests.bot.hostile.watch import Watch, held

__all__ = [
    "SOURCES",
    "TAPES",
    "Answers",
    "Chooser",
    "FuzzWorld",
    "Press",
    "Problem",
    "RaceWorld",
    "RandomChooser",
    "Stored",
    "Tap",
    "TapeChooser",
    "Watch",
    "engine_problems",
    "held",
    "in_one_world",
    "judge",
    "judged",
    "query",
    "read",
    "replayed",
    "second_process",
    "tap",
]
