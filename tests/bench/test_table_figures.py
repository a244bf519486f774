"""The live table's figures of bench/load.py --table: a move's update time is the slowest
table open on its game at the commit; a table that never got it is missed."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.table_figures import (
    Committed,
    Watched,
    arrival,
    committed_moves,
    percentile_ms,
    rss_mb,
    update_times,
)


def test_the_slowest_table_of_the_game_gives_the_update_time() -> None:
    move = Committed("g1", 5, 100.0)
    tables = [
        Watched("g1", 90.0, ((4, 95.0), (5, 100.02))),
        Watched("g1", 91.0, ((4, 95.0), (5, 100.25))),  # the slowest
        Watched("g2", 90.0, ((5, 100.9),)),  # another game's: not counted
    ]
    times, missed = update_times([move], tables)
    assert times == [pytest.approx(0.25)]
    assert missed == 0


def test_a_newer_view_has_the_move_and_a_table_opened_later_does_not_count() -> None:
    move = Committed("g1", 5, 100.0)
    tables = [
        Watched("g1", 90.0, ((4, 95.0), (7, 100.1))),  # skipped 5, had it with 7
        Watched("g1", 100.5, ((7, 100.5),)),  # opened after the commit
    ]
    times, missed = update_times([move], tables)
    assert times == [pytest.approx(0.1)]
    assert missed == 0


def test_a_table_that_never_got_the_move_is_missed() -> None:
    moves = [Committed("g1", 5, 100.0), Committed("g1", 6, 101.0)]
    tables = [
        Watched("g1", 90.0, ((4, 95.0), (5, 100.05))),
        Watched("g1", 90.0, ((4, 95.0),)),  # never had either
        Watched("g1", None, ()),  # never opened
    ]
    times, missed = update_times(moves, tables)
    assert times == [pytest.approx(0.05)]  # the second move reached no table
    assert missed == 3


def test_a_view_before_the_commit_is_no_wait() -> None:
    # The bot logs the move after its commit; a push may overtake the log line.
    times, _ = update_times([Committed("g1", 5, 100.0)], [Watched("g1", 90.0, ((5, 99.99),))])
    assert times == [0.0]


def test_arrival_finds_the_first_view_with_the_version_or_newer() -> None:
    views = ((3, 1.0), (5, 2.0), (8, 3.0))
    assert arrival(views, 4) == 2.0
    assert arrival(views, 5) == 2.0
    assert arrival(views, 8) == 3.0
    assert arrival(views, 9) is None
    assert arrival((), 1) is None


def test_only_moves_within_the_window_count() -> None:
    events = [
        {"msg": "move", "game": "g", "v": 1, "ts": 9.0},
        {"msg": "move", "game": "g", "v": 2, "ts": 10.0},
        {"msg": "hand", "game": "g", "v": 2, "ts": 10.5},
        {"msg": "move", "game": "g", "v": 3, "ts": 20.0},
        {"msg": "move", "game": "g", "v": 4, "ts": 20.5},
    ]
    assert committed_moves(events, 10.0, 20.0) == [
        Committed("g", 2, 10.0),
        Committed("g", 3, 20.0),
    ]


def test_percentiles_in_milliseconds() -> None:
    values = [i / 1000 for i in range(1, 101)]  # 1..100 ms
    assert percentile_ms(values, 0.5) == 51
    assert percentile_ms(values, 0.99) == 99
    assert percentile_ms(values, 1.0) == 100
    assert percentile_ms([], 0.99) == 0


def test_resident_memory_is_summed_over_the_processes(tmp_path: Path) -> None:
    for pid, kb in ((11, 102400), (12, 51200)):
        (tmp_path / str(pid)).mkdir()
        (tmp_path / str(pid) / "status").write_text(f"Name:\tpython\nVmRSS:\t  {kb} kB\n")
    assert rss_mb([11, 12], proc=tmp_path) == 150.0
