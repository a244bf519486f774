"""Callback data of every button: compact, self-describing, and never trusted.

Telegram allows 1-64 bytes. Group buttons name the game; a lobby button names its
action and, for an option, the value it sets (not the lobby's revision: a press on
a lobby that has not caught up yet still does what its button said). Hand buttons
(in a private chat) also name the group chat and topic, and the game version they
were made for. `decode` returns None for anything malformed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.game.options import LobbyAction
from engine import VARIANTS, End, Tile

MAX_BYTES = 64
GAME_ID = re.compile(r"^[A-Za-z0-9]{4,12}$")

# Kinds of button.
LOBBY = "L"  # arg: a LobbyAction's code; value: the option it sets
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

LOBBY_ACTIONS = tuple(action.value for action in LobbyAction)
GROUP_KINDS = {LOBBY, HAND_REQUEST, STOP, REMATCH}
PRIVATE_KINDS = {TILE, PLAY, DRAW, PASS, DOUBLES, DOUBLES_PLAY, BACK, HINT}


@dataclass(frozen=True)
class Callback:
    kind: str
    game_id: str = ""
    version: int = -1  # the lobby revision (group) or the game version (hand)
    chat_id: int = 0  # hand buttons: the group the game lives in
    thread_id: int | None = None
    arg: str = ""
    value: str = ""  # lobby options: the value the button sets

    @property
    def lobby_action(self) -> LobbyAction:
        return LobbyAction(self.arg)

    def encode(self) -> str:
        if self.kind == RULES:
            data = f"{RULES}:{self.arg}"
        elif self.kind in (HAND_REQUEST, REMATCH):
            data = f"{self.kind}:{self.game_id}"
        elif self.kind == LOBBY:
            data = f"{LOBBY}:{self.game_id}:{self.arg}:{self.value}"
        elif self.kind in GROUP_KINDS:
            data = f"{self.kind}:{self.game_id}:{self.version}:{self.arg}"
        else:
            where = f"{self.chat_id}:{self.thread_id or 0}:{self.game_id}:{self.version}"
            data = f"{self.kind}:{where}:{self.arg}"
        if len(data.encode()) > MAX_BYTES:
            raise ValueError(f"callback data too long: {data!r}")
        return data


def decode(data: str | None) -> Callback | None:
    """The button behind `data`, or None if it is not one of ours (or forged badly)."""
    if not data or len(data.encode()) > MAX_BYTES:
        return None
    parts = data.split(":")
    kind = parts[0]
    try:
        if kind == RULES and len(parts) == 2 and parts[1] in VARIANTS:
            return Callback(RULES, arg=parts[1])
        if kind in (HAND_REQUEST, REMATCH) and len(parts) == 2 and GAME_ID.match(parts[1]):
            return Callback(kind, game_id=parts[1])
        if kind == LOBBY and len(parts) == 4 and GAME_ID.match(parts[1]):
            if parts[2] in LOBBY_ACTIONS and _valid_lobby_value(LobbyAction(parts[2]), parts[3]):
                return Callback(LOBBY, parts[1], arg=parts[2], value=parts[3])
            return None
        if kind == STOP and len(parts) == 4 and GAME_ID.match(parts[1]):
            version = int(parts[2])
            if parts[3] in ("y", "n"):
                return Callback(kind, parts[1], version, arg=parts[3])
            return None
        if kind in PRIVATE_KINDS and len(parts) == 6 and GAME_ID.match(parts[3]):
            chat_id, thread, version = int(parts[1]), int(parts[2]), int(parts[4])
            arg = parts[5]
            if not _valid_private_arg(kind, arg):
                return None
            return Callback(kind, parts[3], version, chat_id, thread or None, arg)
    except ValueError:
        return None
    return None


def _valid_lobby_value(action: LobbyAction, value: str) -> bool:
    if action is LobbyAction.VARIANT:
        return value in VARIANTS
    if action in (LobbyAction.TARGET, LobbyAction.TIME):
        return value.isdigit() and len(value) <= 4
    return value == ""


def _valid_private_arg(kind: str, arg: str) -> bool:
    if kind == TILE:
        return parse_tile(arg) is not None
    if kind == PLAY:
        return parse_tile(arg[:2]) is not None and arg[2:] in End.__members__
    if kind in (DOUBLES, DOUBLES_PLAY):
        return parse_doubles(arg) is not None
    return arg == ""


def tile_code(tile: Tile) -> str:
    return f"{tile.high}{tile.low}"


def parse_tile(code: str) -> Tile | None:
    if len(code) != 2 or not code.isdigit() or int(code[0]) > 6 or int(code[1]) > 6:
        return None
    return Tile.of(int(code[0]), int(code[1]))


def doubles_code(picked: list[tuple[Tile, End]]) -> str:
    return "".join(f"{tile_code(t)}{end}" for t, end in picked) or "-"


def parse_doubles(code: str) -> list[tuple[Tile, End]] | None:
    """`33W22E` -> [(3:3, W), (2:2, E)]; "-" -> []; None if malformed."""
    if code == "-":
        return []
    if len(code) % 3 or len(code) > 12:
        return None
    picked = []
    for i in range(0, len(code), 3):
        tile = parse_tile(code[i : i + 2])
        if tile is None or not tile.is_double or code[i + 2] not in End.__members__:
            return None
        picked.append((tile, End[code[i + 2]]))
    return picked
