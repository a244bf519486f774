"""Random games played to the end: invariants after every action, and an independent referee.

`ENGINE_PROPERTY_SCALE=10` plays ten times as many games (the default keeps the
whole engine suite well under a minute).
"""

from __future__ import annotations

import dataclasses
import json
import os
import random
from collections.abc import Callable, Iterator
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import (
    ALL_TILES,
    DRAW,
    PASS,
    Doubles,
    End,
    Game,
    Move,
    Play,
    Ruleset,
    Tile,
    replay,
    summary,
    to_record,
    view_for,
)
from tests.engine.helpers import PLAYER_COUNTS, VARIANT_NAMES, all_tiles_once, names
from tests.engine.referee import Referee

SCALE = float(os.environ.get("ENGINE_PROPERTY_SCALE", "1"))


def examples(count: int) -> int:
    return max(1, int(count * SCALE))


games = st.tuples(
    st.sampled_from(VARIANT_NAMES),
    st.sampled_from(PLAYER_COUNTS),
    st.integers(0, 2**32 - 1),  # the deal
    st.integers(0, 2**32 - 1),  # the players' choices
    st.sampled_from([None, None, 1, 10, 40]),  # a fives lobby target
)


# What `games` draws: variant, players, the deal's seed, the choices' seed, a fives target.
Case = tuple[str, int, int, int, int | None]


def new_game(case: Case) -> tuple[Game, random.Random]:
    """The game a drawn case deals, and the generator of its players' choices."""
    variant, players, seed, choices, target = case
    game = Game.new(variant, names(players), seed, target if variant == "fives" else None)
    return game, random.Random(choices)


def play(
    game: Game,
    rng: random.Random,
    at: Callable[[Game], None] | None = None,
    often: float = 1.0,
) -> Iterator[Move]:
    """Play random legal moves to the end; yield each move just before it is made.

    `at` looks at the positions on the way: the first one and a share `often` of the
    others (the costly checks sample positions, so that many games fit in the time).
    """
    first = True
    while not game.over:
        if at is not None and (first or rng.random() < often):
            at(game)
        first = False
        yield rng.choice(game.legal_moves())


def written(game: Game, move: Move, rng: random.Random) -> Move | str:
    """The move itself, or (sometimes) its notation, as a player would type it.

    A play that fits one end only is then sometimes written without it, either way round.
    """
    roll = rng.random()
    if roll >= 0.3:
        return move
    if roll < 0.15 and isinstance(move, Play) and move.end is not None:
        fits = [end for end, value in game.round.table.open_ends() if move.tile.has(value)]
        if len(fits) == 1:
            tile = move.tile
            return f"{tile.high}:{tile.low}" if roll < 0.07 else f"{tile.low}:{tile.high}"
    return str(move)


# -- the referee ------------------------------------------------------------------------


@settings(max_examples=examples(400))
@given(games)
def test_random_games_follow_the_rules(case: Case):
    game, rng = new_game(case)
    referee = Referee(game)
    referee.check(game)
    for move in play(game, rng):
        version = game.version
        mover = game.turn
        given_move = written(game, move, rng)
        entry = game.push(
            game.parse_move(given_move) if isinstance(given_move, str) else given_move,
            seat=mover,
        )
        assert game.version == version + 1
        assert entry.seat == mover
        assert entry.points == referee.act(str(move)), f"{move} by seat {mover}"
        assert all_tiles_once(game)
        referee.check(game)
    assert game.legal_moves() == () and game.turn is None
    # the record of the finished game replays to the same result
    again = replay(json.loads(json.dumps(to_record(game))))
    assert summary(again) == summary(game)
    assert again.totals == game.totals == referee.totals


# -- refusals agree with legal_moves() -----------------------------------------------------


def candidates(game: Game, rng: random.Random) -> list[Move]:
    rnd = game.round
    hand = rnd.hands[rnd.turn]
    tiles = list(dict.fromkeys([*hand, *rng.sample(ALL_TILES, 6)]))
    found: list[Move] = [DRAW, PASS, *game.legal_moves()]
    for tile in tiles:
        found += [Play(tile, end) for end in End]
        found += [Play(tile, None, west) for west in {tile.high, tile.low}]
        found.append(Play(tile))
        # values built by hand: a W half on a play with an end means nothing
        found.append(Play(tile, rng.choice(list(End)), rng.choice([tile.high, tile.low, 9])))
    doubles = [t for t in ALL_TILES if t.is_double]
    for _ in range(6):
        chosen = rng.sample([*doubles, *[t for t in hand if t.is_double] * 2], rng.randint(1, 5))
        ends: list[End | None] = [rng.choice([*End, None]) for _ in chosen]
        plays = [Play(t, e) for t, e in zip(chosen, ends, strict=True)]
        found.append(Doubles.of(plays))
        found.append(Doubles(tuple(reversed(plays))))  # by hand, in no particular order
    for move in game.legal_moves():
        if isinstance(move, Doubles):
            found.append(Doubles(move.plays[::-1]))
    return found


def check_refusals(game: Game, rng: random.Random) -> None:
    legal = set(game.legal_moves())
    moves = candidates(game, rng)
    for move in moves:
        accepted = move in legal or game.resolve(move) in legal
        refusal = game.refusal(move)
        reason = game.explain(move)
        assert (refusal is None) == accepted, f"{move!r}: refusal() says {refusal!r}"
        assert (reason is None) == accepted, f"{move!r}: explain() says {reason!r}"
        if refusal is not None:
            assert refusal.code == reason.code
    before = game.to_json()
    for move in rng.sample(moves, 3):
        trial = game.copy()
        try:
            trial.push(move)
        except ValueError:
            assert move not in legal and game.resolve(move) not in legal
            assert trial.to_json() == before
        else:
            assert move in legal or game.resolve(move) in legal
            assert trial.version == game.version + 1
    assert game.to_json() == before


@settings(max_examples=examples(150))
@given(games)
def test_refusals_agree_with_legal_moves(case: Case):
    game, rng = new_game(case)
    for move in play(game, rng, at=lambda g: check_refusals(g, rng), often=0.06):
        game.push(move)
    check_refusals(game, rng)  # after the end: everything is refused


# -- stored state and what each seat sees -------------------------------------------------


def tiles_in(value: Any) -> Iterator[Tile]:
    """Every tile held anywhere inside a view (dataclasses, tuples, lists, dicts)."""
    if value is None or isinstance(value, int | str | Ruleset):  # a game's rules hold no tiles
        return
    if isinstance(value, Tile):
        yield value
    elif isinstance(value, list | tuple | set | frozenset):
        for item in value:
            yield from tiles_in(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from tiles_in(item)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for item in dataclasses.fields(value):
            yield from tiles_in(getattr(value, item.name))
    else:
        raise AssertionError(f"a view holds a {type(value).__name__}: look inside it too")


def check_state_and_views(game: Game) -> None:
    again = Game.from_json(json.loads(json.dumps(game.to_json())))
    assert again == game
    assert again.over == game.over  # kept up to date by push, worked out anew by from_json
    assert again.legal_moves() == game.legal_moves()
    assert again.round.table.open_ends() == game.round.table.open_ends()
    rnd = game.round
    table = set(rnd.table.tiles())
    hidden = set(rnd.boneyard)
    for seat in [None, *range(len(game.players))]:
        view = view_for(game, seat)
        own = set() if seat is None else set(rnd.hands[seat])
        assert set(view.hand) == own
        shown = set(tiles_in(dataclasses.replace(view, finished_rounds=())))
        assert shown <= table | own, f"seat {seat} sees {sorted(shown - table - own)}"
        assert not shown & hidden
        assert view.boneyard_size == len(rnd.boneyard)
        for past in view.finished_rounds:
            assert list(past.hands_left) == [tuple(h) for h in game.rounds[past.number - 1].hands]


@settings(max_examples=examples(150))
@given(games)
def test_state_round_trips_and_views_hide_other_hands(case: Case):
    game, rng = new_game(case)
    for move in play(game, rng, at=check_state_and_views, often=0.06):
        game.push(move)
    check_state_and_views(game)
