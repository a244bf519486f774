"""The callback data codec: round trips, the 64-byte limit, and data that is not ours."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.game.options import LobbyAction
from bot.game.service import new_game_id
from bot.i18n import translator
from bot.storage.models import Match, Seat
from bot.telegram import callbacks as cb
from bot.telegram import keyboards
from engine import ALL_TILES, VARIANTS, End, pack, view_for
from tests.bot.conftest import position

# Telegram chat ids have at most 52 significant bits; thread ids are message ids (32 bits).
BIGGEST_CHAT = 2**52 - 1
BIGGEST_THREAD = 2**31 - 1
PAYLOAD = re.compile(r"^[A-Za-z0-9_-]{1,64}$")

chat_ids = st.integers(-BIGGEST_CHAT, BIGGEST_CHAT).filter(lambda c: c != 0)
thread_ids = st.none() | st.integers(1, BIGGEST_THREAD)
game_ids = st.builds(new_game_id) | st.from_regex(r"\A[A-Za-z0-9]{4,12}\Z")
versions = st.integers(0, 99_999)
tiles = st.sampled_from(ALL_TILES)
doubles = [t for t in ALL_TILES if t.is_double]
picked = st.lists(
    st.tuples(st.sampled_from(doubles), st.sampled_from(list(End))),
    max_size=4,
    unique_by=lambda p: p[0],
)


def private_args(kind: str) -> st.SearchStrategy[str]:
    if kind == cb.TILE:
        return tiles.map(cb.tile_code)
    if kind == cb.PLAY:
        return st.builds(lambda t, e: f"{cb.tile_code(t)}{e}", tiles, st.sampled_from(list(End)))
    if kind in (cb.DOUBLES, cb.DOUBLES_PLAY):
        return picked.map(cb.doubles_code)
    return st.just("")


@st.composite
def callbacks(draw: st.DrawFn) -> cb.Callback:
    kind = draw(st.sampled_from(sorted(cb.GROUP_KINDS | cb.PRIVATE_KINDS | {cb.RULES})))
    if kind == cb.RULES:
        return cb.Callback(kind, arg=draw(st.sampled_from(list(VARIANTS))))
    if kind in (cb.HAND_REQUEST, cb.REMATCH):
        return cb.Callback(kind, draw(game_ids))
    if kind == cb.LOBBY:
        action = draw(st.sampled_from(list(LobbyAction)))
        value = {
            LobbyAction.VARIANT: st.sampled_from(list(VARIANTS)),
            LobbyAction.TARGET: st.integers(1, 9999).map(str),
            LobbyAction.TIME: st.integers(1, 9999).map(str),
        }.get(action, st.just(""))
        return cb.Callback(kind, draw(game_ids), arg=action.value, value=draw(value))
    if kind == cb.STOP:
        args = ("y", "n")
        return cb.Callback(kind, draw(game_ids), draw(versions), arg=draw(st.sampled_from(args)))
    return cb.Callback(
        kind,
        draw(game_ids),
        draw(versions),
        draw(chat_ids),
        draw(thread_ids),
        draw(private_args(kind)),
    )


@given(callbacks())
def test_every_button_round_trips_within_64_bytes(button: cb.Callback) -> None:
    data = button.encode()
    assert 1 <= len(data.encode()) <= cb.MAX_BYTES
    assert cb.decode(data) == button


@pytest.mark.parametrize("kind", sorted(cb.PRIVATE_KINDS))
def test_the_longest_hand_buttons_fit(kind: str) -> None:
    longest_arg = {
        cb.TILE: "66",
        cb.PLAY: "66W",
        cb.DOUBLES: "66W55E44N33S",
        cb.DOUBLES_PLAY: "66W55E44N33S",
    }.get(kind, "")
    for chat in (-BIGGEST_CHAT, -1009999999999, BIGGEST_CHAT):
        button = cb.Callback(kind, "A" * 12, 99_999, chat, BIGGEST_THREAD, longest_arg)
        assert len(button.encode().encode()) <= cb.MAX_BYTES
        assert cb.decode(button.encode()) == button


@given(st.text(max_size=80))
def test_anything_decodes_to_a_button_or_none(data: str) -> None:
    button = cb.decode(data)
    assert button is None or button.kind in cb.GROUP_KINDS | cb.PRIVATE_KINDS | {cb.RULES}


@pytest.mark.parametrize(
    "data",
    [
        None,
        "",
        "x",
        "L",
        "L:abcd",
        "L:abcd:st",
        "L:abc:st:",  # game id too short
        "L:abcdefghijklm:st:",  # too long
        "L:ab-cd:st:",
        "L:abcd:1:st",  # the old form, with the lobby's revision
        "L:abcd:nuke:",
        "L:abcd:st::more",
        "L:abcd:st:1",  # start takes no value
        "L:abcd:v:chess",
        "L:abcd:v:",
        "L:abcd:t:",
        "L:abcd:tm:ninety",
        "L:abcd:tm:99999",
        "S:abcd:0:maybe",
        "H:abcd:1",
        "H:ab_cd",
        "RM:",
        "R:chess",
        "R:fives:1",
        "P:-100:0:abcd:3",
        "P:-100:0:abcd:3:6",
        "P:-100:0:abcd:3:77",
        "P:-100:0:abcd:3:6a",
        "P:chat:0:abcd:3:64",
        "P:-100:x:abcd:3:64",
        "P:-100:0:abcd:v:64",
        "E:-100:0:abcd:3:64",
        "E:-100:0:abcd:3:64Q",
        "E:-100:0:abcd:3:6W",
        "D:-100:0:abcd:3:64",
        "X:-100:0:abcd:3:now",
        "B:-100:0:abcd:3:-",
        "M:-100:0:abcd:3:32W",  # not a double
        "M:-100:0:abcd:3:33",
        "M:-100:0:abcd:3:33W22E11N00S66W",  # five doubles
        "M:-100:0:abcd:3:33Z",
        "MC:-100:0:abcd:3:33W:1",
        "Q:-100:0:abcd:3:",
        "P:" + "1" * 70,
    ],
)
def test_garbage_and_forged_data_decode_to_none(data: str | None) -> None:
    assert cb.decode(data) is None


def test_data_over_64_bytes_is_refused_both_ways() -> None:
    assert cb.decode("L:" + "a" * 70 + ":st:") is None
    with pytest.raises(ValueError, match="too long"):
        cb.Callback(cb.LOBBY, "a" * 70, arg="st").encode()


def test_tiles_and_doubles_codes() -> None:
    for tile in ALL_TILES:
        assert cb.parse_tile(cb.tile_code(tile)) == tile
    assert cb.parse_tile("46") == cb.parse_tile("64")
    assert cb.parse_doubles("-") == []
    assert cb.doubles_code([]) == "-"
    chosen = [(doubles[3], End.W), (doubles[2], End.E)]
    assert cb.parse_doubles(cb.doubles_code(chosen)) == chosen


@given(chat_ids, thread_ids, game_ids)
def test_join_payloads_are_deep_link_safe_and_round_trip(
    chat: int, thread: int | None, game_id: str
) -> None:
    game = Match(id=game_id, chat_id=chat, thread_id=thread, creator_id=1)
    payload = keyboards.join_payload(game)
    assert PAYLOAD.match(payload)
    assert keyboards.parse_join_payload(payload) == (chat, thread, game_id)


def test_every_button_the_keyboards_make_decodes() -> None:
    tr = translator("ru")
    made = []
    for variant, hands, moves in (
        ("fives", ["6:5 6:2 1:0 4:3 1:1 0:0", "5:2 3:1 4:1 3:2 2:0 4:2"], ["6:5", "5:2@E"]),
        ("muggins", ["3:2 6:6 6:5 6:4 5:5 5:4 4:4", "3:3 2:2 1:0 0:0 6:0 1:1 4:0"], ["3:2"]),
        ("twolane", ["6:6 6:4 4:4 2:2 2:1", "5:3 0:0 1:0 6:0 5:5"], []),
    ):
        engine_game = position(variant, ["A", "B"], hands, moves=moves)
        game = Match(
            id=new_game_id(),
            chat_id=-BIGGEST_CHAT,
            thread_id=BIGGEST_THREAD,
            creator_id=1,
            variant=variant,  # type: ignore[arg-type]
            seats=[Seat(name="A", user_id=1), Seat(name="B", user_id=2)],
            status="playing",
            engine=pack(engine_game),
        )
        view = view_for(engine_game, engine_game.turn)
        made += [
            keyboards.lobby(game, tr, "domino_test_bot"),
            keyboards.board(game, tr),
            keyboards.final(game, tr),
            keyboards.stop_confirmation(game, tr),
            keyboards.rules(variant, tr),
            keyboards.hand(game, view, tr),
        ]
        for tile in view.hand:
            made.append(keyboards.ends_for(game, view, tile, tr))
        made.append(keyboards.doubles(game, view, [], tr))
        made.append(keyboards.doubles(game, view, [(doubles[3], End.W), (doubles[2], End.E)], tr))
    seen = 0
    for markup in made:
        for row in markup.inline_keyboard:
            for button in row:
                if button.callback_data is None:
                    assert button.url is not None and "start=j_" in button.url
                    continue
                data = str(button.callback_data)
                assert len(data.encode()) <= cb.MAX_BYTES
                assert cb.decode(data) is not None, data
                seen += 1
    assert seen > 40
