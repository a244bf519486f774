"""Hostile presses and races through the real bot, many times over: the long version of
tests/bot/handlers/test_fuzz_presses.py and tests/bot/handlers/test_races.py.

    .venv/bin/python bench/hardening.py --forged 10000 --races 1000
    .venv/bin/python bench/hardening.py --forged 2000 --races 0 --seed 7

It starts the fake Bot API and the real application in this process (the tests' harness,
tests/bot/conftest.py) on Redis (REDIS_URL, else 127.0.0.1:6379/0) under a key prefix of
its own, removed at the end. Then, with choices from a seeded random generator instead of
hypothesis (tests/bot/hostile/ has both):

- `--forged` presses, one at a time, of any data on any message (random strings and bytes,
  other games', chats' and players' buttons, old versions, oversized fields, valid data on
  the wrong message) in three groups: two games with the same two players and a lobby;
  after each: answered, engine invariants, only a legal move of the seat to act by its
  player changed a game, no hand shown to anyone but its owner;
- `--races` races at a four-player table served by two bot processes over the one Redis,
  in turn: the same button twice within a millisecond, every player at once, and 2-8
  taps spread over both processes within 2 ms; after each: every move answered as made is
  in the game exactly once, legal in turn, and nothing else changed.

It prints the counts and the totals of lost, doubled, illegal, leaked, crashed and
unanswered (all zero expected, and then the exit status is 0), the first problems found,
and the wall time.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import logging
import os
import random
import sys
import time
import uuid
from collections import Counter
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Protocol

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from redis.asyncio import Redis  # noqa: E402

from bot.storage.store import Store  # noqa: E402
from tests.bot.conftest import Harness, make_settings  # noqa: E402
from tests.bot.hostile import (  # noqa: E402
    FuzzWorld,
    Problem,
    RaceWorld,
    RandomChooser,
)
from tests.fakebotapi import FakeBotApi  # noqa: E402

KINDS = ("lost", "doubled", "illegal", "leaked", "crashed", "unanswered")
SHOWN = 10  # problems printed in full


def _report(found: list[Problem], so_far: list[Problem]) -> None:
    """The first problems are printed as they are found (the totals come at the end)."""
    for problem in found[: max(0, SHOWN - len(so_far))]:
        print(f"  ! {problem}", flush=True)


class _World(Protocol):
    async def finish(self) -> list[Problem]: ...

    def close(self) -> None: ...


async def _rounds(
    world: _World,
    count: int,
    step: Callable[[int], Awaitable[list[Problem]]],
    problems: list[Problem],
    *,
    label: str,
    every: int,
    what: str,
) -> None:
    """Run `step(done)` `count` times, adding what each finds to `problems` (a progress line
    every `every`), then the world's final checks; a harness that gives up is a problem too."""
    try:
        for done in range(count):
            found = await step(done)
            _report(found, problems)
            problems += found
            if (done + 1) % every == 0:
                print(f"  {label} {done + 1}: {len(problems)} problems", flush=True)
        problems += await world.finish()
    except Exception as exc:  # the harness gave up (a wait ran out): say so, count so far
        problems.append(Problem("harness", f"the {what} stopped: {exc!r}"))
    finally:
        world.close()


async def forged(h: Harness, count: int, rng: random.Random, problems: list[Problem]) -> int:
    world = await FuzzWorld.build(h)
    chooser = RandomChooser(rng)

    async def press(done: int) -> list[Problem]:
        _, found = await world.press(world.choose(await world.scene(), chooser))
        return found

    await _rounds(world, count, press, problems, label="forged", every=1000, what="forged presses")
    print(f"  by source: {dict(sorted(world.sources.items()))}")
    print(f"  bot messages checked for hands: {world.watch.looked_at}")
    return world.presses


async def races(h: Harness, count: int, rng: random.Random, problems: list[Problem]) -> int:
    world = await RaceWorld.build(h, players=4, processes=2)
    chooser = RandomChooser(rng)
    kinds: Counter[str] = Counter()

    async def race(done: int) -> list[Problem]:
        kind = ("twice", "everyone", "spread")[done % 3]
        kinds[kind] += 1
        if kind == "twice":
            before, first = await world.own_tap(chooser)
            taps = [
                dataclasses.replace(first, process=chooser.number(0, 1)),
                dataclasses.replace(
                    first, process=chooser.number(0, 1), delay_us=chooser.number(0, 999)
                ),
            ]
        elif kind == "everyone":
            before, taps = await world.taps_of(chooser, 4, everyone=True)
            taps = [dataclasses.replace(t, delay_us=0) for t in taps]
        else:
            before, taps = await world.taps_of(chooser, chooser.number(2, 8), everyone=False)
        return await world.race(before, taps)

    await _rounds(world, count, race, problems, label="races", every=200, what="races")
    print(f"  races by kind: {dict(kinds)}; taps: {world.taps}; moves made: {world.moves}")
    return world.races


async def main(args: argparse.Namespace) -> int:
    redis_url = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0"
    prefix = f"bench-hardening-{uuid.uuid4().hex[:8]}"
    rng = random.Random(args.seed)
    problems: list[Problem] = []
    started = time.monotonic()
    with FakeBotApi(max_calls_kept=5000) as api:
        client = Redis.from_url(redis_url)
        h = Harness(api, make_settings(api, redis_url, prefix), redis_url, prefix)
        h.own_store = Store.under(client, prefix)
        await h.launch()
        try:
            pressed = await forged(h, args.forged, rng, problems) if args.forged else 0
            raced = await races(h, args.races, rng, problems) if args.races else 0
        finally:
            for run in list(h.running):
                await h.stop(run)
            keys = [key async for key in client.scan_iter(match=f"{prefix}:*", count=500)]
            if keys:
                await client.delete(*keys)
            await client.aclose()
    took = time.monotonic() - started
    totals = Counter(p.kind for p in problems)
    print(f"forged callbacks: {pressed}")
    print(f"races: {raced}")
    print(", ".join(f"{kind}: {totals.get(kind, 0)}" for kind in KINDS))
    if totals.get("harness"):
        print(f"the harness stopped early: {[str(p) for p in problems if p.kind == 'harness']}")
    print(f"wall time: {took:.0f} s (seed {args.seed})")
    return 1 if problems else 0


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--forged", type=int, default=10_000, help="forged presses")
    parser.add_argument("--races", type=int, default=1_000, help="races")
    parser.add_argument("--seed", type=int, default=1, help="of the random choices")
    return parser.parse_args(argv)


if __name__ == "__main__":
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    sys.exit(asyncio.run(main(parse(sys.argv[1:]))))
