"""The one rule of a hand: what a player's action (bot.game.hand_actions) may do now.

`decide` is a pure function of the match as stored, its engine game and the action. It
answers with a move to make (`play_rules.HandMove`: the engine move, for the seat), a choice
the player still has to make (which end; which doubles), a hint to work out, or a
`Refusal` with its code. Every check of a hand press is here, once: the game gone or
over, a person not seated, a stale version, a seat the computer plays, not his turn, a
tile he lacks or that does not fit, several doubles outside muggins, a hint outside
practice or out of turn. Whether a move is legal is the engine's to say (`Game.refusal`,
and `Game.push` stays the last guard); this rule asks it and never decides it again.
`act` applies what `decide` said, as the game service does by compare-and-set.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.game import play_rules
from bot.game.clock import Moment
from bot.game.hand_actions import (
    AnyHandAction,
    AskHint,
    Choice,
    DoublesChoice,
    DrawTile,
    EndChoice,
    LayDoubles,
    PassTurn,
    PickDoubles,
    Picked,
    PlayTile,
    ShowTiles,
    TileChoice,
)
from bot.game.outcomes import Change, Refusal
from bot.render import end_names
from bot.settings import Settings
from bot.storage.models import Match
from engine import DRAW, PASS, Doubles, Game, Move, Play, Tile


@dataclass(frozen=True)
class HintWanted:
    """A hint may be given to `seat`: the strong computer's move for it now (the game
    service works it out, outside the rule: it takes a while)."""

    seat: int


Decision = play_rules.HandMove | Choice | HintWanted | Refusal


def decide(match: Match | None, game: Game | None, action: AnyHandAction) -> Decision:
    """What `action` does to the match as stored (see the module)."""
    seat = _acting_seat(match, game, action)
    if isinstance(seat, Refusal):
        return seat
    assert match is not None and game is not None
    if isinstance(action, AskHint):
        if not match.practice:
            return Refusal("practice_only")
        return HintWanted(seat) if game.turn == seat else Refusal("hint_not_now")
    if isinstance(action, PickDoubles | LayDoubles) and not game.rules.multi_doubles:
        return Refusal("one_tile_only")  # several doubles at once: muggins only
    if game.turn != seat:
        return Refusal("not_your_turn")  # every move and every choice is the seat to act's
    match action:
        case ShowTiles():
            return TileChoice(_in_hand_order({m.tile for m in _plays(game)}))
        case PickDoubles(picked=picked):
            return _doubles_choice(game, seat, picked)
        case PlayTile():
            return _play_tile(game, seat, action)
        case LayDoubles(doubles=doubles):
            return _move(game, seat, Doubles.of([Play(tile, end) for tile, end in doubles]))
        case DrawTile():
            return _move(game, seat, DRAW)
        case PassTurn():
            return _move(game, seat, PASS)


def act(
    match: Match | None, game: Game | None, action: AnyHandAction, now: Moment, settings: Settings
) -> Change | Choice | HintWanted | Refusal:
    """`decide`, and a move it allows made (`play_rules.play`): the change to store."""
    decided = decide(match, game, action)
    if not isinstance(decided, play_rules.HandMove):
        return decided
    assert match is not None and game is not None
    return play_rules.play(match, game, decided, now, settings)


def _acting_seat(match: Match | None, game: Game | None, action: AnyHandAction) -> int | Refusal:
    """The seat of the person acting, if he may act on this game at this version."""
    if match is None or match.id != action.game_id:
        return Refusal("game_gone")
    seat = match.seat_of(action.user_id)
    if seat is None:
        return Refusal("not_in_game")
    if match.status != "playing":
        return Refusal("game_over" if match.status == "over" else "game_gone")
    assert game is not None
    if action.version != game.version:
        return Refusal("stale_button")
    if match.seats[seat].computer:
        return Refusal("seat_is_computer")
    return seat


def _play_tile(game: Game, seat: int, action: PlayTile) -> Decision:
    """A tile with its end is the engine's to judge; without one, the end it fits, or the
    choice of the ends it fits."""
    tile = action.tile
    if action.end is not None:
        return _move(game, seat, Play(tile, action.end))
    plays = [m for m in _plays(game) if m.tile == tile]
    if not plays:
        return Refusal("not_in_hand" if tile not in game.round.hands[seat] else "does_not_fit")
    ends = [m.end for m in plays if m.end is not None]
    if len(set(ends)) > 1:
        names = end_names(game.round.table, game.variant)
        return EndChoice(tile, tuple(names[end] for end in dict.fromkeys(ends)))
    if action.west is not None:  # the opening laid as asked (on an end, the end decides)
        return _move(game, seat, Play(tile, None, action.west))
    # One place only (or the opening): there, the opening with its high half west.
    return play_rules.HandMove(seat, plays[0])


def _move(game: Game, seat: int, move: Move) -> play_rules.HandMove | Refusal:
    """`move` for `seat`, if the engine allows it; its refusal, with its words for the logs,
    if not."""
    refused = game.refusal(move, seat)
    if refused is not None:
        return Refusal(refused.code, detail=refused.message)
    return play_rules.HandMove(seat, game.resolve(move))


def _doubles_choice(game: Game, seat: int, picked: Picked) -> DoublesChoice | Refusal:
    """The doubles that may join `picked`: those with which it is still part of a legal
    doubles move (the engine's legal moves say which)."""
    combos = {
        frozenset((p.tile, p.end) for p in move.plays)
        for move in game.legal_moves()
        if isinstance(move, Doubles)
    }
    chosen = frozenset(picked)
    if len(chosen) != len(picked) or not any(chosen <= combo for combo in combos):
        return _pick_refusal(game, seat, picked)
    picked_tiles = {tile for tile, _ in picked}
    addable = tuple(
        (tile, end)
        for tile in _in_hand_order(set(game.round.hands[seat]) - picked_tiles)
        for end, _ in game.round.table.ends
        if any(chosen | {(tile, end)} <= combo for combo in combos)
    )
    return DoublesChoice(picked, addable, chosen in combos)


def _pick_refusal(game: Game, seat: int, picked: Picked) -> Refusal:
    """Why no legal doubles move holds the doubles `picked`: the engine's reason, else that
    there are not two doubles to lay together now."""
    plays = [Play(tile, end) for tile, end in picked]
    if len(plays) == 1 and not plays[0].tile.is_double:
        return Refusal("not_double")
    move: Move | None = Doubles.of(plays) if len(plays) > 1 else (plays[0] if plays else None)
    refused = None if move is None else game.refusal(move, seat)
    if refused is not None:
        return Refusal(refused.code, detail=refused.message)
    return Refusal("doubles_count")


def _plays(game: Game) -> list[Play]:
    return [m for m in game.legal_moves() if isinstance(m, Play)]


def _in_hand_order(tiles: set[Tile]) -> tuple[Tile, ...]:
    """As a hand shows its tiles: the highest first."""
    return tuple(sorted(tiles, reverse=True))
