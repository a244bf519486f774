"""`fives` (Пятерное домино): spinner, +2/+4 scoring, drawing, going out, blocking, the match."""

from __future__ import annotations

import pytest

from engine import DRAW, PASS, End, Game, IllegalMoveError, Play, standings, summary, to_record
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
    push_all,
    rest,
    scripted,
    split,
    state,
    tiles,
)

each_count = pytest.mark.parametrize("players", PLAYER_COUNTS)
NO_ZEROS = rest(build_table("fives", BLOCKED_TABLE).tiles())


def points(game: Game) -> list[int]:
    return [m.points for m in game.round.moves]


def occupied(game: Game) -> dict[str, bool]:
    return {e.name: game.round.table.arm_occupied(e) for e in End}


def count(game: Game) -> int | None:
    terms = game.rules.count_terms(game.round.table)
    return None if terms is None else sum(terms)


# -- who starts -------------------------------------------------------------


@each_count
def test_round_one_starter_is_drawn_by_lot(players: int):
    starters = {Game.new("fives", names(players), seed).round.starter for seed in range(60)}
    assert starters == set(range(players))
    # a record may name any seat for round 1
    for starter in range(players):
        assert deal("fives", [[] for _ in range(players)], starter=starter).turn == starter


def play_round(game: Game) -> None:
    number = len(game.rounds)
    while not game.over and len(game.rounds) == number:
        game.push(game.legal_moves()[0])


@each_count
def test_later_rounds_start_with_the_next_seat_clockwise(players: int):
    game = Game.new("fives", names(players), 4, target=1000)
    for _ in range(players + 1):
        play_round(game)
    starters = [rnd.starter for rnd in game.rounds]
    first = starters[0]
    assert starters == [(first + k) % players for k in range(len(starters))]
    assert len(starters) == players + 2


@each_count
def test_a_record_s_later_round_must_start_with_the_next_seat(players: int):
    game = Game.new("fives", names(players), 4, target=1000)
    play_round(game)
    record = to_record(game)
    second = game.rounds[1]
    again = Game.empty("fives", names(players), 1000)
    first = game.rounds[0]
    again.start_round(first.starter, first.dealt, first.dealt_boneyard)
    push_all(again, *[m.text for m in first.moves])
    assert again.round.over
    for wrong in range(players):
        if wrong == second.starter:
            continue
        with pytest.raises(ValueError, match=f"starter must be seat {second.starter}"):
            again.start_round(wrong, second.dealt, second.dealt_boneyard)
    again.start_round(second.starter, second.dealt, second.dealt_boneyard)
    assert record["rounds"][1]["starter"] == second.starter


# -- the spinner ------------------------------------------------------------


@each_count
def test_an_opening_double_is_the_spinner_open_on_four_sides(players: int):
    game = scripted("fives", players, ["3:3"])
    assert points(game) == [2]
    assert ends(game) == {"W": 3, "E": 3, "N": 3, "S": 3}
    assert game.round.table.hub == (None, 0)
    # any order: N and S may be played before W and E
    game = scripted("fives", players, ["3:3", "3:1@N", "3:0@S", "3:6@W", "3:5@E"])
    assert ends(game) == {"W": 6, "E": 5, "N": 1, "S": 0}
    assert points(game) == [2, 0, 0, 0, 0]  # 6+5+1+0 = 12
    assert all(occupied(game).values())


@each_count
def test_a_later_double_becomes_the_spinner_at_once(players: int):
    game = scripted("fives", players, ["3:2", "2:2@E"])
    assert points(game) == [0, 2]
    assert ends(game) == {"W": 3, "E": 2, "N": 2, "S": 2}
    assert game.round.table.hub == (End.E, 0)
    # the line came from W: that direction is occupied by it
    assert occupied(game) == {"W": True, "E": False, "N": False, "S": False}
    assert count(game) is None


@each_count
def test_later_doubles_lie_inline(players: int):
    game = scripted("fives", players, ["3:2", "2:2@E", "3:3@W", "2:5@E", "5:5@E"])
    assert points(game) == [0, 2, 0, 0, 0]
    assert ends(game) == {"W": 3, "E": 5, "N": 2, "S": 2}
    assert game.round.table.hub == (End.E, 0)
    assert len(game.round.table.open_ends()) == 4


@each_count
@pytest.mark.parametrize("side", ["E", "W"])
def test_spinner_played_at_an_end(players: int, side: str):
    # the spinner 2:2 lies at one end; the other direction is the line itself
    other = "W" if side == "E" else "E"
    opening = "3:2" if side == "E" else "2:3"
    script = [opening, f"2:2@{side}", "2:1@N", "2:5@S"]
    game = scripted("fives", players, script)
    assert points(game) == [0, 2, 0, 0]
    assert occupied(game) == {other: True, side: False, "N": True, "S": True}
    assert count(game) is None  # the spinner's own arm is still empty
    game = scripted("fives", players, [*script, f"2:6@{side}"])
    assert ends(game) == {other: 3, side: 6, "N": 1, "S": 5}
    assert count(game) == 15
    assert points(game) == [0, 2, 0, 0, 4]


# -- scoring ----------------------------------------------------------------


@each_count
def test_first_double_scores_two_and_only_the_first(players: int):
    game = scripted("fives", players, ["6:6", "6:4@E", "4:4@E", "6:1@W", "1:1@W"])
    assert points(game) == [2, 0, 0, 0, 0]
    assert game.totals[0] == 2


@each_count
def test_no_fives_while_an_arm_is_empty(players: int):
    # 5:5 alone shows 5 on all four sides (20), but no arm is occupied yet.
    game = scripted("fives", players, ["5:5", "5:0@W", "5:1@E", "5:4@N"])
    assert points(game) == [2, 0, 0, 0]
    assert count(game) is None


@each_count
def test_a_sum_of_zero_does_not_score(players: int):
    script = ["1:1", "1:2@W", "1:3@E", "1:4@N", "1:5@S", "2:0@W", "3:0@E", "4:0@N", "5:0@S"]
    game = scripted("fives", players, script)
    #               14 12 9  5  0
    assert points(game) == [2, 0, 0, 0, 0, 0, 0, 4, 0]
    assert count(game) == 0
    assert ends(game) == {"W": 0, "E": 0, "N": 0, "S": 0}


@each_count
def test_an_inline_double_at_an_end_counts_once_and_keeping_the_sum_scores_again(players: int):
    script = ["1:1", "1:3@E", "1:2@N", "1:6@S", "1:4@W", "4:4@W"]
    game = scripted("fives", players, script)
    # 4+3+2+6 = 15, then 4:4 keeps W at 4 (counted once: 15, not 19)
    assert points(game) == [2, 0, 0, 0, 4, 4]
    assert count(game) == 15
    assert game.round.table.hub == (None, 0)


@each_count
def test_ten_and_twenty_score_four_too(players: int):
    game = scripted("fives", players, ["6:6", "6:4@W", "6:0@E", "6:5@N", "6:1@S"])
    assert count(game) == 10 and points(game)[-1] == 4
    game = scripted("fives", players, ["6:6", "6:4@W", "6:5@E", "6:3@N", "6:2@S"])
    assert count(game) == 14 and points(game)[-1] == 0


# -- drawing and passing --------------------------------------------------------


@each_count
def test_no_draw_while_a_tile_can_be_played(players: int):
    game = deal("fives", [tiles("6:5"), tiles("5:1")] + [[] for _ in range(players - 2)])
    game.push(game.parse_move("6:5"))
    before = state(game)
    with pytest.raises(IllegalMoveError) as refused:
        game.push(DRAW)
    assert refused.value.code == "can_play"
    with pytest.raises(IllegalMoveError) as refused:
        game.push(PASS)
    assert refused.value.code == "can_play"
    assert state(game) == before


@each_count
def test_draw_until_able_then_play_any_tile_that_fits(players: int):
    hands = [tiles("6:5 0:0"), tiles("1:1 2:2 1:2"), tiles("3:3"), tiles("4:4")][:players]
    game = position("fives", hands, boneyard="0:1 5:4 6:2 6:1", number=1)
    game.push(game.parse_move("6:5"))
    game.push(DRAW)
    assert game.legal_moves() == (DRAW,)
    game.push(DRAW)
    assert set(game.legal_moves()) == {Play(T("5:4"), End.E)}
    with pytest.raises(IllegalMoveError) as refused:
        game.push(DRAW)
    assert refused.value.code == "can_play"
    game.push(game.parse_move("5:4@E"))
    assert game.round.boneyard[:2] == tiles("6:2 6:1")


@each_count
def test_pass_only_when_there_is_nothing_to_draw(players: int):
    game = position("fives", split(NO_ZEROS, players), table=BLOCKED_TABLE, turn=0)
    assert game.legal_moves() == (PASS,)
    game = position(
        "fives", split(NO_ZEROS[1:], players), table=BLOCKED_TABLE, boneyard=NO_ZEROS[:1]
    )
    assert game.legal_moves() == (DRAW,)
    with pytest.raises(IllegalMoveError) as refused:
        game.push(PASS)
    assert refused.value.code == "must_draw"


# -- going out ----------------------------------------------------------------


def last_tile_position(players: int, boneyard: str) -> Game:
    """Seat 0 holds only 6:0, which fits E; everything else is elsewhere."""
    table = BLOCKED_TABLE.removesuffix(" 6:0@E")
    left = [t for t in rest(build_table("fives", table).tiles(), tiles(boneyard)) if t != T("6:0")]
    hands = [[T("6:0")], *split(left, players - 1)]
    return position("fives", hands, table=table, boneyard=boneyard, totals=[3] * players)


@each_count
def test_going_out_with_an_empty_boneyard_scores_two(players: int):
    game = last_tile_position(players, "")
    entry = game.push(game.parse_move("6:0@E"))
    assert entry.points == 0
    assert game.round.end == "out" and game.round.out == [0]
    assert game.round.points == [2] + [0] * (players - 1)
    assert game.totals == [5] + [3] * (players - 1)
    assert game.turn is None and game.legal_moves() == ()
    assert summary(game)["rounds"][0]["out"] == 0


@each_count
def test_last_tile_with_tiles_in_the_boneyard_draws_at_once(players: int):
    game = last_tile_position(players, "2:2 3:3")
    version = game.version
    entry = game.push(game.parse_move("6:0@E"))
    assert entry.text == "6:0@E" and entry.points == 0
    assert game.round.hands[0] == [T("2:2")]
    assert game.round.boneyard == [T("3:3")]
    assert not game.round.over and game.round.out == []
    assert game.turn == 1 and game.version == version + 1
    assert [m.text for m in game.round.moves] == ["6:0@E"]  # no separate draw
    assert game.round.points == [0] * players
    assert all_tiles_once(game)


# -- blocked ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("totals", "bonus"),
    [
        ([5, 3], [0, 1]),
        ([4, 4], [1, 1]),
        ([5, 3, 3], [0, 1, 1]),
        ([0, 3, 7], [1, 0, 0]),
        ([5, 3, 3, 9], [0, 1, 1, 0]),
        ([2, 2, 2, 2], [1, 1, 1, 1]),
    ],
)
def test_blocked_gives_one_point_to_the_fewest(totals: list[int], bonus: list[int]):
    players = len(totals)
    game = position("fives", split(NO_ZEROS, players), table=BLOCKED_TABLE, totals=totals)
    for _ in range(players):
        game.push(PASS)
    assert game.round.end == "blocked"
    assert game.round.points == bonus
    assert game.totals == [t + b for t, b in zip(totals, bonus, strict=True)]
    assert all(m.points == 0 for m in game.round.moves)


def test_blocked_counts_this_round_s_points_too():
    # Before this round seat 1 had 0 and seat 0 had 4; this round seat 1 scored 5.
    game = position("fives", split(NO_ZEROS, 2), table=BLOCKED_TABLE, totals=[4, 5], points=[0, 5])
    game.push(PASS)
    game.push(PASS)
    assert game.round.points == [1, 5]
    assert game.totals == [5, 5]


# -- the match ----------------------------------------------------------------


@each_count
@pytest.mark.parametrize("seed", range(3))
def test_the_round_is_finished_first_when_the_target_is_reached(players: int, seed: int):
    game = Game.new("fives", names(players), seed, target=2)
    reached_mid_round = False
    while not game.round.over:
        game.push(game.legal_moves()[0])
        if max(game.totals) >= 2 and not game.round.over:
            reached_mid_round = True
            assert not game.over and game.turn is not None
    assert reached_mid_round
    assert game.over and len(game.rounds) == 1
    assert game.turn is None and game.legal_moves() == ()


@each_count
def test_a_round_short_of_the_target_deals_the_next(players: int):
    game = Game.new("fives", names(players), 8)
    play_round(game)
    assert not game.over
    assert max(game.totals) < (20 if players == 4 else 25)
    assert len(game.rounds) == 2 and game.round.number == 2
    assert all_tiles_once(game)


@pytest.mark.parametrize(
    ("totals", "final", "winner", "places", "record"),
    [
        ([25, 20], [25, 21], 0, [1, 2], 4),
        ([25, 20, 10], [25, 20, 11], 0, [1, 2, 3], -6),
        ([19, 20, 10, 3], [19, 20, 10, 4], 1, [2, 1, 3, 4], -13),
        ([26, 26], [27, 27], [0, 1], [1, 1], None),
        ([26, 26, 3], [26, 26, 4], [0, 1], [1, 1, 3], None),
        ([26, 3, 26, 3], [26, 4, 26, 4], [0, 2], [1, 3, 1, 3], None),
    ],
)
def test_winner_places_and_record(totals, final, winner, places, record):
    players = len(totals)
    game = position("fives", split(NO_ZEROS, players), table=BLOCKED_TABLE, totals=totals)
    for _ in range(players):
        game.push(PASS)
    assert game.totals == final
    assert game.over
    result = summary(game)
    assert result["finished"] is True
    assert result["winner"] == winner
    assert result["places"] == places
    assert result["record"] == record
    assert standings(game).losers == ()


@each_count
def test_lobby_target(players: int):
    game = Game.new("fives", names(players), 1, target=40)
    assert game.target == 40
    game = position(
        "fives", split(NO_ZEROS, players), table=BLOCKED_TABLE, totals=[30] * players, target=40
    )
    for _ in range(players):
        game.push(PASS)
    assert not game.over  # 31 each, short of 40


@each_count
def test_after_the_match_nothing_more_is_dealt(players: int):
    game = position(
        "fives",
        split(NO_ZEROS, players),
        table=BLOCKED_TABLE,
        totals=[30] + [0] * (players - 1),
        seed=77,
    )
    for _ in range(players):
        game.push(PASS)
    assert game.over and len(game.rounds) == 1
    game = position("fives", split(NO_ZEROS, players), table=BLOCKED_TABLE, seed=77, starter=1)
    for _ in range(players):
        game.push(PASS)
    assert not game.over and len(game.rounds) == 2
    assert game.round.starter == 2 % players and game.turn == 2 % players
    assert all_tiles_once(game)


@each_count
def test_order_of_events_the_move_s_points_then_going_out_then_the_match(players: int):
    # W is the spinner's last empty arm: 1:4 there makes 4 + 3 + 2 + 6 = 15 (+4), and it
    # is seat 0's last tile with the boneyard empty (+2). 19 + 4 is short of 25; + 2 is not.
    table = "1:1 1:3@E 1:2@N 1:6@S"
    left = rest(build_table("fives", table).tiles(), tiles("1:4"))
    hands = [tiles("1:4"), *split(left, players - 1)]
    target = 20 if players == 4 else 25
    game = position("fives", hands, table=table, totals=[target - 6] + [0] * (players - 1))
    entry = game.push(game.parse_move("1:4@W"))
    assert entry.points == 4
    assert game.round.end == "out"
    assert game.round.points[0] == 6
    assert game.totals[0] == target
    assert game.over
    assert summary(game)["winner"] == 0
