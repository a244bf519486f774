"""What a Redis command costs the bot's own CPU in the client: redis-py's blocking pool
against the bot's (bot.storage.connect.ReadyPool), run in turn.

    .venv/bin/python bench/redis_client.py               # REDIS_URL or 127.0.0.1:6379/15
    .venv/bin/python bench/redis_client.py --rounds 9 --commands 40000
    .venv/bin/python bench/redis_client.py --loops       # on asyncio's loop and on uvloop's

Each round sends `--commands` GETs of a 2 KB value from `--tasks` tasks at once through
each pool, and takes this process's CPU time (not the wall clock: the server's work and
the machine's other load stay out of it) per command. Rounds alternate the pools, so a
busy spell of the shared machine falls on both (with --loops, on each event loop too:
bot.event_loop). Prints each one's median and spread in microseconds, and its ratio to
the first (redis-py's pool on asyncio's loop), then one JSON line.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from redis.asyncio import BlockingConnectionPool, ConnectionPool, Redis

from bot.event_loop import LoopChoice, loop_factory
from bot.storage.connect import REDIS_POOL_WAIT, ReadyPool

SIZE = 160  # the bot's default REDIS_MAX_CONNECTIONS


async def cpu_per_command(make: Callable[[], ConnectionPool], commands: int, tasks: int) -> float:
    """Microseconds of this process's CPU per command."""
    client = Redis(connection_pool=make())
    key = f"bench-redis-client:{uuid.uuid4().hex}"
    try:
        await client.set(key, b"x" * 2000, ex=600)

        async def send(times: int) -> None:
            for _ in range(times):
                await client.get(key)

        started = time.process_time()
        await asyncio.gather(*(send(commands // tasks) for _ in range(tasks)))
        spent = time.process_time() - started
        await client.delete(key)
    finally:
        await client.aclose()
    return spent / (commands // tasks * tasks) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--commands", type=int, default=30_000)
    parser.add_argument("--tasks", type=int, default=20)
    parser.add_argument(
        "--loops", action="store_true", help="each pool on asyncio's loop and on uvloop's"
    )
    args = parser.parse_args()
    url = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/15")
    pools: dict[str, Callable[[], ConnectionPool]] = {
        "redis-py": lambda: BlockingConnectionPool.from_url(
            url, max_connections=SIZE, timeout=REDIS_POOL_WAIT
        ),
        "bot": lambda: ReadyPool.from_url(url, max_connections=SIZE, timeout=REDIS_POOL_WAIT),
    }
    loops: dict[str, LoopChoice] = {"": "asyncio"}
    if args.loops:
        loops = {" asyncio": "asyncio", " uvloop": "uvloop"}
    runs: dict[str, list[float]] = {pool + loop: [] for loop in loops for pool in pools}
    for _ in range(args.rounds):
        for loop, choice in loops.items():
            for pool, make in pools.items():
                with asyncio.Runner(loop_factory=loop_factory(choice)) as runner:
                    spent = runner.run(cpu_per_command(make, args.commands, args.tasks))
                runs[pool + loop].append(spent)
    figures: dict[str, object] = {}
    slowest = statistics.median(next(iter(runs.values())))
    for name, values in runs.items():
        median = statistics.median(values)
        print(
            f"{name:16} median {median:6.1f} µs/command  x{median / slowest:.2f}"
            f"  (min {min(values):.1f}, max {max(values):.1f})"
        )
        figures[f"{name.replace(' ', '_')}_us_per_command"] = round(median, 1)
        figures[f"{name.replace(' ', '_')}_runs"] = [round(value, 1) for value in values]
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
