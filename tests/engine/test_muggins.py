"""`muggins` (Пятёрки до 51): 3:2 opens, the house, the count, doubles moves, 51."""

from __future__ import annotations

import pytest

from engine import ALL_TILES, PASS, Doubles, End, Game, IllegalMoveError, standings, summary
from engine.game import _shuffle  # the deal itself: to see which deals were thrown back
from tests.engine.helpers import (
    BLOCKED_TABLE,
    PLAYER_COUNTS,
    T,
    all_tiles_once,
    build_table,
    deal,
    ends,
    names,
    pips,
    position,
    rest,
    scripted,
    split,
    tiles,
)


def shuffled(key: str) -> list:
    """The tiles in the order a deal keyed `key` puts them."""
    return [ALL_TILES[i] for i in _shuffle(key)[0]]


each_count = pytest.mark.parametrize("players", PLAYER_COUNTS)
NO_ZEROS = rest(build_table("muggins", BLOCKED_TABLE).tiles())
THREE_TWO = T("3:2")


def points(game: Game) -> list[int]:
    return [m.points for m in game.round.moves]


def terms(game: Game) -> list[int] | None:
    return game.rules.count_terms(game.round.table)


# -- the first round: 3:2 opens -----------------------------------------------------


@each_count
@pytest.mark.parametrize("seed", range(40))
def test_round_one_the_holder_of_3_2_starts(players: int, seed: int):
    game = Game.new("muggins", names(players), seed)
    rnd = game.round
    assert THREE_TWO in rnd.hands[rnd.starter]
    assert THREE_TWO not in rnd.boneyard
    assert {str(m) for m in game.legal_moves()} == {"3:2", "2:3"}
    assert [len(h) for h in rnd.hands] == [7] * players
    assert len(rnd.boneyard) == 28 - 7 * players


def redealt_seeds(players: int) -> list[tuple[int, int]]:
    """Seeds whose first shuffle left 3:2 in the boneyard, with the attempt that was kept."""
    found = []
    for seed in range(60):
        attempt = 0
        while THREE_TWO in shuffled(f"{seed}:1:{attempt}")[7 * players :]:
            attempt += 1
        if attempt:
            found.append((seed, attempt))
    return found


@pytest.mark.parametrize("players", [2, 3])
def test_3_2_in_the_boneyard_means_a_new_deal(players: int):
    seeds = redealt_seeds(players)
    assert len(seeds) >= 5  # about half the shuffles leave 3:2 out with two players
    for seed, attempt in seeds:
        game = Game.new("muggins", names(players), seed)
        order = shuffled(f"{seed}:1:{attempt}")
        hands = [order[i * 7 : (i + 1) * 7] for i in range(players)]
        assert game.round.dealt == hands
        assert game.round.boneyard == order[7 * players :]
        assert THREE_TWO in game.round.hands[game.round.starter]
        first = shuffled(f"{seed}:1:0")
        assert THREE_TWO in first[7 * players :]


def test_four_players_never_redeal():
    assert redealt_seeds(4) == []


@each_count
def test_round_one_must_open_with_3_2_either_way(players: int):
    for text, west in (("3:2", 3), ("2:3", 2)):
        game = deal("muggins", [tiles("3:2 6:6")] + [[] for _ in range(players - 1)])
        entry = game.push(game.parse_move(text))
        assert entry.points == 1  # 3 + 2 = 5
        assert game.round.table.opening.inner == west
    game = deal("muggins", [tiles("3:2 6:6")] + [[] for _ in range(players - 1)])
    with pytest.raises(IllegalMoveError) as refused:
        game.push(game.parse_move("6:6"))
    assert refused.value.code == "must_open_with"


@each_count
def test_a_record_s_first_round_must_be_started_by_the_3_2_holder(players: int):
    hands = split([THREE_TWO, *rest([THREE_TWO])], players)
    hands = [h[:7] for h in hands]
    spare = rest(*hands)
    for wrong in range(1, players):
        with pytest.raises(ValueError, match="starter must hold 3:2"):
            Game.empty("muggins", names(players)).start_round(wrong, hands, spare)
    Game.empty("muggins", names(players)).start_round(0, hands, spare)


@pytest.mark.parametrize("players", [2, 3])
def test_a_record_s_first_round_may_not_leave_3_2_in_the_boneyard(players: int):
    pool = rest([THREE_TWO])
    hands = [pool[i * 7 : (i + 1) * 7] for i in range(players)]
    with pytest.raises(ValueError, match="3:2 must be dealt"):
        Game.empty("muggins", names(players)).start_round(0, hands, rest(*hands))


@each_count
def test_later_rounds_start_clockwise_with_any_tile(players: int):
    game = Game.new("muggins", names(players), 2)
    first = game.round.starter
    while len(game.rounds) < 3 and not game.over:
        game.push(game.legal_moves()[0])
    assert len(game.rounds) == 3
    assert [r.starter for r in game.rounds] == [(first + k) % players for k in range(3)]
    hand = game.round.hands[game.round.starter]
    openings = {str(m) for m in game.legal_moves()}
    assert openings == {f"{t.high}:{t.low}" for t in hand} | {f"{t.low}:{t.high}" for t in hand}


@pytest.mark.parametrize("players", [2, 3])
def test_no_redeal_after_the_first_round(players: int):
    for seed in range(40):
        game = Game.new("muggins", names(players), seed)
        while len(game.rounds) < 2 and not game.over:
            game.push(game.legal_moves()[0])
        if len(game.rounds) == 2 and THREE_TWO in game.round.boneyard:
            assert game.round.starter == (game.rounds[0].starter + 1) % players
            return
    pytest.fail("no second round with 3:2 in the boneyard found")


# -- the house ----------------------------------------------------------------------


@each_count
def test_a_double_is_the_house_once_closed(players: int):
    game = scripted("muggins", players, ["3:2", "3:3@W"], hands={2 % players: "3:1"})
    assert ends(game) == {"W": 3, "E": 2}
    with pytest.raises(IllegalMoveError) as refused:
        game.push(game.parse_move("3:1@N"))
    assert refused.value.code == "no_such_end"
    game = scripted("muggins", players, ["3:2", "3:3@W", "3:1@W"])
    assert game.round.table.hub == (End.W, 0)
    assert ends(game) == {"W": 1, "E": 2, "N": 3, "S": 3}


@each_count
def test_with_two_doubles_the_one_closed_first_is_the_house(players: int):
    script = ["3:2", "3:3@W", "2:2@E", "2:4@E", "3:1@W"]
    game = scripted("muggins", players, script[:4])
    assert game.round.table.hub == (End.E, 0)
    assert ends(game) == {"W": 3, "E": 4, "N": 2, "S": 2}
    game = scripted("muggins", players, script)
    assert game.round.table.hub == (End.E, 0)  # closing 3:3 later changes nothing
    assert ends(game) == {"W": 1, "E": 4, "N": 2, "S": 2}
    # 5 -> 1; 6+2; 6+4 = 10 -> 2; 6+4 (N, S empty) -> 2; 1+4 -> 1
    assert points(game) == [1, 0, 2, 2, 1]


@each_count
def test_an_opening_double_is_the_house_when_both_sides_are_covered(players: int):
    game = scripted("muggins", players, ["5:5", "5:0@W"], number=2)
    assert game.round.table.hub is None and ends(game) == {"W": 0, "E": 5}
    game = scripted("muggins", players, ["5:5", "5:0@W", "5:1@E"], number=2)
    assert game.round.table.hub == (None, 0)
    assert ends(game) == {"W": 0, "E": 1, "N": 5, "S": 5}
    # 10 alone -> 2; 0 + 10 (5:5 is the E end) -> 2; 0 + 1 -> 0
    assert points(game) == [2, 2, 0]


@each_count
def test_the_first_double_closed_wins_over_the_first_played(players: int):
    script = ["5:5", "5:1@W", "1:1@W", "1:4@W", "5:6@E"]
    game = scripted("muggins", players, script, number=2)
    assert game.round.table.hub == (End.W, 1)
    assert ends(game) == {"W": 4, "E": 6, "N": 1, "S": 1}
    # 10 -> 2; 1+10; 2+10; 4+10; 4+6 = 10 -> 2
    assert points(game) == [2, 0, 0, 0, 2]


# -- the count ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("opening", "count", "score"),
    [
        ("3:2", 5, 1),
        ("2:3", 5, 1),
        ("5:0", 5, 1),
        ("0:5", 5, 1),
        ("6:4", 10, 2),
        ("4:1", 5, 1),
        ("5:5", 10, 2),  # a lone opening double counts once
        ("6:6", 12, 0),
        ("4:4", 8, 0),
        ("0:0", 0, 0),  # 0 is not a positive multiple of 5
        ("6:3", 9, 0),
    ],
)
@each_count
def test_the_opening_is_counted(opening: str, count: int, score: int, players: int):
    game = scripted("muggins", players, [opening], number=2)
    assert sum(terms(game)) == count
    assert points(game) == [score]


@each_count
def test_a_double_at_an_end_counts_both_halves(players: int):
    game = scripted("muggins", players, ["3:2", "2:2@E", "3:3@W"])
    assert terms(game) == [6, 4]
    assert points(game) == [1, 0, 2]  # 3+4 = 7; 6+4 = 10


@each_count
def test_the_house_arms_count_only_with_a_tile_on_them(players: int):
    game = scripted("muggins", players, ["3:2", "3:3@W", "3:1@W"])
    assert terms(game) == [1, 2]
    game = scripted("muggins", players, ["3:2", "3:3@W", "3:1@W", "3:4@N"])
    assert terms(game) == [1, 2, 4]
    game = scripted("muggins", players, ["3:2", "3:3@W", "3:1@W", "3:4@N", "3:6@S", "6:6@S"])
    assert terms(game) == [1, 2, 4, 12]
    assert points(game)[-2:] == [0, 0]  # 13, 19


@each_count
def test_two_doubles_laid_together_score_on_the_whole_move(players: int):
    game = scripted("muggins", players, ["3:2", "3:3@W+2:2@E"])
    assert points(game) == [1, 2]  # 6 + 4 = 10
    assert [m.text for m in game.round.moves] == ["3:2", "3:3@W+2:2@E"]
    table = game.round.table
    assert {p.tile for p in table.last_placed()} == {T("3:3"), T("2:2")}
    assert table.hub is None  # neither double is closed
    assert T("3:3") not in game.round.hands[1] and T("2:2") not in game.round.hands[1]


# -- 2 to 4 doubles at once -------------------------------------------------------------

HOUSE_TABLE = "4:4 4:1@W 4:3@E 4:5@N 4:6@S"  # W1 E3 N5 S6, the house is the opening


def doubles_position(players: int) -> Game:
    others = [t for t in rest(build_table("muggins", HOUSE_TABLE).tiles()) if not t.is_double]
    hands = [tiles("1:1 3:3 5:5 6:6 0:0"), *split(others[:12], players - 1)]
    return position("muggins", hands, table=HOUSE_TABLE)


@each_count
def test_every_combination_of_doubles_is_legal(players: int):
    game = doubles_position(players)
    assert ends(game) == {"W": 1, "E": 3, "N": 5, "S": 6}
    combos = [m for m in game.legal_moves() if isinstance(m, Doubles)]
    assert len(combos) == 6 + 4 + 1  # pairs, triples and the four from four doubles
    assert {len(m.plays) for m in combos} == {2, 3, 4}
    singles = [m for m in game.legal_moves() if not isinstance(m, Doubles)]
    assert {str(m) for m in singles} == {"1:1@W", "3:3@E", "5:5@N", "6:6@S"}


@each_count
@pytest.mark.parametrize(
    ("move", "score"),
    [
        ("1:1@W+3:3@E+5:5@N+6:6@S", 6),  # 2 + 6 + 10 + 12 = 30
        ("6:6@S+5:5@N+3:3@E+1:1@W", 6),  # any order of writing
        ("1:1@W+3:3@E+6:6@S", 5),  # 2 + 6 + 5 + 12 = 25
        ("5:5@N+6:6@S", 0),  # 1 + 3 + 10 + 12 = 26
        ("1:1@W+3:3@E", 0),  # 2 + 6 + 5 + 6 = 19
    ],
)
def test_doubles_moves_score_once(players: int, move: str, score: int):
    game = doubles_position(players)
    entry = game.push(game.parse_move(move), text=move)
    assert entry.points == score
    assert entry.text == move
    assert game.turn == 1 % players
    assert all_tiles_once(game)


@each_count
def test_a_doubles_move_may_empty_the_hand(players: int):
    others = rest(build_table("muggins", HOUSE_TABLE).tiles(), tiles("1:1 3:3"))
    hands = [tiles("1:1 3:3"), *split(others, players - 1)]
    game = position("muggins", hands, table=HOUSE_TABLE)
    game.push(game.parse_move("3:3@E+1:1@W"))
    assert game.round.end == "out" and game.round.out == [0]


# -- the end of a round -----------------------------------------------------------------


def last_tile_position(players: int, boneyard: str = "", totals=None) -> Game:
    table = BLOCKED_TABLE.removesuffix(" 6:0@E")
    left = [
        t for t in rest(build_table("muggins", table).tiles(), tiles(boneyard)) if t != T("6:0")
    ]
    hands = [[T("6:0")], *split(left, players - 1)]
    return position("muggins", hands, table=table, boneyard=boneyard, totals=totals)


@each_count
@pytest.mark.parametrize("boneyard", ["", "2:2 3:3"])
def test_going_out_scores_the_others_pips_over_five(players: int, boneyard: str):
    game = last_tile_position(players, boneyard)
    others = pips(t for hand in game.round.hands[1:] for t in hand)
    entry = game.push(game.parse_move("6:0@E"))
    assert entry.points == 0  # 0 + 0, the house arms are empty
    assert game.round.end == "out" and game.round.out == [0]
    assert game.round.points == [others // 5] + [0] * (players - 1)
    assert others % 5 != 0 or players == 4  # rounding down is exercised
    assert game.turn is None


def blocked_hands(hands: list[str]) -> list[list]:
    """Chosen hands for the blocked table; "rest" takes the tiles nobody else holds."""
    held = [[] if h == "rest" else tiles(h) for h in hands]
    spare = rest(build_table("muggins", BLOCKED_TABLE).tiles(), *held)
    return [spare if h == "rest" else hand for h, hand in zip(hands, held, strict=True)]


@pytest.mark.parametrize(
    ("hands", "scores"),
    [
        # seat 1 holds only 1:1 and scores (126 - 2) // 5 = 24
        (["rest", "1:1"], [0, 24]),
        # 30, 23, 73: seat 1 scores 103 // 5 = 20
        (["6:6 6:4 4:4", "5:5 5:4 2:2", "rest"], [0, 20, 0]),
        # 20, 22, 34, 50: seat 0 scores 106 // 5 = 21
        (["6:6 4:4", "5:5 6:4 1:1", "5:4 6:3 5:3 6:2", "rest"], [21, 0, 0, 0]),
    ],
)
def test_blocked_lowest_pip_total_scores(hands: list[str], scores: list[int]):
    held = blocked_hands(hands)
    players = len(held)
    game = position("muggins", held, table=BLOCKED_TABLE)
    totals = [pips(h) for h in held]
    lowest = min(totals)
    assert totals.count(lowest) == 1
    for _ in range(players):
        game.push(PASS)
    assert game.round.end == "blocked"
    winner = totals.index(lowest)
    expected = [0] * players
    expected[winner] = (sum(totals) - lowest) // 5
    assert game.round.points == expected == scores


@pytest.mark.parametrize(
    "hands",
    [
        ["6:6 6:4 5:5 5:4 6:3 5:3 3:2", "rest"],  # 63 and 63
        ["6:6 6:4 4:4", "5:5 5:4 6:3 1:1", "rest"],  # 30, 30, 66
        ["6:6 4:4", "5:5 6:4", "5:4 6:3 5:3 6:2", "rest"],  # 20, 20, 34, 52
    ],
)
def test_blocked_with_a_shared_lowest_total_nobody_scores(hands: list[str]):
    held = blocked_hands(hands)
    players = len(held)
    totals = [pips(h) for h in held]
    assert totals.count(min(totals)) == 2
    game = position("muggins", held, table=BLOCKED_TABLE)
    for _ in range(players):
        game.push(PASS)
    assert game.round.end == "blocked"
    assert game.round.points == [0] * players


# -- 51 -------------------------------------------------------------------------------


@each_count
def test_51_ends_the_match_at_once_mid_round(players: int):
    totals = [49, 10, 10, 30][:players]
    hands = [tiles("5:5 1:1"), tiles("2:2"), tiles("3:3"), tiles("4:4")][:players]
    game = position("muggins", hands, table="5:0", totals=totals, seed=5)
    entry = game.push(game.parse_move("5:5@W"))  # 10 + 0 = 10 -> 2
    assert entry.points == 2
    assert game.totals[0] == 51
    assert game.round.end == "target"
    assert game.over and game.turn is None and len(game.rounds) == 1
    assert game.round.points == [2] + [0] * (players - 1)  # no end-of-round points
    assert game.round.hands[0] == [T("1:1")]
    result = standings(game)
    assert result.winners == (0,)
    fewest = min(game.totals)
    assert result.losers == tuple(s for s, t in enumerate(game.totals) if t == fewest)
    assert summary(game)["rounds"][0]["end"] == "target"
    assert summary(game)["record"] is None


@each_count
def test_51_reached_by_the_round_s_end_points(players: int):
    game = last_tile_position(players, totals=[45] + [0] * (players - 1))
    game.push(game.parse_move("6:0@E"))
    assert game.round.end == "out"
    assert game.over and game.totals[0] >= 51


@each_count
def test_points_and_going_out_on_the_same_move(players: int):
    # The move's own points come first, then the round's end: the round ends "out".
    held = [[T("5:5")], *split(rest(tiles("5:0 5:5")), players - 1)]
    game = position("muggins", held, table="5:0", totals=[49] + [0] * (players - 1))
    others = pips(t for h in held[1:] for t in h)
    entry = game.push(game.parse_move("5:5@W"))
    assert entry.points == 2
    assert game.round.end == "out"
    assert game.round.points[0] == 2 + others // 5
    assert game.over


@each_count
def test_below_51_the_next_round_is_dealt(players: int):
    game = last_tile_position(players, totals=[10] * players)
    game = position(
        "muggins",
        [list(h) for h in game.round.hands],
        table=BLOCKED_TABLE.removesuffix(" 6:0@E"),
        totals=[10] * players,
        seed=3,
        starter=players - 1,
    )
    game.push(game.parse_move("6:0@E"))
    assert not game.over and len(game.rounds) == 2
    assert game.round.starter == 0
    assert all_tiles_once(game)


def test_the_target_is_51():
    assert Game.new("muggins", names(2), 1).target == 51
    assert Game.new("muggins", names(2), 1, target=51).target == 51
    with pytest.raises(ValueError):
        Game.new("muggins", names(2), 1, target=50)
