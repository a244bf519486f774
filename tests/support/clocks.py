"""A clock that stands still until a test moves it: what the code under test calls for
the time, with `now` set by hand."""

from __future__ import annotations


class ManualClock:
    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now
