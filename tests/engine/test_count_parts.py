"""What each game's count adds up, end by end (engine.variants.Ruleset.count_parts): the
ends it counts, a double as it counts, and the open ends it leaves out."""

from __future__ import annotations

from engine.tiles import End
from engine.variants import Counted, ruleset
from tests.engine.helpers import build_table

# The table of the report: ends 4 (a 4:4), 1, 0 (the house's empty side) and 2 (a 2:2).
HOUSE = "0:0 0:4@W 4:4@W 0:1@E 0:2@S 2:2@S"


def test_the_engine_tells_each_end_of_the_muggins_count() -> None:
    table = build_table("muggins", HOUSE)
    parts = ruleset("muggins").count_parts(table)
    assert parts == [
        Counted(End.W, 4, True, 8),
        Counted(End.E, 1, False, 1),
        Counted(End.N, 0, False, 0, counted=False),  # the house's side with nothing on it
        Counted(End.S, 2, True, 4),
    ]
    assert ruleset("muggins").count_terms(table) == [8, 1, 4]
    lone = ruleset("muggins").count_parts(build_table("muggins", "5:5"))
    assert lone == [Counted(None, 5, True, 10)]


def test_fives_counts_every_arm_and_a_double_at_an_end_once() -> None:
    rules = ruleset("fives")
    assert rules.count_parts(build_table("fives", "6:6 6:1@W 6:3@E 6:2@N")) is None
    parts = rules.count_parts(build_table("fives", "6:6 6:1@W 6:3@E 6:2@N 6:5@S 5:5@S"))
    assert parts == [
        Counted(End.W, 1, False, 1),
        Counted(End.E, 3, False, 3),
        Counted(End.N, 2, False, 2),
        Counted(End.S, 5, True, 5),
    ]
    assert rules.count_terms(build_table("fives", "6:6 6:1@W 6:3@E 6:2@N 6:5@S 5:5@S")) == [
        1,
        3,
        2,
        5,
    ]


def test_twolane_counts_nothing() -> None:
    assert ruleset("twolane").count_parts(build_table("twolane", "3:2 2:1@E")) is None
