"""Builders for hand-made deals and positions, shared by the engine tests.

The numbers the rules fix (deal sizes, targets) are written here from docs/rules.md
rather than read from the engine, so a test compares the engine with the text.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any, TypeVar

from engine import (
    ALL_TILES,
    Doubles,
    Draw,
    End,
    Game,
    Move,
    MoveEntry,
    Pass,
    Play,
    Table,
    Tile,
    parse_move,
    ruleset,
)
from engine.game import Round

NAMES = ["Андрей", "Ирина", "Ольга", "Вадим"]
VARIANT_NAMES = ("fives", "muggins", "twolane")
PLAYER_COUNTS = (2, 3, 4)

_Value = TypeVar("_Value")


def _by_players(rows: dict[str, tuple[_Value, _Value, _Value]]) -> dict[tuple[str, int], _Value]:
    """A table as docs/rules.md has it (a row a variant; a column for 2, 3 and 4 players),
    by (variant, players)."""
    return {
        (variant, players): value
        for variant, row in rows.items()
        for players, value in zip(PLAYER_COUNTS, row, strict=True)
    }


# docs/rules.md, the table at the top: tiles dealt to each player.
HAND_SIZE = _by_players({"fives": (6, 6, 5), "muggins": (7, 7, 7), "twolane": (5, 5, 6)})
# docs/rules.md: the match target (None: the game has none).
DEFAULT_TARGET = _by_players(
    {"fives": (25, 25, 20), "muggins": (51, 51, 51), "twolane": (None, None, None)}
)


def T(text: str) -> Tile:
    return Tile.parse(text)


def tiles(text: str | Iterable[Tile]) -> list[Tile]:
    """`"4:1 5:3"` as tiles (a list of tiles is passed through)."""
    if isinstance(text, str):
        return [Tile.parse(word) for word in text.split()]
    return list(text)


def pips(hand: Iterable[Tile]) -> int:
    return sum(t.high + t.low for t in hand)


def names(players: int) -> list[str]:
    return NAMES[:players]


def rest(*used: Iterable[Tile]) -> list[Tile]:
    """The tiles of the set not in `used`, in set order."""
    taken = {t for group in used for t in group}
    return [t for t in ALL_TILES if t not in taken]


# -- deals ------------------------------------------------------------------


def deal(
    variant: str,
    hands: Sequence[str | Iterable[Tile]],
    *,
    starter: int = 0,
    boneyard: str | Iterable[Tile] = "",
    target: int | None = None,
    filler: Sequence[Tile] | None = None,
) -> Game:
    """A new game whose first round is dealt as given (`Game.empty` + `start_round`).

    Hands shorter than the deal size are topped up with tiles from `filler`
    (default: the unused tiles in set order); `boneyard` is the front of the
    boneyard, the unused tiles follow it.
    """
    players = len(hands)
    size = HAND_SIZE[variant, players]
    chosen = [tiles(hand) for hand in hands]
    front = tiles(boneyard)
    pool = [t for t in (filler or ALL_TILES) if t not in {*front, *(t for h in chosen for t in h)}]
    for hand in chosen:
        while len(hand) < size:
            hand.append(pool.pop(0))
    game = Game.empty(variant, names(players), target)
    game.start_round(starter, chosen, front + rest(front, *chosen))
    return game


def scripted(
    variant: str,
    players: int,
    moves: Sequence[str],
    *,
    hands: dict[int, str] | None = None,
    boneyard: str = "",
    starter: int = 0,
    target: int | None = None,
    number: int = 1,
) -> Game:
    """Deal so that `moves` can be played in turn order, play them, return the game.

    Each tile a move lays is put in the hand of the seat that will make it
    (unless that seat drew it); `hands` adds chosen tiles per seat. In round 1
    (`number`) every hand is topped up to the deal size with unused tiles; a
    later round is set up as a `position` with the unused tiles in the
    boneyard, so any tile may open it. Seats that went out are not skipped:
    scripts that need that deal explicitly.
    """
    chosen: list[list[Tile]] = [tiles((hands or {}).get(seat, "")) for seat in range(players)]
    front = tiles(boneyard)
    drawn = list(front)
    held: dict[int, list[Tile]] = {seat: [] for seat in range(players)}
    seat = starter
    for text in moves:
        move = parse_move(text)
        if isinstance(move, Draw):
            held[seat].append(drawn.pop(0))
            continue
        if isinstance(move, Play | Doubles):
            laid = [move.tile] if isinstance(move, Play) else [p.tile for p in move.plays]
            for tile in laid:
                if tile in held[seat]:
                    held[seat].remove(tile)
                elif tile not in chosen[seat]:
                    chosen[seat].append(tile)
        seat = (seat + 1) % players
    if number == 1:
        game = deal(variant, chosen, starter=starter, boneyard=front, target=target)
    else:
        spare = rest(front, *chosen)
        for hand in chosen:  # nobody runs out of tiles by accident
            hand.append(spare.pop())
        game = position(
            variant, chosen, boneyard=front, number=number, starter=starter, turn=starter
        )
    push_all(game, *moves)
    return game


def push_all(game: Game, *moves: str) -> list[MoveEntry]:
    """Push moves written in record notation, each checked against the seat to act."""
    return [game.push(game.parse_move(text), seat=game.turn, text=text) for text in moves]


# -- positions --------------------------------------------------------------


def build_table(variant: str, plays: str) -> Table:
    """The table left by `plays` (record notation, space separated), laid as the game lays them."""
    rules = ruleset(variant)
    table = Table()
    for text in plays.split():
        move = parse_move(text)
        laid = [move] if isinstance(move, Play) else list(move.plays)  # type: ignore[union-attr]
        for index, play in enumerate(laid):
            if play.end is None:
                assert table.opening is None, f"{text}: only the opening has no end"
                table.open_with(play.tile, play.tile.high if play.west is None else play.west)
            else:
                open_ends = dict(table.open_ends())
                assert play.end in open_ends, f"{text}: no {play.end} end"
                assert play.tile.has(open_ends[play.end]), f"{text} does not fit"
                table.attach(play.tile, play.end, index == 0)
            if table.hub is None:
                rules.claim_hub(table, play.end)
    return table


def position(
    variant: str,
    hands: Sequence[str | Iterable[Tile]],
    *,
    table: str = "",
    boneyard: str | Iterable[Tile] = "",
    rest_to: int | None = None,
    turn: int = 0,
    totals: Sequence[int] | None = None,
    points: Sequence[int] | None = None,
    penalties: Sequence[int] | None = None,
    passed: Iterable[int] = (),
    drew: bool = False,
    out: Sequence[int] = (),
    number: int = 2,
    starter: int = 0,
    target: int | None = None,
    seed: int | None = None,
) -> Game:
    """A game in the middle of a round, like a chess position written as FEN.

    The tiles left over (not in hands, boneyard or on the table) go to seat
    `rest_to`, or to the end of the boneyard when it is None. The position is
    stored and read back through `to_json`/`from_json`, as the bot would.
    """
    players = len(hands)
    laid = build_table(variant, table)
    held = [tiles(hand) for hand in hands]
    front = tiles(boneyard)
    left = rest(laid.tiles(), front, *held)
    if rest_to is None:
        front += left
    else:
        held[rest_to] += left
    everything = sorted([*laid.tiles(), *front, *(t for h in held for t in h)])
    assert everything == sorted(ALL_TILES), "a position holds each tile once"
    game = Game.empty(variant, names(players), target)
    game.seed = seed
    game.totals = list(totals) if totals is not None else [0] * players
    rnd = Round(
        number=number,
        starter=starter,
        dealt=[list(h) for h in held],
        dealt_boneyard=list(front),
        hands=held,
        boneyard=front,
        table=laid,
        turn=turn,
        points=list(points) if points is not None else [0] * players,
        penalties=list(penalties) if penalties is not None else [0] * players,
        passed=set(passed),
        drew=drew,
        out=list(out),
    )
    game.rounds.append(rnd)
    return Game.from_json(json.loads(json.dumps(game.to_json())))


# -- reading the game -------------------------------------------------------


def ends(game: Game) -> dict[str, int]:
    """The open ends as {"W": 3, ...}."""
    return {end.name: value for end, value in game.round.table.open_ends()}


def state(game: Game) -> str:
    """Everything a refused move must leave unchanged (the stored state and what is derived)."""
    data: dict[str, Any] = game.to_json()
    if game.rounds:
        data["open_ends"] = [[e.name, v] for e, v in game.round.table.open_ends()]
    data["legal"] = sorted(str(m) for m in game.legal_moves())
    data["turn_now"] = game.turn
    return json.dumps(data, sort_keys=True, ensure_ascii=False)


def all_tiles_once(game: Game) -> bool:
    rnd = game.round
    found = [*rnd.table.tiles(), *rnd.boneyard, *(t for h in rnd.hands for t in h)]
    return sorted(found) == sorted(ALL_TILES)


def is_draw(move: Move) -> bool:
    return isinstance(move, Draw)


def is_pass(move: Move) -> bool:
    return isinstance(move, Pass)


def end(name: str) -> End:
    return End[name]


def split(pool: Iterable[Tile], players: int) -> list[list[Tile]]:
    """Deal `pool` round-robin into `players` hands."""
    hands: list[list[Tile]] = [[] for _ in range(players)]
    for index, tile in enumerate(pool):
        hands[index % players].append(tile)
    return hands


# A table whose four possible ends all show 0 with every 0 on it: nobody can
# play any more. In fives 0:0 is the spinner, in muggins the house.
BLOCKED_TABLE = "0:0 0:1@W 1:2@W 2:0@W 0:3@E 3:4@E 4:0@E 0:5@E 5:6@E 6:0@E"
