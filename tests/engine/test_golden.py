"""Golden game records under tests/data: the replay output is fixed, and the referee agrees.

Besides the worked example (see test_worked_example.py) the records are whole
random matches from seeds that were picked for what happens in them; each
`NAME.json` has its expected replay output in `NAME.replay.json`. After a
deliberate change to the output, regenerate with
`python -m tests.engine.test_golden` and review the diff.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest

from engine import Game, Tile, to_record
from engine.cli import dumps, main
from tests.engine.helpers import names
from tests.engine.referee import Referee

DATA = Path(__file__).resolve().parent.parent / "data"

# name: (variant, players, seed, choices) and what the match shows
GOLDEN = {
    "fives_2p": ("fives", 2, 3, 3),  # blocked rounds (+1 to the fewest), three rounds
    "muggins_3p": ("muggins", 3, 11, 11),  # a doubles move, a blocked round, ends by 51
    "twolane_3p": ("twolane", 3, 1, 1),  # seat 1 goes out, the others play on
    "twolane_4p": ("twolane", 4, 1, 1),  # seat 0 goes out, then the game blocks
}
RECORDS = sorted(p.stem for p in DATA.glob("*.json") if not p.stem.endswith(".replay"))


def played(variant: str, players: int, seed: int, choices: int) -> Game:
    game = Game.new(variant, names(players), seed)
    rng = random.Random(choices)
    while not game.over:
        game.push(rng.choice(game.legal_moves()))
    return game


def test_every_record_has_its_output():
    assert {"fives_worked", "fives_rules_record", *GOLDEN} <= set(RECORDS)
    for name in RECORDS:
        assert (DATA / f"{name}.replay.json").exists(), name


@pytest.mark.parametrize("name", RECORDS)
def test_replay_output(name: str, capsys):
    assert main(["replay", str(DATA / f"{name}.json")]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    assert out == (DATA / f"{name}.replay.json").read_text(encoding="utf-8")


@pytest.mark.parametrize("name", RECORDS)
def test_the_referee_agrees_with_every_move(name: str):
    record = json.loads((DATA / f"{name}.json").read_text(encoding="utf-8"))
    game = Game.empty(record["variant"], record["players"], record.get("target"))
    referee = None
    for rnd in record["rounds"]:
        game.start_round(
            rnd["starter"],
            [[Tile.parse(t) for t in hand] for hand in rnd["hands"]],
            [Tile.parse(t) for t in rnd["boneyard"]],
        )
        if referee is None:
            referee = Referee(game)
        referee.check(game)
        for text in rnd["moves"]:
            move = game.parse_move(text)
            entry = game.push(move, seat=game.turn, text=text)
            assert entry.points == referee.act(str(move))
            referee.check(game)
    expected = json.loads((DATA / f"{name}.replay.json").read_text(encoding="utf-8"))
    assert expected["totals"] == referee.totals


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_the_seeded_match_is_the_record(name: str):
    record = json.loads((DATA / f"{name}.json").read_text(encoding="utf-8"))
    assert to_record(played(*GOLDEN[name])) == record


def test_what_the_golden_matches_show():
    def load(name: str) -> dict:
        return json.loads((DATA / f"{name}.replay.json").read_text(encoding="utf-8"))

    fives = load("fives_2p")
    assert "blocked" in [r["end"] for r in fives["rounds"]] and fives["finished"]
    muggins = load("muggins_3p")
    assert muggins["rounds"][-1]["end"] == "target" and max(muggins["totals"]) >= 51
    assert any("+" in m["move"] for r in muggins["rounds"] for m in r["moves"])
    three = load("twolane_3p")
    assert three["rounds"][0]["end"] == "out" and three["rounds"][0]["out"] == 1
    four = load("twolane_4p")
    # Someone went out, the others played on, and the game ended blocked.
    assert four["rounds"][0]["end"] == "blocked" and four["rounds"][0]["out"] is not None
    rules = load("fives_rules_record")
    assert rules["totals"] == [2, 0, 0, 0]


def regenerate() -> None:
    for name, args in GOLDEN.items():
        record = to_record(played(*args))
        (DATA / f"{name}.json").write_text(dumps(record) + "\n", encoding="utf-8")
    for name in sorted(p.stem for p in DATA.glob("*.json") if not p.stem.endswith(".replay")):
        with open(DATA / f"{name}.replay.json", "w", encoding="utf-8") as out:
            saved, sys.stdout = sys.stdout, out
            try:
                main(["replay", str(DATA / f"{name}.json")])
            finally:
                sys.stdout = saved


if __name__ == "__main__":
    regenerate()
