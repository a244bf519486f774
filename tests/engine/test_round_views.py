"""A finished round's view (`view_for(game, seat, r)` with r an earlier round) shows the
game as it stood when that round ended: its totals, standings and version, not today's."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Game, view_for
from engine.ai.greedy import greedy_move_in
from engine.results import standings
from tests.engine.helpers import PLAYER_COUNTS, VARIANT_NAMES, names
from tests.engine.test_properties import examples


def test_the_first_round_s_board_keeps_its_totals_once_round_2_scores():
    # Greedy players score early in fives: round 2's first points must not leak
    # into the picture of round 1.
    game = Game.new("fives", names(2), seed=3)
    at_end_of_round_1: tuple[int, ...] | None = None
    version_then = 0
    while not any(m.points for m in game.rounds[-1].moves) or len(game.rounds) < 2:
        game.push(greedy_move_in(game))
        if len(game.rounds) == 2 and at_end_of_round_1 is None:
            at_end_of_round_1, version_then = tuple(game.totals), game.version
    assert at_end_of_round_1 is not None and len(game.rounds) == 2
    assert tuple(game.totals) != at_end_of_round_1  # round 2 has scored

    past = view_for(game, None, 1)
    assert past.totals == at_end_of_round_1
    assert past.version == version_then
    assert not past.standings.finished and past.standings.winners == ()
    places = [1 + sum(other > mine for other in at_end_of_round_1) for mine in at_end_of_round_1]
    assert past.standings.places == tuple(places)
    assert [r.number for r in past.finished_rounds] == [1]
    assert past.round_points == tuple(game.rounds[0].points)
    assert past.moves == tuple(game.rounds[0].moves)
    assert past.turn is None and past.legal == ()

    now = view_for(game, None, 2)
    assert now == view_for(game)
    assert now.totals == tuple(game.totals) and now.standings == standings(game)


def cumulative(game: Game, rounds: int) -> tuple[int, ...]:
    """Each seat's points and penalties summed over the first `rounds` rounds."""
    return tuple(
        sum(rnd.points[seat] + rnd.penalties[seat] for rnd in game.rounds[:rounds])
        for seat in range(len(game.players))
    )


def check_round_views(game: Game) -> None:
    current = len(game.rounds)
    assert cumulative(game, current) == tuple(game.totals)
    for number in range(1, current + 1):
        for seat in (None, *range(len(game.players))):
            view = view_for(game, seat, number)
            rnd = game.rounds[number - 1]
            if number == current:
                assert view == view_for(game, seat)
                assert view.totals == tuple(game.totals)
                continue
            assert view.totals == cumulative(game, number)
            assert not view.standings.finished and view.turn is None and view.legal == ()
            assert view.round_number == number and view.moves == tuple(rnd.moves)
            assert view.round_points == tuple(rnd.points) and view.penalties == tuple(rnd.penalties)
            assert view.hand_sizes == tuple(len(hand) for hand in rnd.hands)
            assert view.boneyard_size == len(rnd.boneyard)
            assert view.table == rnd.table
            assert [r.number for r in view.finished_rounds] == list(range(1, number + 1))
            later = sum(len(r.moves) for r in game.rounds[number:])
            assert view.version == game.version - later


@settings(max_examples=examples(100))
@given(
    st.sampled_from(VARIANT_NAMES),
    st.sampled_from(PLAYER_COUNTS),
    st.integers(0, 2**32 - 1),
    st.integers(0, 2**32 - 1),
)
def test_every_finished_round_shows_the_totals_it_ended_with(
    variant: str, players: int, seed: int, choices: int
):
    game = Game.new(variant, names(players), seed)
    rng = random.Random(choices)
    seen_rounds = 1
    while not game.over:
        legal = game.legal_moves()
        game.push(greedy_move_in(game) if rng.random() < 0.5 else rng.choice(legal))
        if len(game.rounds) != seen_rounds or rng.random() < 0.02:
            seen_rounds = len(game.rounds)
            check_round_views(game)
    check_round_views(game)
