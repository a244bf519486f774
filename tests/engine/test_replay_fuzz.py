"""`domino-replay` fed mutated records: status 0 or 2, one line, and the referee's verdict.

Valid records (tests/data and seeded games) are mutated by hypothesis: moves dropped,
doubled, swapped or rewritten, tiles and seats changed, wrong JSON types, padding,
unicode lookalikes, huge numbers, nesting, truncated JSON and random bytes. Each
input runs through the command's entry function in-process (a handful also through
the installed console script) and is judged independently:

- the record format (fields, types, spellings, the deal, the starter) is checked
  here from docs/rules.md, "Game records": the referee only judges moves;
- every move is checked by `tests/engine/referee.py`, which works out the legal
  moves and the points from the rules text; a move is accepted when its spelling
  reads as exactly one of the referee's legal moves;
- only the JSON parsing itself is shared with the command (the standard library's).

The command must exit 0 exactly when the judge accepts, with the judge's totals,
points, ends and places; otherwise 2 with one line naming the judge's place.

`REPLAY_FUZZ_SCALE=100` runs a hundred times as many examples (with `--timeout=0`: a
test then outlasts the suite's 300 s limit); `--hypothesis-show-statistics` prints how
many ran and how many were accepted.
"""

from __future__ import annotations

import copy
import io
import json
import os
import random
import re
import subprocess
import sys
import sysconfig
import traceback
import unicodedata
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any, TypeGuard, cast
from unittest import mock

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st
from hypothesis.control import currently_in_test_context

from engine import Game, Tile, to_record
from engine.cli import replay_main
from tests.engine.helpers import DEFAULT_TARGET, HAND_SIZE, names
from tests.engine.referee import ENDS, Referee, Round

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
SCALE = float(os.environ.get("REPLAY_FUZZ_SCALE", "1"))


def examples(count: int) -> int:
    return max(1, int(count * SCALE))


# -- the judge: docs/rules.md "Game records", with the referee for the moves ---------------

RECORD_FIELDS = ("variant", "players", "target", "rounds")
ROUND_FIELDS = ("starter", "hands", "boneyard", "moves")
TOP_PLACES = ("record: ", "variant: ", "players: ", "target: ", "rounds: ")
# [0-6] is a range of code points: ASCII digits only, never "３" or "٣".
TILE = re.compile(r"([0-6]):([0-6])")
PLAY = re.compile(r"([0-6]):([0-6])@([WENS])")
THREE_TWO = Tile.of(3, 2)


class Refused(Exception):
    """The judge refuses; the command's line must begin with one of `places`."""

    def __init__(self, *places: str) -> None:
        super().__init__(places[0])
        self.places = places


# Characters that show as nothing although they are neither spaces nor format characters.
BLANK = frozenset("\u115f\u1160\u2800\u3164\uffa0\u180e")


def visible(char: str) -> bool:
    """docs/rules.md: "a name must contain a visible character (not only spaces)"."""
    return (
        not char.isspace() and char not in BLANK and unicodedata.category(char) not in {"Cc", "Cf"}
    )


def is_int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def strict_tile(text: Any) -> Tile | None:
    """A tile as the record format spells it (either way round), or None."""
    found = TILE.fullmatch(text) if isinstance(text, str) else None
    return Tile.of(int(found[1]), int(found[2])) if found else None


def tile_name(a: str, b: str) -> str:
    return str(Tile.of(int(a), int(b)))  # the referee writes a tile high half first


def as_legal(text: str, referee: Referee) -> str | None:
    """The referee's legal move this spelling stands for, or None if it is none."""
    legal = referee.legal()
    if text in ("draw", "pass"):
        return text if text in legal else None
    if referee.round.opening is None:  # the opening has no end; its order counts
        return text if TILE.fullmatch(text) and text in legal else None
    parts = text.split("+")
    if len(parts) > 1:  # muggins doubles: each names its end, in any order
        plays = [PLAY.fullmatch(part) for part in parts]
        if not all(plays):
            return None
        laid = sorted(
            ((p[3], tile_name(p[1], p[2])) for p in plays if p), key=lambda x: ENDS.index(x[0])
        )
        written = "+".join(f"{tile}@{end}" for end, tile in laid)
        return written if written in legal else None
    if play := PLAY.fullmatch(text):
        written = f"{tile_name(play[1], play[2])}@{play[3]}"
        return written if written in legal else None
    if tile := TILE.fullmatch(text):  # no end: legal on exactly one end
        fits = [f"{tile_name(tile[1], tile[2])}@{end}" for end in ENDS]
        fits = [move for move in fits if move in legal]
        return fits[0] if len(fits) == 1 else None
    return None


def judge(record: Any) -> dict[str, Any]:
    """What the replay must print for `record`, or `Refused` with the place it names."""
    if not isinstance(record, dict) or any(key not in RECORD_FIELDS for key in record):
        raise Refused(*TOP_PLACES)
    variant = record.get("variant")
    if not isinstance(variant, str) or variant not in ("fives", "muggins", "twolane"):
        raise Refused(*TOP_PLACES)
    players = record.get("players")
    if (
        not isinstance(players, list)
        or not 2 <= len(players) <= 4
        or not all(isinstance(p, str) and any(map(visible, p)) for p in players)
    ):
        raise Refused(*TOP_PLACES)
    seats = len(players)
    target = record.get("target")
    if target is not None:
        if not is_int(target):
            raise Refused(*TOP_PLACES)
        allowed = {"fives": target > 0, "muggins": target == 51, "twolane": False}
        if not allowed[variant]:
            raise Refused(*TOP_PLACES)
    else:
        target = DEFAULT_TARGET[variant, seats]
    rounds = record.get("rounds")
    if not isinstance(rounds, list) or not rounds:
        raise Refused(*TOP_PLACES)
    referee: Referee | None = None
    written: list[list[dict[str, Any]]] = []  # each round's moves as the replay lists them
    for number, data in enumerate(rounds, start=1):
        referee = judge_deal(variant, players, target, number, data, referee)
        written.append([])
        for index, text in enumerate(data["moves"], start=1):
            rnd = referee.round
            legal = as_legal(text, referee) if isinstance(text, str) else None
            if rnd.end is not None or legal is None:
                raise Refused(f"round {number}, move {index}: ")
            seat = rnd.turn
            written[-1].append({"seat": seat, "move": text, "points": referee.act(legal)})
    assert referee is not None
    return expected_summary(referee, written)


def judge_deal(
    variant: str,
    players: list[str],
    target: int | None,
    number: int,
    data: Any,
    referee: Referee | None,
) -> Referee:
    """The referee with round `number` dealt as the record deals it (checked first)."""
    place = f"round {number}: "
    seats = len(players)
    if referee is not None and (referee.over or referee.round.end is None):
        raise Refused(place)  # after the match, or before the previous round ended
    if not isinstance(data, dict) or any(key not in ROUND_FIELDS for key in data):
        raise Refused(place)
    starter, hands, boneyard = data.get("starter"), data.get("hands"), data.get("boneyard")
    if not is_int(starter) or not 0 <= starter < seats:
        raise Refused(place)
    if not isinstance(hands, list) or not all(isinstance(h, list) for h in hands):
        raise Refused(place)
    if not isinstance(boneyard, list) or not isinstance(data.get("moves"), list):
        raise Refused(place)
    dealt = [[strict_tile(t) for t in hand] for hand in hands]
    pile = [strict_tile(t) for t in boneyard]
    if any(t is None for hand in [*dealt, pile] for t in hand):
        raise Refused(place)
    size = HAND_SIZE[variant, seats]
    if len(dealt) != seats or any(len(hand) != size for hand in dealt):
        raise Refused(place)
    everything = [t for hand in [*dealt, pile] for t in hand]
    if len(everything) != 28 or len(set(everything)) != 28:
        raise Refused(place)
    if referee is not None:
        if starter != (referee.round.starter + 1) % seats:
            raise Refused(place)
    elif variant == "muggins" and THREE_TWO not in dealt[starter]:
        raise Refused(place)  # the first round is led by the holder of 3:2
    # The referee takes its deal from an object shaped like the engine's game.
    deal = SimpleNamespace(number=number, starter=starter, hands=dealt, boneyard=pile)
    game = SimpleNamespace(variant=variant, players=players, target=target, round=deal)
    if referee is None:
        return Referee(cast(Game, game))
    referee.take_deal(cast(Game, game))
    return referee


def expected_summary(referee: Referee, written: list[list[dict[str, Any]]]) -> dict[str, Any]:
    places = referee.places() if referee.over else None
    winner: int | list[int] | None = None
    best_record = None
    if places is not None:
        winners = [seat for seat, place in enumerate(places) if place == 1]
        winner = winners[0] if len(winners) == 1 else winners
        if referee.variant == "fives" and len(winners) == 1:
            totals = referee.totals
            best_record = totals[winners[0]] - (sum(totals) - totals[winners[0]])
    return {
        "variant": referee.variant,
        "finished": referee.over,
        "winner": winner,
        "places": places,
        "record": best_record,
        "totals": list(referee.totals),
        "rounds": [
            round_summary(rnd, moves) for rnd, moves in zip(referee.rounds, written, strict=True)
        ],
    }


# What the replay output copies of each round as the referee kept it.
COPIED_OF_A_ROUND = ("starter", "end", "points", "penalties")


def round_summary(rnd: Round, moves: list[dict[str, Any]]) -> dict[str, Any]:
    """A round as the replay output lists it: the copied fields, who went out, the moves."""
    copied = {name: copy.copy(getattr(rnd, name)) for name in COPIED_OF_A_ROUND}
    return copied | {"out": rnd.out[0] if rnd.out else None, "moves": moves}


def judge_bytes(data: bytes) -> dict[str, Any] | Refused:
    """The judge's verdict on the command's input as bytes."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return Refused("cannot read -: ")
    try:
        record = json.loads(text)
    except (ValueError, RecursionError):  # bad JSON, a number of over 4300 digits, nesting
        return Refused("record: ")
    try:
        return judge(record)
    except Refused as refused:
        return refused


# -- running the command ------------------------------------------------------------------


@dataclass
class Outcome:
    status: int | str | None
    out: str
    err: str
    crash: str | None = None


def run_in_process(data: bytes) -> Outcome:
    """`domino-replay -` with `data` on standard input, run by its entry function."""
    stdin = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    crash = None
    status: int | str | None = None
    with mock.patch.object(sys, "stdin", stdin), redirect_stdout(out), redirect_stderr(err):
        try:
            status = replay_main(["-"])
        except SystemExit as exc:
            status = exc.code
        except BaseException:  # what the console script would print as a traceback
            crash = traceback.format_exc()
    return Outcome(status, out.getvalue(), err.getvalue(), crash)


def console_script() -> Path:
    path = Path(sysconfig.get_path("scripts")) / "domino-replay"
    if not path.exists():
        pytest.fail(f"{path} is missing: install the project (pip install -e .)")
    return path


def run_console(data: bytes) -> Outcome:
    done = subprocess.run(
        [str(console_script()), "-"],
        input=data,
        capture_output=True,
        timeout=120,
        check=False,
        cwd=ROOT,
    )
    err = done.stderr.decode("utf-8", "replace")
    crash = err if "Traceback" in err else None
    return Outcome(done.returncode, done.stdout.decode("utf-8", "replace"), err, crash)


def note(what: str) -> None:
    """Count `what` in hypothesis's statistics (outside a hypothesis test, nothing)."""
    if currently_in_test_context():
        event(what)


def check(data: bytes, outcome: Outcome) -> None:
    """The command's answer agrees with the judge's verdict on `data`."""
    assert outcome.crash is None, outcome.crash
    assert outcome.status in (0, 2), (outcome.status, outcome.err)
    verdict = judge_bytes(data)
    if outcome.status == 2:
        note("refused")
        assert outcome.out == ""
        assert "Traceback" not in outcome.err
        assert outcome.err.endswith("\n") and len(outcome.err.splitlines()) == 1, outcome.err
        assert outcome.err.strip(), "an empty refusal"
        assert isinstance(verdict, Refused), f"refused a record the referee accepts: {outcome.err}"
        assert outcome.err.startswith(verdict.places), (verdict.places, outcome.err)
    else:
        note("accepted")
        assert outcome.err == ""
        assert not isinstance(verdict, Refused), (
            f"accepted a record the judge refuses at {verdict.places[0]!r}"
        )
        assert json.loads(outcome.out) == verdict


# -- the records to mutate ----------------------------------------------------------------


def played(variant: str, players: int, seed: int, target: int | None = None) -> dict[str, Any]:
    """A seeded game played to its end with seeded choices, as a record."""
    game = Game.new(variant, names(players), seed, target)
    rng = random.Random(seed)
    while not game.over:
        game.push(rng.choice(game.legal_moves()))
    return to_record(game)


def base_records() -> list[dict[str, Any]]:
    files = sorted(p for p in DATA.glob("*.json") if not p.name.endswith(".replay.json"))
    found = [json.loads(p.read_text(encoding="utf-8")) for p in files]
    found += [
        played(v, n, seed)
        for v in ("fives", "muggins", "twolane")
        for n, seed in ((2, 1), (3, 2), (4, 3))
    ]
    found += [played("fives", 3, 4, target=1), played("fives", 2, 5, target=60)]
    return found


BASES = base_records()


def serialize(record: Any, ascii_only: bool = False, indent: int | None = None) -> bytes:
    text = json.dumps(record, ensure_ascii=ascii_only, indent=indent)
    return text.encode("utf-8", "surrogatepass")  # a lone surrogate makes the bytes not UTF-8


# -- mutations ------------------------------------------------------------------------------

Draw = st.DrawFn
Mutation = Callable[[Draw, Any], Any]

DIGIT_LOOKALIKES = {
    d: [chr(0xFF10 + int(d)), chr(0x0660 + int(d)), chr(0x1D7CE + int(d)), "⁰¹²³⁴⁵⁶"[int(d)]]
    for d in "0123456"
}
LOOKALIKES: dict[str, list[str]] = {
    **DIGIT_LOOKALIKES,
    ":": ["：", "∶", "꞉", ";", ".", "-", "::"],
    "@": ["＠", "﹫", "@@", "#"],
    "W": ["w", "Ԝ", "Ｗ", "Ꮃ"],
    "E": ["e", "Е", "Ε", "Ｅ"],
    "N": ["n", "Ν", "Ｎ"],
    "S": ["s", "Ѕ", "Ｓ"],
    "a": ["а", "A", "ɑ"],
    "p": ["р", "P"],
    "s": ["ѕ", "S"],
    "d": ["ԁ", "D"],
    "r": ["г", "R"],
    "w": ["ԝ", "W"],
    "f": ["ƒ", "F"],
    "i": ["і", "ı", "I"],
    "v": ["ν", "V"],
    "e": ["е", "E"],
    "m": ["м", "M"],
    "u": ["υ", "U"],
    "g": ["ɡ", "G"],
    "o": ["о", "0"],
    "t": ["т", "T"],
    "l": ["ӏ", "1", "L"],
    "n": ["п", "N"],
}
PADDING = [
    " ", "\t", "\n", "\r", "\x0b", "\x0c", "\x00", "\x1c", "\x85", "\u00a0", "\u2003", "\u3000",
    "\u2028", "\u200b", "\u200d", "\u2060", "\ufeff", "\u180e", "\u0301", "\u202e",
]  # fmt: skip
WORDS = ["draw", "pass", "Draw", "PASS", "drew", "skip", "", "+", "@", ":", "3:2@", "@W"]
TOKENS = (
    [f"{a}:{b}" for a in range(8) for b in range(8)]
    + [f"{a}:{b}@{e}" for a in range(7) for b in range(7) for e in "WENSX"]
    + [f"{a}:{a}@{e}+{b}:{b}@{f}" for a in range(7) for b in range(7) for e in "WE" for f in "NS"]
    + ["3:3@W+2:2@E", "2:2@E+3:3@W", "1:1@W+1:1@E", "3:3@W+2:2@E+", "+3:3@W", "3:2@W+2:2@E"]
    + WORDS
)
JUNK = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()
    | st.text(max_size=8)
    | st.sampled_from(TOKENS),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=6,
)


def paths(value: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every place in a JSON value, the value itself first."""
    yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from paths(item, (*prefix, index))


def get_at(value: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        value = value[key]
    return value


def set_at(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    get_at(value, path[:-1])[path[-1]] = new
    return value


def pick_path(draw: Draw, record: Any, keep: Callable[[Any], bool] = lambda _: True) -> Any:
    found = [p for p in paths(record) if keep(get_at(record, p))]
    return draw(st.sampled_from(found)) if found else None


def move_lists(record: Any) -> list[list[Any]]:
    rounds = record.get("rounds") if isinstance(record, dict) else None
    if not isinstance(rounds, list):
        return []
    return [r["moves"] for r in rounds if isinstance(r, dict) and isinstance(r.get("moves"), list)]


def tile_lists(record: Any) -> list[list[Any]]:
    rounds = record.get("rounds") if isinstance(record, dict) else None
    found: list[list[Any]] = []
    for rnd in rounds if isinstance(rounds, list) else []:
        if isinstance(rnd, dict):
            hands = rnd.get("hands")
            found += [h for h in hands if isinstance(h, list)] if isinstance(hands, list) else []
            if isinstance(rnd.get("boneyard"), list):
                found.append(rnd["boneyard"])
    return found


def rounds_list(record: Any) -> list[Any] | None:
    rounds = record.get("rounds") if isinstance(record, dict) else None
    return rounds if isinstance(rounds, list) else None


def drop_move(draw: Draw, record: Any) -> Any:
    lists = [m for m in move_lists(record) if m]
    if lists:
        moves = draw(st.sampled_from(lists))
        del moves[draw(st.integers(0, len(moves) - 1))]
    return record


def duplicate_move(draw: Draw, record: Any) -> Any:
    lists = [m for m in move_lists(record) if m]
    if lists:
        moves = draw(st.sampled_from(lists))
        index = draw(st.integers(0, len(moves) - 1))
        moves.insert(index, moves[index])
    return record


def swap_moves(draw: Draw, record: Any) -> Any:
    lists = [m for m in move_lists(record) if len(m) > 1]
    if lists:
        moves = draw(st.sampled_from(lists))
        i, j = draw(st.lists(st.integers(0, len(moves) - 1), min_size=2, max_size=2, unique=True))
        moves[i], moves[j] = moves[j], moves[i]
    return record


def rewrite_move(draw: Draw, record: Any) -> Any:
    lists = move_lists(record)
    if lists:
        moves = draw(st.sampled_from(lists))
        index = draw(st.integers(0, len(moves)))
        token = draw(st.sampled_from(TOKENS))
        if index < len(moves) and draw(st.booleans()):
            moves[index] = token
        else:
            moves.insert(index, token)
    return record


def respell_move(draw: Draw, record: Any) -> Any:
    """Another spelling of a move: often still legal (halves swapped, end left out)."""
    lists = [m for m in move_lists(record) if any(isinstance(t, str) for t in m)]
    if not lists:
        return record
    moves = draw(st.sampled_from(lists))
    index = draw(st.sampled_from([i for i, t in enumerate(moves) if isinstance(t, str)]))
    text = moves[index]
    how = draw(st.sampled_from(["flip", "no end", "other end", "reorder"]))
    if how == "flip":
        text = re.sub(r"(\d):(\d)", r"\2:\1", text)
    elif how == "no end":
        text = re.sub(r"@[WENS]", "", text)
    elif how == "other end":
        text = re.sub(r"@[WENS]", "@" + draw(st.sampled_from(ENDS)), text, count=1)
    else:
        text = "+".join(reversed(text.split("+")))
    moves[index] = text
    return record


def truncate(draw: Draw, record: Any) -> Any:
    """Stop the record part way: a game in progress, valid unless cut oddly."""
    rounds = rounds_list(record)
    if rounds:
        keep = draw(st.integers(1, len(rounds)))
        del rounds[keep:]
        last = rounds[-1]
        if isinstance(last, dict) and isinstance(last.get("moves"), list):
            del last["moves"][draw(st.integers(0, len(last["moves"]))) :]
    return record


def change_tiles(draw: Draw, record: Any) -> Any:
    lists = tile_lists(record)
    if not lists:
        return record
    first = draw(st.sampled_from(lists))
    second = draw(st.sampled_from(lists))
    how = draw(st.sampled_from(["swap", "flip", "replace", "drop", "add", "move"]))
    if not first:
        first.append(draw(st.sampled_from(TOKENS)))
        return record
    i = draw(st.integers(0, len(first) - 1))
    j = draw(st.integers(0, max(0, len(second) - 1)))
    if how == "swap" and second:
        first[i], second[j] = second[j], first[i]
    elif how == "flip" and isinstance(first[i], str):
        first[i] = ":".join(reversed(first[i].split(":")))
    elif how == "replace":
        first[i] = draw(st.sampled_from(TOKENS) | JUNK)
    elif how == "drop":
        del first[i]
    elif how == "add":
        first.insert(i, draw(st.sampled_from([first[i], *TOKENS[:64]])))
    else:
        second.append(first.pop(i))
    return record


def change_seats(draw: Draw, record: Any) -> Any:
    rounds = [r for r in rounds_list(record) or [] if isinstance(r, dict)]
    if not rounds:
        return record
    rnd = draw(st.sampled_from(rounds))
    how = draw(st.sampled_from(["starter", "rotate", "drop hand", "add hand"]))
    hands = rnd.get("hands")
    if how == "starter" or not isinstance(hands, list) or not hands:
        rnd["starter"] = draw(
            st.integers(-2, 5) | st.sampled_from([2**63, -(2**70), 10**300, 1.0, "0", True, None])
        )
    elif how == "rotate":
        rnd["hands"] = hands[1:] + hands[:1]
    elif how == "drop hand":
        rnd["hands"] = hands[:-1]
    else:
        rnd["hands"] = [*hands, []]
    return record


def change_players(draw: Draw, record: Any) -> Any:
    if not isinstance(record, dict):
        return record
    players = record.get("players")
    players = list(players) if isinstance(players, list) else []
    how = draw(st.sampled_from(["add", "drop", "name", "all"]))
    name = draw(
        st.sampled_from(
            ["", " ", "\t\n", "\u3000", "\u200b", "\u200b \u200b", "\u3164", "\u2800", "ℙ", 7, None]
        )
        | st.text(max_size=4)
    )
    if how == "add":
        players.append(name)
    elif how == "drop" and players:
        players.pop()
    elif how == "name" and players:
        players[draw(st.integers(0, len(players) - 1))] = name
    else:
        record["players"] = draw(st.sampled_from(["ab", {}, None, [], ["a"], list("abcde")]))
        return record
    record["players"] = players
    return record


VARIANT_SPELLINGS = [
    *("fives", "muggins", "twolane", "Fives", "FIVES", "fіves", "muggіns", "twolane "),
    *(" fives", "five", "", None, 1, ["fives"], {"fives": 1}),
]


def change_variant(draw: Draw, record: Any) -> Any:
    if isinstance(record, dict):
        record["variant"] = draw(st.sampled_from(VARIANT_SPELLINGS))
    return record


def change_totals(draw: Draw, record: Any) -> Any:
    """The target, or scores a record has no field for (only the replay works them out)."""
    if not isinstance(record, dict):
        return record
    how = draw(st.sampled_from(["target", "drop target", "totals", "round field"]))
    if how == "target":
        record["target"] = draw(
            st.sampled_from([None, 0, -1, 1, 20, 25, 51, 52, 10**30, 25.0, 1e400, "25", True, []])
            | st.integers()
        )
    elif how == "drop target":
        record.pop("target", None)
    elif how == "totals":
        key = draw(st.sampled_from(["totals", "points", "seed", "winner", "Variant", "variant "]))
        record[key] = draw(JUNK)
    else:
        rounds = [r for r in rounds_list(record) or [] if isinstance(r, dict)]
        if rounds:
            key = draw(st.sampled_from(["points", "end", "out", "turn", "Moves", "moves "]))
            draw(st.sampled_from(rounds))[key] = draw(JUNK)
    return record


def change_rounds(draw: Draw, record: Any) -> Any:
    rounds = rounds_list(record)
    if not rounds:
        return record
    how = draw(st.sampled_from(["drop", "duplicate", "swap", "append", "empty"]))
    index = draw(st.integers(0, len(rounds) - 1))
    if how == "drop":
        del rounds[index]
    elif how == "duplicate":
        rounds.insert(index, copy.deepcopy(rounds[index]))
    elif how == "swap" and len(rounds) > 1:
        other = draw(st.integers(0, len(rounds) - 1))
        rounds[index], rounds[other] = rounds[other], rounds[index]
    elif how == "append":
        rounds.append(copy.deepcopy(rounds[-1]))
    else:
        rounds[index] = {}
    return record


def wrong_type(draw: Draw, record: Any) -> Any:
    """Any value replaced by one of another JSON type (or by the same in a list or object)."""
    path = pick_path(draw, record)
    if path is None:
        return record
    old = get_at(record, path)
    new = draw(
        st.sampled_from([[old], {"value": old}, str(old), None, 0, True, 1.5, "", [], {}]) | JUNK
    )
    return set_at(record, path, new)


def drop_key(draw: Draw, record: Any) -> Any:
    path = pick_path(draw, record, lambda v: isinstance(v, dict) and bool(v))
    if path is not None:
        where = get_at(record, path)
        del where[draw(st.sampled_from(sorted(where)))]
    return record


def nest(draw: Draw, record: Any) -> Any:
    path = pick_path(draw, record)
    if path is None:
        return record
    value = get_at(record, path)
    for _ in range(draw(st.integers(1, 200))):
        value = [value] if draw(st.booleans()) else {"x": value}
    return set_at(record, path, value)


def lookalike(draw: Draw, record: Any) -> Any:
    """A character of some text swapped for one that looks like it."""
    path = pick_path(draw, record, lambda v: isinstance(v, str) and any(c in LOOKALIKES for c in v))
    if path is None:
        return record
    text = get_at(record, path)
    index = draw(st.sampled_from([i for i, c in enumerate(text) if c in LOOKALIKES]))
    other = draw(st.sampled_from(LOOKALIKES[text[index]]))
    return set_at(record, path, text[:index] + other + text[index + 1 :])


def pad(draw: Draw, record: Any) -> Any:
    """Whitespace or an invisible character before, inside or after some text (or a key)."""
    path = pick_path(draw, record, lambda v: isinstance(v, str | dict))
    if path is None:
        return record
    value = get_at(record, path)
    padding = "".join(draw(st.lists(st.sampled_from(PADDING), min_size=1, max_size=2)))
    if isinstance(value, dict):
        if value:
            key = draw(st.sampled_from(sorted(value)))
            value[key + padding if draw(st.booleans()) else padding + key] = value.pop(key)
        return record
    at = draw(st.integers(0, len(value)))
    return set_at(record, path, value[:at] + padding + value[at:])


def huge_number(draw: Draw, record: Any) -> Any:
    path = pick_path(draw, record, lambda v: is_int(v) or (isinstance(v, str) and ":" in v))
    if path is None:
        return record
    digits = draw(st.integers(18, 4000))
    number = 10**digits - draw(st.integers(0, 9))
    if isinstance(get_at(record, path), str):  # a tile with a huge half
        return set_at(record, path, f"{number}:1")
    return set_at(record, path, number if draw(st.booleans()) else -number)


MUTATIONS: list[Mutation] = [
    drop_move,
    duplicate_move,
    swap_moves,
    rewrite_move,
    respell_move,
    truncate,
    change_tiles,
    change_seats,
    change_players,
    change_variant,
    change_totals,
    change_rounds,
    wrong_type,
    drop_key,
    nest,
    lookalike,
    pad,
    huge_number,
]


@st.composite
def mutated_records(draw: Draw) -> bytes:
    record: Any = copy.deepcopy(draw(st.sampled_from(BASES)))
    for mutation in draw(st.lists(st.sampled_from(MUTATIONS), min_size=1, max_size=3)):
        note(f"mutation: {mutation.__name__}")
        record = mutation(draw, record)
    return serialize(record, draw(st.booleans()), draw(st.sampled_from([None, None, 1])))


@st.composite
def respelled_records(draw: Draw) -> bytes:
    """Mostly valid records: cut short, moves and tiles written another allowed way."""
    record = copy.deepcopy(draw(st.sampled_from(BASES)))
    for rnd in record["rounds"]:
        for index, text in enumerate(rnd["moves"]):
            if draw(st.integers(0, 9)) == 0:
                rnd["moves"][index] = re.sub(r"@[WENS]", "", text)
            elif draw(st.integers(0, 9)) == 0 and index > 0:
                rnd["moves"][index] = re.sub(r"(\d):(\d)", r"\2:\1", text)
        if draw(st.integers(0, 4)) == 0:
            rnd["hands"] = [[":".join(reversed(t.split(":"))) for t in h] for h in rnd["hands"]]
    if draw(st.booleans()):
        record = truncate(draw, record)
    return serialize(record)


BYTE_EDITS = [
    *("truncate", "flip", "insert", "delete", "bom", "utf-16"),
    *("latin-1", "digits", "deep", "garbage", "spaces"),
]


def byte_edit(draw: Draw, data: bytes) -> bytes:
    how = draw(st.sampled_from(BYTE_EDITS))
    note(f"bytes: {how}")
    at = draw(st.integers(0, len(data)))
    if how == "truncate":
        return data[:at]
    if how == "flip" and data:
        at = min(at, len(data) - 1)
        return data[:at] + bytes([draw(st.integers(0, 255))]) + data[at + 1 :]
    if how == "insert":
        return data[:at] + draw(st.binary(min_size=1, max_size=8)) + data[at:]
    if how == "delete":
        return data[:at] + data[at + draw(st.integers(1, 40)) :]
    if how == "bom":
        return b"\xef\xbb\xbf" + data
    if how == "utf-16":
        text = data.decode("utf-8", "surrogateescape")
        return text.encode(draw(st.sampled_from(["utf-16", "utf-16-le", "utf-32"])), "replace")
    if how == "latin-1":
        return data.decode("utf-8", "surrogateescape").encode("latin-1", "replace")
    if how == "digits":  # the first number near or past int()'s limit of 4300 digits
        return re.sub(rb"\d+", b"9" * draw(st.integers(4290, 6000)), data, count=1)
    if how == "deep":
        # Clear of the parser's limit (about 1000 deep, more inside hypothesis), so that
        # the judge's parse and the command's, a few frames apart, agree.
        depth = draw(st.integers(1, 500) | st.integers(5_000, 50_000))
        return re.sub(rb'"moves": \[', b'"moves": ' + b"[" * depth, data, count=1) + b"]" * depth
    if how == "garbage":
        return data + draw(st.sampled_from([b"x", b"}", b"{}", b"\x00", b",", b"\n\n1"]))
    return b" \t\r\n" + data + b"\n "  # whitespace around JSON is still JSON


raw_inputs = st.one_of(
    st.binary(max_size=64),
    st.just(b""),
    st.sampled_from([b"null", b"[]", b"{}", b'"fives"', b"0", b"NaN", b"-Infinity", b"\xff"]),
    st.text(max_size=40).map(lambda t: t.encode("utf-8", "surrogatepass")),
)


@st.composite
def mutated_bytes(draw: Draw) -> bytes:
    if draw(st.integers(0, 5)) == 0:
        note("bytes: random")
        return draw(raw_inputs)
    data = serialize(draw(st.sampled_from(BASES)))
    for _ in range(draw(st.integers(1, 2))):
        data = byte_edit(draw, data)
    return data


# -- the tests ------------------------------------------------------------------------------


@settings(max_examples=examples(900))
@given(data=mutated_records())
def test_a_mutated_record_gets_the_referees_verdict(data: bytes) -> None:
    check(data, run_in_process(data))


@settings(max_examples=examples(250))
@given(data=respelled_records())
def test_a_respelled_record_gets_the_referees_verdict(data: bytes) -> None:
    check(data, run_in_process(data))


@settings(max_examples=examples(400))
@given(data=mutated_bytes())
def test_mutated_bytes_get_the_referees_verdict(data: bytes) -> None:
    check(data, run_in_process(data))


# The judge itself: it reproduces the golden replays and refuses what the rules refuse,
# so a wrong acceptance or refusal by the command cannot hide behind a lenient judge.


@pytest.mark.parametrize(
    "path",
    sorted(p for p in DATA.glob("*.json") if not p.name.endswith(".replay.json")),
    ids=lambda p: p.name,
)
def test_the_judge_reproduces_the_golden_replays(path: Path) -> None:
    expected = json.loads(path.with_suffix(".replay.json").read_text(encoding="utf-8"))
    assert judge_bytes(path.read_bytes()) == expected


def test_the_judge_accepts_every_base_record_as_the_command_does() -> None:
    for record in BASES:
        data = serialize(record)
        verdict = judge_bytes(data)
        assert not isinstance(verdict, Refused), verdict.places
        check(data, run_in_process(data))


def worked(**changes: Any) -> dict[str, Any]:
    record = json.loads((DATA / "fives_worked.json").read_text(encoding="utf-8"))
    record["rounds"][0].update(changes)
    return cast(dict[str, Any], record)


WORKED_MOVES = worked()["rounds"][0]["moves"]
WORKED_HANDS = worked()["rounds"][0]["hands"]

# (what, the record, the place the judge must name; None: accepted)
JUDGED: list[tuple[str, Any, str | None]] = [
    ("as written", worked(), None),
    ("a move's halves swapped", worked(moves=[*WORKED_MOVES[:1], "6:1@E"]), None),
    ("a move without its only end", worked(moves=[*WORKED_MOVES[:8], "5:3"]), None),
    ("a move without one of two ends", worked(moves=["1:1", "1:6"]), "round 1, move 2: "),
    ("a padded move", worked(moves=["1:1", "1:6@E "]), "round 1, move 2: "),
    (
        "a padded tile",
        worked(hands=[["4:1 ", *WORKED_HANDS[0][1:]], *WORKED_HANDS[1:]]),
        "round 1: ",
    ),
    ("a fullwidth digit", worked(moves=["1:1", "１:6@E"]), "round 1, move 2: "),
    ("a Cyrillic end", worked(moves=["1:1", "1:6@Е"]), "round 1, move 2: "),
    ("the opening with an end", worked(moves=["1:1@W"]), "round 1, move 1: "),
    ("a draw while a tile fits", worked(moves=["1:1", "draw"]), "round 1, move 2: "),
    ("a tile of the wrong seat", worked(moves=["1:1", "0:1@W"]), "round 1, move 2: "),
    ("a starter too far", worked(starter=4), "round 1: "),
    ("a twolane target", {**worked(), "variant": "twolane", "target": 10}, "target: "),
    ("a float target", {**worked(), "target": 20.0}, "target: "),
    ("a blank name", {**worked(), "players": ["a", "\u3000", "c", "d"]}, "players: "),
    ("a zero-width name", {**worked(), "players": ["a", "\u200b", "c", "d"]}, "players: "),
    ("a filler name", {**worked(), "players": ["a", "\u3164\u2800", "c", "d"]}, "players: "),
    ("a name of controls", {**worked(), "players": ["a", "\x00\x1b", "c", "d"]}, "players: "),
    ("an accented name", {**worked(), "players": ["a", "e\u0301", "c", "ℙ"]}, None),
]


@pytest.mark.parametrize(("what", "record", "place"), JUDGED, ids=[w for w, *_ in JUDGED])
def test_the_judge_and_the_command_agree_on_known_cases(
    what: str, record: Any, place: str | None
) -> None:
    data = serialize(record)
    verdict = judge_bytes(data)
    if place is None:
        assert not isinstance(verdict, Refused), verdict.places
    else:
        assert isinstance(verdict, Refused) and place in verdict.places
    check(data, run_in_process(data))


# Through the installed console script: the interpreter's own streams and exit status.
FOR_REAL: list[tuple[str, bytes]] = [
    ("valid", serialize(BASES[0])),
    ("in progress", serialize(worked(moves=WORKED_MOVES[:4]))),
    ("padded draw", serialize(worked(moves=["1:1", "draw "]))),
    ("dropped move", serialize(worked(moves=WORKED_MOVES[1:]))),
    ("swapped moves", serialize(worked(moves=[WORKED_MOVES[1], WORKED_MOVES[0]]))),
    ("lookalike end", serialize(worked(moves=["1:1", "1:6@Е"]))),
    ("invisible name", serialize({**worked(), "players": ["a", "\u200b", "c", "d"]})),
    ("truncated", serialize(BASES[0])[:-7]),
    ("random bytes", bytes(range(256))),
    ("empty", b""),
    ("huge number", b'{"variant": "fives", "target": ' + b"9" * 5000 + b"}"),
    ("deep", b'{"rounds": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"),
]


@pytest.fixture(scope="module")
def console_answers() -> dict[str, Outcome]:
    with ThreadPoolExecutor(max_workers=4) as pool:
        done = pool.map(run_console, [data for _, data in FOR_REAL])
        return {name: outcome for (name, _), outcome in zip(FOR_REAL, done, strict=True)}


@pytest.mark.parametrize(("name", "data"), FOR_REAL, ids=[name for name, _ in FOR_REAL])
def test_the_console_command_answers_like_the_judge(
    console_answers: dict[str, Outcome], name: str, data: bytes
) -> None:
    outcome = console_answers[name]
    check(data, outcome)
    assert outcome.status == (0 if name in ("valid", "in progress") else 2)
