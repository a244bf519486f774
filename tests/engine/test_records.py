"""Game records both ways, and the replay command's answer to every kind of broken record."""

from __future__ import annotations

import copy
import io
import json
import random
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from engine import Game, RecordError, replay, summary, to_record
from engine.cli import main
from tests.engine.helpers import PLAYER_COUNTS, VARIANT_NAMES, names

ROOT = Path(__file__).resolve().parents[2]
WORKED = ROOT / "tests" / "data" / "fives_worked.json"


def random_game(variant: str, players: int, seed: int, finish: bool = True) -> Game:
    game = Game.new(variant, names(players), seed)
    rng = random.Random(seed)
    steps = 0
    while not game.over and (finish or steps < 25):
        game.push(rng.choice(game.legal_moves()))
        steps += 1
    return game


def first_moves_game(variant: str, players: int, seed: int, rounds: int = 1) -> Game:
    """A seeded game played with the first legal move until `rounds` rounds are over."""
    game = Game.new(variant, names(players), seed)
    while not game.over and sum(1 for r in game.rounds if r.over) < rounds:
        game.push(game.legal_moves()[0])
    return game


# -- both ways ------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANT_NAMES)
@pytest.mark.parametrize("players", PLAYER_COUNTS)
@pytest.mark.parametrize("finish", [True, False])
def test_a_record_replays_to_the_same_game(variant: str, players: int, finish: bool):
    for seed in range(4):
        game = random_game(variant, players, seed, finish)
        record = json.loads(json.dumps(to_record(game)))
        again = replay(record)
        assert summary(again) == summary(game)
        assert again.totals == game.totals
        assert again.over == game.over
        assert to_record(again) == record


def test_record_fields():
    fives = to_record(Game.new("fives", names(3), 1, target=30))
    assert list(fives) == ["variant", "players", "target", "rounds"]
    assert fives["target"] == 30
    assert "target" not in to_record(Game.new("muggins", names(3), 1))
    assert "target" not in to_record(Game.new("twolane", names(3), 1))
    rnd = fives["rounds"][0]
    assert list(rnd) == ["starter", "hands", "boneyard", "moves"]
    assert sum(len(h) for h in rnd["hands"]) + len(rnd["boneyard"]) == 28


def test_the_summary_of_a_finished_match():
    game = random_game("fives", 3, 1)
    result = summary(game)
    assert result["finished"] is True
    assert result["places"] is not None and len(result["places"]) == 3
    winners = [s for s, p in enumerate(result["places"]) if p == 1]
    assert result["winner"] == (winners[0] if len(winners) == 1 else winners)
    assert result["totals"] == game.totals
    assert sum(sum(r["points"]) for r in result["rounds"]) == sum(game.totals)
    for rnd in result["rounds"]:
        assert rnd["end"] in ("out", "blocked")
        assert sum(m["points"] for m in rnd["moves"]) <= sum(rnd["points"])


def test_moves_written_without_their_end_replay_as_written():
    record = json.loads(WORKED.read_text(encoding="utf-8"))
    # move 9, 3:5@W: W3 E4 N2 S4, so 5:3 fits W only
    record["rounds"][0]["moves"][8] = "5:3"
    game = replay(record)
    assert summary(game)["rounds"][0]["moves"][8] == {"seat": 0, "move": "5:3", "points": 4}
    assert game.totals == [6, 8, 4, 0]
    record["rounds"][0]["moves"][1] = "6:1"  # after 1:1 it fits W, E, N and S
    with pytest.raises(RecordError, match=r"^round 1, move 2: 6:1 fits W, E, N, S: name the end$"):
        replay(record)


# -- the replay command -----------------------------------------------------------------


def bad_move_in_round_two() -> dict[str, Any]:
    """A fives record whose round 2, move 5 lays 5:1 on N (which shows 0)."""
    game = first_moves_game("fives", 4, 4)
    assert not game.over and len(game.rounds) == 2
    record = to_record(game)
    starter = game.rounds[1].starter
    hands: list[list[str]] = [[] for _ in range(4)]
    hands[starter] = ["3:3", "5:1", "6:6", "6:5", "6:4"]
    hands[(starter + 1) % 4] = ["3:4", "2:2", "2:1", "2:0", "1:1"]
    hands[(starter + 2) % 4] = ["3:6", "1:0", "4:4", "4:1", "4:0"]
    hands[(starter + 3) % 4] = ["3:0", "5:5", "5:4", "5:2", "5:0"]
    boneyard = ["0:0", "3:1", "3:2", "3:5", "4:2", "6:0", "6:1", "6:2"]
    record["rounds"][1] = {
        "starter": starter,
        "hands": hands,
        "boneyard": boneyard,
        "moves": ["3:3", "3:4@E", "3:6@W", "3:0@N", "5:1@N"],
    }
    return record


def first_round(variant: str, players: int = 2) -> dict[str, Any]:
    game = Game.new(variant, names(players), 1)
    return to_record(game)


def finished_twolane() -> dict[str, Any]:
    game = random_game("twolane", 2, 3)
    record = to_record(game)
    record["rounds"].append(copy.deepcopy(record["rounds"][0]))
    return record


def after_the_round(variant: str) -> dict[str, Any]:
    game = first_moves_game(variant, 2, 5)
    record = to_record(game)
    record["rounds"] = record["rounds"][:1]
    record["rounds"][0]["moves"].append("pass")
    return record


def round_two_before_round_one_ends() -> dict[str, Any]:
    game = first_moves_game("fives", 2, 5)
    record = to_record(game)
    record["rounds"][0]["moves"].pop()
    return record


def muggins_wrong_starter() -> dict[str, Any]:
    record = first_round("muggins")
    record["rounds"][0]["starter"] = 1 - record["rounds"][0]["starter"]
    return record


def muggins_3_2_in_the_boneyard() -> dict[str, Any]:
    record = first_round("muggins")
    rnd = record["rounds"][0]
    holder = next(s for s, h in enumerate(rnd["hands"]) if "3:2" in h)
    swap = rnd["boneyard"][0]
    rnd["hands"][holder] = [swap if t == "3:2" else t for t in rnd["hands"][holder]]
    rnd["boneyard"][0] = "3:2"
    rnd["moves"] = []
    return record


def fives_round_two_wrong_starter() -> dict[str, Any]:
    record = to_record(first_moves_game("fives", 3, 4))
    record["rounds"][1]["starter"] = (record["rounds"][1]["starter"] + 1) % 3
    return record


def change(base: dict[str, Any] | None = None, **edits: Any) -> dict[str, Any]:
    """The worked example with some fields replaced (a value of ... removes the field)."""
    record = copy.deepcopy(base or json.loads(WORKED.read_text(encoding="utf-8")))
    for path, value in edits.items():
        where: Any = record
        keys = path.split("__")
        for key in keys[:-1]:
            where = where[int(key) if key.isdigit() else key]
        last: Any = int(keys[-1]) if keys[-1].isdigit() else keys[-1]
        if value is ...:
            del where[last]
        else:
            where[last] = value
    return record


def worked_round(**edits: Any) -> dict[str, Any]:
    return change(**{f"rounds__0__{k}": v for k, v in edits.items()})


W = json.loads(WORKED.read_text(encoding="utf-8"))
HANDS = W["rounds"][0]["hands"]
BONEYARD = W["rounds"][0]["boneyard"]

# (what is broken, the record (object or raw bytes), the exact line or its beginning)
BROKEN: list[tuple[str, Any, str]] = [
    ("not JSON", b"{", "record: not valid JSON (Expecting property name"),
    ("truncated", WORKED.read_bytes()[:-5], "record: not valid JSON"),
    ("not UTF-8", b'{"variant": "\xff"}', "cannot read -: not UTF-8 text"),
    ("empty", b"", "record: not valid JSON"),
    ("too deep", b"[" * 100000 + b"]" * 100000, "record: nested too deeply"),
    ("huge number", b'{"target": ' + b"9" * 5000 + b"}", "record: a number is too long"),
    ("a list", [], "record: must be a JSON object"),
    ("a string", "fives", "record: must be a JSON object"),
    ("unknown field", change(seed=1), "record: unknown field 'seed'"),
    ("no variant", change(variant=...), "variant: must be one of fives, muggins, twolane"),
    ("bad variant", change(variant="chess"), "variant: must be one of"),
    ("variant not text", change(variant=1), "variant: must be one of"),
    ("no players", change(players=...), "players: must be a list of 2 to 4 non-empty names"),
    ("one player", change(players=["a"]), "players: must be a list of 2 to 4"),
    ("five players", change(players=list("abcde")), "players: must be a list of 2 to 4"),
    ("empty name", change(players=["a", "", "c", "d"]), "players: must be a list"),
    ("blank name", change(players=["a", "  ", "c", "d"]), "players: must be a list"),
    ("name not text", change(players=["a", 2, "c", "d"]), "players: must be a list"),
    ("players not a list", change(players="abcd"), "players: must be a list"),
    ("target zero", change(target=0), "target: "),
    ("target negative", change(target=-20), "target: "),
    ("target text", change(target="20"), "target: must be a positive whole number"),
    ("target fraction", change(target=20.5), "target: must be a positive whole number"),
    ("target true", change(target=True), "target: must be a positive whole number"),
    ("muggins target", change(first_round("muggins"), target=50), "target: "),
    ("twolane target", change(first_round("twolane"), target=10), "target: "),
    ("no rounds", change(rounds=...), "rounds: must be a non-empty list of rounds"),
    ("rounds empty", change(rounds=[]), "rounds: must be a non-empty list"),
    ("rounds not a list", change(rounds={}), "rounds: must be a non-empty list"),
    ("round not an object", change(rounds=[[]]), "round 1: must be an object"),
    ("unknown round field", worked_round(end="out"), "round 1: unknown field 'end'"),
    ("no starter", worked_round(starter=...), "round 1: starter must be a seat number"),
    ("starter text", worked_round(starter="0"), "round 1: starter must be a seat number"),
    ("starter bool", worked_round(starter=False), "round 1: starter must be a seat number"),
    ("starter too big", worked_round(starter=4), "round 1: starter must be a seat from 0 to 3"),
    ("starter negative", worked_round(starter=-1), "round 1: starter must be a seat from 0 to 3"),
    ("no hands", worked_round(hands=...), "round 1: hands must be a list of lists of tiles"),
    ("hands not lists", worked_round(hands=["4:1"]), "round 1: hands must be a list of lists"),
    ("three hands", worked_round(hands=HANDS[:3]), "round 1: hands: 4 hands are needed"),
    ("tile not text", worked_round(hands=[[41, *HANDS[0][1:]], *HANDS[1:]]), "round 1: hands: 41"),
    ("bad tile", worked_round(hands=[["7:1", *HANDS[0][1:]], *HANDS[1:]]), "round 1: hands: "),
    ("odd digit", worked_round(hands=[["³:1", *HANDS[0][1:]], *HANDS[1:]]), "round 1: hands: "),
    (
        "deal size",
        worked_round(hands=[HANDS[0][:4], *HANDS[1:]], boneyard=[*BONEYARD, HANDS[0][4]]),
        "round 1: hands: seat 0 holds 4 tiles, not 5",
    ),
    ("tile missing", worked_round(boneyard=BONEYARD[1:]), "round 1: tile 0:0 is missing"),
    (
        "tile twice",
        worked_round(boneyard=[*BONEYARD[1:], "4:1"]),
        "round 1: tile 0:0 is missing",  # the set is checked in order: 0:0 comes first
    ),
    ("tile twice only", worked_round(boneyard=[*BONEYARD, "4:1"]), "round 1: tile 4:1 is there"),
    ("no boneyard", worked_round(boneyard=...), "round 1: boneyard must be a list of tiles"),
    ("no moves", worked_round(moves=...), "round 1: moves must be a list"),
    ("move not text", worked_round(moves=["1:1", 16]), "round 1, move 2: a move must be a string"),
    ("bad notation", worked_round(moves=["1:1", "1-6@E"]), "round 1, move 2: '1-6' is not a tile"),
    (
        "illegal move",
        worked_round(moves=["1:1", "4:3@E"]),
        "round 1, move 2: 4:3 does not fit on E",
    ),
    (
        "wrong turn tile",
        worked_round(moves=["1:1", "0:1@W"]),
        "round 1, move 2: 1:0 is not in hand",
    ),
    ("draw too early", worked_round(moves=["1:1", "draw"]), "round 1, move 2: cannot draw"),
    ("open with end", worked_round(moves=["1:1@W"]), "round 1, move 1: 1:1@W: the opening"),
    ("round 2 move 5", bad_move_in_round_two(), "round 2, move 5: 5:1 does not fit on N"),
    ("muggins starter", muggins_wrong_starter(), "round 1: starter must hold 3:2"),
    ("3:2 not dealt", muggins_3_2_in_the_boneyard(), "round 1: the 3:2 must be dealt"),
    ("round 2 starter", fives_round_two_wrong_starter(), "round 2: starter must be seat "),
    ("move after the end", after_the_round("fives"), "round 1, move "),
    ("round after the end", finished_twolane(), "round 2: the game ended in round 1"),
    ("round 1 not over", round_two_before_round_one_ends(), "round 2: round 1 is not over"),
]


def raw(data: Any) -> bytes:
    return data if isinstance(data, bytes) else json.dumps(data, ensure_ascii=False).encode()


def run_replay(data: Any) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "engine", "replay", "-"],
        input=raw(data),
        capture_output=True,
        timeout=120,
        check=False,
        cwd=ROOT,
    )


@pytest.mark.parametrize(("name", "data", "expected"), BROKEN, ids=[name for name, *_ in BROKEN])
def test_a_broken_record_is_refused_with_one_line(
    name: str, data: Any, expected: str, monkeypatch, capsys
):
    # The command's own main(), as `python -m engine replay -` runs it: an exception
    # escaping it would be a traceback (the subprocess tests below run a sample for real).
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(raw(data))))
    assert main(["replay", "-"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert err.startswith(expected), err


# Through the real command: what the interpreter itself could get wrong (reading
# stdin, deep nesting, huge numbers, encodings) and the two examples of docs/rules.md.
FOR_REAL = [
    "not JSON",
    "not UTF-8",
    "too deep",
    "huge number",
    "odd digit",
    "round 2 move 5",
    "muggins starter",
    "move after the end",
    "round after the end",
    "three hands",
]


@pytest.fixture(scope="module")
def answers() -> dict[str, subprocess.CompletedProcess[bytes]]:
    chosen = [(name, data) for name, data, _ in BROKEN if name in FOR_REAL]
    with ThreadPoolExecutor(max_workers=4) as pool:
        done = pool.map(run_replay, [data for _, data in chosen])
        return {name: result for (name, _), result in zip(chosen, done, strict=True)}


@pytest.mark.parametrize("name", FOR_REAL)
def test_the_command_exits_2_with_one_line_and_no_traceback(answers, name: str):
    expected = next(e for n, _, e in BROKEN if n == name)
    done = answers[name]
    err = done.stderr.decode("utf-8")
    assert done.returncode == 2, err
    assert done.stdout == b""
    assert "Traceback" not in err
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert err.startswith(expected), err


def test_the_place_format_of_the_rules(answers):
    assert answers["round 2 move 5"].stderr == b"round 2, move 5: 5:1 does not fit on N\n"
    assert answers["muggins starter"].stderr == b"round 1: starter must hold 3:2\n"


def test_the_first_refused_entry_is_named():
    record = worked_round(moves=["1:1", "4:3@E", "9:9", "draw"])
    with pytest.raises(RecordError, match=r"^round 1, move 2: "):
        replay(record)


def test_a_missing_file():
    done = subprocess.run(
        [sys.executable, "-m", "engine", "replay", str(ROOT / "no-such-record.json")],
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr.decode().startswith("cannot read ")
    assert done.stderr.count(b"\n") == 1


def test_a_record_in_progress_is_not_broken():
    record = worked_round(moves=["1:1", "1:6@E"])
    done = run_replay(record)
    assert done.returncode == 0 and done.stderr == b""
    result = json.loads(done.stdout)
    assert result["totals"] == [2, 0, 0, 0] and result["finished"] is False


# -- fuzzing replay() in-process ------------------------------------------------------------

JUNK = [None, True, 0, -1, 7, 2**70, 1.5, "", "x", "3:2", "3:2@N", [], {}, ["3:2"], [[]], {"a": 1}]


def mutations(record: Any, rng: random.Random, depth: int = 0) -> Any:
    """The record with one value somewhere replaced, removed or duplicated."""
    if isinstance(record, dict) and record and rng.random() < 0.8:
        key = rng.choice(sorted(record))
        out = dict(record)
        roll = rng.random()
        if roll < 0.2:
            del out[key]
        elif roll < 0.5:
            out[key] = rng.choice(JUNK)
        else:
            out[key] = mutations(record[key], rng, depth + 1)
        return out
    if isinstance(record, list) and record and rng.random() < 0.8:
        out = list(record)
        index = rng.randrange(len(out))
        roll = rng.random()
        if roll < 0.2:
            del out[index]
        elif roll < 0.3:
            out.insert(index, out[index])
        elif roll < 0.5:
            out[index] = rng.choice(JUNK)
        else:
            out[index] = mutations(record[index], rng, depth + 1)
        return out
    return rng.choice(JUNK)


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_a_broken_record_only_ever_raises_a_record_error(variant: str):
    rng = random.Random(variant)
    records = [
        to_record(random_game(variant, players, seed)) for players in (2, 4) for seed in (1, 2)
    ]
    for _ in range(400):
        broken = mutations(rng.choice(records), rng)
        try:
            game = replay(broken)
        except RecordError as exc:
            assert exc.message and "\n" not in exc.message
        else:
            summary(game)
