"""Matches for the delivery plans' tests: a match of chosen seats and game, and a game
played on by the computers."""

from __future__ import annotations

from bot.game import computer
from bot.storage.models import Match, Seat
from engine import Game, pack


def a_match(engine_game: Game | None = None, **fields: object) -> Match:
    seats = [Seat(name=name, user_id=10 + i) for i, name in enumerate(["A", "B", "C", "D"])]
    players = len(engine_game.players) if engine_game else 2
    fields.setdefault("chat_id", -100)
    return Match(
        id="abcdefgh",
        creator_id=10,
        seats=seats[:players],
        engine=None if engine_game is None else pack(engine_game),
        **fields,  # type: ignore[arg-type]
    )


def played_until(game: Game, done: object) -> Game:
    """Computers play `game` (a copy) until `done(game)`."""
    game = game.copy()
    turn = 0
    while not done(game):  # type: ignore[operator]
        computer.turn_moves(game, "easy", turn, 0.01)
        turn += 1
    return game
