"""A game as a small, append-only text: what the bot stores, and how it is read back.

The text is lines joined by "\\n" (nothing else ends a line, so names may hold any
character):

    [1,"fives",25,1234,["Андрей","Ирина"]]    format, variant, target, seed, players
    1 09eodp6r2jc4k3a1bh85ngilf7mq            round 1: starter, space, the deal
    66 d d 62W 64E 45E 55E 63N                round 1: its moves
    2 9end2m4gbphakrj1q5fl0c76i3o8            round 2: starter, space, the deal
                                              round 2: no move yet

The deal is 28 characters, one per tile (its index in `ALL_TILES`): the hands in
seat order, then the boneyard, as dealt. It is stored rather than dealt again
from the seed, so a later change of the dealing code cannot change a stored
game. Each move keeps its `MoveEntry.text` exactly, record notation spelt short
(`6:2@W` is `62W`, `2:6@W` is `26W`, the opening `6:6` is `66`, `3:3@W+2:2@E`
is `33W+22E`, `draw` and `pass` are `d` and `p`); any other text is kept as it
is, or, if it holds a space or a line end (a record may write `" 3:2 "`), could
be read as a short spelling or starts with `"`, as a JSON string with its spaces
written `\\u0020`. Each text has that one spelling: `unpack` refuses any other
(`6:2@W` for `62W`), so a text reads back only as the game that wrote it.

Each action only adds to the end: a move adds ` move` (or `move` to a round
with none yet), a new deal adds its two lines. So `pack` after `game.push`
starts with the `pack` before it, and `catch_up` replays only what was added.
"""

from __future__ import annotations

import json
from dataclasses import fields
from typing import Any

from engine.errors import NewerFormatError, StateError
from engine.game import Game, Round
from engine.tiles import ALL_TILES, Tile

FORMAT = 1
# One character per tile, in the order of ALL_TILES (0:0, 1:0, 1:1, 2:0, ...).
TILE_CHARS = "0123456789abcdefghijklmnopqr"
_CHAR_OF: dict[Tile, str] = dict(zip(ALL_TILES, TILE_CHARS, strict=True))
_TILE_OF: dict[str, Tile] = dict(zip(TILE_CHARS, ALL_TILES, strict=True))
_SEATS = "0123"
DEAL_LINE = 2 + len(ALL_TILES)  # starter, space, the deal
# Record notation spelt short, a bijection of texts: `6:2@W` is `62W`, the
# opening `3:2` is `32`, `draw` and `pass` are `d` and `p` (a fives match
# comes out at about 60% of the size it has with the texts as they are).
_SHORT: dict[str, str] = {
    "draw": "d",
    "pass": "p",
    **{f"{a}:{b}": f"{a}{b}" for a in range(7) for b in range(7)},
    **{f"{a}:{b}@{end}": f"{a}{b}{end}" for a in range(7) for b in range(7) for end in "WENS"},
}
_LONG: dict[str, str] = {short: text for text, short in _SHORT.items()}


# -- writing -----------------------------------------------------------------------------


def pack(game: Game) -> str:
    """The game as text (see the module's docstring); `unpack` reads it back."""
    lines = [_header(game)]
    for rnd in game.rounds:
        lines.append(_deal_line(game, rnd))
        lines.append(" ".join([_token(entry.text) for entry in rnd.moves]))
    return "\n".join(lines)


def _header(game: Game) -> str:
    return _dump([FORMAT, game.variant, game.target, game.seed, game.players])


def _dump(value: Any) -> str:
    """Compact JSON, on one line; UTF-8 as is where it can be (a Cyrillic letter takes
    two bytes, not the six of `\\u0418`), all-ASCII escapes for text that cannot be
    encoded (a lone surrogate)."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    try:
        text.encode()
    except UnicodeEncodeError:
        text = json.dumps(value, separators=(",", ":"))
    return text


def _deal_line(game: Game, rnd: Round) -> str:
    dealt = [tile for hand in rnd.dealt for tile in hand] + rnd.dealt_boneyard
    size = game.rules.hand_size(len(game.players))
    # A round set up mid-way (a test's position) has no whole deal to store.
    if len(dealt) != len(ALL_TILES) or any(len(hand) != size for hand in rnd.dealt):
        raise StateError(f"round {rnd.number}: its deal is not the whole set, cannot pack it")
    return f"{rnd.starter} " + "".join([_CHAR_OF[tile] for tile in dealt])


def _token(text: str) -> str:
    """A move's text as one word without spaces: short if it is in record notation."""
    short = _respell(text, _SHORT)
    if short is not None:
        return short
    if _plain(text):
        return text
    # JSON writes a line end as \n but leaves spaces alone; no escape holds a space.
    return _dump(text).replace(" ", "\\u0020")


def _plain(text: str) -> bool:
    """Whether `text` can stand as it is: one word, not to be read as anything else."""
    return (
        bool(text)
        and " " not in text
        and "\n" not in text
        and text[0] != '"'
        and _respell(text, _LONG) is None  # not a short spelling
    )


def _respell(text: str, table: dict[str, str]) -> str | None:
    """`text` looked up in `table`, a doubles move part by part; None if it is not there."""
    found = table.get(text)
    if found is None and "+" in text:
        parts = [table.get(part) for part in text.split("+")]
        if None not in parts:
            found = "+".join([part or "" for part in parts])
    return found


# -- reading -----------------------------------------------------------------------------


def unpack(text: str) -> Game:
    """The game `pack` wrote; `StateError` if the text is malformed or the rules refuse it,
    `NewerFormatError` (a `StateError`) if its header names a later format than `FORMAT`."""
    if not isinstance(text, str):
        raise StateError("a packed game is a text")
    lines = text.split("\n")
    game = _empty_game(lines[0])
    seed, game.seed = game.seed, None  # deal the stored rounds, not the seed's
    _replay_rounds(game, lines[1:])
    game.seed = seed
    _check_dealt(game)
    return game


def catch_up(game: Game, old_text: str, new_text: str) -> Game:
    """Bring `game`, equal to `unpack(old_text)`, up to `new_text`, a later text of it.

    Only what `new_text` adds to `old_text` is replayed, in place. `StateError` if
    `new_text` does not extend `old_text` move by move, if `game` does not match
    `old_text`, or if the added part is malformed or illegal; `game` is then left
    as it was.
    """
    if not isinstance(old_text, str) or not isinstance(new_text, str):
        raise StateError("a packed game is a text")
    if not new_text.startswith(old_text):
        raise StateError("the new text does not extend the old one")
    old_lines = old_text.split("\n")
    new_lines = new_text.split("\n")
    last = len(old_lines) - 1  # the old text's last line: the header or a moves line
    if last % 2:
        raise StateError(f"round {last // 2 + 1}: its moves line is missing")
    _check_matches(game, last // 2, old_lines[last])
    added = _added_moves(old_lines[last], new_lines[last], last == 0)
    snapshot = game.copy()
    seed, game.seed = game.seed, None
    try:
        if added:
            _replay_moves(game, added)
        _replay_rounds(game, new_lines[last + 1 :])
        game.seed = seed
        _check_dealt(game)
    except BaseException:
        for item in fields(Game):  # every field: the game as it was, seed included
            setattr(game, item.name, getattr(snapshot, item.name))
        raise
    return game


def _added_moves(old_line: str, new_line: str, header: bool) -> str:
    """The moves `new_line` adds to `old_line` (the same line of the two texts), as text."""
    if new_line == old_line:
        return ""
    if header:
        raise StateError("the new text has another header")
    if not old_line:
        return new_line
    if new_line[len(old_line)] != " ":
        raise StateError("the new text changes the last move")
    added = new_line[len(old_line) + 1 :]
    if not added:
        raise StateError("the new text ends with an empty move")
    return added


def _check_matches(game: Game, rounds: int, moves_line: str) -> None:
    """A cheap look at whether `game` is the one the old text holds."""
    if len(game.rounds) != rounds:
        raise StateError(f"the game has {len(game.rounds)} rounds, the old text {rounds}")
    if not rounds:
        return
    moves = game.round.moves
    written = moves_line.count(" ") + 1 if moves_line else 0
    if len(moves) != written or (moves and moves_line.rpartition(" ")[2] != _token(moves[-1].text)):
        raise StateError("the game's last round is not the one of the old text")


def _empty_game(line: str) -> Game:
    try:
        header = json.loads(line)
    except (ValueError, RecursionError):
        raise StateError("the header is not JSON") from None
    if _newer_format(header):
        raise NewerFormatError(f"the header names format {header[0]}; this engine reads {FORMAT}")
    if not isinstance(header, list) or len(header) != 5 or header[0] != FORMAT:
        raise StateError("the header is not one of format 1")
    _, variant, target, seed, players = header
    if (
        not isinstance(variant, str)
        or not _is_int_or_none(target)
        or not _is_int_or_none(seed)
        or not isinstance(players, list)
        or not all(isinstance(name, str) for name in players)
    ):
        raise StateError("the header is malformed")
    try:
        game = Game.empty(variant, players, target)
    except ValueError as exc:
        raise StateError(f"the header: {exc}") from None
    game.seed = seed
    # One game, one text: a header written any other way is not one pack wrote.
    if _header(game) != line:
        raise StateError("the header is not written as pack writes it")
    return game


def _newer_format(header: Any) -> bool:
    """Whether a parsed header names a later format than this engine's (whatever else a
    later format's header may hold: only its first item is known to be the format)."""
    return (
        isinstance(header, list)
        and bool(header)
        and isinstance(header[0], int)
        and not isinstance(header[0], bool)
        and header[0] > FORMAT
    )


def _is_int_or_none(value: Any) -> bool:
    return value is None or (isinstance(value, int) and not isinstance(value, bool))


def _replay_rounds(game: Game, lines: list[str]) -> None:
    """Deal and play each round of `lines`: a deal line, then a moves line, per round."""
    if len(lines) % 2:
        raise StateError(f"round {len(game.rounds) + len(lines) // 2 + 1}: no moves line")
    for index in range(0, len(lines), 2):
        _deal(game, lines[index])
        if lines[index + 1]:
            _replay_moves(game, lines[index + 1])


def _deal(game: Game, line: str) -> None:
    place = f"round {len(game.rounds) + 1}"
    if len(line) != DEAL_LINE or line[0] not in _SEATS or line[1] != " ":
        raise StateError(f"{place}: the deal line is malformed")
    try:
        dealt = [_TILE_OF[char] for char in line[2:]]
    except KeyError:
        raise StateError(f"{place}: the deal holds a character that is no tile") from None
    seats = len(game.players)
    size = game.rules.hand_size(seats)
    hands = [dealt[start : start + size] for start in range(0, seats * size, size)]
    try:
        game.start_round(int(line[0]), hands, dealt[seats * size :])
    except ValueError as exc:
        raise StateError(f"{place}: {exc}") from None


def _replay_moves(game: Game, line: str) -> None:
    """Push each move of `line` (space-separated tokens) as the round wrote it."""
    rnd = game.round
    for token in line.split(" "):
        place = f"round {rnd.number}, move {len(rnd.moves) + 1}"
        text = _text(token, place)
        if rnd.over:
            raise StateError(f"{place}: the round is already over")
        try:
            game.push(game.parse_move(text), text=text)
        except ValueError as exc:  # every DominoError is one
            raise StateError(f"{place}: {exc}") from None


def _text(token: str, place: str) -> str:
    """A move's text from its token (see `_token`)."""
    if not token:
        raise StateError(f"{place}: an empty move")
    if token[0] != '"':
        text: object = _respell(token, _LONG) or token
    else:
        try:
            text = json.loads(token)
        except (ValueError, RecursionError):
            text = None
    # One spelling per text: `6:3` is the text `pack` writes as `63`, so a stored
    # `6:3` was never written by it (and would not come back as it was read).
    if not isinstance(text, str) or _token(text) != token:
        raise StateError(f"{place}: a move is not written as pack writes it")
    return text


def _check_dealt(game: Game) -> None:
    """A seeded game deals its next round in the move that ends a round: a text that
    stops between the two is not one pack wrote."""
    if game.seed is None or game.over:
        return
    if not game.rounds or game.round.over:
        raise StateError(f"round {len(game.rounds) + 1} is not dealt")
