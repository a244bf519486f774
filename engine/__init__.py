"""Pure rules of three Russian domino games: fives, muggins and twolane.

Standard library only: no I/O, no clock, no global randomness (a game carries its seed).
"""

from engine.compact import catch_up, pack, unpack
from engine.errors import (
    AmbiguousMoveError,
    DominoError,
    GameOverError,
    IllegalMoveError,
    NewerFormatError,
    NotationError,
    RecordError,
    StateError,
    WrongTurnError,
)
from engine.game import Game, MoveEntry, Round, apply
from engine.moves import DRAW, PASS, Doubles, Draw, Move, Pass, Play, parse_move
from engine.record import replay, summary, to_record
from engine.results import Standings, standings
from engine.table import Placed, Table
from engine.tiles import ALL_ENDS, ALL_TILES, End, Tile
from engine.variants import VARIANTS, Ruleset, ruleset
from engine.view import RoundSummary, SeatView, view_for

__all__ = [
    "ALL_ENDS",
    "ALL_TILES",
    "DRAW",
    "PASS",
    "VARIANTS",
    "AmbiguousMoveError",
    "DominoError",
    "Doubles",
    "Draw",
    "End",
    "Game",
    "GameOverError",
    "IllegalMoveError",
    "Move",
    "MoveEntry",
    "NewerFormatError",
    "NotationError",
    "Pass",
    "Placed",
    "Play",
    "RecordError",
    "Round",
    "RoundSummary",
    "Ruleset",
    "SeatView",
    "Standings",
    "StateError",
    "Table",
    "Tile",
    "WrongTurnError",
    "apply",
    "catch_up",
    "pack",
    "parse_move",
    "replay",
    "ruleset",
    "standings",
    "summary",
    "to_record",
    "unpack",
    "view_for",
]
