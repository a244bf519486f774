"""The record format spells every move and tile one way: no padding, no other case."""

from __future__ import annotations

import io
import json
import re
import sys
from typing import Any

import pytest

from engine import Game, RecordError, replay, to_record
from engine.cli import replay_main
from engine.errors import quoted


def twolane_record() -> dict[str, Any]:
    """A seeded twolane round played with the first legal move: it draws and passes."""
    game = Game.new("twolane", ["a", "b"], 0)
    while not game.over and len(game.rounds) < 2:
        game.push(game.legal_moves()[0])
    record = to_record(game)
    record["rounds"] = record["rounds"][:1]
    moves = record["rounds"][0]["moves"]
    assert "draw" in moves and "pass" in moves and any("@" in m for m in moves)
    return record


def run(
    record: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> tuple[int, str, str]:
    data = json.dumps(record).encode()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    status = replay_main(["-"])
    out, err = capsys.readouterr()
    return status, out, err


def refused(
    record: dict[str, Any],
    place: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, err = run(record, monkeypatch, capsys)
    assert (status, out) == (2, ""), err
    assert err.startswith(place), err
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert "Traceback" not in err
    with pytest.raises(RecordError):
        replay(record)


WORDS = [
    ("draw", "draw "),
    ("draw", " draw"),
    ("draw", "\tdraw"),
    ("draw", "draw\t"),
    ("draw", "DRAW"),
    ("draw", "Draw"),
    ("draw", "dr aw"),
    ("pass", "pass\n"),
    ("pass", " pass"),
    ("pass", "pass "),
    ("pass", "PASS"),
]


@pytest.mark.parametrize(("word", "spelling"), WORDS, ids=repr)
def test_a_padded_or_odd_word_is_refused(
    word: str, spelling: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    record = twolane_record()
    moves = record["rounds"][0]["moves"]
    index = moves.index(word)
    moves[index] = spelling
    refused(record, f"round 1, move {index + 1}: ", monkeypatch, capsys)


def padded_plays(text: str) -> list[str]:
    tile, _, end = text.partition("@")
    a, b = tile.split(":")
    return [
        f" {text}",
        f"{text} ",
        f"\t{text}",
        f"{text}\t",
        f"{text}\n",
        f"{a}: {b}@{end}",
        f"{a} :{b}@{end}",
        f"{tile} @{end}",
        f"{tile}@ {end}",
        f"{tile}@{end.lower()}",
    ]


def test_a_padded_play_is_refused(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    moves = twolane_record()["rounds"][0]["moves"]
    index = next(i for i, m in enumerate(moves) if "@" in m)
    for spelling in padded_plays(moves[index]):
        record = twolane_record()
        record["rounds"][0]["moves"][index] = spelling
        refused(record, f"round 1, move {index + 1}: ", monkeypatch, capsys)


@pytest.mark.parametrize(
    "spelling", ["{a}:{b} ", " {a}:{b}", "{a}: {b}", "{a} :{b}", "\t{a}:{b}", "{a}:{b}\n"]
)
@pytest.mark.parametrize("field", ["hands", "boneyard"])
def test_a_padded_tile_is_refused(
    spelling: str,
    field: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    record = twolane_record()
    rnd = record["rounds"][0]
    tiles = rnd["hands"][0] if field == "hands" else rnd["boneyard"]
    a, b = tiles[0].split(":")
    tiles[0] = spelling.format(a=a, b=b)
    refused(record, f"round 1: {field}", monkeypatch, capsys)


def test_the_correct_spellings_still_replay(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    record = twolane_record()
    status, out, err = run(record, monkeypatch, capsys)
    assert (status, err) == (0, "")
    written = [m["move"] for m in json.loads(out)["rounds"][0]["moves"]]
    assert written == record["rounds"][0]["moves"]
    replay(record)


# What a refused value may grow to in the one-line error: 200 characters, an ellipsis
# marking the cut (issue 27, point 16: a 100,000-character move was repeated whole).
LONG = 100_000
QUOTED_AT_MOST = 200


def huge_values() -> dict[str, tuple[str, dict[str, Any]]]:
    """Records with one value 100,000 characters long, each with the place it is refused at."""
    cases: dict[str, tuple[str, dict[str, Any]]] = {}
    for label, value in [
        ("a move", "3:" + "4" * LONG),
        ("a move on an end", "3:4@" + "W" * LONG),
        ("combined doubles", "3:3@W+" + "2:2" * (LONG // 3)),
        ("a padded move", " " + "x" * LONG),
    ]:
        record = twolane_record()
        record["rounds"][0]["moves"][0] = value
        cases[label] = ("round 1, move 1: ", record)
    record = twolane_record()
    record["rounds"][0]["hands"][0][0] = "6:" + "6" * LONG
    cases["a tile"] = ("round 1: hands", record)
    record = twolane_record()
    record["x" * LONG] = 1
    cases["a field's name"] = ("record: unknown field", record)
    record = twolane_record()
    record["rounds"][0]["y" * LONG] = 1
    cases["a round's field"] = ("round 1: unknown field", record)
    return cases


@pytest.mark.parametrize("case", sorted(huge_values()))
def test_a_huge_refused_value_is_cut_in_the_error(
    case: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    place, record = huge_values()[case]
    status, out, err = run(record, monkeypatch, capsys)
    assert (status, out) == (2, "") and err.startswith(place), err[:300]
    assert err.endswith("\n") and err.count("\n") == 1
    # The value shows as a quoted text of at most 200 characters, cut with an ellipsis.
    quoted = re.findall(r"'[^']*'|\"[^\"]*\"", err)
    assert quoted, err
    longest = max(quoted, key=len)
    assert len(longest) <= QUOTED_AT_MOST and "…" in longest, (len(longest), err[:300])
    assert len(err) < 2 * QUOTED_AT_MOST + len(place) + 100, len(err)


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        ("3:2", "'3:2'"),
        ("x" * 198, "'" + "x" * 198 + "'"),  # 200 with its quotes: whole
        ("x" * 199, "'" + "x" * 197 + "…'"),  # one more: cut, the closing quote kept
        (["a" * 300], "['" + "a" * 197 + "…"),  # not a text: cut, nothing added after
    ],
)
def test_quoted_cuts_to_200_characters(value: object, shown: str) -> None:
    assert quoted(value) == shown
    assert len(quoted(value)) <= QUOTED_AT_MOST
