"""Rules all three games share: deal, turns, notation, drawing, blocking, version, state."""

from __future__ import annotations

import json

import pytest

from engine import (
    ALL_TILES,
    DRAW,
    PASS,
    Doubles,
    End,
    Game,
    IllegalMoveError,
    Play,
    StateError,
    Tile,
    apply,
    view_for,
)
from tests.engine.helpers import (
    BLOCKED_TABLE,
    DEFAULT_TARGET,
    HAND_SIZE,
    PLAYER_COUNTS,
    VARIANT_NAMES,
    T,
    all_tiles_once,
    build_table,
    deal,
    ends,
    names,
    position,
    push_all,
    rest,
    split,
    state,
    tiles,
)

GAMES = [(v, n) for v in VARIANT_NAMES for n in PLAYER_COUNTS]
each_game = pytest.mark.parametrize(("variant", "players"), GAMES)
each_variant = pytest.mark.parametrize("variant", VARIANT_NAMES)
each_count = pytest.mark.parametrize("players", PLAYER_COUNTS)

# Tiles left over when BLOCKED_TABLE lies on the table: none of them shows a 0.
NO_ZEROS = rest(build_table("twolane", BLOCKED_TABLE).tiles())


# -- the deal ---------------------------------------------------------------


@each_game
@pytest.mark.parametrize("seed", range(12))
def test_deal_sizes_from_a_seed(variant: str, players: int, seed: int):
    game = Game.new(variant, names(players), seed)
    rnd = game.round
    size = HAND_SIZE[variant, players]
    assert [len(hand) for hand in rnd.hands] == [size] * players
    assert len(rnd.boneyard) == 28 - size * players
    assert all_tiles_once(game)
    assert rnd.table.tiles() == []
    assert game.target == DEFAULT_TARGET[variant, players]
    assert game.version == 0 and rnd.number == 1 and game.turn == rnd.starter


def test_deal_sizes_in_words():
    # docs/rules.md: muggins with four players has no boneyard; the others always have one.
    assert len(Game.new("muggins", names(4), 1).round.boneyard) == 0
    assert len(Game.new("twolane", names(4), 1).round.boneyard) == 4
    assert len(Game.new("fives", names(4), 1).round.boneyard) == 8


@each_game
def test_same_seed_same_game(variant: str, players: int):
    first = Game.new(variant, names(players), 12345)
    again = Game.new(variant, names(players), 12345)
    assert first.to_json() == again.to_json()
    others = {json.dumps(Game.new(variant, names(players), s).round.to_json()) for s in range(5)}
    assert len(others) == 5


@each_game
def test_start_round_refuses_a_wrong_deal_size(variant: str, players: int):
    size = HAND_SIZE[variant, players]
    hands = split(ALL_TILES, players)
    for extra in (-1, 1):
        dealt = [hand[:size] for hand in hands]
        moved = dealt[players - 1].pop()
        if extra > 0:  # one seat holds a tile too many (another one too few)
            dealt[0].append(moved)
        game = Game.empty(variant, names(players))
        with pytest.raises(ValueError, match=r"holds \d+ tiles, not"):
            game.start_round(0, dealt, rest(*dealt))
        assert game.rounds == []


@each_variant
def test_start_round_refuses_tiles_missing_or_twice(variant: str):
    good = deal(variant, [tiles("3:2"), []]).round
    hands = [list(h) for h in good.dealt]
    game = Game.empty(variant, names(2))
    with pytest.raises(ValueError, match="is missing"):
        game.start_round(0, hands, good.dealt_boneyard[:-1])
    with pytest.raises(ValueError, match="there twice"):
        game.start_round(0, hands, [*good.dealt_boneyard[:-1], hands[0][0]])
    with pytest.raises(ValueError, match="2 hands are needed"):
        game.start_round(0, [*hands, []], good.dealt_boneyard)
    with pytest.raises(ValueError, match="seat from 0 to 1"):
        game.start_round(2, hands, good.dealt_boneyard)
    with pytest.raises(ValueError, match="seat from 0 to 1"):
        game.start_round(-1, hands, good.dealt_boneyard)
    assert game.rounds == []


@pytest.mark.parametrize("count", [0, 1, 5])
def test_two_to_four_players(count: int):
    for variant in VARIANT_NAMES:
        with pytest.raises(ValueError):
            Game.empty(variant, ["x"] * count)
        with pytest.raises(ValueError):
            Game.new(variant, ["x"] * count, 1)


def test_unknown_variant():
    with pytest.raises(ValueError, match="unknown game"):
        Game.empty("chess", names(2))


@pytest.mark.parametrize("target", [0, -1, True])
def test_bad_target(target: int):
    with pytest.raises(ValueError):
        Game.empty("fives", names(2), target)


# -- the opening ------------------------------------------------------------


def opening_game(variant: str, players: int) -> Game:
    """A round whose opening may be any tile (muggins: a later round)."""
    if variant == "muggins":
        hands = [tiles("6:6 6:5 6:4 5:3 3:2 2:2 0:1")] + [[] for _ in range(players - 1)]
        return position(variant, hands, rest_to=1, number=2)
    return deal(variant, [tiles("6:6 6:5 6:4 5:3 3:2")] + [[] for _ in range(players - 1)])


@each_game
def test_the_opening_is_any_tile_either_way_round(variant: str, players: int):
    game = opening_game(variant, players)
    hand = game.round.hands[0]
    expected = set()
    for tile in hand:
        expected.add(f"{tile.high}:{tile.low}")
        expected.add(f"{tile.low}:{tile.high}")
    assert {str(m) for m in game.legal_moves()} == expected
    assert all(isinstance(m, Play) and m.end is None for m in game.legal_moves())
    # one entry per way round; a double has only one
    assert len(game.legal_moves()) == len(expected)


@each_game
@pytest.mark.parametrize(("text", "west", "east"), [("6:5", 6, 5), ("5:6", 5, 6)])
def test_the_written_order_of_the_opening_sets_w_and_e(
    variant: str, players: int, text: str, west: int, east: int
):
    game = opening_game(variant, players)
    entry = game.push(game.parse_move(text))
    assert entry.text == text
    assert ends(game) == {"W": west, "E": east}
    assert game.round.table.opening.inner == west
    assert game.turn == 1


@each_game
def test_an_opening_takes_no_end_and_nothing_else_opens(variant: str, players: int):
    game = opening_game(variant, players)
    before = state(game)
    for move in (DRAW, PASS, Play(T("6:5"), End.W)):
        with pytest.raises(IllegalMoveError):
            game.push(move)
    assert state(game) == before


# -- turns and notation -----------------------------------------------------


@each_game
def test_turns_go_clockwise_from_the_starter(variant: str, players: int):
    starter = players - 1
    plays = ["6:6", "6:5@E", "5:5@E", "5:4@E", "4:4@E", "4:3@E", "3:3@E"][: players + 2]
    spare = tiles("0:0 1:0 1:1 2:0")  # so that no seat runs out of tiles
    hands = [
        [T(plays[i][:3]) for i in range(len(plays)) if (starter + i) % players == seat]
        + [spare[seat]]
        for seat in range(players)
    ]
    game = position(variant, hands, number=2, starter=starter, turn=starter)
    entries = push_all(game, *plays)
    assert [e.seat for e in entries] == [(starter + i) % players for i in range(len(plays))]
    assert game.turn == (starter + len(plays)) % players


@each_variant
@pytest.mark.parametrize("text", ["6:2@E", "2:6@E"])
def test_a_tile_may_be_written_either_way_round(variant: str, text: str):
    game = deal(variant, [tiles("3:2 4:4"), tiles("6:2 5:5")], starter=0)
    game.push(game.parse_move("3:2"))
    entry = game.push(game.parse_move(text), text=text)
    assert ends(game)["E"] == 6
    assert entry.text == text
    assert game.round.table.arm(End.E)[0].inner == 2


@each_variant
def test_the_end_may_be_left_out_when_only_one_fits(variant: str):
    game = deal(variant, [tiles("3:2 4:4"), tiles("6:2 3:1 3:5")], starter=0)
    game.push(game.parse_move("3:2"))
    move = game.parse_move("6:2")
    assert move == Play(T("6:2"), End.E)
    entry = game.push(move)
    assert entry.text == "2:6@E"  # written from the table when no text is given
    assert ends(game) == {"W": 3, "E": 6}


@each_variant
def test_a_record_keeps_the_text_as_written(variant: str):
    game = deal(variant, [tiles("3:2 4:4"), tiles("6:2 3:1 3:5")], starter=0)
    game.push(game.parse_move("3:2"))
    entry = game.push(game.parse_move("6:2"), text="6:2")
    assert entry.text == "6:2"
    assert game.round.moves[-1].text == "6:2"


# -- drawing, passing and the version -----------------------------------------


# muggins with four players deals every tile: it has no boneyard to draw from.
@pytest.mark.parametrize(("variant", "players"), [g for g in GAMES if g != ("muggins", 4)])
def test_draw_keeps_the_turn_and_version_counts_actions(variant: str, players: int):
    # Seat 1 holds no 6 and no 5; the boneyard starts with two tiles that do not fit.
    hands = [tiles("6:5 1:3 4:1"), tiles("0:0 1:1 2:2 1:0 2:0"), tiles("3:3"), tiles("4:4")][
        :players
    ]
    game = position(variant, hands, boneyard="1:2 3:0 4:5", number=2)
    game.push(game.parse_move("6:5"))
    assert game.version == 1 and game.turn == 1
    assert game.legal_moves() == (DRAW,)
    game.push(DRAW, seat=1)
    assert game.version == 2 and game.turn == 1
    assert game.round.hands[1][-1] == T("1:2")
    if variant == "twolane":
        # one draw only: it did not fit, so the turn passes with a penalty
        assert game.legal_moves() == (PASS,)
        game.push(PASS, seat=1)
        assert game.version == 3 and game.turn == 2 % players
        assert game.round.penalties[1] == 10 and game.totals[1] == 10
        return
    game.push(DRAW, seat=1)
    assert game.turn == 1 and game.version == 3
    assert game.round.hands[1][-1] == T("3:0")
    game.push(DRAW, seat=1)
    assert game.round.hands[1][-1] == T("4:5")
    assert game.legal_moves() == (Play(T("4:5"), End.E),)
    game.push(game.legal_moves()[0], seat=1)
    assert game.version == 5 and game.turn == 2 % players


@each_game
def test_a_refused_move_changes_nothing(variant: str, players: int):
    game = Game.new(variant, names(players), 7)
    before = state(game)
    for text in ("pass", "draw", "0:0@N"):
        with pytest.raises(IllegalMoveError):
            game.push(game.parse_move(text))
    with pytest.raises(IllegalMoveError):
        game.push(game.legal_moves()[0], seat=(game.turn + 1) % players)
    assert state(game) == before
    assert game.version == 0


# -- blocked (all games) --------------------------------------------------------


def blocked_position(variant: str, players: int, **kwargs) -> Game:
    return position(
        variant,
        split(NO_ZEROS, players),
        table=BLOCKED_TABLE,
        boneyard="",
        **kwargs,
    )


@each_game
def test_blocked_when_every_holder_has_passed(variant: str, players: int):
    game = blocked_position(variant, players, turn=1)
    assert game.legal_moves() == (PASS,)
    for step in range(players):
        assert not game.round.over
        assert game.turn == (1 + step) % players
        game.push(PASS)
    assert game.round.end == "blocked"
    assert game.turn is None
    assert game.round.out == []


@each_game
def test_a_play_starts_the_count_again(variant: str, players: int):
    # 6:0 is not on the table yet, so E shows 6; seat 1 holds every six left.
    table = BLOCKED_TABLE.removesuffix(" 6:0@E")
    left = rest(build_table(variant, table).tiles())
    hands = split([t for t in left if 6 not in t], players)
    hands[1] += [t for t in left if 6 in t]
    game = position(variant, hands, table=table, turn=0)
    game.push(PASS)
    entry = game.push(game.parse_move("6:0@E"))
    assert entry.seat == 1 and game.round.passed == set()
    for _ in range(players - 1):
        game.push(PASS)
        assert not game.round.over
    # seat 1's other sixes fit nowhere now: its pass is the last one needed
    assert game.turn == 1
    game.push(PASS)
    assert game.round.end == "blocked"


@each_game
def test_the_passes_since_the_last_play_are_what_count(variant: str, players: int):
    # The others have passed since the last play: this pass blocks. With no passes yet, not.
    game = blocked_position(variant, players, turn=0, passed=range(1, players))
    game.push(PASS)
    assert game.round.end == "blocked"
    game = blocked_position(variant, players, turn=0, passed=())
    game.push(PASS)
    assert not game.round.over


# -- apply, refusal, views and stored state -------------------------------------


@each_game
def test_apply_leaves_the_game_unchanged(variant: str, players: int):
    game = Game.new(variant, names(players), 11)
    moves = 0
    while moves < 12 and not game.over:
        before = state(game)
        move = game.legal_moves()[-1]
        after = apply(game, move)
        assert state(game) == before, f"apply changed the game after {moves} moves"
        assert after.version == game.version + 1
        game.push(move)
        assert state(game) == state(after)
        moves += 1


def test_apply_reads_notation_and_checks_the_seat():
    game = deal("fives", [tiles("3:2"), tiles("2:1")])
    after = apply(game, "3:2", seat=0)
    assert ends(after) == {"W": 3, "E": 2}
    assert game.round.table.opening is None
    with pytest.raises(IllegalMoveError):
        apply(after, "2:1@E", seat=0)
    assert apply(after, "2:1", seat=1).round.table.arm(End.E)[0].tile == T("2:1")


@each_game
def test_refusal_and_explain(variant: str, players: int):
    game = Game.new(variant, names(players), 3)
    for move in game.legal_moves():
        assert game.refusal(move) is None
        assert game.refusal(move, game.turn) is None
        assert game.explain(move) is None
        assert game.refusal(move, (game.turn + 1) % players).code == "not_your_turn"
    assert game.refusal(PASS).code == "must_open"
    assert game.explain(PASS).code == "must_open"


@each_game
def test_state_round_trip(variant: str, players: int):
    game = Game.new(variant, names(players), 5)
    for _ in range(30):
        if game.over:
            break
        game.push(game.legal_moves()[0])
        again = Game.from_json(json.loads(json.dumps(game.to_json())))
        assert again == game
        assert again.legal_moves() == game.legal_moves()
        assert again.round.table.open_ends() == game.round.table.open_ends()


@pytest.mark.parametrize(
    "broken",
    [
        {},
        {"format": 2},
        {"format": 1, "variant": "chess"},
        "not a dict",
    ],
)
def test_unreadable_state(broken):
    with pytest.raises(StateError):
        Game.from_json(broken)


def test_state_with_wrong_seats_or_turn():
    data = Game.new("fives", names(3), 1).to_json()
    for change in (
        lambda d: d.update(players=["a"]),
        lambda d: d.update(totals=[0, 0]),
        lambda d: d["rounds"][0].update(turn=3),
        lambda d: d["rounds"][0].update(hands=[[], []]),
        lambda d: d["rounds"][0]["table"].update(hub=["X", 0]),
        lambda d: d["rounds"][0].update(hands=[["9:9"], [], []]),
    ):
        broken = json.loads(json.dumps(data))
        change(broken)
        with pytest.raises(StateError):
            Game.from_json(broken)


@each_game
def test_view_shows_only_the_seat_s_own_hand(variant: str, players: int):
    game = Game.new(variant, names(players), 9)
    for _ in range(10):
        if game.turn is None:
            break
        game.push(game.legal_moves()[0])
    for seat in range(players):
        view = view_for(game, seat)
        assert view.hand == tuple(sorted(game.round.hands[seat], reverse=True))
        assert view.hand_sizes == tuple(len(h) for h in game.round.hands)
        assert view.boneyard_size == len(game.round.boneyard)
        assert view.my_turn == (seat == game.turn)
        assert view.legal == (game.legal_moves() if seat == game.turn else ())
    public = view_for(game)
    assert public.hand == () and public.legal == () and not public.my_turn
    with pytest.raises(ValueError):
        view_for(game, players)


def test_view_is_a_snapshot():
    game = deal("fives", [tiles("3:2 2:1"), tiles("2:4 3:3")])
    game.push(game.parse_move("3:2"))
    view = view_for(game, 1)
    game.push(game.parse_move("2:4@E"))
    assert dict(view.table.open_ends()) == {End.W: 3, End.E: 2}
    assert view.version == 1


def test_tiles_are_values():
    assert Tile.of(6, 4) == Tile.of(4, 6) == T("4:6") == T("6:4")
    assert str(T("4:6")) == "6:4"
    assert eval(repr(T("4:6")), {"Tile": Tile}) == T("6:4")
    assert len(set(ALL_TILES)) == 28
    assert T("3:3").is_double and not T("3:2").is_double
    assert T("6:4").pips == 10


@each_variant
def test_an_opening_given_without_its_west_half_lays_the_higher_half_on_w(variant: str):
    # Play(tile) is what str() writes as "3:2"; explain() accepts it, so push() must too.
    game = deal(variant, [tiles("3:2"), []])
    move = Play(T("2:3"))
    assert game.explain(move) is None and game.refusal(move) is None
    entry = game.push(move)
    assert entry.text == "3:2"
    assert ends(game) == {"W": 3, "E": 2}


def test_moves_built_by_hand_are_read_as_the_legal_ones():
    game = position("muggins", [tiles("3:3 2:2 3:1"), tiles("6:6")], table="3:2")
    for move, written in (
        (Play(T("1:3"), End.W, 3), "3:1@W"),  # a W half on a play with an end means nothing
        (Doubles((Play(T("2:2"), End.E), Play(T("3:3"), End.W))), "3:3@W+2:2@E"),
    ):
        assert game.explain(move) is None and game.refusal(move) is None
        assert game.resolve(move) in game.legal_moves()
        assert game.copy().push(move).text == written
