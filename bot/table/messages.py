"""What a table's WebSocket may say, read strictly: the hello that carries the init data,
then actions. Anything else is malformed, with a word saying how (for the refusal and one
log line); nothing here ever raises on what a client sends.

    {"type": "hello", "init_data": "<Telegram.WebApp.initData>", "game": "<game id>"}
    {"type": "action", "id": 7, "game": "<game id>", "action": "variant", "value": "muggins"}
    {"type": "action", "id": 8, "game": "<game id>", "action": "play", "value": "6:4@W",
     "version": 41}

The hello's `game` (optional) names the game when the init data has no start parameter
(a private chat's `web_app` button). `id` is the client's own number for the answer
(`done` or `refused` carry it back);
`version` is the view version the action was made for: a hand action must carry it and
is refused when it is stale, as a stale button is; a lobby press may leave it out and
works on any lobby revision it still makes sense on (bot.game.lobby).

A hand action's value is read here too (`read_play`, `read_doubles`): a tile in the
engine's notation, its end by letter ("6:4@W"; the opening has none: "6:4"); muggins'
doubles as such plays joined by commas ("6:6@N,5:5@S"); draw, pass and hint take none.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from engine import End, Tile
from engine.errors import NotationError

MAX_MESSAGE = 8 * 1024  # bytes of one message (the hello's init data is under 1 KB)
MAX_DEPTH = 3  # nesting of a message's JSON: an object of plain values is 1 deep
GAME_ID_LENGTH = 16

MAX_VALUE = 32  # characters of a value: four doubles with their ends take 23

# The lobby's presses, then the hand's actions (each with its own value, read below).
LOBBY_ACTIONS = frozenset(
    {
        "join",
        "leave",
        "start",
        "cancel",
        "add_easy",
        "add_strong",
        "remove_computer",
        "variant",
        "target",
        "time",
        "rematch",  # the final table's: a new lobby with the same seats, as the group's button
    }
)
HAND_ACTIONS = frozenset({"play", "doubles", "draw", "pass", "hint"})
ACTIONS = LOBBY_ACTIONS | HAND_ACTIONS

Picked = tuple[tuple[Tile, End], ...]


@dataclass(frozen=True)
class Hello:
    init_data: str
    game: str = ""  # the game a private chat's web_app button names (no start parameter)


@dataclass(frozen=True)
class Action:
    id: int | None
    game: str
    action: str
    value: str
    version: int | None


@dataclass(frozen=True)
class Malformed:
    """A message that is none of the above; `reason` is one of: not_json, too_deep,
    not_an_object, unknown_type, unknown_action, bad_field."""

    reason: str
    id: int | None = None


def read_message(text: str) -> Hello | Action | Malformed:
    try:
        data = json.loads(text)
    except RecursionError:  # nested beyond the parser's own limit
        return Malformed("too_deep")
    except ValueError:
        return Malformed("not_json")
    if _depth(data) > MAX_DEPTH:
        return Malformed("too_deep")
    if not isinstance(data, dict):
        return Malformed("not_an_object")
    kind = data.get("type")
    if kind == "hello":
        init_data, named = data.get("init_data"), data.get("game", "")
        if not isinstance(init_data, str) or not isinstance(named, str):
            return Malformed("bad_field")
        return Hello(init_data, named) if len(named) <= GAME_ID_LENGTH else Malformed("bad_field")
    if kind != "action":
        return Malformed("unknown_type")
    ask_id = data.get("id")
    if not _small_int(ask_id):
        ask_id = None
    action, game, value, version = (data.get(k) for k in ("action", "game", "value", "version"))
    if action not in ACTIONS:
        return Malformed("unknown_action", ask_id)
    if not isinstance(game, str) or not 0 < len(game) <= GAME_ID_LENGTH:
        return Malformed("bad_field", ask_id)
    if value is None:
        value = ""
    if not isinstance(value, str | int) or isinstance(value, bool) or len(str(value)) > MAX_VALUE:
        return Malformed("bad_field", ask_id)
    if version is not None and not _small_int(version):
        return Malformed("bad_field", ask_id)
    if action in HAND_ACTIONS and (version is None or not _hand_value_reads(action, str(value))):
        return Malformed("bad_field", ask_id)
    return Action(ask_id, game, str(action), str(value), version)


def read_play(value: str) -> tuple[Tile, End | None] | None:
    """A play's tile and end ("6:4@W"; the opening's "6:4" has none); None if unreadable."""
    tile_text, at, end_text = value.partition("@")
    try:
        tile = Tile.parse(tile_text) if tile_text == tile_text.strip() else None
        end = End.parse(end_text) if at else None
    except NotationError:
        return None
    return None if tile is None else (tile, end)


def read_doubles(value: str) -> Picked | None:
    """muggins' doubles, each with its end ("6:6@N,5:5@S"); None if unreadable. Which of
    them may go together is the rule's to say."""
    picked = []
    for part in value.split(","):
        play = read_play(part)
        if play is None or play[1] is None:
            return None
        picked.append((play[0], play[1]))
    return tuple(picked) if 2 <= len(picked) <= 4 else None


def _hand_value_reads(action: str, value: str) -> bool:
    if action == "play":
        return read_play(value) is not None
    if action == "doubles":
        return read_doubles(value) is not None
    return value == ""  # draw, pass and hint take no value


def _small_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 2**53


def _depth(value: Any, room: int = MAX_DEPTH + 1) -> int:
    """How deep `value` nests (a plain value: 0, an object of plain values: 1), counted no
    further than `room` levels (enough to tell it is too deep)."""
    if not isinstance(value, dict | list):
        return 0
    if room <= 1:
        return 1
    inner = value.values() if isinstance(value, dict) else value
    return 1 + max((_depth(item, room - 1) for item in inner), default=0)
