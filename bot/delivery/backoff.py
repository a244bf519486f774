"""How long a chat waits before a failed call is tried again."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Backoff:
    """When to try a failed call again: 1, 2, 4 ... seconds, at most `longest`."""

    longest: float = 60.0

    def after(self, failures: int) -> float:
        return float(min(self.longest, 2 ** max(0, failures - 1)))


BACKOFF = Backoff()
