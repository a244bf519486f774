"""Where the choices of a case come from: a tape hypothesis drew, or a seeded random."""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from typing import Protocol, TypeVar

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

T = TypeVar("T")


class Chooser(Protocol):
    """Where the choices of a case come from: a hypothesis-drawn tape in the suite, a
    seeded `random.Random` in the bench script."""

    def pick(self, options: Sequence[T]) -> T: ...

    def number(self, low: int, high: int) -> int: ...

    def text(self, size: int) -> str: ...

    def raw(self, size: int) -> bytes: ...


class TapeChooser:
    """Choices read off a tape hypothesis drew beforehand (numbers, texts, bytes), used up
    in turn and read again from the start if a case needs more.

    The tape is the same whatever the games look like when it is read, so hypothesis
    sees the same draws in every run of a case (choices drawn one by one, with bounds or
    branches that depend on the games, would look flaky to it); a case that fails shrinks
    toward the first option of everything."""

    def __init__(self, numbers: list[int], texts: list[str], raw: bytes) -> None:
        self.numbers = numbers or [0]
        self.texts = texts or [""]
        self.raw_bytes = raw
        self._n = itertools.cycle(self.numbers)
        self._t = itertools.cycle(self.texts)

    def pick(self, options: Sequence[T]) -> T:
        return options[next(self._n) % len(options)]

    def number(self, low: int, high: int) -> int:
        return low + next(self._n) % (high - low + 1)

    def text(self, size: int) -> str:
        return next(self._t)[:size]

    def raw(self, size: int) -> bytes:
        return self.raw_bytes[:size]

    def __repr__(self) -> str:
        return f"TapeChooser({self.numbers}, {self.texts}, {self.raw_bytes!r})"


TAPES = st.builds(
    TapeChooser,
    st.lists(st.integers(0, 2**31 - 1), min_size=32, max_size=32),
    st.lists(st.text(max_size=80), min_size=3, max_size=3),
    st.binary(max_size=80),
)


class RandomChooser:
    # Characters a forged field is made of: the separator often, digits and letters, and
    # the odd character from anywhere in Unicode.
    ALPHABET = ":::0123456789-+ WENSabcxyzABCXYZ_\x00\n\u00e9\u0416\U0001f01b"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def pick(self, options: Sequence[T]) -> T:
        return self.rng.choice(list(options))

    def number(self, low: int, high: int) -> int:
        return self.rng.randint(low, high)

    def text(self, size: int) -> str:
        length = self.rng.randint(0, size)
        if self.rng.random() < 0.2:
            return "".join(chr(self.rng.randint(1, 0xD7FF)) for _ in range(length))
        return "".join(self.rng.choice(self.ALPHABET) for _ in range(length))

    def raw(self, size: int) -> bytes:
        return self.rng.randbytes(self.rng.randint(0, size))


def in_one_world(max_examples: int) -> settings:
    """Hypothesis's settings for `max_examples` cases played on in one world a fixture
    built (deliberately shared by the cases), however long a case takes."""
    return settings(
        max_examples=max_examples,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
