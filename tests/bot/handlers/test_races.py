"""Taps at once: the same button twice within a millisecond, every player at the same moment,
and two bot processes taking the taps of one game, in interleavings hypothesis chooses.

Each race starts from the game as the last one left it (its seat to act's keyboard shown;
sometimes a tile's ends first). Every tap is handed straight to one of the processes at its
chosen microsecond, and then (`tests.bot.hostile.RaceWorld.race`): each tap was answered;
the game moved by exactly the moves whose taps were answered as made, each legal in turn
and by its seat's own player (the record is the old one plus those, and replays to the
stored game); each "My tiles" answered was counted once; and no hand was shown elsewhere.
`bench/hardening.py` runs a thousand and more of them.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import AsyncIterator, Sequence

import pytest
from hypothesis import given, note

from tests.bot.conftest import Harness
from tests.bot.hostile import (
    TAPES,
    RaceWorld,
    RandomChooser,
    Stored,
    Tap,
    TapeChooser,
    in_one_world,
    judged,
)

# One table serves every race of a test (each race goes on from where the last one left
# the game): the cost is in building it, not in the races.
RACES = in_one_world(20)


@pytest.fixture
async def pair(h: Harness) -> AsyncIterator[RaceWorld]:
    """Two players, two bot processes."""
    async for world in judged(await RaceWorld.build(h, 2, 2)):
        yield world


@pytest.fixture
async def four(h: Harness) -> AsyncIterator[RaceWorld]:
    """Four players, one bot process."""
    async for world in judged(await RaceWorld.build(h, 4, 1)):
        yield world


@pytest.fixture
async def four_two(h: Harness) -> AsyncIterator[RaceWorld]:
    """Four players, two bot processes."""
    async for world in judged(await RaceWorld.build(h, 4, 2)):
        yield world


async def _race(world: RaceWorld, before: Stored, taps: Sequence[Tap]) -> None:
    note(str(taps))
    problems = await world.race(before, taps)
    assert not problems, [str(p) for p in problems]


@RACES
@given(chooser=TAPES)
async def test_the_same_button_twice_within_a_millisecond(
    pair: RaceWorld, chooser: TapeChooser
) -> None:
    before, first = await pair.own_tap(chooser)
    # To the same process or to both, the second one up to a millisecond later.
    again = dataclasses.replace(
        first, process=chooser.number(0, 1), delay_us=chooser.number(0, 999)
    )
    await _race(pair, before, [dataclasses.replace(first, process=chooser.number(0, 1)), again])


@RACES
@given(chooser=TAPES)
async def test_all_players_press_at_once(four: RaceWorld, chooser: TapeChooser) -> None:
    before, taps = await four.taps_of(chooser, 4, everyone=True)
    await _race(four, before, [dataclasses.replace(t, delay_us=0) for t in taps])


@RACES
@given(chooser=TAPES)
async def test_two_processes_take_the_taps_of_one_game(
    four_two: RaceWorld, chooser: TapeChooser
) -> None:
    before, taps = await four_two.taps_of(chooser, chooser.number(2, 8), everyone=False)
    await _race(four_two, before, taps)


async def test_the_races_move_the_games(pair: RaceWorld) -> None:
    """The races are on moves: the seat to act's taps are played (once) race after race."""
    chooser = RandomChooser(random.Random(3))
    start = (await pair.ready())[0].version
    for _ in range(8):
        before, first = await pair.own_tap(chooser)
        again = dataclasses.replace(first, process=1)
        problems = await pair.race(before, [first, again])
        assert not problems, [str(p) for p in problems]
    assert (await pair.ready())[0].version > start
    assert pair.moves > 0 and pair.races == 8
