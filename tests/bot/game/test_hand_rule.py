"""The one rule of a hand (bot.game.hand_rule) as a plain function: every refusal, the
choice of ends, the doubles picker, back to the tiles, hints, and a property test that
its verdicts agree with the engine's legal moves. No Redis, no Telegram."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.game import hand_rule, play_rules
from bot.game.clock import Moment
from bot.game.hand_actions import (
    AnyHandAction,
    AskHint,
    DoublesChoice,
    DrawTile,
    EndChoice,
    LayDoubles,
    PassTurn,
    PickDoubles,
    Picked,
    PlayTile,
    ShowTiles,
    TileChoice,
    action_for,
)
from bot.game.hand_rule import HintWanted, decide
from bot.game.outcomes import Change, Refusal
from bot.i18n import translator
from bot.render import end_names
from bot.settings import Settings
from bot.storage.models import Match, Seat
from bot.telegram import callbacks as cb
from bot.telegram import keyboards
from bot.telegram.texts import REFUSALS
from engine import (
    ALL_ENDS,
    ALL_TILES,
    DRAW,
    PASS,
    VARIANTS,
    Doubles,
    End,
    Game,
    Move,
    Play,
    Tile,
    view_for,
)
from tests.bot.conftest import ANDREY_TO_ACT, MUGGINS_DOUBLES, NAMES, position

TOKEN = "123456:TEST-token-abcdefghijklmnopqrstuvwxyz123"
SETTINGS = Settings(_env_file=None, telegram_bot_token=TOKEN)  # type: ignore[call-arg]
ANDREY, IRINA, OLGA = 1, 2, 3  # user ids: seat n is user n + 1
GROUP, PRACTICE = -100, 1  # a group's chat id, and a private chat's (practice)
GAME = "game1"
TR = translator("ru")

# muggins: the same opening; of Ирина's doubles only 3:3 fits: nothing to lay it with.
MUGGINS_ONE_DOUBLE = position(
    "muggins",
    NAMES,
    ["3:2 6:6 6:5 6:4 5:5 5:4 4:4", "3:3 5:1 1:0 0:0 6:0 1:1 4:0"],
    moves=["3:2"],
)
# twolane: Ирина to open; Андрей will have nothing that fits her 5:3.
TWOLANE_OPENING = position(
    "twolane", NAMES, ["6:6 6:4 4:4 2:2 2:1", "5:3 0:0 1:0 6:0 5:5"], starter=1
)
TWOLANE_NOTHING_FITS = position(
    "twolane", NAMES, ["6:6 6:4 4:4 2:2 2:1", "5:3 0:0 1:0 6:0 5:5"], starter=1, moves=["5:3"]
)


def running(game: Game, chat_id: int = GROUP, **fields: Any) -> Match:
    """The match of `game` under way, seat n played by user n + 1."""
    match = Match(id=GAME, chat_id=chat_id, creator_id=ANDREY, status="playing")
    match.variant = game.variant  # type: ignore[assignment]
    match.seats = [Seat(name=name, user_id=n + 1) for n, name in enumerate(game.players)]
    return match.model_copy(update=fields, deep=True)


def t(text: str) -> Tile:
    return Tile.parse(text)


def made_for(game: Game, user: int) -> tuple[str, int, int]:
    """What every action names: the game, the version its player saw, who acts."""
    return (GAME, game.version, user)


# -- refusals ---------------------------------------------------------------------------------


def test_every_refusal_of_the_rule_itself() -> None:
    game = ANDREY_TO_ACT
    match = running(game)
    now = made_for(game, ANDREY)
    mine = PlayTile(*now, t("6:2"), End.W)
    computer = match.model_copy(deep=True)
    computer.seats[0].computer = True
    irina = made_for(game, IRINA)
    cases: list[tuple[Match | None, AnyHandAction, str]] = [
        (None, mine, "game_gone"),
        (match, dataclasses.replace(mine, game_id="other2"), "game_gone"),
        (match.model_copy(update={"status": "cancelled"}), mine, "game_gone"),
        (match.model_copy(update={"status": "lobby"}), mine, "game_gone"),
        (match.model_copy(update={"status": "over"}), mine, "game_over"),
        (match, dataclasses.replace(mine, user_id=OLGA), "not_in_game"),
        (
            match.model_copy(update={"status": "over"}),
            PlayTile(GAME, 9, OLGA, t("1:0")),
            "not_in_game",
        ),
        (match, dataclasses.replace(mine, version=game.version - 1), "stale_button"),
        (match, dataclasses.replace(mine, version=game.version + 1), "stale_button"),
        (computer, mine, "seat_is_computer"),
        (computer, ShowTiles(*now), "seat_is_computer"),
        # Every move and every choice is the seat to act's.
        (match, PlayTile(*irina, t("3:1")), "not_your_turn"),
        (match, PlayTile(*irina, t("3:1"), End.W), "not_your_turn"),
        (match, DrawTile(*irina), "not_your_turn"),
        (match, PassTurn(*irina), "not_your_turn"),
        (match, ShowTiles(*irina), "not_your_turn"),
        # Several doubles at once: muggins only, whoever asks.
        (match, PickDoubles(*now, ()), "one_tile_only"),
        (match, PickDoubles(*irina, ()), "one_tile_only"),
        (match, LayDoubles(*now, ((t("1:1"), End.W), (t("0:0"), End.E))), "one_tile_only"),
        # A hint: in practice, on one's turn.
        (match, AskHint(*now), "practice_only"),
        (running(game, PRACTICE), AskHint(*irina), "hint_not_now"),
        # A tile tapped without an end.
        (match, PlayTile(*now, t("3:3")), "not_in_hand"),
        (match, PlayTile(*now, t("1:0")), "does_not_fit"),
    ]
    verdicts = [decide(found, None if found is None else game, a) for found, a, _ in cases]
    assert verdicts == [Refusal(code) for _, _, code in cases]
    # Nothing of his fits (he must draw): a tile tapped does not fit.
    stuck = TWOLANE_NOTHING_FITS
    tapped = PlayTile(*made_for(stuck, ANDREY), t("6:6"))
    assert decide(running(stuck), stuck, tapped) == Refusal("does_not_fit")
    assert all(code in REFUSALS for _, _, code in cases)  # each has its words


def test_the_engine_says_why_a_move_is_not_allowed() -> None:
    """A move the rule lets through to the engine comes back with the engine's code, and
    its words for the logs."""

    def refused(game: Game, action: AnyHandAction) -> str:
        verdict = decide(running(game), game, action)
        assert isinstance(verdict, Refusal) and verdict.params["detail"], verdict
        assert verdict.code in REFUSALS
        return verdict.code

    andrey = made_for(ANDREY_TO_ACT, ANDREY)
    assert refused(ANDREY_TO_ACT, PlayTile(*andrey, t("6:2"), End.N)) == "no_such_end"
    assert refused(ANDREY_TO_ACT, PlayTile(*andrey, t("1:0"), End.W)) == "does_not_fit"
    assert refused(ANDREY_TO_ACT, PlayTile(*andrey, t("3:3"), End.W)) == "not_in_hand"
    assert refused(ANDREY_TO_ACT, DrawTile(*andrey)) == "can_play"
    assert refused(ANDREY_TO_ACT, PassTurn(*andrey)) == "can_play"
    stuck = made_for(TWOLANE_NOTHING_FITS, ANDREY)
    assert refused(TWOLANE_NOTHING_FITS, PassTurn(*stuck)) == "must_draw"
    opening = made_for(TWOLANE_OPENING, IRINA)
    assert refused(TWOLANE_OPENING, PlayTile(*opening, t("5:3"), End.W)) == "opening_end"
    irina = made_for(MUGGINS_DOUBLES, IRINA)
    three, two = (t("3:3"), End.W), (t("2:2"), End.E)
    assert refused(MUGGINS_DOUBLES, LayDoubles(*irina, (three,))) == "doubles_count"
    assert refused(MUGGINS_DOUBLES, LayDoubles(*irina, (three, (t("2:2"), End.W)))) == (
        "doubles_same_end"
    )
    assert refused(MUGGINS_DOUBLES, LayDoubles(*irina, (three, three))) == "doubles_repeat"
    assert refused(MUGGINS_DOUBLES, LayDoubles(*irina, (three, (t("6:6"), End.E)))) in (
        "not_in_hand",
        "does_not_fit",
    )
    assert refused(MUGGINS_DOUBLES, LayDoubles(*irina, (two, three, three, two, two))) in (
        "doubles_count",
        "doubles_repeat",
    )


# -- choices ----------------------------------------------------------------------------------


def test_a_tile_that_fits_two_ends_asks_which_naming_them_as_the_buttons() -> None:
    game, match = ANDREY_TO_ACT, running(ANDREY_TO_ACT)
    andrey = made_for(game, ANDREY)
    names = end_names(game.round.table, game.variant)
    choice = decide(match, game, PlayTile(*andrey, t("6:2")))
    assert choice == EndChoice(t("6:2"), (names[End.W], names[End.E]))
    assert isinstance(choice, EndChoice)
    assert [name.text for name in choice.ends] == ["🔵⬅️", "🟠➡️"]
    # The buttons offer exactly these ends, named so.
    view = view_for(game, 0)
    row = keyboards.ends_for(match, view, t("6:2"), TR).inline_keyboard[0]
    assert [b.text.split(" ")[0] for b in row] == [name.text for name in choice.ends]
    # Asking changes nothing; naming an end plays there.
    assert hand_rule.act(match, game, PlayTile(*andrey, t("6:2")), Moment(0), SETTINGS) == choice
    assert decide(match, game, PlayTile(*andrey, t("6:2"), End.E)) == play_rules.HandMove(
        0, Play(t("6:2"), End.E)
    )
    change = hand_rule.act(match, game, PlayTile(*andrey, t("6:2"), End.W), Moment(0), SETTINGS)
    assert isinstance(change, Change) and change.entries[0].text == "6:2@W"


def test_a_tile_that_fits_one_end_is_played_there_and_an_opening_either_way() -> None:
    before = Game.new("twolane", NAMES, seed=10)
    before.push(before.parse_move("5:2"))
    irina = made_for(before, IRINA)
    verdict = decide(running(before), before, PlayTile(*irina, t("6:2")))
    assert verdict == play_rules.HandMove(1, Play(t("6:2"), End.E))
    opening = made_for(TWOLANE_OPENING, IRINA)
    match = running(TWOLANE_OPENING)
    high = decide(match, TWOLANE_OPENING, PlayTile(*opening, t("5:3")))
    assert high == play_rules.HandMove(1, Play(t("5:3"), None, west=5))
    low = decide(match, TWOLANE_OPENING, PlayTile(*opening, t("5:3"), west=3))
    assert low == play_rules.HandMove(1, Play(t("5:3"), None, west=3))


def test_back_to_the_tiles_names_those_that_can_be_played() -> None:
    game = ANDREY_TO_ACT
    choice = decide(running(game), game, ShowTiles(*made_for(game, ANDREY)))
    assert choice == TileChoice((t("6:2"),))
    assert isinstance(choice, TileChoice)
    assert set(choice.playable) == keyboards.playable_tiles(view_for(game, 0))


def test_picking_doubles_offers_what_may_be_added() -> None:
    game, match = MUGGINS_DOUBLES, running(MUGGINS_DOUBLES)
    irina = made_for(game, IRINA)
    three, two = (t("3:3"), End.W), (t("2:2"), End.E)

    def pick(*picked: tuple[Tile, End]) -> object:
        return decide(match, game, PickDoubles(*irina, picked))

    assert pick() == DoublesChoice((), (three, two), False)
    assert pick(three) == DoublesChoice((three,), (two,), False)
    assert pick(two) == DoublesChoice((two,), (three,), False)
    assert pick(two, three) == DoublesChoice((two, three), (), True)
    assert decide(match, game, LayDoubles(*irina, (two, three))) == play_rules.HandMove(
        1, Doubles.of([Play(*three), Play(*two)])
    )
    # A pick no doubles move holds: the reason.
    assert pick((t("3:3"), End.E)) == Refusal("does_not_fit", detail="3:3 does not fit on E")
    refused = pick((t("6:6"), End.W))
    assert isinstance(refused, Refusal) and refused.code == "not_in_hand"
    refused = pick(three, three)
    assert isinstance(refused, Refusal) and refused.code == "doubles_repeat"
    assert pick((t("1:0"), End.W)) == Refusal("not_double")
    refused = pick(three, (t("2:2"), End.W))
    assert isinstance(refused, Refusal) and refused.code == "doubles_same_end"
    # Only the seat to act picks.
    andrey = made_for(game, ANDREY)
    assert decide(match, game, PickDoubles(*andrey, (three,))) == Refusal("not_your_turn")
    # Nothing to lay a double with: no doubles move now.
    alone = made_for(MUGGINS_ONE_DOUBLE, IRINA)
    one = running(MUGGINS_ONE_DOUBLE)
    assert decide(one, MUGGINS_ONE_DOUBLE, PickDoubles(*alone, ())) == Refusal("doubles_count")
    assert decide(one, MUGGINS_ONE_DOUBLE, PickDoubles(*alone, (three,))) == Refusal(
        "doubles_count"
    )


def test_a_hint_in_practice_on_ones_turn() -> None:
    game = ANDREY_TO_ACT
    practice = running(game, PRACTICE)
    andrey = made_for(game, ANDREY)
    assert decide(practice, game, AskHint(*andrey)) == HintWanted(0)
    assert hand_rule.act(practice, game, AskHint(*andrey), Moment(0), SETTINGS) == HintWanted(0)
    stale = AskHint(GAME, game.version - 1, ANDREY)
    assert decide(practice, game, stale) == Refusal("stale_button")


def test_a_press_decodes_to_its_action() -> None:
    hand = cb.Hand(GROUP, None, GAME, 7)
    three = (t("3:3"), End.W)
    presses = {
        cb.TilePress(hand, t("6:2")): PlayTile(GAME, 7, ANDREY, t("6:2")),
        cb.EndPress(hand, t("6:2"), End.E): PlayTile(GAME, 7, ANDREY, t("6:2"), End.E),
        cb.DrawPress(hand): DrawTile(GAME, 7, ANDREY),
        cb.PassPress(hand): PassTurn(GAME, 7, ANDREY),
        cb.DoublesPress(hand, (three,)): PickDoubles(GAME, 7, ANDREY, (three,)),
        cb.LayDoublesPress(hand, (three,)): LayDoubles(GAME, 7, ANDREY, (three,)),
        cb.BackPress(hand): ShowTiles(GAME, 7, ANDREY),
        cb.HintPress(hand): AskHint(GAME, 7, ANDREY),
    }
    for press, action in presses.items():
        assert cb.hand_action(press, ANDREY) == action
        # And the wire format is as it was.
        assert cb.decode(cb.encode(press)) == press


# -- the rule and the engine agree ------------------------------------------------------------


def every_action(game: Game, user: int) -> list[AnyHandAction]:
    """Every tile with and without each end (an opening either way round), draw, pass,
    back, hint, the doubles moves the engine allows and some it does not."""
    now = made_for(game, user)
    actions: list[AnyHandAction] = [DrawTile(*now), PassTurn(*now), ShowTiles(*now)]
    actions.append(AskHint(*now))
    for tile in ALL_TILES:
        actions.append(PlayTile(*now, tile))
        actions += [PlayTile(*now, tile, west=half) for half in {tile.high, tile.low}]
        actions += [PlayTile(*now, tile, end) for end in ALL_ENDS]
    rng = random.Random(game.version)
    doubles = [(tile, end) for tile in ALL_TILES if tile.is_double for end in ALL_ENDS]
    picks: list[Picked] = [tuple(rng.sample(doubles, rng.randint(1, 5))) for _ in range(12)]
    picks += [_pairs(m) for m in game.legal_moves() if isinstance(m, Doubles)]
    for picked in picks:
        actions += [PickDoubles(*now, picked), LayDoubles(*now, picked)]
    actions.append(PickDoubles(*now, ()))
    return actions


def _pairs(move: Doubles) -> Picked:
    return tuple((p.tile, p.end) for p in move.plays if p.end is not None)


def exact_move(action: AnyHandAction) -> Move | None:
    """The engine move an action names exactly, if it does."""
    match action:
        case PlayTile(tile=tile, end=end) if end is not None:
            return Play(tile, end)
        case LayDoubles(doubles=doubles):
            return Doubles.of([Play(tile, end) for tile, end in doubles])
        case DrawTile():
            return DRAW
        case PassTurn():
            return PASS
    return None


def reached_by_taps(match: Match, game: Game, user: int, move: Move) -> bool:
    """Whether the buttons' way reaches `move`: a tile, then its end if it asks; doubles
    picked one by one, then laid."""
    now = made_for(game, user)
    seat = game.turn
    assert seat is not None
    wanted = play_rules.HandMove(seat, move)
    if isinstance(move, Doubles):
        picked: Picked = ()
        for pair in _pairs(move):
            choice = decide(match, game, PickDoubles(*now, picked))
            if not isinstance(choice, DoublesChoice) or pair not in choice.addable:
                return False
            picked = (*picked, pair)
        choice = decide(match, game, PickDoubles(*now, picked))
        laid = decide(match, game, LayDoubles(*now, picked))
        return isinstance(choice, DoublesChoice) and choice.layable and laid == wanted
    if not isinstance(move, Play):
        tapped = DrawTile(*now) if move == DRAW else PassTurn(*now)
        return decide(match, game, tapped) == wanted
    if move.end is None:  # the opening: the higher half west by a tap, either way by name
        tapped = PlayTile(*now, move.tile, west=move.west)
        plain = decide(match, game, PlayTile(*now, move.tile))
        high = plain == play_rules.HandMove(seat, Play(move.tile, None, move.tile.high))
        return decide(match, game, tapped) == wanted and high
    verdict = decide(match, game, PlayTile(*now, move.tile))
    if isinstance(verdict, EndChoice):
        if move.end not in [name.end for name in verdict.ends]:
            return False
        verdict = decide(match, game, PlayTile(*now, move.tile, move.end))
    return verdict == wanted


def check_keyboards(match: Match, game: Game, seat: int) -> None:
    """The hand's keyboards offer what the rule allows: the ends of a tile that asks, the
    doubles that may be added to a pick (and the doubles move once it can be laid)."""
    view = view_for(game, seat)
    now = made_for(game, seat + 1)
    for tile in {m.tile for m in view.legal if isinstance(m, Play)}:
        choice = decide(match, game, PlayTile(*now, tile))
        if isinstance(choice, EndChoice):
            row = keyboards.ends_for(match, view, tile, TR).inline_keyboard[0]
            pressed = [cb.decode(str(b.callback_data)) for b in row]
            offered = [p.end for p in pressed if isinstance(p, cb.EndPress)]
            assert offered == [name.end for name in choice.ends]
    if not any(isinstance(m, Doubles) for m in view.legal):
        return
    picked: Picked = ()
    while True:
        choice = decide(match, game, PickDoubles(*now, picked))
        assert isinstance(choice, DoublesChoice)
        markup = keyboards.doubles(match, view, picked, TR)
        buttons = [b for row in markup.inline_keyboard for b in row]
        pressed = [cb.decode(str(b.callback_data)) for b in buttons]
        added = [
            p.picked[-1]
            for p in pressed
            if isinstance(p, cb.DoublesPress) and len(p.picked) == len(picked) + 1
        ]
        assert added == list(choice.addable)
        assert any(isinstance(p, cb.LayDoublesPress) for p in pressed) == choice.layable
        if not choice.addable:
            return
        picked = (*picked, choice.addable[0])


@settings(max_examples=150, deadline=None)
@given(
    variant=st.sampled_from(sorted(VARIANTS)),
    players=st.integers(2, 4),
    seed=st.integers(0, 2**32),
    moves=st.integers(0, 80),
    practice=st.booleans(),
)
def test_the_rule_agrees_with_the_engine(
    variant: str, players: int, seed: int, moves: int, practice: bool
) -> None:
    """Every move the rule makes is legal for the seat to act; every legal move of that
    seat is reached through actions; anyone else, or a stale version, is always refused."""
    game = Game.new(variant, [f"P{n}" for n in range(players)], seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if game.over:
            break
        game.push(rng.choice(game.legal_moves()))
    check_agreement(game, practice)


@settings(max_examples=60, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32))
def test_the_doubles_picker_agrees_with_the_engine(players: int, seed: int) -> None:
    """muggins with the doubles dealt first, so that laying several at once comes up often:
    the same checks wherever a doubles move is legal (random games rarely get there)."""
    rng = random.Random(seed)
    doubles = [tile for tile in ALL_TILES if tile.is_double and tile not in (t("3:3"), t("2:2"))]
    others = [tile for tile in ALL_TILES if not tile.is_double and tile != t("3:2")]
    rng.shuffle(doubles)
    rng.shuffle(others)
    rest = doubles + others
    hands = [[t("3:2")], [t("3:3"), t("2:2")]] + [[] for _ in range(players - 2)]
    for hand in hands:
        while len(hand) < 7:
            hand.append(rest.pop(0))
    game = position(
        "muggins",
        [f"P{n}" for n in range(players)],
        [" ".join(str(tile) for tile in hand) for hand in hands],
        moves=["3:2"],
    )
    checked = 0
    while not game.over and checked < 3:
        if any(isinstance(m, Doubles) for m in game.legal_moves()):
            check_agreement(game, practice=False)
            checked += 1
        game.push(rng.choice(game.legal_moves()))
    assert checked > 0


def check_agreement(game: Game, practice: bool) -> None:
    """The rule's verdict on every action at this position agrees with the engine."""
    match = running(game, PRACTICE if practice else GROUP)
    if game.over:
        match.status = "over"
        verdicts = [decide(match, game, a) for a in every_action(game, ANDREY)]
        assert set(verdicts) == {Refusal("game_over")}
        return
    seat = game.turn
    assert seat is not None
    legal = game.legal_moves()
    user = seat + 1
    for move in legal:
        asked = decide(match, game, action_for(*made_for(game, user), move))
        assert asked == play_rules.HandMove(seat, move), (move, asked)
        assert reached_by_taps(match, game, user, move), move
    combos = [set(_pairs(m)) for m in legal if isinstance(m, Doubles)]
    for action in every_action(game, user):
        verdict = decide(match, game, action)
        exact = exact_move(action)
        if isinstance(verdict, play_rules.HandMove):
            assert verdict.seat == seat and verdict.move in legal, (action, verdict)
            change = play_rules.play(match, game, verdict, Moment(0), SETTINGS)
            assert isinstance(change, Change), change  # the engine agrees
            if exact is not None:
                assert game.resolve(exact) == verdict.move
        elif isinstance(verdict, Refusal):
            assert verdict.code in REFUSALS, verdict
            if exact is not None:  # a move refused is one the engine refuses too
                assert game.refusal(exact, seat) is not None, (action, verdict)
            if isinstance(action, PlayTile) and action.end is None:
                assert not any(isinstance(m, Play) and m.tile == action.tile for m in legal)
            if isinstance(action, PickDoubles):
                assert not any(set(action.picked) <= combo for combo in combos) or len(
                    set(action.picked)
                ) < len(action.picked)
        elif isinstance(verdict, EndChoice):
            assert isinstance(action, PlayTile)
            fits = {m.end for m in legal if isinstance(m, Play) and m.tile == action.tile}
            assert {name.end for name in verdict.ends} == fits and len(fits) > 1
        elif isinstance(verdict, TileChoice):
            assert set(verdict.playable) == {m.tile for m in legal if isinstance(m, Play)}
        elif isinstance(verdict, DoublesChoice):
            picked = set(verdict.picked)
            assert any(picked <= combo for combo in combos)
            for pair in verdict.addable:
                assert any(picked | {pair} <= combo for combo in combos), pair
            assert verdict.layable == (picked in combos)
        else:
            assert isinstance(verdict, HintWanted)
            assert practice and verdict.seat == seat
    check_keyboards(match, game, seat)
    # Out of turn, or for another version: always refused.
    out_of_turn = {"not_your_turn", "one_tile_only", "practice_only", "hint_not_now"}
    for other in range(len(game.players)):
        if other == seat:
            continue
        for action in every_action(game, other + 1):
            verdict = decide(match, game, action)
            assert isinstance(verdict, Refusal) and verdict.code in out_of_turn, (action, verdict)
    for action in every_action(game, user)[::7]:
        for version in (game.version - 1, game.version + 1):
            stale = dataclasses.replace(action, version=version)
            assert decide(match, game, stale) == Refusal("stale_button")
