"""Hints: the strong computer's move, and a reason for it that is true of the position."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from functools import cache

import pytest

from bot.game.hints import HEAVY_PIPS, Hint, Reason, explain, hint_for
from bot.i18n import translator
from bot.telegram.hint_texts import ALERT_LIMIT, hint_line
from engine import ALL_TILES, Doubles, Draw, End, Game, Move, Pass, Play, Tile, view_for
from engine.ai import make_player
from tests.engine.helpers import VARIANT_NAMES, names, position

POSITIONS_PER_VARIANT = 150
# Long enough never to cut the expert's search short: its move is then a pure
# function of the seed and the view, and can be compared.
NO_CAP = 60.0


@cache
def positions(variant: str) -> tuple[Game, ...]:
    """Positions met in seeded games of greedy and random computers, a seat to act in each."""
    rng = random.Random(f"hints:{variant}")
    found: list[Game] = []
    while len(found) < POSITIONS_PER_VARIANT:
        game = Game.new(variant, names(rng.choice((2, 3, 4))), seed=rng.randrange(10**6))
        players = [make_player(rng.choice(("greedy", "random")), seed=s) for s in range(4)]
        while game.turn is not None and len(found) < POSITIONS_PER_VARIANT:
            seat = game.turn
            if rng.random() < 0.3:
                found.append(game.copy())
            game.push(players[seat].choose(view_for(game, seat)), seat=seat)
    return tuple(found)


def blocking_position() -> Game:
    """twolane: every 6 but those on the table is in seat 0's hand; 6:6 leaves 6 at both ends."""
    return position(
        "twolane", ["6:6 6:5 6:4 6:3 6:0", "0:0 1:1 5:5"], table="6:1 1:2@E 2:6@E", number=1
    )


def every_hint() -> Iterator[tuple[Game, Move, Hint]]:
    """Each legal move of each position, with the hint that explains it."""
    games = [game for variant in VARIANT_NAMES for game in positions(variant)]
    for game in [*games, blocking_position()]:
        seat = game.turn
        assert seat is not None
        view = view_for(game, seat)
        for move in view.legal:
            yield game, move, explain(view, move)


@cache
def all_hints() -> tuple[tuple[Game, Move, Hint], ...]:
    return tuple(every_hint())


def tiles_of(move: Move) -> list[Tile]:
    if isinstance(move, Play):
        return [move.tile]
    if isinstance(move, Doubles):
        return [p.tile for p in move.plays]
    return []


def unseen_by(game: Game, seat: int) -> list[tuple[int | None, Tile]]:
    """Every tile `seat` cannot see, with the seat holding it (None: the boneyard)."""
    rnd = game.round
    held: list[tuple[int | None, Tile]] = [
        (other, tile) for other, hand in enumerate(rnd.hands) if other != seat for tile in hand
    ]
    return held + [(None, tile) for tile in rnd.boneyard]


def scores_with(game: Game, holder: int | None, tile: Tile, end: End) -> int:
    """What the next player would score laying `tile` at `end` (given it, if need be)."""
    trial = game.copy()
    rnd = trial.round
    seat = rnd.turn if holder is None else holder
    if holder is None:  # a boneyard tile: hand it to the player to act
        rnd.boneyard.remove(tile)
        rnd.hands[seat].append(tile)
    rnd.turn = seat
    rnd.drew = False
    trial._legal = None
    return trial.push(Play(tile, end), seat=seat).points


def check_reason(game: Game, move: Move, hint: Hint) -> None:
    """Each claim a hint makes, checked against the engine playing the move."""
    seat = game.turn
    assert seat is not None
    view = view_for(game, seat)
    after = game.copy()
    index = len(after.rounds) - 1
    entry = after.push(move, seat=seat)
    rnd = after.rounds[index]  # a seeded game deals the next round at once
    laid = tiles_of(move)
    plays = [m for m in view.legal if isinstance(m, Play)]
    assert hint.move == move
    reason = hint.reason
    if reason is Reason.DRAW:
        assert isinstance(move, Draw) and not plays
    elif reason is Reason.PASS:
        assert isinstance(move, Pass) and not plays
        assert rnd.penalties[seat] - game.round.penalties[seat] == hint.penalty
    elif reason is Reason.GOES_OUT:
        assert rnd.hands[seat] == [] and seat in rnd.out
    elif reason is Reason.SCORES:
        assert hint.points == entry.points > 0
        terms = after.rules.count_terms(rnd.table)
        assert hint.terms == tuple(terms or ())
        if hint.spinner:
            assert game.variant == "fives" and rnd.table.hub_tile() is not None
            assert rnd.table.hub_tile().seq == rnd.table.moves  # type: ignore[union-attr]
    elif reason is Reason.ONLY_MOVE:
        assert {m.tile for m in plays} == set(laid)
        assert not any(isinstance(m, Doubles) for m in view.legal)
    elif reason is Reason.BLOCKS:
        values = {value for _, value in rnd.table.open_ends()}
        assert set(hint.pips) == values
        assert not any(t.has(v) for _, t in unseen_by(after, seat) for v in values)
    elif reason is Reason.SHEDS_DOUBLE:
        assert hint.tiles and all(t.is_double and t in laid for t in hint.tiles)
    elif reason is Reason.DENIES:
        assert after.rules.scores_plays
        others = [hand for other, hand in enumerate(rnd.hands) if other != seat and hand]
        assert all(len(hand) > 1 for hand in others)  # nobody goes out (and scores) next
        for holder, tile in unseen_by(after, seat):
            for end, value in rnd.table.open_ends():
                if tile.has(value):
                    assert scores_with(after, holder, tile, end) == 0, (tile, end)
    elif reason is Reason.FOLLOW_UP:
        (pip,) = hint.pips
        assert pip in {value for _, value in rnd.table.open_ends()}
        assert hint.tiles and all(t.has(pip) and t in rnd.hands[seat] for t in hint.tiles)
    elif reason is Reason.SHEDS_HEAVY:
        (tile,) = laid
        assert tile.pips >= HEAVY_PIPS and tile.pips == max(m.tile.pips for m in plays)
    else:
        assert reason is Reason.BEST


def check_end(game: Game, move: Move, hint: Hint) -> None:
    """The end is named exactly when the tile fits several, as its end button shows it."""
    view = view_for(game, game.turn)
    if not isinstance(move, Play):
        assert hint.end is None
        return
    ends = {m.end for m in view.legal if isinstance(m, Play) and m.tile == move.tile}
    if len(ends) > 1:
        assert move.end is not None and hint.end == move.end
        assert hint.end_value == dict(view.table.open_ends())[move.end]
    else:
        assert hint.end is None and hint.end_value is None


def test_each_reason_is_true_of_the_position() -> None:
    seen: set[Reason] = set()
    for game, move, hint in all_hints():
        check_reason(game, move, hint)
        check_end(game, move, hint)
        seen.add(hint.reason)
    # The sample reaches every reason, so each check above has run.
    assert seen == set(Reason)


def test_a_move_that_shuts_both_ends_blocks() -> None:
    game = blocking_position()
    hint = explain(view_for(game, 0), Play(Tile.of(6, 6), End.W))
    assert hint.reason is Reason.BLOCKS and hint.pips == (6,) and hint.end is End.W
    assert hint_line(translator("ru"), hint) == (
        "Сыграйте 6:6 на ⬅️ 6 — у соперников нет костей на 6"
    )


def test_explaining_leaves_the_game_unchanged() -> None:
    game = positions("muggins")[5]
    before = game.to_json()
    for move in view_for(game, game.turn).legal:
        explain(view_for(game, game.turn), move)
    assert game.to_json() == before


def chosen_positions(variant: str, count: int) -> list[Game]:
    """Positions with a real choice to make (the expert's search runs)."""
    found = [g for g in positions(variant) if len(view_for(g, g.turn).legal) > 2]
    return found[:count]


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_the_hint_is_the_experts_move(variant: str) -> None:
    for number, game in enumerate(chosen_positions(variant, 2)):
        seat = game.turn
        assert seat is not None
        before = game.to_json()
        hint = hint_for(game, seat, seed=number, time_cap=NO_CAP)
        expert = make_player("expert", seed=number, time_cap=None)
        assert hint.move == expert.choose(view_for(game, seat))
        assert hint.move in view_for(game, seat).legal
        assert hint == explain(view_for(game, seat), hint.move)
        assert game.to_json() == before


def test_a_hint_for_a_seat_not_to_act_is_refused() -> None:
    game = positions("fives")[0]
    assert game.turn is not None
    with pytest.raises(ValueError):
        hint_for(game, (game.turn + 1) % len(game.players), seed=1)


def reshuffled(game: Game, seat: int, seed: int) -> Game:
    """The same game as `seat` sees it, the hidden tiles dealt out again differently."""
    other = game.copy()
    rnd = other.round
    hidden = [tile for _, tile in unseen_by(game, seat)]
    random.Random(seed).shuffle(hidden)
    for holder, hand in enumerate(rnd.hands):
        if holder != seat:
            size = len(hand)
            hand[:] = hidden[:size]
            del hidden[:size]
    rnd.boneyard[:] = hidden
    other._legal = None
    return other


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_the_hint_never_depends_on_hidden_tiles(variant: str) -> None:
    game = chosen_positions(variant, 3)[-1]
    seat = game.turn
    assert seat is not None
    other = reshuffled(game, seat, seed=7)
    assert other.round.hands != game.round.hands or other.round.boneyard != game.round.boneyard
    assert view_for(other, seat) == view_for(game, seat)
    assert hint_for(other, seat, seed=3, time_cap=NO_CAP) == hint_for(
        game, seat, seed=3, time_cap=NO_CAP
    )


# -- the line shown --------------------------------------------------------

CYRILLIC = re.compile("[а-яё]", re.IGNORECASE)


def alert_length(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2  # how Telegram counts


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_every_line_fits_one_alert(lang: str) -> None:
    tr = translator(lang)
    for _, _, hint in all_hints():
        line = hint_line(tr, hint)
        assert alert_length(line) <= ALERT_LIMIT, line
        assert "\n" not in line and "<" not in line and "{" not in line, line
        assert bool(CYRILLIC.search(line)) == (lang == "ru"), line


def test_the_longest_lines_fit() -> None:
    doubles = Doubles.of(
        [Play(Tile.of(p, p), end) for p, end in zip(range(3, 7), End, strict=False)]
    )
    hint = Hint(doubles, Reason.SCORES, points=12, terms=(12, 10, 8, 6 + 24))
    for lang in ("ru", "en"):
        assert alert_length(hint_line(translator(lang), hint)) <= ALERT_LIMIT


FIVE_FIVE = Play(Tile.of(5, 5), End.W)


@pytest.mark.parametrize(
    ("points", "ru", "en"),
    [
        (1, "1 очко", "1 point"),
        (2, "2 очка", "2 points"),
        (5, "5 очков", "5 points"),
        (21, "21 очко", "21 points"),
        (12, "12 очков", "12 points"),
    ],
)
def test_points_have_the_right_plural(points: int, ru: str, en: str) -> None:
    hint = Hint(FIVE_FIVE, Reason.SCORES, End.W, 5, points=points, terms=(5, 5, 0, 0))
    ru_line = hint_line(translator("ru"), hint)
    assert ru_line == f"Сыграйте 5:5 на ⬅️ 5 — {ru}: концы 5+5+0+0 = 10"
    assert hint_line(translator("en"), hint) == f"Play 5:5 on ⬅️ 5 — {en}: the ends 5+5+0+0 = 10"


def test_the_lines_say_what_to_press() -> None:
    ru = translator("ru")
    assert hint_line(ru, Hint(Draw(), Reason.DRAW)) == "Берите из базара — ходить нечем"
    assert hint_line(ru, Hint(Pass(), Reason.PASS, penalty=10)) == (
        "Пасуйте — ходить нечем; пас стоит 10 штрафных очков"
    )
    six_six = Play(Tile.of(6, 6), End.E)
    shed = Hint(six_six, Reason.SHEDS_DOUBLE, tiles=(Tile.of(6, 6),))
    assert hint_line(ru, shed) == "Сыграйте 6:6 — избавляет от 6:6"
    spinner = Hint(six_six, Reason.SCORES, points=2, spinner=True)
    assert hint_line(ru, spinner) == "Сыграйте 6:6 — 2 очка за первый дубль"


def test_unseen_tiles_are_the_rest_of_the_set() -> None:
    game = positions("twolane")[3]
    seat = game.turn
    assert seat is not None
    seen = {*game.round.hands[seat], *game.round.table.tiles()}
    assert {t for _, t in unseen_by(game, seat)} == set(ALL_TILES) - seen
