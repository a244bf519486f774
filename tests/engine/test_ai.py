"""Computer players (`engine.ai`): legal moves only, no peeking, greedy's rules, the expert's
time cap, the determinization sampler and the fast rollout simulation."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from dataclasses import replace

import pytest

from engine import (
    ALL_TILES,
    Doubles,
    Draw,
    End,
    Game,
    Move,
    Pass,
    Play,
    SeatView,
    Tile,
    ruleset,
    view_for,
)
from engine.ai import (
    PLAYERS,
    ExpertPlayer,
    GreedyPlayer,
    RandomPlayer,
    Sim,
    World,
    check_world,
    knowledge_from_view,
    make_player,
    sample_world,
    world_game,
)
from engine.ai.endgame import is_endgame, solve
from engine.ai.expert import match_chance, outcome, race
from engine.ai.greedy import greedy_move_in
from engine.ai.hidden import Slot, values_of
from engine.variants import VARIANTS as REGISTERED

# Every registered game: a new one is played through the simulation too.
VARIANTS = tuple(REGISTERED)
NAMES = ["A", "B", "C", "D"]


def T(text: str) -> Tile:
    return Tile.parse(text)


def fast_expert(seed: int = 0) -> ExpertPlayer:
    return ExpertPlayer(seed, rollouts=24, time_cap=None)


def random_position(variant: str, players: int, seed: int) -> Game:
    """A game some random (and some greedy) moves in, with a seat to act."""
    rng = random.Random(seed)
    game = Game.new(variant, NAMES[:players], seed=seed)
    for _ in range(rng.randrange(0, 60)):
        if game.over:
            break
        legal = game.legal_moves()
        move = greedy_move_in(game) if rng.random() < 0.5 else legal[rng.randrange(len(legal))]
        game.push(move)
    if game.over:
        return Game.new(variant, NAMES[:players], seed=seed + 1000)
    return game


def positions(count: int) -> list[tuple[str, int, int]]:
    return [(VARIANTS[i % len(VARIANTS)], 2 + (i // 3) % 3, i) for i in range(count)]


def hidden_tiles(game: Game, seat: int) -> tuple[list[list[Tile]], list[Tile]]:
    rnd = game.round
    return [[] if s == seat else list(h) for s, h in enumerate(rnd.hands)], list(rnd.boneyard)


# -- every player plays legally ------------------------------------------------------


@pytest.mark.parametrize(("variant", "players", "seed"), positions(45))
def test_players_return_a_legal_move(variant: str, players: int, seed: int) -> None:
    game = random_position(variant, players, seed)
    seat = game.turn
    assert seat is not None
    view = view_for(game, seat)
    for player in (RandomPlayer(seed), GreedyPlayer(seed), fast_expert(seed)):
        assert player.choose(view) in game.legal_moves()


@pytest.mark.parametrize("variant", VARIANTS)
def test_whole_games_between_players_stay_legal(variant: str) -> None:
    play_whole_games(variant)


def play_whole_games(variant: str, target: int | None = None) -> None:
    """A match for 2, 3 and 4 players between the expert, greedy and random players."""
    for players in (2, 3, 4):
        game = Game.new(variant, NAMES[:players], seed=players, target=target)
        lineup = [fast_expert(1), GreedyPlayer(2), RandomPlayer(3), GreedyPlayer(4)]
        while not game.over:
            seat = game.turn
            assert seat is not None
            game.push(lineup[seat].choose(view_for(game, seat)), seat)  # raises if illegal


def test_make_player_builds_every_registered_player() -> None:
    game = Game.new("fives", NAMES[:2], seed=5)
    view = view_for(game, game.turn)
    for name in PLAYERS:
        player = make_player(name, seed=1, time_cap=0.2, clock=time.perf_counter)
        assert player.choose(view) in view.legal
    with pytest.raises(ValueError, match="unknown player"):
        make_player("grandmaster")


def test_a_player_refuses_a_view_that_is_not_its_turn() -> None:
    game = Game.new("fives", NAMES[:2], seed=5)
    assert game.turn is not None
    other = 1 - game.turn
    with pytest.raises(ValueError, match="not this seat's turn"):
        GreedyPlayer().choose(view_for(game, other))


# -- no peeking ------------------------------------------------------------------------


def reshuffled(game: Game, seat: int, rng: random.Random) -> Game:
    """The same game with the tiles `seat` cannot see dealt again among the same places."""
    other = game.copy()
    rnd = other.round
    hidden = [t for s, h in enumerate(rnd.hands) if s != seat for t in h] + rnd.boneyard
    rng.shuffle(hidden)
    for s, hand in enumerate(rnd.hands):
        if s != seat:
            size = len(hand)
            rnd.hands[s] = hidden[:size]
            hidden = hidden[size:]
    rnd.boneyard = hidden
    return other


def same_view(a: SeatView, b: SeatView) -> SeatView:
    """`b`, after checking it shows what `a` does.

    twolane's provisional places rank by pips left in hand, which the view's
    standings let slip; the players never read them.
    """
    if a.variant == "twolane":
        b = replace(b, standings=a.standings)
    assert a == b
    return b


@pytest.mark.parametrize(("variant", "players", "seed"), positions(30))
def test_players_see_only_the_view(variant: str, players: int, seed: int) -> None:
    game = random_position(variant, players, seed)
    seat = game.turn
    assert seat is not None
    twin = reshuffled(game, seat, random.Random(seed))
    view = view_for(game, seat)
    twin_view = same_view(view, view_for(twin, seat))
    for make in (RandomPlayer, GreedyPlayer, fast_expert):
        assert make(seed).choose(view) == make(seed).choose(twin_view)


def test_the_view_does_not_move_with_the_game() -> None:
    game = Game.new("fives", NAMES[:2], seed=9)
    game.push(game.legal_moves()[0])
    view = view_for(game, game.turn)
    ends = list(view.table.ends)
    game.push(game.legal_moves()[0])
    assert view.table.ends == ends


# -- deterministic ----------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_players_are_deterministic_for_a_seed(variant: str) -> None:
    game = random_position(variant, 3, 77)
    view = view_for(game, game.turn)
    for make in (RandomPlayer, GreedyPlayer, fast_expert):
        assert make(5).choose(view) == make(5).choose(view)
        player = make(5)
        assert player.choose(view) == player.choose(view)  # no state carried between calls


def test_random_player_depends_on_its_seed() -> None:
    game = Game.new("muggins", NAMES[:2], seed=3)
    game.push(game.legal_moves()[0])
    while len(game.legal_moves()) < 3:
        game.push(game.legal_moves()[0])
    view = view_for(game, game.turn)
    assert len({RandomPlayer(seed).choose(view) for seed in range(40)}) > 1


# -- greedy -----------------------------------------------------------------------------


def worked_example(moves: list[str]) -> Game:
    """docs/rules.md's fives worked example after `moves`."""
    game = Game.empty("fives", NAMES)
    hands = [
        [T(t) for t in ["4:1", "5:3", "1:1", "4:4", "5:1"]],
        [T(t) for t in ["2:2", "4:3", "5:5", "1:6", "3:0"]],
        [T(t) for t in ["0:1", "0:6", "3:3", "6:6", "5:0"]],
        [T(t) for t in ["5:6", "2:1", "4:6", "3:6", "0:4"]],
    ]
    boneyard = [T(t) for t in ["0:0", "0:2", "1:3", "2:3", "2:4", "2:5", "2:6", "4:5"]]
    game.start_round(0, hands, boneyard)
    for text in moves:
        game.push(game.parse_move(text))
    return game


def test_greedy_takes_the_fives_score() -> None:
    # Ends 0 6 2 4 = 12: Ирина's 3:0 on W makes 15 (+4); 2:2@N and 4:3@S do not score.
    game = worked_example(["1:1", "1:6@E", "0:1@W", "2:1@N", "1:4@S"])
    view = view_for(game, 1)
    assert len(view.legal) >= 3
    assert GreedyPlayer().choose(view) == game.parse_move("3:0@W")


def test_greedy_sheds_the_heavier_tile_when_nothing_scores() -> None:
    # Spinner 1:1 with W, N and S empty: nothing counts, so Ольга lays her heaviest tile.
    game = worked_example(["1:1", "1:6@E"])
    view = view_for(game, 2)
    assert game.parse_move("0:1@W") in view.legal
    assert GreedyPlayer().choose(view) == game.parse_move("6:6@E")


def test_greedy_takes_the_muggins_count_over_a_heavier_tile() -> None:
    # 3:2 opens, 2:2 on E: W 3, E 2:2 (counts 4). 3:1@W counts 1 + 4 = 5 and scores 1;
    # the heavier 3:5@W counts 9 and scores nothing.
    game = Game.empty("muggins", NAMES[:2])
    first = [T(t) for t in ["3:2", "3:1", "5:3", "6:4", "6:5", "4:4", "6:6"]]
    second = [T(t) for t in ["2:2", "0:0", "1:0", "1:1", "2:0", "5:0", "5:1"]]
    used = set(first) | set(second)
    game.start_round(0, [first, second], [t for t in ALL_TILES if t not in used])
    game.push(game.parse_move("3:2"))
    game.push(game.parse_move("2:2@E"))
    view = view_for(game, 0)
    assert {game.parse_move("3:1@W"), game.parse_move("5:3@W")} <= set(view.legal)
    assert GreedyPlayer().choose(view) == game.parse_move("3:1@W")


# -- the expert's time cap ----------------------------------------------------------------


def worst_case_view() -> SeatView:
    """Four players of muggins opening a later round: seven tiles each, any opening."""
    game = Game.new("muggins", NAMES, seed=11)
    while game.round.number == 1:
        game.push(greedy_move_in(game))
    assert not game.round.table.ends
    return view_for(game, game.turn)


def test_expert_answers_within_the_time_cap() -> None:
    """The cap is kept on the clock it is given: a clock that moves 10 ms a reading lets a
    0.25 s cap take about 25 readings, not the rollouts a wall clock would allow. (How
    fast the expert answers on real time is bench/ai.py's to say, not a timed test's.)"""
    view = worst_case_view()
    readings = 0

    def clock() -> float:
        nonlocal readings
        readings += 1
        return readings * 0.01

    capped = ExpertPlayer(1, rollouts=None, time_cap=0.25, clock=clock)
    assert capped.choose(view) in view.legal
    assert 2 <= readings <= 25 + len(view.legal) + 2
    for player in (ExpertPlayer(1), ExpertPlayer(1, clock=time.perf_counter)):
        assert player.choose(view) in view.legal


def test_expert_needs_a_budget_it_can_keep() -> None:
    # The engine reads no clock: a time cap alone, with no clock to read it on, is no budget.
    with pytest.raises(ValueError, match="rollouts"):
        ExpertPlayer(1, rollouts=None, time_cap=0.4)


def test_expert_answers_even_when_the_cap_leaves_no_time() -> None:
    # A clock that jumps past the cap at once: the expert still answers, legally.
    ticks = iter(range(10**6))
    player = ExpertPlayer(1, rollouts=None, time_cap=0.5, clock=lambda: float(next(ticks)))
    view = worst_case_view()
    assert player.choose(view) in view.legal


# -- the determinization sampler -----------------------------------------------------------


def played_out(variant: str, players: int, seed: int, steps: int) -> Game:
    """A game played greedily for `steps` moves (draws and passes included) within round 1."""
    game = Game.new(variant, NAMES[:players], seed=seed)
    for _ in range(steps):
        before = len(game.rounds)
        move = greedy_move_in(game)
        game.push(move)
        if len(game.rounds) != before or game.over:
            return Game.new(variant, NAMES[:players], seed=seed)
    return game


def drawn_positions(count: int) -> list[tuple[str, int, int]]:
    return [(VARIANTS[i % len(VARIANTS)], 2 + i % 2, 500 + i) for i in range(count)]


@pytest.mark.parametrize(("variant", "players", "seed"), drawn_positions(24))
def test_sampled_worlds_respect_everything_public(variant: str, players: int, seed: int) -> None:
    rng = random.Random(seed)
    game = played_out(variant, players, seed, rng.randrange(8, 30))
    assert not game.over and game.turn is not None  # played_out deals afresh at a round's end
    for seat in range(players):
        view = view_for(game, seat)
        knowledge = knowledge_from_view(view)
        # The truth is one of the worlds the seat thinks possible; the game was
        # played greedily, so even what it read from the plays holds.
        hands, boneyard = hidden_tiles(game, seat)
        truth = World(tuple(tuple(h) for h in hands), tuple(boneyard))
        assert check_world(knowledge, truth, believe=True) == []
        for _ in range(20):
            world = sample_world(knowledge, rng)
            assert check_world(knowledge, world) == []
            assert [len(h) for s, h in enumerate(world.hands) if s != seat] == [
                n for s, n in enumerate(view.hand_sizes) if s != seat
            ]
            assert len(world.boneyard) == view.boneyard_size
            everything = [t for h in world.hands for t in h] + list(world.boneyard)
            everything += list(view.hand) + view.table.tiles()
            assert sorted(everything) == sorted(ALL_TILES)


def test_a_seat_that_drew_is_never_dealt_the_values_it_lacked() -> None:
    # Seat 1 cannot match the opening's 6 and 4 and draws until it can.
    game = Game.empty("fives", NAMES[:2])
    first = [T(t) for t in ["6:4", "6:6", "5:5", "4:4", "6:5", "6:3"]]
    second = [T(t) for t in ["0:0", "1:0", "1:1", "2:1", "2:2", "3:1"]]
    used = set(first) | set(second)
    boneyard = [T(t) for t in ["3:0", "2:0", "5:0", "6:0"]]
    boneyard += [t for t in ALL_TILES if t not in used and t not in boneyard]
    game.start_round(0, [first, second], boneyard)
    for text in ["6:4", "draw", "draw", "draw", "draw", "6:0@W"]:
        game.push(game.parse_move(text))
    view = view_for(game, 0)
    knowledge = knowledge_from_view(view)
    # Three drawn tiles stayed in the hand after the draws that followed them.
    assert [values_of(slot.lacks) for slot in knowledge.slots[1]] == [{4, 6}] * 9
    rng = random.Random(1)
    for _ in range(200):
        world = sample_world(knowledge, rng)
        assert not any(t.has(6) or t.has(4) for t in world.hands[1])


def test_the_determinized_game_plays_on_from_the_view() -> None:
    for variant, players, seed in positions(18):
        game = random_position(variant, players, seed)
        seat = game.turn
        assert seat is not None
        view = view_for(game, seat)
        knowledge = knowledge_from_view(view)
        # Half the moves were random, so what was read from play may be wrong; the
        # rules' certainties still hold for the truth and for every guess.
        hands, boneyard = hidden_tiles(game, seat)
        truth = World(tuple(tuple(h) for h in hands), tuple(boneyard))
        assert check_world(knowledge, truth) == []
        world = sample_world(knowledge, random.Random(seed))
        assert check_world(knowledge, world) == []
        guess = world_game(view, world)
        assert set(guess.legal_moves()) == set(view.legal)  # the view sorts the hand
        assert guess.totals == list(view.totals)
        assert view_for(guess, seat).hand == view.hand
        while guess.round.end is None:
            guess.push(greedy_move_in(guess))


def test_beliefs_that_cannot_all_hold_give_way_to_certainties() -> None:
    knowledge = knowledge_from_view(view_for(random_position("fives", 2, 3), 0))
    everything = (1 << len(ALL_TILES)) - 1
    opponent = 1 - knowledge.seat
    doubted = replace(
        knowledge,
        slots=tuple(
            tuple(Slot(slot.lacks, everything) for slot in slots) if seat == opponent else slots
            for seat, slots in enumerate(knowledge.slots)
        ),
    )
    world = sample_world(doubted, random.Random(1))
    assert check_world(doubted, world) == []
    assert check_world(doubted, world, believe=True) != []


# -- racing candidates -----------------------------------------------------------------------


def test_racing_drops_only_the_clearly_worse_candidates() -> None:
    noise = [random.Random(4).uniform(-1, 1) for _ in range(12)]
    values = [
        [5 + n for n in noise],  # the leader
        [5 + n + (0.3 if i % 2 else -0.3) for i, n in enumerate(noise)],  # level with it
        [1 + n for n in noise],  # always 4 behind
    ]
    assert race([0, 1, 2], values) == [0, 1]


# -- the rollout simulation agrees with the engine -----------------------------------------


def as_candidate(move: Move) -> tuple[tuple[Tile, int], ...]:
    if isinstance(move, Doubles):
        return tuple((p.tile, int(p.end)) for p in move.plays if p.end is not None)
    assert isinstance(move, Play)
    if move.end is None:
        return ((move.tile, -1 - (move.tile.high if move.west is None else move.west)),)
    return ((move.tile, int(move.end)),)


def sim_state(sim: Sim) -> tuple[object, ...]:
    return (
        sim.hands,
        sim.bone,
        sim.turn,
        sim.totals,
        sim.passed,
        sim.drew,
        sim.out,
        sim.end,
        sim.ends[: sim.nends],
        sim.occ[: sim.nends],
        sim.dbl[: sim.nends],
        sim.hub,
    )


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_simulation_follows_the_engine(variant: str) -> None:
    follow_the_engine(variant)


def follow_the_engine(variant: str, target: int | None = None, games: int = 40) -> None:
    """Random and greedy games played through the engine and the simulation alike: the
    same plays, the same greedy move, the same state and the same end after each move."""
    for seed in range(games):
        rng = random.Random(seed)
        players = 2 + seed % 3
        game = Game.new(variant, NAMES[:players], seed=seed, target=target)
        while not game.over:
            sim = Sim.from_game(game)
            legal = game.legal_moves()
            plays = [as_candidate(m) for m in legal if not isinstance(m, Draw | Pass)]
            assert sim.candidates() == plays
            greedy = greedy_move_in(game)
            stepped = sim.copy()
            stepped.greedy_step()
            expected = sim.copy()
            expected.apply(greedy)
            assert sim_state(stepped) == sim_state(expected)
            move = greedy if rng.random() < 0.5 else legal[rng.randrange(len(legal))]
            number = len(game.rounds)
            sim.apply(move)
            game.push(move)
            rnd = game.rounds[number - 1]
            assert sim.end == rnd.end
            if rnd.end is None:
                assert sim_state(sim) == sim_state(Sim.from_game(game))
            else:
                assert sim.totals == game.totals
                assert sim.match_over == game.over


def threat_by_laying(sim: Sim, candidate: tuple[tuple[Tile, int], ...]) -> float:
    """The careful seat's threat the slow way: lay the tile, list the scoring tiles, undo."""
    saved = sim._save()
    sim._lay(candidate)
    ends = sim.ends
    targets: set[Tile] = set()
    worth = 4
    if not sim.hub:
        worth = 2
        targets = {Tile(v, v) for v in ends[: sim.nends]}
    else:
        empty = [end for end in range(4) if not sim.occ[end]]
        if len(empty) <= 1:
            total = sum(ends)
            for end in empty or range(4):
                for other in range(7):
                    after = total - ends[end] + other
                    if after > 0 and after % 5 == 0:
                        targets.add(Tile(max(ends[end], other), min(ends[end], other)))
    sim._restore(saved)
    return sim._chance(targets, worth)


def fives_positions(games: int = 60) -> Iterator[tuple[Game, Sim]]:
    """Every position of fives games for 2-4 players, half greedy and half random play."""
    for seed in range(games):
        rng = random.Random(seed)
        game = Game.new("fives", NAMES[: 2 + seed % 3], seed=seed)
        while not game.over:
            yield game, Sim.from_game(game)
            legal = game.legal_moves()
            game.push(greedy_move_in(game) if rng.random() < 0.5 else rng.choice(legal))


def test_the_careful_seat_reads_the_threat_without_laying_the_tile() -> None:
    checked = 0
    for _, sim in fives_positions():
        for candidate in sim.candidates():
            assert sim._threat(candidate) == pytest.approx(threat_by_laying(sim, candidate))
            checked += 1
    assert checked > 1000


def careful_choice_the_slow_way(sim: Sim) -> tuple[tuple[Tile, int], ...]:
    """The careful seat's fives play by the whole key, threat taken off the points."""
    best: tuple[tuple[Tile, int], ...] | None = None
    best_key: tuple[float, int, int, int] | None = None
    for candidate in sim.candidates():
        key = sim.key(candidate)
        key = (key[0] - sim._threat(candidate), *key[1:])
        if best_key is None or key > best_key:
            best, best_key = candidate, key
    assert best is not None
    return best


@pytest.mark.parametrize("careful", [False, True])
def test_the_fast_fives_step_makes_the_move_the_whole_key_ranks_first(careful: bool) -> None:
    checked = 0
    for game, sim in fives_positions():
        sim.careful = sim.turn if careful else -1
        if sim.nends and len(sim.candidates()) > 1:
            expected = sim.copy()
            if careful:
                expected.make(careful_choice_the_slow_way(sim))
            else:
                expected.apply(greedy_move_in(game))
            stepped = sim.copy()
            stepped.greedy_step()
            assert sim_state(stepped) == sim_state(expected)
            checked += 1
    assert checked > 500


# -- the endgame solver ------------------------------------------------------------------------


def twolane_endgame() -> Sim:
    """twolane, nothing hidden: ends 6 and 1, seat 0 to play 6:3 or 1:4, seat 1 holds 3:0."""
    sim = Sim(ruleset("twolane"))
    sim.seats = 2
    sim.hands = [[T("6:3"), T("1:4")], [T("3:0")]]
    sim.totals = [0, 0]
    sim.ends = [6, 1, 0, 0]
    sim.nends = 2
    return sim


def test_the_endgame_solver_sees_past_the_greedy_move() -> None:
    # Greedy sheds the heavier 6:3, which lets 3:0 out first; 1:4 leaves seat 1 to pass
    # (10 penalties) and seat 0 goes out next turn.
    sim = twolane_endgame()
    heavy, light = Play(T("6:3"), End.W), Play(T("1:4"), End.E)
    greedy = sim.copy()
    greedy.greedy_step()
    assert greedy.hands[0] == [T("1:4")]
    assert is_endgame(sim, 0)
    values = solve(sim, 0, [heavy, light], outcome)
    assert values is not None
    assert values[1] > values[0]
    after = sim.copy()
    after.apply(light)
    after.play_out()
    assert after.totals == [0, 10] and after.out == [0]


def test_the_endgame_solver_gives_up_past_its_node_limit() -> None:
    sim = twolane_endgame()
    moves = [Play(T("6:3"), End.W), Play(T("1:4"), End.E)]
    assert solve(sim, 0, moves, outcome, limit=2) is None


def minimax(sim: Sim, seat: int) -> float:
    """The plain search the solver must agree with: every line, no pruning."""
    if sim.end is not None:
        return outcome(sim, seat)
    found = sim.candidates()
    if not found:
        child = sim.copy()
        child.pass_turn()
        return minimax(child, seat)
    results = []
    for candidate in found:
        child = sim.copy()
        child.make(candidate)
        results.append(minimax(child, seat))
    return max(results) if sim.turn == seat else min(results)


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_endgame_solver_finds_the_minimax_value(variant: str) -> None:
    checked = 0
    for seed in range(60):
        game = Game.new(variant, NAMES[:2], seed=seed)
        while not game.over and (game.round.boneyard or len(game.legal_moves()) < 2):
            game.push(greedy_move_in(game))
        if game.over or game.round.end is not None:
            continue
        sim = Sim.from_game(game)
        seat = game.turn
        assert seat is not None
        moves = [m for m in game.legal_moves() if isinstance(m, Play | Doubles)]
        values = solve(sim, seat, moves, outcome)
        if values is None:
            continue
        exact = []
        for move in moves:
            child = sim.copy()
            child.apply(move)
            exact.append(minimax(child, seat))
        # The best move's value is exact; the others' may be bounds no better than it.
        assert max(values) == pytest.approx(max(exact))
        best = values.index(max(values))
        assert exact[best] == pytest.approx(max(exact))
        checked += 1
    assert checked >= 3


def test_the_match_chance_favours_the_seat_that_needs_less() -> None:
    assert match_chance(10, 10) == 0
    assert match_chance(5, 20) == pytest.approx(-match_chance(20, 5))
    assert 0 < match_chance(20, 25) < match_chance(5, 10) < 1
    assert match_chance(30, 5) < match_chance(30, 20) < 0


def test_a_twolane_seat_is_believed_to_shed_its_heaviest_tile() -> None:
    # Seat 1 lays 6:1 on the opening 6:6 although 6:5 fitted and left it 6:1 to play.
    game = Game.empty("twolane", NAMES[:2])
    first = [T(t) for t in ["6:6", "0:0", "1:1", "2:2", "3:3"]]
    second = [T(t) for t in ["6:1", "6:5", "4:4", "5:5", "0:1"]]
    used = set(first) | set(second)
    game.start_round(0, [first, second], [t for t in ALL_TILES if t not in used])
    for text in ["6:6", "6:1@W"]:
        game.push(game.parse_move(text))
    knowledge = knowledge_from_view(view_for(game, 0))
    heavier = {T(t) for t in ["6:2", "6:3", "6:4", "6:5"]}  # not the lighter 6:0
    for slot in knowledge.slots[1]:
        shunned = {t for t in knowledge.unseen if not slot.allows(t)}
        assert shunned == heavier
