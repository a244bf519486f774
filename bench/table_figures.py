"""The live table's figures of `bench/load.py --table`: how long a committed move takes to
reach every table open on its game, how many views never came, the bot processes' memory.

A move's commit time is the bot's own: the `ts` of its `move` event in the bot's JSON log,
written by the process that committed it right after the store took it (bot.game.events).
A table has the move once a view of that game with the move's engine version or a newer
one arrived (the hub sends whole views, newest wins: a table may skip one and have it with
the next); the time it arrived is the bench's clock, on the same machine. A move's update
time is the slowest of every table (seat or spectator) that was open on its game when it
was committed: from the commit to the last of them having it.
"""

from __future__ import annotations

import bisect
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Committed:
    game: str
    version: int  # the engine's, after the move
    at: float  # epoch s


@dataclass(frozen=True)
class Watched:
    """One table's views of one game: (engine version, arrived at), in the order they came."""

    game: str
    opened_at: float | None
    views: tuple[tuple[int, float], ...]


def committed_moves(events: Iterable[dict[str, Any]], start: float, end: float) -> list[Committed]:
    """The moves of the bot's log committed within [start, end] (epoch s)."""
    return [
        Committed(str(e["game"]), int(e["v"]), float(e["ts"]))
        for e in events
        if e.get("msg") == "move" and start <= e.get("ts", 0) <= end
    ]


def update_times(moves: Iterable[Committed], tables: Iterable[Watched]) -> tuple[list[float], int]:
    """Each move's update time (seconds; see the module), and how many (move, table) pairs
    never got it: a table open on the game at the commit that no view of it reached."""
    by_game: dict[str, list[Watched]] = defaultdict(list)
    for table in tables:
        if table.opened_at is not None:
            by_game[table.game].append(table)
    times: list[float] = []
    missed = 0
    for move in moves:
        slowest: float | None = None
        for table in by_game.get(move.game, ()):
            assert table.opened_at is not None
            if table.opened_at > move.at:
                continue  # opened after the commit: its first view had it
            got = arrival(table.views, move.version)
            if got is None:
                missed += 1
                continue
            wait = max(0.0, got - move.at)
            slowest = wait if slowest is None else max(slowest, wait)
        if slowest is not None:
            times.append(slowest)
    return times, missed


def arrival(views: tuple[tuple[int, float], ...], version: int) -> float | None:
    """When the first view with `version` or a newer one arrived (None: none did)."""
    versions = [v for v, _ in views]
    # The hub never sends an older version after a newer one: the list is sorted.
    index = bisect.bisect_left(versions, version)
    return views[index][1] if index < len(views) else None


def percentile_ms(values: list[float], share: float) -> int:
    """The `share` percentile of `values` (seconds) in whole milliseconds (0: none)."""
    if not values:
        return 0
    ordered = sorted(values)
    return round(1000 * ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))])


def rss_mb(pids: Iterable[int], proc: Path = Path("/proc")) -> float:
    """The processes' resident memory together, in MB (VmRSS from /proc)."""
    total_kb = 0
    for pid in pids:
        for line in (proc / str(pid) / "status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                total_kb += int(line.split()[1])
    return round(total_kb / 1024, 1)
