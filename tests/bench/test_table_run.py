"""A tiny bench/load.py --table run against the real bot: the people's moves are made on
the live table (no hand button pressed, no private chat ever opened), every table open
on a game gets each of its moves, and the table's figures come out."""

from __future__ import annotations

import asyncio

import pytest

from bench.load import parse_args, run

pytestmark = pytest.mark.e2e


def test_two_games_played_on_the_table(redis_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REDIS_URL", redis_url)  # the bench keeps its keys under a prefix of its own
    argv = ["--games", "2", "--seconds", "10", "--table", "--all-human", "--spectators", "1"]
    result = asyncio.run(run(parse_args(argv)))

    assert result["table_errors"] == [] and result["errors"] == []
    assert result["moves_by_people"] > 0  # every seat a person: all moves are theirs
    assert result["table_actions_done"] > 0
    assert result["table_connections"] == 2 * (4 + 1)  # four seats and a spectator a game
    assert result["lost_updates"] == 0 and result["table_views_missed"] == 0
    assert result["doubled_moves"] == 0
    assert 0 < result["table_update_p50_ms"] <= result["table_update_p99_ms"]
    assert result["rss_mb"] > 0
    assert result["calls_per_move_private"] == 0  # nobody opened the private chat
