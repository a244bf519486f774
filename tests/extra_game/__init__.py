"""A fourth game that only the tests know: «Быстрые пятёрки» (`quick`).

Muggins with five tiles each, played to 31 (or to 51, a lobby's choice). It is
defined here and nowhere in the product: its `Ruleset` below, its /rules pages
(`rulebook/`) and its words (`locales/`). `register` makes it known to the engine
(`engine.variants.register`) and to the bot (`bot.variants.describe`); the tests
then play it through the engine, the computer players, the pictures and, in a
bot process that registers it at start-up, a whole game in a group.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import ClassVar

from bot.variants import describe, shown
from engine.variants import VARIANTS, Muggins, register

HERE = Path(__file__).resolve().parent
TITLE = "Quick muggins"


class Quick(Muggins):
    """Быстрые пятёрки: muggins with five tiles each, to 31 or 51."""

    name = "quick"
    TARGET: ClassVar[int] = 31
    CHOICES: ClassVar[tuple[int, ...]] = (31, 51)

    def hand_size(self, players: int) -> int:
        return 5

    def target_choices(self, players: int) -> tuple[int, ...]:
        return self.CHOICES

    def check_target(self, target: int | None, players: int) -> int | None:
        if target is None:
            return self.TARGET
        if target not in self.CHOICES:
            raise ValueError(f"{self.name} is played to 31 or 51")
        return target


def register_quick() -> Quick:
    """Make the game known to the engine and the bot (the bot's words once a process)."""
    found = VARIANTS.get(Quick.name)
    if isinstance(found, Quick):
        return found
    rules = register(Quick())
    if shown(rules.name).title != TITLE:
        describe(rules.name, TITLE, pages=HERE / "rulebook", words=HERE / "locales")
    return rules


@contextmanager
def quick_registered() -> Iterator[Quick]:
    """The game registered for the tests inside; the engine forgets it afterwards, so
    tests that count the games run alike before and after."""
    rules = register_quick()
    try:
        yield rules
    finally:
        VARIANTS.pop(rules.name, None)
