"""Game records (the game record format of docs/rules.md) both ways, and the replay summary."""

from __future__ import annotations

import unicodedata
from typing import Any

from engine.errors import DominoError, RecordError, quoted
from engine.game import Game
from engine.results import standings
from engine.tiles import Tile
from engine.variants import VARIANTS

RECORD_FIELDS = {"variant", "players", "target", "rounds"}
ROUND_FIELDS = {"starter", "hands", "boneyard", "moves"}
# Shown as nothing, though neither spaces nor format characters (the bot cleans names
# with the same list).
_BLANK = frozenset("\u115f\u1160\u2800\u3164\uffa0\u180e")


def to_record(game: Game) -> dict[str, Any]:
    """The record of a game: every round's deal and every action, as written."""
    record: dict[str, Any] = {"variant": game.variant, "players": list(game.players)}
    if game.rules.target_choices(len(game.players)):  # a target that was chosen
        record["target"] = game.target
    record["rounds"] = [
        {
            "starter": rnd.starter,
            "hands": [[str(t) for t in hand] for hand in rnd.dealt],
            "boneyard": [str(t) for t in rnd.dealt_boneyard],
            "moves": [m.text for m in rnd.moves],
        }
        for rnd in game.rounds
    ]
    return record


def replay(record: Any) -> Game:
    """The game a record describes; a `RecordError` naming the place if the rules refuse it."""
    if not isinstance(record, dict):
        raise RecordError("record: must be a JSON object")
    unknown = sorted(set(record) - RECORD_FIELDS)
    if unknown:
        raise RecordError(f"record: unknown field {quoted(unknown[0])}")
    game = _empty_game(record)
    rounds = record.get("rounds")
    if not isinstance(rounds, list) or not rounds:
        raise RecordError("rounds: must be a non-empty list of rounds")
    for number, data in enumerate(rounds, start=1):
        _replay_round(game, number, data)
    return game


def _empty_game(record: dict[str, Any]) -> Game:
    variant = record.get("variant")
    if not isinstance(variant, str) or variant not in VARIANTS:
        raise RecordError(f"variant: must be one of {', '.join(VARIANTS)}")
    players = record.get("players")
    if (
        not isinstance(players, list)
        or not 2 <= len(players) <= 4
        or not all(isinstance(p, str) and _visible(p) for p in players)
    ):
        raise RecordError("players: must be a list of 2 to 4 non-empty names")
    target = record.get("target")
    if target is not None and (isinstance(target, bool) or not isinstance(target, int)):
        raise RecordError("target: must be a positive whole number")
    try:
        return Game.empty(variant, players, target)
    except ValueError as exc:
        raise RecordError(f"target: {exc}") from None


def _replay_round(game: Game, number: int, data: Any) -> None:
    place = f"round {number}"
    if game.over:
        raise RecordError(f"{place}: the game ended in round {number - 1}")
    if not isinstance(data, dict):
        raise RecordError(f"{place}: must be an object")
    unknown = sorted(set(data) - ROUND_FIELDS)
    if unknown:
        raise RecordError(f"{place}: unknown field {quoted(unknown[0])}")
    if game.rounds and not game.round.over:
        raise RecordError(f"{place}: round {number - 1} is not over")
    starter = data.get("starter")
    if isinstance(starter, bool) or not isinstance(starter, int):
        raise RecordError(f"{place}: starter must be a seat number")
    hands = data.get("hands")
    if not isinstance(hands, list) or not all(isinstance(h, list) for h in hands):
        raise RecordError(f"{place}: hands must be a list of lists of tiles")
    parsed_hands = [_tiles(hand, f"{place}: hands") for hand in hands]
    boneyard = _tiles(data.get("boneyard"), f"{place}: boneyard")
    moves = data.get("moves")
    if not isinstance(moves, list):
        raise RecordError(f"{place}: moves must be a list")
    try:
        game.start_round(starter, parsed_hands, boneyard)
    except ValueError as exc:
        raise RecordError(f"{place}: {exc}") from None
    for index, text in enumerate(moves, start=1):
        where = f"{place}, move {index}"
        if not isinstance(text, str):
            raise RecordError(f"{where}: a move must be a string")
        if game.round.over:
            raise RecordError(f"{where}: the round is already over")
        if _padded(text):
            raise RecordError(f"{where}: {quoted(text)} is not a move (no spaces in a move)")
        try:
            game.push(game.parse_move(text), text=text)
        except DominoError as exc:
            raise RecordError(f"{where}: {exc.message}") from None


def _tiles(items: Any, place: str) -> list[Tile]:
    if not isinstance(items, list):
        raise RecordError(f"{place} must be a list of tiles")
    tiles = []
    for item in items:
        if not isinstance(item, str):
            raise RecordError(f"{place}: {quoted(item)} is not a tile")
        if _padded(item):
            raise RecordError(f"{place}: {quoted(item)} is not a tile (write it as a:b)")
        try:
            tiles.append(Tile.parse(item))
        except DominoError as exc:
            raise RecordError(f"{place}: {exc.message}") from None
    return tiles


def _visible(name: str) -> bool:
    """A name with a character that shows: not only spaces, controls, format characters
    (zero-width space, ...) or fillers."""
    return any(
        not char.isspace() and char not in _BLANK and unicodedata.category(char) not in ("Cc", "Cf")
        for char in name
    )


def _padded(text: str) -> bool:
    """A token written with a space, tab or line break in it or around it: the record
    format has one spelling for each move and tile (the engine's readers forgive more)."""
    return any(char.isspace() for char in text)


def summary(game: Game) -> dict[str, Any]:
    """The replay output of the game record format of docs/rules.md."""
    result = standings(game)
    winner: int | list[int] | None = None
    if result.finished:
        winner = result.winners[0] if len(result.winners) == 1 else list(result.winners)
    return {
        "variant": game.variant,
        "finished": result.finished,
        "winner": winner,
        "places": list(result.places) if result.finished else None,
        "record": result.record,
        "totals": list(game.totals),
        "rounds": [
            {
                "starter": rnd.starter,
                "end": rnd.end,
                "out": rnd.out[0] if rnd.out else None,
                "points": list(rnd.points),
                "penalties": list(rnd.penalties),
                "moves": [{"seat": m.seat, "move": m.text, "points": m.points} for m in rnd.moves],
            }
            for rnd in game.rounds
        ],
    }
