"""The callback data codec: round trips, the 64-byte limit, and data that is not ours."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.game.options import LobbyAction
from bot.game.service import new_game_id
from bot.storage.models import Match
from bot.telegram import callbacks as cb
from bot.telegram import keyboards
from engine import ALL_TILES, VARIANTS, End, Tile
from tests.bot.conftest import every_keyboard

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


hands = st.builds(cb.Hand, chat_ids, thread_ids, game_ids, versions)
chosen = picked.map(tuple)
hand_presses = st.one_of(
    st.builds(cb.TilePress, hands, tiles),
    st.builds(cb.EndPress, hands, tiles, st.sampled_from(list(End))),
    st.builds(cb.DrawPress, hands),
    st.builds(cb.PassPress, hands),
    st.builds(cb.DoublesPress, hands, chosen),
    st.builds(cb.LayDoublesPress, hands, chosen),
    st.builds(cb.BackPress, hands),
    st.builds(cb.HintPress, hands),
)


@st.composite
def lobby_presses(draw: st.DrawFn) -> cb.LobbyPress:
    action = draw(st.sampled_from(list(LobbyAction)))
    value = {
        LobbyAction.VARIANT: st.sampled_from(list(VARIANTS)),
        LobbyAction.TARGET: st.integers(1, 9999).map(str),
        LobbyAction.TIME: st.integers(1, 9999).map(str),
    }.get(action, st.just(""))
    return cb.LobbyPress(draw(game_ids), action, draw(value))


presses = st.one_of(
    lobby_presses(),
    st.builds(cb.StopPress, game_ids, st.booleans()),
    st.builds(cb.HandRequestPress, game_ids),
    st.builds(cb.RematchPress, game_ids),
    st.builds(cb.RulesPress, st.sampled_from(list(VARIANTS))),
    hand_presses,
)


@given(presses)
def test_every_press_round_trips_within_64_bytes(press: cb.Press) -> None:
    data = cb.encode(press)
    assert 1 <= len(data.encode()) <= cb.MAX_BYTES
    assert cb.decode(data) == press


# Buttons already in chats carry these: the wire format never changes.
HAND = cb.Hand(-1001234, 7, "abcd", 3)
ON_THE_WIRE = [
    ("L:abcd:ce:", cb.LobbyPress("abcd", LobbyAction.ADD_EASY)),
    ("L:abcd:cs:", cb.LobbyPress("abcd", LobbyAction.ADD_STRONG)),
    ("L:abcd:cr:", cb.LobbyPress("abcd", LobbyAction.REMOVE_COMPUTER)),
    ("L:abcd:lv:", cb.LobbyPress("abcd", LobbyAction.LEAVE)),
    ("L:abcd:st:", cb.LobbyPress("abcd", LobbyAction.START)),
    ("L:abcd:cx:", cb.LobbyPress("abcd", LobbyAction.CANCEL)),
    ("L:abcd:v:muggins", cb.LobbyPress("abcd", LobbyAction.VARIANT, "muggins")),
    ("L:abcd:t:50", cb.LobbyPress("abcd", LobbyAction.TARGET, "50")),
    ("L:abcd:tm:0", cb.LobbyPress("abcd", LobbyAction.TIME, "0")),
    ("S:abcd:0:y", cb.StopPress("abcd", True)),
    ("S:abcd:0:n", cb.StopPress("abcd", False)),
    ("H:abcd", cb.HandRequestPress("abcd")),
    ("RM:abcd", cb.RematchPress("abcd")),
    ("R:twolane", cb.RulesPress("twolane")),
    ("P:-1001234:7:abcd:3:64", cb.TilePress(HAND, Tile.of(6, 4))),
    ("E:-1001234:7:abcd:3:64W", cb.EndPress(HAND, Tile.of(6, 4), End.W)),
    ("D:-1001234:7:abcd:3:", cb.DrawPress(HAND)),
    ("X:-1001234:7:abcd:3:", cb.PassPress(HAND)),
    ("M:-1001234:7:abcd:3:-", cb.DoublesPress(HAND, ())),
    (
        "MC:-1001234:7:abcd:3:33W22E",
        cb.LayDoublesPress(HAND, ((Tile.of(3, 3), End.W), (Tile.of(2, 2), End.E))),
    ),
    ("B:-1001234:0:abcd:3:", cb.BackPress(cb.Hand(-1001234, None, "abcd", 3))),
    ("HI:-1001234:7:abcd:3:", cb.HintPress(HAND)),
]


@pytest.mark.parametrize(("data", "press"), ON_THE_WIRE, ids=[d for d, _ in ON_THE_WIRE])
def test_the_data_on_the_wire_stays_as_it_was(data: str, press: cb.Press) -> None:
    assert cb.decode(data) == press
    assert cb.encode(press) == data


def test_every_lobby_action_has_its_own_code() -> None:
    assert set(cb.LOBBY_CODES) == set(LobbyAction)
    assert len(set(cb.LOBBY_CODES.values())) == len(LobbyAction)
    # The domain's values are not the wire's: a code never decodes from a value.
    assert not set(cb.LOBBY_ACTIONS) & {action.value for action in LobbyAction}


def test_a_stop_button_from_before_still_decodes() -> None:
    # Stop buttons once carried the lobby's revision where a 0 stands now.
    assert cb.decode("S:abcd:12:y") == cb.StopPress("abcd", True)


def test_the_longest_hand_buttons_fit() -> None:
    four = tuple((Tile.of(n, n), end) for n, end in zip((6, 5, 4, 3), End, strict=True))
    for chat in (-BIGGEST_CHAT, -1009999999999, BIGGEST_CHAT):
        hand = cb.Hand(chat, BIGGEST_THREAD, "A" * 12, 99_999)
        for press in (
            cb.TilePress(hand, Tile.of(6, 6)),
            cb.EndPress(hand, Tile.of(6, 6), End.W),
            cb.DoublesPress(hand, four),
            cb.LayDoublesPress(hand, four),
            cb.HintPress(hand),
        ):
            assert len(cb.encode(press).encode()) <= cb.MAX_BYTES
            assert cb.decode(cb.encode(press)) == press


@given(st.text(max_size=80))
def test_anything_decodes_to_a_press_or_none(data: str) -> None:
    press = cb.decode(data)
    assert press is None or cb.encode(press).split(":")[0] == data.split(":")[0]


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
        cb.encode(cb.LobbyPress("a" * 70, LobbyAction.START))


def test_tiles_and_doubles_codes() -> None:
    for tile in ALL_TILES:
        assert cb.parse_tile(cb.tile_code(tile)) == tile
    assert cb.parse_tile("46") == cb.parse_tile("64")
    assert cb.parse_doubles("-") == ()
    assert cb.doubles_code(()) == "-"
    chosen = ((doubles[3], End.W), (doubles[2], End.E))
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
    # The biggest chat and topic ids: the longest data there is.
    made = every_keyboard("ru", -BIGGEST_CHAT, BIGGEST_THREAD)
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
