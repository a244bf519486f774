"""Pictures drawn in the drawing threads, and the freed memory handed back to the system
at most every `TRIM_EVERY` seconds."""

from __future__ import annotations

import threading
import time

import pytest

from bot.delivery import drawing


async def test_a_picture_is_drawn_off_the_event_loop() -> None:
    loop_thread = threading.current_thread()
    drawn_in = await drawing.draw(threading.current_thread)
    assert drawn_in is not loop_thread
    assert drawn_in.name.startswith("domino-draw")


async def test_a_failed_drawing_raises_where_it_was_asked_for() -> None:
    def broken() -> None:
        raise ValueError("no such tile")

    with pytest.raises(ValueError, match="no such tile"):
        await drawing.draw(broken)


def test_freed_memory_is_handed_back_at_most_every_few_seconds() -> None:
    trims: list[int] = []

    def count(pad: int) -> int:
        trims.append(pad)
        return 1

    trim = drawing._Trim()
    trim.trim = count
    trim.after_drawing()
    assert trims == []  # just started
    trim.last = time.monotonic() - drawing.TRIM_EVERY - 1
    trim.after_drawing()
    trim.after_drawing()
    assert trims == [0]


def test_glibc_s_trim_is_found_here() -> None:
    # This machine's C library is glibc: the trim is not silently skipped.
    assert drawing._malloc_trim() is not None
