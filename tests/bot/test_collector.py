"""bot/collector.py: the garbage collector set for a long-running bot."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from bot import collector


@pytest.fixture
def restored_collector() -> Iterator[None]:
    threshold = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*threshold)


@pytest.mark.usefixtures("restored_collector")
def test_start_up_objects_are_left_alone_and_collections_come_less_often() -> None:
    gc.unfreeze()
    collector.settle()
    assert gc.get_freeze_count() > 0
    assert gc.get_threshold() == (collector.YOUNG, collector.OLDER, collector.OLDER)
    assert collector.YOUNG > 700  # CPython's default


@pytest.mark.usefixtures("restored_collector")
def test_garbage_cycles_made_later_are_still_collected() -> None:
    collector.settle()

    class Node:
        other: object = None

    first, second = Node(), Node()
    first.other, second.other = second, first
    del first, second
    assert gc.collect() >= 2
