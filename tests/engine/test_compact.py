"""The compact stored form (`engine.compact`): exact round trips, append-only texts,
catching up from an earlier text, and a StateError for anything else."""

from __future__ import annotations

import itertools
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import (
    ALL_TILES,
    Game,
    Move,
    NewerFormatError,
    StateError,
    catch_up,
    pack,
    replay,
    to_record,
    unpack,
)
from engine.ai.greedy import greedy_move_in
from engine.compact import FORMAT, _text, _token
from tests.engine.helpers import deal, names, position, push_all, tiles
from tests.engine.test_properties import Case, examples, games, new_game, written

SPECIAL_TEXTS = ["draw", "d", "62W", "33W+22E", "d+p", "x", '"', '"q"', "a b", "\n", "+", "3:3@W+"]
ODD_NAMES = [
    "Андрей Петров",
    "tab\there",
    "line\nbreak|pipe",
    '"quoted" \\ back',
    "😀 emoji",
    "\u2028sep\u2029",
    "\ud800 lone",
    "[1,2]",
]


def same(a: Game, b: Game) -> bool:
    return json.dumps(a.to_json()) == json.dumps(b.to_json()) and a.over == b.over


def odd_text(given: Move | str, rng: random.Random) -> str | None:
    """Now and then a text with spaces around it: the engine's move reader takes them
    (records may not), and the packed form keeps a move's text as it was given."""
    if isinstance(given, str) and rng.random() < 0.1:
        return f" {given} "
    return None


def play_storing(case: Case, odd: bool = True) -> tuple[Game, list[str]]:
    """A random game played to the end; the packed text after every action."""
    game, rng = new_game(case)
    if rng.random() < 0.3:
        game.players = rng.sample(ODD_NAMES, len(game.players))
    texts = [pack(game)]
    while not game.over:
        legal = game.legal_moves()
        move = greedy_move_in(game) if rng.random() < 0.4 else rng.choice(legal)
        given = written(game, move, rng)
        text = odd_text(given, rng) if odd else None
        game.push(game.parse_move(given) if isinstance(given, str) else given, text=text)
        texts.append(pack(game))
    return game, texts


@settings(max_examples=examples(120))
@given(games, st.integers(0, 2**32 - 1))
def test_packed_games_come_back_exactly(case: Case, pick: int):
    game, texts = play_storing(case)
    rng = random.Random(pick)
    for before, after in itertools.pairwise(texts):
        assert after.startswith(before)  # every action only appends
    # the finished match, and a few states on the way (each state just after a
    # round was dealt among them: its last line is empty)
    fresh = [i for i, t in enumerate(texts) if t.endswith("\n")]
    ending = [i - 1 for i in fresh if i]  # the states before a round's last move
    picked = rng.sample(range(len(texts)), min(5, len(texts)))
    chosen = {len(texts) - 1, 0, *fresh, *ending, *picked}
    states = {}
    for index in sorted(chosen):
        again = unpack(texts[index])
        assert pack(again) == texts[index]
        states[index] = again
    assert same(states[len(texts) - 1], game)
    # catch_up by one action from each of them (a round's last move deals the next)
    for index in sorted(chosen)[:-1]:
        step = catch_up(states[index].copy(), texts[index], texts[index + 1])
        assert same(step, states.get(index + 1) or unpack(texts[index + 1]))
    # an earlier state, unpacked, plays on to the same game: later rounds deal alike
    start = rng.choice(sorted(chosen))
    earlier = states[start]
    assert catch_up(earlier, texts[start], texts[-1]) is earlier
    assert same(earlier, game)


@settings(max_examples=examples(40))
@given(games)
def test_replayed_records_pack_too(case: Case):
    # A game replayed from its record has no seed: each round is stored as dealt.
    game, _ = play_storing(case, odd=False)  # a record spells every move plainly
    again = replay(json.loads(json.dumps(to_record(game))))
    assert again.seed is None
    assert same(unpack(pack(again)), again)


def test_a_fives_match_is_small():
    # a whole fives match between greedy players: well under 1.5 KB
    sizes = []
    for seed in range(20):
        game = Game.new("fives", ["Андрей", "Ирина"], seed)
        while not game.over:
            game.push(greedy_move_in(game))
        sizes.append(len(pack(game).encode()))
    assert sorted(sizes)[len(sizes) // 2] < 1000 and max(sizes) < 1500


def test_the_text_reads_as_the_module_says():
    game = deal("fives", [tiles("6:6 2:3"), tiles("6:2 4:4")], starter=0)
    push_all(game, "6:6", "2:6@E")
    game.push(game.parse_move("2:3@E"), text=" 2:3@E ")
    header, dealt, moves = pack(game).split("\n")
    assert json.loads(header) == [1, "fives", 25, None, ["Андрей", "Ирина"]]
    assert dealt[:2] == "0 " and len(dealt) == 30
    order = [*game.round.dealt[0], *game.round.dealt[1], *game.round.dealt_boneyard]
    assert [ALL_TILES["0123456789abcdefghijklmnopqr".index(c)] for c in dealt[2:]] == order
    assert moves == '66 26E "\\u00202:3@E\\u0020"'


@settings(max_examples=examples(300))
@given(st.one_of(st.text(), st.sampled_from(SPECIAL_TEXTS)))
def test_any_move_text_is_one_word_read_back_as_it_was(text: str):
    token = _token(text)
    assert token and " " not in token and "\n" not in token
    assert _text(token, "here") == text


def test_texts_that_name_the_move_come_back_as_written():
    for text in ("6:6", " 6:6", "6:6 ", "\t6:6\n"):
        game = deal("fives", [tiles("6:6"), []], starter=0)
        game.push(game.parse_move(text), text=text)
        assert unpack(pack(game)).round.moves[-1].text == text


# -- refusals ----------------------------------------------------------------------------


def a_game(moves: int = 12, seed: int = 4) -> Game:
    game = Game.new("muggins", names(3), seed)
    for _ in range(moves):
        game.push(greedy_move_in(game))
    return game


def finished_round_text() -> tuple[str, Game]:
    game = Game.new("fives", names(2), 1)
    while len(game.rounds) < 2:
        game.push(greedy_move_in(game))
    return pack(game), game


def broken_texts() -> list[str]:
    good = pack(a_game())
    header, dealt, moves = good.split("\n")
    round_2, _ = finished_round_text()
    cut = round_2.rsplit("\n", 2)[0]  # round 1 over, round 2 not dealt
    twice = "0" if dealt[-1] != "0" else "1"
    other = str((int(dealt[0]) + 1) % 3)
    opening, *rest = moves.split(" ")  # "32": the opening 3:2 spelt short
    spelt_long = " ".join([f"{opening[0]}:{opening[1]}", *rest])
    return [
        "",
        "\n",
        "not json",
        "[" * 100_000,
        "[1]",
        '[2,"muggins",51,4,["a","b","c"]]',
        '[1,"chess",51,4,["a","b","c"]]',
        '[1,"muggins",50,4,["a","b","c"]]',
        '[1,"muggins",51,4,["a"]]',
        '[1,"muggins",51,true,["a","b","c"]]',
        '[1,"muggins",51,4,["a","b",3]]',
        '[1, "muggins", 51, 4, ["a", "b", "c"]]',  # not written as pack writes it
        "9" * 5000,
        f"{header}\n{dealt}",  # no moves line
        f"{header}\n{dealt}\n{moves}\n",
        f"{header}\n{dealt}\n{moves}\n{dealt}\n",  # round 1 is not over
        f"{header}\n{dealt[:-1]}\n{moves}",
        f"{header}\n{dealt[:-1]}z\n{moves}",
        f"{header}\n{dealt[:-1]}{twice}\n{moves}",  # a tile twice
        f"{header}\n9{dealt[1:]}\n{moves}",
        f"{header}\n{other}{dealt[1:]}\n{moves}",  # not the holder of 3:2
        f"{header}\n{dealt}\n{moves} ",
        f"{header}\n{dealt}\n{moves}  d",
        f"{header}\n{dealt}\n {moves}",
        f"{header}\n{dealt}\n{moves} 32W",  # 3:2 lies on the table
        f"{header}\n{dealt}\n{moves} xyz",
        f'{header}\n{dealt}\n{moves} "d"',  # a text that is no move
        f'{header}\n{dealt}\n{moves} "\\u0064"',  # not written as pack writes it
        f"{header}\n{dealt}\n{spelt_long}",  # record notation pack spells short
        f'{header}\n{dealt}\n{moves} "unterminated',
        f"{header}\n{dealt}\n{moves} d d d d d d d d d d d d d d d d d d d d d d",
        cut,
    ]


@pytest.mark.parametrize("text", broken_texts())
def test_broken_texts_are_refused(text: str):
    with pytest.raises(StateError):
        unpack(text)


def test_a_text_that_is_no_text_is_refused():
    with pytest.raises(StateError):
        unpack(b"[1]")  # type: ignore[arg-type]
    with pytest.raises(StateError):
        catch_up(a_game(), None, "")  # type: ignore[arg-type]


def test_a_later_format_is_told_apart_from_a_broken_text():
    """A newer release's engine may write a header of another shape: only its format is
    known. Such a text is a `NewerFormatError` (left to that release), anything else a
    plain `StateError` (a damaged game)."""
    header, rest_of_it = pack(a_game()).split("\n", 1)
    values = json.loads(header)
    later = [
        json.dumps([FORMAT + 1, *values[1:]]),
        json.dumps([FORMAT + 1, "fives", {"a": "new shape"}]),
        json.dumps([FORMAT + 7]),
    ]
    for text in later:
        with pytest.raises(NewerFormatError):
            unpack(f"{text}\n{rest_of_it}")
    not_later = [
        json.dumps([FORMAT - 1, *values[1:]]),
        json.dumps([True, *values[1:]]),  # a bool is no format
        json.dumps([str(FORMAT + 1), *values[1:]]),
        json.dumps({"format": FORMAT + 1}),
        "[" * 100_000,  # too deep for the JSON reader
        "",
    ]
    for text in not_later:
        with pytest.raises(StateError) as caught:
            unpack(f"{text}\n{rest_of_it}")
        assert not isinstance(caught.value, NewerFormatError), text


def test_a_round_set_up_mid_way_cannot_be_packed():
    game = position("fives", [tiles("6:6"), tiles("5:5")], table="4:4")
    with pytest.raises(StateError):
        pack(game)


@settings(max_examples=examples(150))
@given(st.integers(0, 2**32 - 1), st.integers(0, 2**32 - 1))
def test_mangled_texts_are_refused_or_read_as_written(seed: int, choice: int):
    rng = random.Random(choice)
    game = Game.new(rng.choice(["fives", "muggins", "twolane"]), names(rng.randint(2, 4)), seed)
    for _ in range(rng.randrange(80)):
        if game.over:
            break
        game.push(rng.choice(game.legal_moves()))
    text = list(pack(game))
    for _ in range(rng.randint(1, 3)):
        at = rng.randrange(len(text) + 1)
        roll = rng.random()
        if roll < 0.4 and at < len(text):
            del text[at]
        elif roll < 0.7 and at < len(text):
            text[at] = rng.choice('0123456789abcdqrWENSdp:@+ \n"[],')
        else:
            text.insert(at, rng.choice('0123456789abcdqrWENSdp:@+ \n"[],'))
    mangled = "".join(text)
    try:
        again = unpack(mangled)
    except StateError:
        return
    assert pack(again) == mangled  # never another game than the text says


# -- catching up -------------------------------------------------------------------------


def texts_of(game: Game, moves: int) -> tuple[str, str]:
    old = pack(game)
    for _ in range(moves):
        game.push(greedy_move_in(game))
    return old, pack(game)


def test_catch_up_refuses_a_text_that_does_not_extend_the_old_one():
    game = a_game()
    old, new = texts_of(game.copy(), 3)
    stale = unpack(old)
    for bad_old, bad_new in (
        (old, old[:-1]),  # shorter
        (old, old[:-2] + "x" + new[len(old) - 1 :]),  # another history
        (old, new.replace("\n", "\n\n", 1)),
        (old, old + "E"),  # the last move made into another one
        (old, old + "d"),
        (old, old + " "),
        (old + "\n" + old.split("\n")[1], new),  # old: a deal line without its moves
    ):
        with pytest.raises(StateError):
            catch_up(stale, bad_old, bad_new)
        assert same(stale, unpack(old))


def test_catch_up_refuses_a_game_that_is_not_the_old_text_s():
    game = a_game()
    old, new = texts_of(game.copy(), 2)
    for wrong in (a_game(11), a_game(13), Game.new("muggins", names(3), 5)):
        before = json.dumps(wrong.to_json())
        with pytest.raises(StateError):
            catch_up(wrong, old, new)
        assert json.dumps(wrong.to_json()) == before


def test_a_bad_appended_part_leaves_the_game_as_it_was():
    game = a_game()
    old = pack(game)
    stale = unpack(old)
    later = game.copy()
    new = texts_of(later, 2)[1]
    for bad in (new + " xyz", new + " 32W", new + " d d d d d d d d d d d d d d d d d d d d d"):
        with pytest.raises(StateError):
            catch_up(stale, old, bad)
        assert same(stale, game) and stale.seed == game.seed
        assert stale.legal_moves() == game.legal_moves()
    assert same(catch_up(stale, old, new), later)


def test_catch_up_across_rounds_deals_the_stored_round_not_the_seed_s():
    old, game = finished_round_text()
    at_start = Game.new("fives", names(2), 1)
    text = pack(at_start)
    # the stored round 2 deal is what counts, even where the seed would deal another
    header, rest = old.split("\n", 1)
    other_seed = header.replace(",1,", ",2,")
    assert other_seed != header
    moved = unpack(f"{other_seed}\n{rest}")
    assert moved.rounds[1].dealt == game.rounds[1].dealt and moved.seed == 2
    again = catch_up(unpack(text), text, old)
    assert same(again, game)


def test_a_game_with_no_round_yet_packs_to_its_header():
    game = Game.empty("twolane", ["a", "b"])
    old = pack(game)
    assert "\n" not in old and unpack(old).rounds == []
    pool = list(ALL_TILES)
    game.start_round(1, [pool[:5], pool[5:10]], pool[10:])
    push_all(game, "3:2")
    new = pack(game)
    assert same(catch_up(unpack(old), old, new), game)
    seeded = Game.empty("twolane", ["a", "b"])
    seeded.seed = 3  # a seeded game always has its round dealt: this is no state it leaves
    with pytest.raises(StateError):
        unpack(pack(seeded))
