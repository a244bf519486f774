"""/score after a round, and the board: each thing said once, in the players' words.

A fives round won by going out is told by the line of what its winner got for it
(«Андрей: +2 очка — кости кончились»), not once more above it; a blocked round's +1
names the score it went to (the lowest of the match), never as pips.
"""

from __future__ import annotations

from bot.game import computer
from engine import Game, Play
from tests.bot.conftest import Harness

NAMES = ["Андрей", "Ирина"]


def last_tile_goes_out() -> Game:
    """A fives game in which the seat to act holds one tile that fits and the boneyard is
    empty: playing it ends the first round by going out."""
    for seed in range(200):
        game = Game.new("fives", NAMES, seed=seed)
        turn = 0
        while game.round.number == 1 and not game.round.over:
            seat = game.turn
            assert seat is not None
            fits = [m for m in game.legal_moves() if isinstance(m, Play)]
            if len(game.round.hands[seat]) == 1 and not game.round.boneyard and fits:
                return game
            computer.turn_moves(game, "easy", turn, 0.01)
            turn += 1
    raise AssertionError("no seed ends its first round by going out")


async def test_score_after_a_round_says_who_went_out_once(h: Harness) -> None:
    table = await h.table("fives")
    position = last_tile_goes_out()
    seat = position.turn
    assert seat is not None
    name = NAMES[seat]
    await h.set_position(table.chat, position)
    await h.play_any(table.users[seat], position.version)

    async def round_over() -> bool:
        return (await h.game(table.chat)).game().rounds[0].over

    await h.until(round_over, "the round ended")
    await h.settle()
    score = await h.say(table.users[1 - seat], table.chat, "/score")
    text = score.text or ""
    assert f"{name}: +2 очка — кости кончились" in text, text
    assert text.count("кости кончились") == 1, text
    board = await table.board()
    assert (board.caption or "").count("кости кончились") == 1, board.caption
