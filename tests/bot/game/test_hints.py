"""Hints: the strong computer's move, and a reason for it that is true of the position."""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from dataclasses import replace
from functools import cache

import pytest

from bot.game.contrasts import Contrast, Measure, Other
from bot.game.hints import HEAVY_PIPS, Hint, Reason, explain, hint_for
from bot.i18n import translator
from bot.telegram.hint_texts import ALERT_LIMIT, hint_line
from engine import ALL_TILES, Doubles, Draw, End, Game, Move, Pass, Play, Round, Tile, view_for
from engine.ai import make_player
from tests.engine.helpers import VARIANT_NAMES, names, position

POSITIONS_PER_VARIANT = 150
# The names the hint's caller gives the ends (the player sees these on the buttons).
NAMES = {End.W: "⬅️", End.E: "➡️", End.N: "⬆️", End.S: "⬇️"}
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


def after_move(game: Game, move: Move) -> tuple[Game, Round, int]:
    """`game` with `move` made on a copy, the round it was made in, and the points it scored."""
    seat = game.turn
    assert seat is not None
    after = game.copy()
    index = len(after.rounds) - 1
    entry = after.push(move, seat=seat)
    return after, after.rounds[index], entry.points  # a seeded game deals the next round at once


def fits(tile: Tile, rnd: Round) -> bool:
    return any(tile.has(value) for _, value in rnd.table.open_ends())


def counts_after(game: Game, move: Play | Doubles) -> dict[Measure, int | None]:
    """Each count of `bot.game.contrasts`, taken by the engine making the move on a copy
    and looking at the hidden hands too (None: not worked out so)."""
    seat = game.turn
    assert seat is not None
    after, rnd, points = after_move(game, move)
    kept = [t for t in game.round.hands[seat] if t not in tiles_of(move)]
    hidden = unseen_by(after, seat)
    return {
        Measure.RISK: reply_risk(after, rnd, seat) if after.rules.scores_plays else 0,
        Measure.POINTS: points,
        Measure.BLOCKS: int(not any(fits(t, rnd) for _, t in hidden)),
        # Sure to hold nothing is at most holding nothing (checked as such below).
        Measure.STUCK: sum(
            1
            for other, hand in enumerate(rnd.hands)
            if other != seat and hand and not any(fits(t, rnd) for t in hand)
        ),
        Measure.FOLLOW_UPS: sum(1 for t in kept if fits(t, rnd)),
        Measure.OPEN_TO_OTHERS: sum(1 for _, t in hidden if fits(t, rnd)),
        Measure.PIPS_KEPT: sum(t.pips for t in kept),
        Measure.SUITS_KEPT: len({half for t in kept for half in t}),
    }


def reply_risk(after: Game, rnd: Round, seat: int) -> int | None:
    """The most one hidden tile scores laid next on some end (None: the round is over)."""
    if after.round is not rnd or rnd.end is not None or after.turn is None:
        return None
    best = 0
    for holder, tile in unseen_by(after, seat):
        for end, value in rnd.table.open_ends():
            if tile.has(value):
                best = max(best, scores_with(after, holder, tile, end))
    if after.rules.multi_doubles:
        best = max(best, doubles_reply(after, seat))
    return best


def doubles_reply(after: Game, seat: int) -> int:
    """muggins: the most hidden doubles laid together score next. They are handed to the
    player to act, and the engine says how he may lay them."""
    trial = after.copy()
    rnd = trial.round
    mover = rnd.turn
    doubles = {t for _, t in unseen_by(trial, seat) if t.is_double}
    for hand in rnd.hands:
        hand[:] = [t for t in hand if t not in doubles]
    rnd.boneyard[:] = [t for t in rnd.boneyard if t not in doubles]
    rnd.hands[mover].extend(sorted(doubles))
    rnd.drew = False
    trial._legal = None
    together = [m for m in trial.legal_moves() if isinstance(m, Doubles)]
    return max((trial.copy().push(m, seat=mover).points for m in together), default=0)


def check_figure(game: Game, measure: Measure, moves: list[Play | Doubles], figure: int) -> None:
    """`figure` is the best count among `moves` (a tile on each of its ends), by the engine."""
    found = [counts_after(game, move)[measure] for move in moves]
    if None in found:
        return
    known = [f for f in found if f is not None]
    if measure is Measure.STUCK:
        assert figure <= max(known)  # sure to be stuck is stuck
        return
    fewer = measure in (Measure.RISK, Measure.OPEN_TO_OTHERS, Measure.PIPS_KEPT)
    assert figure == (min(known) if fewer else max(known)), (measure, moves, known)


def same_tiles(move: Move) -> Callable[[Move], bool]:
    laid = set(tiles_of(move))
    return lambda other: isinstance(other, Play | Doubles) and set(tiles_of(other)) == laid


def check_contrast(game: Game, move: Play | Doubles, contrast: Contrast, by_end: bool) -> None:
    """A contrast's figures, the hinted move's and each other's, are the engine's; the move
    does better on the measure than each move named (SAME, EVEN: the same)."""
    view = view_for(game, game.turn)
    measure = contrast.measure
    for other in contrast.others:
        assert other.move in view.legal and other.move != move
        if by_end:
            assert isinstance(other.move, Play) and isinstance(move, Play)
            assert other.move.tile == move.tile and other.move.end != move.end
            assert other.end_value == dict(view.table.open_ends())[other.move.end]
        else:
            assert set(tiles_of(other.move)) != set(tiles_of(move))
        if measure in (Measure.SAME, Measure.EVEN):
            mine, theirs = counts_after(game, move), counts_after(game, other.move)
            assert mine[Measure.POINTS] == theirs[Measure.POINTS]
            assert mine[Measure.FOLLOW_UPS] == theirs[Measure.FOLLOW_UPS]
            if measure is Measure.SAME:
                before = view.table.open_ends()
                values = [
                    sorted(v for _, v in after_move(game, m)[1].table.open_ends())
                    for m in (move, other.move)
                ]
                assert values[0] == values[1] and len(values[0]) >= len(before)
            continue
        fewer = measure in (Measure.RISK, Measure.OPEN_TO_OTHERS, Measure.PIPS_KEPT)
        assert other.figure < contrast.figure if not fewer else other.figure > contrast.figure
        # A tile named stands for all its ends: its best one.
        group = [other.move] if by_end else [m for m in view.legal if same_tiles(other.move)(m)]
        check_figure(game, measure, group, other.figure)  # type: ignore[arg-type]
    if measure not in (Measure.SAME, Measure.EVEN):
        check_figure(game, measure, [move], contrast.figure)


def check_reason(game: Game, move: Move, hint: Hint) -> None:
    """Each claim a hint makes, checked against the engine playing the move."""
    seat = game.turn
    assert seat is not None
    view = view_for(game, seat)
    after, rnd, points = after_move(game, move)
    laid = tiles_of(move)
    plays = [m for m in view.legal if isinstance(m, Play)]
    choices = {(m.tile, m.end) if isinstance(m, Play) else m for m in view.legal}
    assert hint.move == move
    assert hint.only == (len(choices) == 1)  # an opening either way round is one choice
    reason = hint.reason
    if reason is Reason.DRAW:
        assert isinstance(move, Draw) and not plays
    elif reason is Reason.PASS:
        assert isinstance(move, Pass) and not plays
        assert rnd.penalties[seat] - game.round.penalties[seat] == hint.penalty
    elif reason is Reason.ONLY_MOVE:
        assert isinstance(move, Play) and hint.points == points
    elif reason is Reason.GOES_OUT:
        assert rnd.hands[seat] == [] and seat in rnd.out
    elif reason is Reason.SCORES:
        assert hint.points == points > 0
        terms = after.rules.count_terms(rnd.table)
        assert hint.terms == tuple(terms or ())
        if hint.spinner:
            assert game.variant == "fives" and rnd.table.hub_tile() is not None
            assert rnd.table.hub_tile().seq == rnd.table.moves  # type: ignore[union-attr]
    elif reason is Reason.ONLY_TILE:
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
        if after.rules.multi_doubles:
            assert doubles_reply(after, seat) == 0
        assert hint.contrast is not None and hint.contrast.measure is Measure.RISK
        assert hint.contrast.figure == 0 and hint.contrast.others[0].figure > 0
    elif reason is Reason.FOLLOW_UP:
        (pip,) = hint.pips
        assert pip in {value for _, value in rnd.table.open_ends()}
        assert hint.tiles and all(t.has(pip) and t in rnd.hands[seat] for t in hint.tiles)
    elif reason is Reason.SHEDS_HEAVY:
        (tile,) = laid
        assert tile.pips >= HEAVY_PIPS and tile.pips == max(m.tile.pips for m in plays)
    elif reason is Reason.BETTER:
        assert hint.contrast is not None and len(hint.contrast.others) == 1
    else:
        assert reason is Reason.LEAVES
        values = {value for _, value in rnd.table.open_ends()}
        assert set(hint.pips) == values
        kept = [t for t in game.round.hands[seat] if t not in laid]
        assert set(hint.tiles) == {t for t in kept if fits(t, rnd)}
    if hint.contrast is not None:
        assert isinstance(move, Play | Doubles)
        check_contrast(game, move, hint.contrast, by_end=False)
    if hint.end_contrast is not None:
        assert isinstance(move, Play)
        check_contrast(game, move, hint.end_contrast, by_end=True)


def check_end(game: Game, move: Move, hint: Hint) -> None:
    """The end is named exactly when the tile fits several, as its end button shows it."""
    view = view_for(game, game.turn)
    if not isinstance(move, Play) or hint.only:
        assert hint.end is None and hint.end_contrast is None
        return
    ends = {m.end for m in view.legal if isinstance(m, Play) and m.tile == move.tile}
    if len(ends) > 1:
        assert move.end is not None and hint.end == move.end
        assert hint.end_value == dict(view.table.open_ends())[move.end]
    else:
        assert hint.end is None and hint.end_value is None and hint.end_contrast is None


def test_each_reason_is_true_of_the_position() -> None:
    seen: set[Reason] = set()
    measures: set[tuple[bool, Measure]] = set()
    for game, move, hint in all_hints():
        check_reason(game, move, hint)
        check_end(game, move, hint)
        seen.add(hint.reason)
        measures |= {(False, hint.contrast.measure)} if hint.contrast else set()
        measures |= {(True, hint.end_contrast.measure)} if hint.end_contrast else set()
    # The sample reaches every reason and every count of either kind, so each check has run.
    assert seen == set(Reason)
    by_tile = {m for by_end, m in measures if not by_end}
    by_end = {m for by_end, m in measures if by_end}
    assert by_tile == {
        Measure.RISK,
        Measure.FOLLOW_UPS,
        Measure.OPEN_TO_OTHERS,
        Measure.PIPS_KEPT,
        Measure.SUITS_KEPT,
    }, by_tile
    assert by_end == set(Measure) - {Measure.PIPS_KEPT, Measure.SUITS_KEPT}, by_end


def test_a_move_that_shuts_both_ends_blocks() -> None:
    game = blocking_position()
    hint = explain(view_for(game, 0), Play(Tile.of(6, 6), End.W))
    assert hint.reason is Reason.BLOCKS and hint.pips == (6,) and hint.end is End.W
    assert hint_line(translator("ru"), hint, NAMES) == (
        "Сыграйте 6:6 на ⬅️ 6 — у соперников нет костей на 6; на ➡️ 6 концы вышли бы те же"
    )


def risky_end_position() -> Game:
    """muggins, ends 4 and 2, seat 0 holds 4:2 and 3:2. 4:2 on ⬅️ 4 leaves 2+2: only 3:2
    (his own) would make it count. On ➡️ 2 it leaves 4+4, and 6:4, which he cannot see,
    makes 10 there: +2 for an opponent."""
    return position("muggins", ["4:2 3:2 0:0", "6:6 5:5 5:0"], table="4:1 1:2@E")


def test_the_safe_end_is_named_with_what_the_other_would_open() -> None:
    view = view_for(risky_end_position(), 0)
    safe = explain(view, Play(Tile.of(4, 2), End.W))
    assert safe.end is End.W and safe.end_contrast is not None
    assert safe.end_contrast.measure is Measure.RISK and safe.end_contrast.figure == 0
    assert safe.end_contrast.others == (Other(Play(Tile.of(4, 2), End.E), 2, end_value=2),)
    # The names are the caller's: whatever the buttons call the ends.
    names = {End.W: "🔵⬅️", End.E: "🟠➡️"}
    line = hint_line(translator("ru"), safe, names)
    assert line.startswith("Сыграйте 4:2 на 🔵⬅️ 4 — "), line
    assert line.endswith("; на 🟠➡️ 2 сопернику открылось бы +2"), line
    english = hint_line(translator("en"), safe, names)
    assert english.endswith("; on 🟠➡️ 2 an opponent could score +2 next"), english
    # The other end is never said to be the safer one.
    risky = explain(view, Play(Tile.of(4, 2), End.E))
    assert risky.end_contrast is None or risky.end_contrast.measure is not Measure.RISK
    assert "открылось" not in hint_line(translator("ru"), risky, names)


def test_a_safe_tile_is_told_against_a_risky_one_with_the_number() -> None:
    view = view_for(risky_end_position(), 0)
    hint = explain(view, Play(Tile.of(4, 2), End.W))
    assert hint.reason is Reason.DENIES
    # 3:2 on ➡️ 2 leaves 4+3: 3:1 would make 5 (+1), 6:3 makes 10 (+2).
    assert hint.contrast == Contrast(Measure.RISK, 0, (Other(Play(Tile.of(3, 2), End.E), 2),))
    line = hint_line(translator("ru"), hint, NAMES)
    assert "— после 4:2 никто не наберёт сразу; после 3:2 — до +2;" in line, line


def only_move_positions() -> list[tuple[Game, str, str]]:
    """Positions with one thing to do, and the short hint for each, in Russian and English."""
    return [
        # twolane: 6:6 fits ⬅️ 6 only.
        (
            position("twolane", ["6:6 3:3 2:2", "5:5 4:4"], table="6:1"),
            "Единственный ход: 6:6.",
            "Only move: 6:6.",
        ),
        # muggins: 6:1 on ➡️ 1 makes 4+6 = 10.
        (
            position("muggins", ["6:1 3:3 2:2 0:0", "5:5 4:4"], table="4:1"),
            "Единственный ход: 6:1 (+2).",
            "Only move: 6:1 (+2).",
        ),
        # muggins' first round opens with 3:2 (either way round is one move): 5, +1.
        (
            position("muggins", ["3:2 6:6", "5:5 4:4"], number=1),
            "Единственный ход: 3:2 (+1).",
            "Only move: 3:2 (+1).",
        ),
        (
            position("fives", ["3:3 2:2", "5:5 4:4"], table="6:1", boneyard="5:4"),
            "Единственный ход: взять из базара.",
            "Only move: draw from the boneyard.",
        ),
        (
            position("twolane", ["3:3 2:2", "5:5 4:4"], table="6:1", drew=True),
            "Единственный ход: пас (штраф +10).",
            "Only move: pass (penalty +10).",
        ),
        (
            position("fives", ["3:3 2:2", "5:5 4:4"], table="6:1", rest_to=1),
            "Единственный ход: пас.",
            "Only move: pass.",
        ),
    ]


@pytest.mark.parametrize("number", range(6))
def test_the_only_move_is_told_in_short(number: int) -> None:
    game, ru, en = only_move_positions()[number]
    view = view_for(game, 0)
    hint = explain(view, view.legal[0])
    assert hint.only and hint.end is None
    assert hint_line(translator("ru"), hint, NAMES) == ru
    assert hint_line(translator("en"), hint, NAMES) == en


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


ALIKE = (Measure.SAME, Measure.EVEN)
# Longer names than today's arrows, as a colour and an arrow might be.
LONG_NAMES = {End.W: "🔵⬅️", End.E: "🟠➡️", End.N: "🟢⬆️", End.S: "🟣⬇️"}


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_every_line_fits_one_alert(lang: str) -> None:
    tr = translator(lang)
    for _, _, hint in all_hints():
        line = hint_line(tr, hint, LONG_NAMES)
        assert alert_length(line) <= ALERT_LIMIT and not line.endswith("…"), line  # nothing cut
        assert "\n" not in line and "<" not in line and "{" not in line, line
        assert bool(CYRILLIC.search(line)) == (lang == "ru"), line


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_no_hint_is_the_bare_computers_word(lang: str) -> None:
    """Every hint of every position sampled (each legal move of it) says something of the
    position, never only that the strong computer would play so; «единственный ход»
    is said once, and only when there is no other move."""
    tr = translator(lang)
    only = "Единственный ход" if lang == "ru" else "Only move"
    leaves = "оставляет на концах" if lang == "ru" else "on the ends, you hold"
    for _, _, hint in all_hints():
        line = hint_line(tr, hint, NAMES)
        assert not re.search("компьютер|computer", line, re.IGNORECASE), line
        assert line.count(only) == int(hint.only), line
        if not hint.only:
            move, reason = line.split(" — ", 1)
            assert reason.strip() and move.strip(), line
        # Where nothing about the tile stands out and no count favours its end, the
        # hint says what the move leaves, not only that the ends come to the same.
        ends = hint.end_contrast
        if hint.reason is Reason.LEAVES and (ends is None or ends.measure in ALIKE):
            assert leaves in line, line


def test_the_longest_lines_fit() -> None:
    doubles = Doubles.of(
        [Play(Tile.of(p, p), end) for p, end in zip(range(3, 7), End, strict=False)]
    )
    six_three = Play(Tile.of(6, 3), End.W)
    others = tuple(
        Other(Play(Tile.of(6, 3), end), 12, end_value=6) for end in (End.E, End.N, End.S)
    )
    risks = Contrast(Measure.RISK, 11, others)
    longest = [
        Hint(doubles, Reason.SCORES, points=12, terms=(12, 10, 8, 6 + 24)),
        Hint(six_three, Reason.SCORES, End.W, 6, 12, (12, 10, 8, 30), True, end_contrast=risks),
        Hint(
            six_three,
            Reason.FOLLOW_UP,
            End.W,
            6,
            tiles=(Tile.of(6, 6), Tile.of(6, 5), Tile.of(6, 4)),
            pips=(6,),
            end_contrast=replace(risks, measure=Measure.OPEN_TO_OTHERS, figure=10),
        ),
    ]
    for lang in ("ru", "en"):
        for hint in longest:
            line = hint_line(translator(lang), hint, LONG_NAMES)
            assert alert_length(line) <= ALERT_LIMIT and not line.endswith("…"), line


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
    ru_line = hint_line(translator("ru"), hint, NAMES)
    assert ru_line == f"Сыграйте 5:5 на ⬅️ 5 — {ru}: концы 5+5+0+0 = 10"
    english = hint_line(translator("en"), hint, NAMES)
    assert english == f"Play 5:5 on ⬅️ 5 — {en}: the ends 5+5+0+0 = 10"


def test_the_lines_say_what_to_press() -> None:
    ru = translator("ru")
    six_six = Play(Tile.of(6, 6), End.E)
    shed = Hint(six_six, Reason.SHEDS_DOUBLE, tiles=(Tile.of(6, 6),))
    assert hint_line(ru, shed, NAMES) == "Сыграйте 6:6 — избавляет от 6:6"
    spinner = Hint(six_six, Reason.SCORES, points=2, spinner=True)
    assert hint_line(ru, spinner, NAMES) == "Сыграйте 6:6 — 2 очка за первый дубль"
    doubles = Doubles.of([Play(Tile.of(3, 3), End.W), Play(Tile.of(2, 2), End.E)])
    laid = Hint(doubles, Reason.SHEDS_DOUBLE, tiles=(Tile.of(3, 3), Tile.of(2, 2)))
    assert hint_line(ru, laid, LONG_NAMES) == (
        "Выложите дубли сразу (🁣 Несколько дублей): 🔵⬅️ 3:3, 🟠➡️ 2:2 — избавляет от 3:3, 2:2"
    )


def test_unseen_tiles_are_the_rest_of_the_set() -> None:
    game = positions("twolane")[3]
    seat = game.turn
    assert seat is not None
    seen = {*game.round.hands[seat], *game.round.table.tiles()}
    assert {t for _, t in unseen_by(game, seat)} == set(ALL_TILES) - seen
