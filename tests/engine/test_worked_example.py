"""The worked example of docs/rules.md (fives, four players) as a golden record."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from engine import End, Game, Tile, replay, summary
from tests.engine.helpers import ends

DATA = Path(__file__).resolve().parent.parent / "data"
RECORD = DATA / "fives_worked.json"
EXPECTED = DATA / "fives_worked.replay.json"

# docs/rules.md, "Worked example": seat, move, the ends W E N S after it (None: an
# arm is still empty, so nothing is counted), the points the move scores.
TABLE = [
    (0, "1:1", {"W": 1, "E": 1, "N": 1, "S": 1}, None, 2),
    (1, "1:6@E", {"W": 1, "E": 6, "N": 1, "S": 1}, None, 0),
    (2, "0:1@W", {"W": 0, "E": 6, "N": 1, "S": 1}, None, 0),
    (3, "2:1@N", {"W": 0, "E": 6, "N": 2, "S": 1}, None, 0),
    (0, "1:4@S", {"W": 0, "E": 6, "N": 2, "S": 4}, 12, 0),
    (1, "0:3@W", {"W": 3, "E": 6, "N": 2, "S": 4}, 15, 4),
    (2, "6:6@E", {"W": 3, "E": 6, "N": 2, "S": 4}, 15, 4),
    (3, "6:4@E", {"W": 3, "E": 4, "N": 2, "S": 4}, 13, 0),
    (0, "3:5@W", {"W": 5, "E": 4, "N": 2, "S": 4}, 15, 4),
    (1, "5:5@W", {"W": 5, "E": 4, "N": 2, "S": 4}, 15, 4),
]
# Which arms are still empty after each of the first four moves ("W, N, S empty").
EMPTY_ARMS = [
    {End.W, End.E, End.N, End.S},
    {End.W, End.N, End.S},
    {End.N, End.S},
    {End.S},
]
TOTALS = [6, 8, 4, 0]

# docs/rules.md, "Replay output": the keys in the order the spec shows them.
SUMMARY_KEYS = ["variant", "finished", "winner", "places", "record", "totals", "rounds"]
ROUND_KEYS = ["starter", "end", "out", "points", "penalties", "moves"]
MOVE_KEYS = ["seat", "move", "points"]


def load_record() -> dict:
    return json.loads(RECORD.read_text(encoding="utf-8"))


def dealt_game() -> Game:
    record = load_record()
    rnd = record["rounds"][0]
    game = Game.empty(record["variant"], record["players"])
    game.start_round(
        rnd["starter"],
        [[Tile.parse(t) for t in hand] for hand in rnd["hands"]],
        [Tile.parse(t) for t in rnd["boneyard"]],
    )
    return game


def test_the_record_is_the_one_in_the_rules():
    record = load_record()
    assert record["players"] == ["Андрей", "Ирина", "Ольга", "Вадим"]
    assert [row[1] for row in TABLE] == record["rounds"][0]["moves"]
    assert "target" not in record  # so the default for four players applies


def test_move_by_move_points_and_ends():
    game = dealt_game()
    assert game.target == 20
    for number, (seat, text, expected_ends, total, points) in enumerate(TABLE, start=1):
        assert game.turn == seat, f"move {number}"
        entry = game.push(game.parse_move(text), seat=seat, text=text)
        assert entry.points == points, f"move {number}: {text}"
        assert ends(game) == expected_ends, f"move {number}: {text}"
        terms = game.rules.count_terms(game.round.table)
        if total is None:
            assert terms is None, f"move {number}: an arm is empty, nothing is counted"
            empty = {e for e in End if not game.round.table.arm_occupied(e)}
            assert empty == EMPTY_ARMS[number - 1], f"move {number}"
        else:
            assert terms == list(expected_ends.values()), f"move {number}"
            assert sum(terms) == total, f"move {number}"
    assert game.totals == TOTALS
    assert game.round.points == TOTALS
    assert not game.over and game.turn == 2


def test_the_spinner_is_the_opening_and_six_six_lies_inline():
    game = dealt_game()
    for seat, text, *_ in TABLE[:7]:
        game.push(game.parse_move(text), seat=seat)
    table = game.round.table
    assert table.hub == (None, 0)
    assert table.hub_tile().tile == Tile.parse("1:1")
    assert [p.tile for p in table.arm(End.E)] == [Tile.parse("1:6"), Tile.parse("6:6")]


def test_replay_of_the_record():
    game = replay(load_record())
    assert game.totals == TOTALS
    result = summary(game)
    assert result == json.loads(EXPECTED.read_text(encoding="utf-8"))
    assert [m["points"] for m in result["rounds"][0]["moves"]] == [row[4] for row in TABLE]
    assert [m["seat"] for m in result["rounds"][0]["moves"]] == [row[0] for row in TABLE]
    assert result["finished"] is False
    assert result["winner"] is None and result["places"] is None and result["record"] is None


def run_cli(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "engine", *args],
        input=stdin,
        capture_output=True,
        timeout=60,
        check=False,
    )


def check_output(done: subprocess.CompletedProcess[bytes]) -> None:
    assert done.returncode == 0, done.stderr.decode()
    assert done.stderr == b""
    text = done.stdout.decode("utf-8")
    assert text == EXPECTED.read_text(encoding="utf-8")
    pairs = json.loads(text, object_pairs_hook=lambda items: items)
    assert [key for key, _ in pairs] == SUMMARY_KEYS
    rounds = dict(pairs)["rounds"]
    assert [key for key, _ in rounds[0]] == ROUND_KEYS
    for move in dict(rounds[0])["moves"]:
        assert [key for key, _ in move] == MOVE_KEYS


def test_cli_prints_the_golden_output():
    check_output(run_cli("replay", str(RECORD)))


def test_cli_reads_standard_input():
    check_output(run_cli("replay", "-", stdin=RECORD.read_bytes()))


def test_console_script():
    # Installed with the package (pip install -e . in the README's setup).
    path = Path(sys.executable).parent / "domino-replay"
    assert path.exists(), f"domino-replay is not installed next to {sys.executable}"
    done = subprocess.run([str(path), str(RECORD)], capture_output=True, timeout=60, check=False)
    check_output(done)


def test_console_script_reads_standard_input():
    path = Path(sys.executable).parent / "domino-replay"
    done = subprocess.run(
        [str(path), "-"], input=RECORD.read_bytes(), capture_output=True, timeout=60, check=False
    )
    check_output(done)
