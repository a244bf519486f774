"""Hypothesis-chosen button presses through the real handlers, checked after every one.

The data: random strings and bytes, the buttons the bot shows anywhere (another game's,
another chat's, another player's), those with a field changed (an old version, another
game, a chat, an empty or oversized field, padding), hand and group data made up from the
games' own ids, and the seat to act's own buttons now and then. The message: the group
boards, the lobbies, each player's hand message, another private message, or a new message
of the bot's own carrying the data (as a stale button would), in a group or a private chat.

After each press (`tests.bot.hostile`): it was answered; the engine's invariants hold; only
a legal move of the seat to act, by its player, changed a game (or "My tiles" his seat's
requests); and no message the bot sent or edited shows a hand to anyone but its owner.
`bench/hardening.py` runs the same with many more presses.
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator

import pytest
from hypothesis import given, note

from tests.bot.conftest import Harness
from tests.bot.hostile import (
    SOURCES,
    TAPES,
    FuzzWorld,
    RandomChooser,
    TapeChooser,
    in_one_world,
    judged,
)

# One world (three groups, two games and a lobby) serves every case of a test: the cases
# go on from where the last one left the games, which is what makes a long fuzz cheap.
FUZZ = in_one_world(100)


@pytest.fixture
async def world(h: Harness) -> AsyncIterator[FuzzWorld]:
    async for found in judged(await FuzzWorld.build(h)):
        yield found


@FUZZ
@given(chooser=TAPES)
async def test_no_press_changes_more_than_its_seat_may_or_shows_a_hand(
    world: FuzzWorld, chooser: TapeChooser
) -> None:
    scene = await world.scene()
    press = world.choose(scene, chooser)
    note(str(press))
    answer, problems = await world.press(press)
    assert not problems, (answer, [str(p) for p in problems])


async def test_the_fuzz_presses_everything_and_plays(world: FuzzWorld) -> None:
    """The fuzz's cases reach what they are meant to: data of every source, and moves made
    by the seat to act's own presses (so that the judge sees the games change)."""
    chooser = RandomChooser(random.Random(11))
    versions = [g.version for g in await world.read_all()]
    # 60 presses at least; more while a source is still missing (which press a draw picks
    # depends on the scene, and so on how far delivery got: 60 missed one now and then).
    for pressed in range(1, 300):
        answer, problems = await world.press(world.choose(await world.scene(), chooser))
        assert not problems, (answer, [str(p) for p in problems])
        if pressed >= 60 and set(world.sources) == set(SOURCES):
            break
    assert set(world.sources) == set(SOURCES)
    moved = [g.version for g in await world.read_all()]
    assert moved[:2] != versions[:2], (versions, moved)
    assert world.watch.looked_at > 0
