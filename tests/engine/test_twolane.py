"""`twolane` (Двухполосное домино): two lanes, one draw, 10-point passes, playing on, ranking."""

from __future__ import annotations

import pytest

from engine import DRAW, PASS, End, Game, IllegalMoveError, Play, summary
from tests.engine.helpers import (
    BLOCKED_TABLE,
    PLAYER_COUNTS,
    T,
    all_tiles_once,
    build_table,
    deal,
    ends,
    names,
    position,
    rest,
    scripted,
    split,
    state,
    tiles,
)

each_count = pytest.mark.parametrize("players", PLAYER_COUNTS)
ON_TABLE = build_table("twolane", BLOCKED_TABLE).tiles()
NO_ZEROS = rest(ON_TABLE)


@each_count
def test_the_starter_is_drawn_by_lot(players: int):
    starters = {Game.new("twolane", names(players), seed).round.starter for seed in range(60)}
    assert starters == set(range(players))


@each_count
def test_two_lanes_doubles_inline_nothing_counted(players: int):
    game = scripted("twolane", players, ["3:3", "3:1@W", "3:2@E", "2:2@E", "1:1@W"])
    assert ends(game) == {"W": 1, "E": 2}
    assert game.round.table.hub is None
    assert game.rules.count_terms(game.round.table) is None
    assert all(m.points == 0 for m in game.round.moves)
    assert game.totals == [0] * players
    for side in ("N", "S"):
        move = Play(T("2:1"), End[side])
        assert game.explain(move) is not None


# -- one draw, then play it or pass --------------------------------------------------


def stuck(players: int, boneyard: str) -> Game:
    """W6 E5 on the table; seat 1 holds no 6 and no 5."""
    hands = [tiles("6:5 0:0"), tiles("1:1 2:2 1:2"), tiles("3:3"), tiles("4:4")][:players]
    game = position("twolane", hands, boneyard=boneyard, number=1)
    game.push(game.parse_move("6:5"))
    return game


@each_count
def test_a_player_who_cannot_play_must_draw(players: int):
    game = stuck(players, "1:0 6:1")
    assert game.legal_moves() == (DRAW,)
    before = state(game)
    with pytest.raises(IllegalMoveError) as refused:
        game.push(PASS)
    assert refused.value.code == "must_draw"
    assert state(game) == before


@each_count
def test_a_drawn_tile_that_fits_must_be_played(players: int):
    game = stuck(players, "6:1 1:0")
    game.push(DRAW)
    assert game.turn == 1
    assert game.legal_moves() == (Play(T("6:1"), End.W),)
    for move in (PASS, DRAW):
        with pytest.raises(IllegalMoveError) as refused:
            game.push(move)
        assert refused.value.code == "can_play"
    game.push(game.parse_move("6:1"))
    assert game.round.penalties == [0] * players and game.turn == 2 % players


@each_count
def test_a_drawn_tile_that_fits_both_lanes(players: int):
    hands = [tiles("6:6 0:0"), tiles("2:2 3:3"), tiles("4:4"), tiles("5:5")][:players]
    game = position("twolane", hands, boneyard="6:2", number=1)
    game.push(game.parse_move("6:6"))
    game.push(DRAW)
    assert game.legal_moves() == (Play(T("6:2"), End.W), Play(T("6:2"), End.E))
    with pytest.raises(IllegalMoveError) as refused:
        game.push(game.parse_move("6:2"))
    assert refused.value.code == "ambiguous_end"
    game.push(game.parse_move("2:6@W"))
    assert ends(game) == {"W": 2, "E": 6}


@each_count
def test_a_drawn_tile_that_does_not_fit_passes_with_ten(players: int):
    game = stuck(players, "1:0 6:1")
    game.push(DRAW)
    assert game.legal_moves() == (PASS,)
    with pytest.raises(IllegalMoveError) as refused:
        game.push(DRAW)
    assert refused.value.code == "drew_already"
    version = game.version
    entry = game.push(PASS)
    assert entry.points == 0
    assert game.version == version + 1
    assert game.round.penalties[1] == 10 and game.totals[1] == 10
    assert game.turn == 2 % players
    assert game.round.hands[1][-1] == T("1:0")


@each_count
def test_with_an_empty_boneyard_the_pass_costs_ten(players: int):
    game = position("twolane", split(NO_ZEROS, players), table=BLOCKED_TABLE)
    assert game.legal_moves() == (PASS,)
    with pytest.raises(IllegalMoveError) as refused:
        game.push(DRAW)
    assert refused.value.code == "boneyard_empty"
    game.push(PASS)
    assert game.round.penalties == [10] + [0] * (players - 1)
    assert game.totals == game.round.penalties


# -- going out, playing on ---------------------------------------------------------


def out_position(players: int, last: list[str]) -> Game:
    """Everyone can play on E (6); the seats in `last` hold only their last tile."""
    table = BLOCKED_TABLE.removesuffix(" 6:0@E")
    sixes = [t for t in rest(build_table("twolane", table).tiles()) if 6 in t]
    others = [t for t in rest(build_table("twolane", table).tiles()) if 6 not in t]
    hands: list[list] = [[] for _ in range(players)]
    for seat in range(players):
        if seat < len(last):
            hands[seat] = tiles(last[seat])
    pool = [t for t in sixes + others if t not in {t for h in hands for t in h}]
    fill = [seat for seat in range(players) if not hands[seat]]
    for index, tile in enumerate(pool):
        hands[fill[index % len(fill)]].append(tile)
    return position("twolane", hands, table=table)


@pytest.mark.parametrize("players", [3, 4])
def test_a_player_who_goes_out_is_skipped(players: int):
    game = out_position(players, ["6:6"])
    game.push(game.parse_move("6:6@E"))
    assert game.round.out == [0] and not game.round.over
    assert game.turn == 1
    acted = []
    while not game.round.over and len(acted) < 6 * players:
        acted.append(game.turn)
        game.push(game.legal_moves()[0])
    assert 0 not in acted
    assert set(acted) == set(range(1, players))


def test_two_players_the_first_out_ends_the_game():
    game = out_position(2, ["6:6"])
    game.push(game.parse_move("6:6@E"))
    assert game.round.end == "out" and game.round.out == [0]
    assert game.over and game.turn is None
    result = summary(game)
    assert result["winner"] == 0 and result["places"] == [1, 2]


@pytest.mark.parametrize("players", [3, 4])
def test_the_game_ends_when_one_player_still_holds_tiles(players: int):
    last = ["6:6", "6:4", "4:4"][: players - 1]
    game = out_position(players, last)
    for seat, play in enumerate(["6:6@E", "6:4@E", "4:4@E"][: players - 1]):
        assert not game.round.over
        assert game.turn == seat
        game.push(game.parse_move(play))
    assert game.round.end == "out"
    assert game.round.out == list(range(players - 1))
    assert game.over and game.turn is None
    assert [bool(h) for h in game.round.hands] == [False] * (players - 1) + [True]
    assert summary(game)["rounds"][0]["out"] == 0
    assert summary(game)["places"] == list(range(1, players + 1))


def test_no_move_after_the_game_ends():
    game = out_position(2, ["6:6"])
    game.push(game.parse_move("6:6@E"))
    with pytest.raises(IllegalMoveError) as refused:
        game.push(PASS)
    assert refused.value.code == "game_over"


# -- blocked ------------------------------------------------------------------------


@each_count
def test_blocked_with_an_empty_boneyard(players: int):
    game = position("twolane", split(NO_ZEROS, players), table=BLOCKED_TABLE, turn=players - 1)
    for _ in range(players):
        assert not game.round.over
        game.push(PASS)
    assert game.round.end == "blocked"
    assert game.round.penalties == [10] * players
    assert game.over


@each_count
def test_a_pass_made_while_the_boneyard_had_tiles_counts(players: int):
    # Two tiles that fit nowhere in the boneyard: seat 0 draws one and passes while
    # one is left; seat 1 draws the last. Nothing is played, so the round blocks when
    # the others have passed too.
    hands = split(NO_ZEROS[2:], players)
    game = position("twolane", hands, table=BLOCKED_TABLE, boneyard=NO_ZEROS[:2])
    game.push(DRAW)
    game.push(PASS)
    assert game.round.boneyard == NO_ZEROS[1:2]
    game.push(DRAW, seat=1)
    game.push(PASS, seat=1)
    for seat in range(2, players):
        assert not game.round.over
        game.push(PASS, seat=seat)
    assert game.round.end == "blocked"
    assert game.round.penalties == [10] * players


# -- ranking -------------------------------------------------------------------------


def blocked_end(hands: list[str], penalties: list[int], out: list[int]) -> Game:
    """A blocked finish: every seat still holding tiles passes once (+10 each)."""
    held = [tiles(h) if h != "rest" else [] for h in hands]
    spare = rest(ON_TABLE, *held)
    held = [spare if h == "rest" else hand for h, hand in zip(hands, held, strict=True)]
    holders = [seat for seat, hand in enumerate(held) if hand]
    game = position(
        "twolane",
        held,
        table=BLOCKED_TABLE,
        penalties=penalties,
        totals=penalties,
        out=out,
        turn=holders[0],
    )
    for _ in holders:
        game.push(PASS)
    assert game.round.end == "blocked"
    return game


@pytest.mark.parametrize(
    ("hands", "penalties", "out", "places", "winner"),
    [
        # fewest penalties first, whatever the hands
        (["rest", "1:1"], [0, 20], [], [1, 2], 0),
        # equal penalties: the one who went out first
        (["", "1:1 2:2 3:1", "rest"], [20, 10, 10], [0], [1, 2, 3], 0),
        (["", "1:1", "", "rest"], [10, 0, 10, 0], [2, 0], [2, 3, 1, 4], 2),
        # penalties come before going out
        (["", "1:1", "rest"], [30, 0, 0], [0], [3, 1, 2], 1),
        # then fewer tiles (12 pips in one tile beat 6 in two) ...
        (["6:6", "1:1 2:2", "rest"], [0, 0, 0], [], [1, 2, 3], 0),
        # ... then lower pips
        (["6:6 6:4", "1:1 2:2", "rest"], [0, 0, 0], [], [2, 1, 3], 1),
        # equal on all four: a shared place, and the next one skipped
        (["1:1 4:4", "3:2 4:1", "rest"], [0, 0, 0], [], [1, 1, 3], [0, 1]),
        (["1:1 4:4", "3:2 4:1", "2:2 3:3", "rest"], [0, 0, 0, 0], [], [1, 1, 1, 4], [0, 1, 2]),
        (["rest", "1:1 4:4", "3:2 4:1"], [0, 0, 0], [], [3, 1, 1], [1, 2]),
    ],
)
def test_ranking(hands, penalties, out, places, winner):
    game = blocked_end(hands, penalties, out)
    result = summary(game)
    assert result["finished"] is True
    assert result["places"] == places
    assert result["winner"] == winner
    assert result["record"] is None
    assert result["totals"] == game.totals == game.round.penalties


@each_count
def test_the_end_of_the_round_ends_the_game(players: int):
    game = position("twolane", split(NO_ZEROS, players), table=BLOCKED_TABLE, seed=4, number=1)
    for _ in range(players):
        game.push(PASS)
    assert game.over and len(game.rounds) == 1
    assert game.legal_moves() == ()
    assert all_tiles_once(game)


def test_twolane_has_no_target():
    assert Game.new("twolane", names(3), 1).target is None
    with pytest.raises(ValueError):
        Game.new("twolane", names(3), 1, target=100)


def test_deal_for_a_record():
    game = deal("twolane", [tiles("6:6"), tiles("5:5")])
    assert [len(h) for h in game.round.hands] == [5, 5]
