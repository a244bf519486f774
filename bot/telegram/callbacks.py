"""Callback data of every button: the wire codes, and the typed presses they decode to.

Telegram allows 1-64 bytes. Group buttons name the game; a lobby button names its
action and, for an option, the value it sets (not the lobby's revision: a press on
a lobby that has not caught up yet still does what its button said). Hand buttons
(in a private chat) also name the group chat and topic, and the game version they
were made for. The codes below are the wire format: buttons already in chats carry
them, so they never change. `encode` writes a press; `decode` reads one back, and
returns None for anything malformed; `hand_action` is the hand's domain action that a
hand press asks for (bot.game.hand_actions).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import assert_never

from bot.game import hand_actions as acts
from bot.game.options import LobbyAction
from engine import VARIANTS, End, Tile

MAX_BYTES = 64
GAME_ID = re.compile(r"^[A-Za-z0-9]{4,12}$")

# Kinds of button.
LOBBY = "L"  # arg: a lobby action's code; value: the option it sets
HAND_REQUEST = "H"  # "send me my hand"
STOP = "S"  # arg: "y" / "n"
REMATCH = "RM"
RULES = "R"  # arg: a variant
TILE = "P"  # arg: a tile, e.g. "64"
PLAY = "E"  # arg: a tile and an end, e.g. "64W"
DRAW = "D"
PASS = "X"
DOUBLES = "M"  # arg: the doubles picked so far, e.g. "33W22E" ("-" for none)
DOUBLES_PLAY = "MC"
BACK = "B"
HINT = "HI"  # practice games only: what the strong computer would play

# Each lobby action's code in callback data.
LOBBY_CODES = {
    LobbyAction.ADD_EASY: "ce",
    LobbyAction.ADD_STRONG: "cs",
    LobbyAction.REMOVE_COMPUTER: "cr",
    LobbyAction.LEAVE: "lv",
    LobbyAction.START: "st",
    LobbyAction.CANCEL: "cx",
    LobbyAction.VARIANT: "v",
    LobbyAction.TARGET: "t",
    LobbyAction.TIME: "tm",
}
LOBBY_ACTIONS = {code: action for action, code in LOBBY_CODES.items()}
GROUP_KINDS = {LOBBY, HAND_REQUEST, STOP, REMATCH}
PRIVATE_KINDS = {TILE, PLAY, DRAW, PASS, DOUBLES, DOUBLES_PLAY, BACK, HINT}

Picked = tuple[tuple[Tile, End], ...]  # doubles chosen so far, each with its end


# -- group buttons -----------------------------------------------------------------------


@dataclass(frozen=True)
class OnGroup:
    """A button under a group's message: the game it is for."""

    game_id: str


@dataclass(frozen=True)
class LobbyPress(OnGroup):
    action: LobbyAction
    value: str = ""  # an option's button: the value it sets


@dataclass(frozen=True)
class StopPress(OnGroup):
    """The answer to «End the game for everyone?»."""

    confirm: bool


class HandRequestPress(OnGroup):
    """«My tiles» under a board."""


class RematchPress(OnGroup):
    """«Rematch» under a final table."""


@dataclass(frozen=True)
class RulesPress:
    """A /rules message's button: show this game's rules."""

    variant: str


# -- hand buttons (in a player's private chat) -------------------------------------------


@dataclass(frozen=True)
class Hand:
    """The hand a button was on: where its game lives, and the version it was made for."""

    chat_id: int
    thread_id: int | None
    game_id: str
    version: int


@dataclass(frozen=True)
class OnHand:
    """A button under a hand: the hand it was on.

    A press from a hand that is no longer the one shown (an older version, another game)
    is refused before it can do anything.
    """

    hand: Hand


@dataclass(frozen=True)
class TilePress(OnHand):
    tile: Tile


@dataclass(frozen=True)
class EndPress(OnHand):
    """The end chosen for a tile that fits several."""

    tile: Tile
    end: End


class DrawPress(OnHand):
    """«Draw»."""


class PassPress(OnHand):
    """«Pass»."""


@dataclass(frozen=True)
class DoublesPress(OnHand):
    """muggins: a double picked (or unpicked) for laying several at once."""

    picked: Picked  # the selection this press makes


@dataclass(frozen=True)
class LayDoublesPress(OnHand):
    picked: Picked


class BackPress(OnHand):
    """Back from choosing an end or doubles to the tiles."""


class HintPress(OnHand):
    """«Hint» (practice games)."""


GroupPress = LobbyPress | StopPress | HandRequestPress | RematchPress
HandPress = (
    TilePress
    | EndPress
    | DrawPress
    | PassPress
    | DoublesPress
    | LayDoublesPress
    | BackPress
    | HintPress
)
Press = GroupPress | HandPress | RulesPress


# The hand buttons that carry nothing but their hand.
PLAIN: dict[str, Callable[[Hand], HandPress]] = {
    DRAW: DrawPress,
    PASS: PassPress,
    BACK: BackPress,
    HINT: HintPress,
}


def hand_action(press: HandPress, user_id: int) -> acts.AnyHandAction:
    """The hand action a hand button asks for, pressed by `user_id` (bot.game.hand_actions)."""
    hand = press.hand
    made_for = (hand.game_id, hand.version, user_id)
    match press:
        case TilePress(_, tile):
            return acts.PlayTile(*made_for, tile)
        case EndPress(_, tile, end):
            return acts.PlayTile(*made_for, tile, end)
        case DrawPress():
            return acts.DrawTile(*made_for)
        case PassPress():
            return acts.PassTurn(*made_for)
        case DoublesPress(_, picked):
            return acts.PickDoubles(*made_for, picked)
        case LayDoublesPress(_, picked):
            return acts.LayDoubles(*made_for, picked)
        case BackPress():
            return acts.ShowTiles(*made_for)
        case HintPress():
            return acts.AskHint(*made_for)
        case _:
            assert_never(press)


def encode(press: Press) -> str:
    """The callback data of a button making `press` (ValueError past Telegram's 64 bytes)."""
    match press:
        case RulesPress(variant):
            data = f"{RULES}:{variant}"
        case HandRequestPress(game_id):
            data = f"{HAND_REQUEST}:{game_id}"
        case RematchPress(game_id):
            data = f"{REMATCH}:{game_id}"
        case LobbyPress(game_id, action, value):
            data = f"{LOBBY}:{game_id}:{LOBBY_CODES[action]}:{value}"
        case StopPress(game_id, confirm):
            # The 0 stands where a lobby revision once was: old buttons still carry one.
            data = f"{STOP}:{game_id}:0:{'y' if confirm else 'n'}"
        case _:
            data = _encode_hand(press)
    if len(data.encode()) > MAX_BYTES:
        raise ValueError(f"callback data too long: {data!r}")
    return data


def _encode_hand(press: HandPress) -> str:
    match press:
        case TilePress(_, tile):
            kind, arg = TILE, tile_code(tile)
        case EndPress(_, tile, end):
            kind, arg = PLAY, f"{tile_code(tile)}{end}"
        case DrawPress():
            kind, arg = DRAW, ""
        case PassPress():
            kind, arg = PASS, ""
        case DoublesPress(_, picked):
            kind, arg = DOUBLES, doubles_code(picked)
        case LayDoublesPress(_, picked):
            kind, arg = DOUBLES_PLAY, doubles_code(picked)
        case BackPress():
            kind, arg = BACK, ""
        case HintPress():
            kind, arg = HINT, ""
        case _:
            assert_never(press)
    hand = press.hand
    return f"{kind}:{hand.chat_id}:{hand.thread_id or 0}:{hand.game_id}:{hand.version}:{arg}"


def decode(data: str | None) -> Press | None:
    """The press behind `data`, or None if it is not one of ours (or forged badly)."""
    if not data or len(data.encode()) > MAX_BYTES:
        return None
    parts = data.split(":")
    kind = parts[0]
    try:
        if kind == RULES and len(parts) == 2 and parts[1] in VARIANTS:
            return RulesPress(parts[1])
        if kind == HAND_REQUEST and len(parts) == 2 and GAME_ID.match(parts[1]):
            return HandRequestPress(parts[1])
        if kind == REMATCH and len(parts) == 2 and GAME_ID.match(parts[1]):
            return RematchPress(parts[1])
        if kind == LOBBY and len(parts) == 4 and GAME_ID.match(parts[1]):
            action = LOBBY_ACTIONS.get(parts[2])
            if action is not None and _valid_lobby_value(action, parts[3]):
                return LobbyPress(parts[1], action, parts[3])
            return None
        if kind == STOP and len(parts) == 4 and GAME_ID.match(parts[1]):
            int(parts[2])  # the version it once carried: a number, never read
            if parts[3] in ("y", "n"):
                return StopPress(parts[1], parts[3] == "y")
            return None
        if kind in PRIVATE_KINDS and len(parts) == 6 and GAME_ID.match(parts[3]):
            chat_id, thread, version = int(parts[1]), int(parts[2]), int(parts[4])
            return _hand_press(kind, Hand(chat_id, thread or None, parts[3], version), parts[5])
    except ValueError:
        return None
    return None


def _hand_press(kind: str, hand: Hand, arg: str) -> HandPress | None:
    if kind == TILE:
        tile = parse_tile(arg)
        return None if tile is None else TilePress(hand, tile)
    if kind == PLAY:
        tile = parse_tile(arg[:2])
        if tile is None or arg[2:] not in End.__members__:
            return None
        return EndPress(hand, tile, End[arg[2:]])
    if kind in (DOUBLES, DOUBLES_PLAY):
        picked = parse_doubles(arg)
        if picked is None:
            return None
        return DoublesPress(hand, picked) if kind == DOUBLES else LayDoublesPress(hand, picked)
    if arg != "":
        return None
    return PLAIN[kind](hand)


def _valid_lobby_value(action: LobbyAction, value: str) -> bool:
    if action is LobbyAction.VARIANT:
        return value in VARIANTS
    if action in (LobbyAction.TARGET, LobbyAction.TIME):
        return value.isdigit() and len(value) <= 4
    return value == ""


def tile_code(tile: Tile) -> str:
    return f"{tile.high}{tile.low}"


def parse_tile(code: str) -> Tile | None:
    if len(code) != 2 or not code.isdigit() or int(code[0]) > 6 or int(code[1]) > 6:
        return None
    return Tile.of(int(code[0]), int(code[1]))


def doubles_code(picked: Picked) -> str:
    return "".join(f"{tile_code(t)}{end}" for t, end in picked) or "-"


def parse_doubles(code: str) -> Picked | None:
    """`33W22E` -> ((3:3, W), (2:2, E)); "-" -> (); None if malformed."""
    if code == "-":
        return ()
    if len(code) % 3 or len(code) > 12:
        return None
    picked = []
    for i in range(0, len(code), 3):
        tile = parse_tile(code[i : i + 2])
        if tile is None or not tile.is_double or code[i + 2] not in End.__members__:
            return None
        picked.append((tile, End[code[i + 2]]))
    return tuple(picked)
