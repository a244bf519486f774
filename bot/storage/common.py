"""What every owner of Redis keys shares: how long things live, and how a lost
compare-and-set is tried again."""

from __future__ import annotations

import asyncio
import random

from bot import metrics

DAY = 24 * 3600
GAME_TTL = 7 * DAY  # a game nobody touched for a week is gone
RECORD_TTL = 90 * DAY
STATS_TTL = 365 * DAY
USER_TTL = 365 * DAY
MAX_ATTEMPTS = 25


async def backoff(attempt: int) -> None:
    """A short random pause before trying a lost compare-and-set again."""
    metrics.REDIS_RETRIES.inc()
    await asyncio.sleep(random.uniform(0, 0.005 * (attempt + 1)))


def as_bytes(raw: bytes | str | None) -> bytes | None:
    return raw.encode() if isinstance(raw, str) else raw


def as_text(raw: bytes | str) -> str:
    return raw if isinstance(raw, str) else raw.decode()


def ms(when: float) -> int:
    return int(when * 1000)
