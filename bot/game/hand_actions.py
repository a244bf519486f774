"""What a player may ask of his hand, and what he gets back: the hand's domain actions.

Every front-end decodes its input to these actions and hands them to the game service
(`GameService.hand_action`): the Telegram buttons (bot.handlers.buttons decodes their
callback data), and any other caller, such as a web page over a WebSocket. One rule
decides each (bot.game.hand_rule); a refusal is raised as `Refusal(code)`, its code a key
of the bot's refusal texts, the same for every front-end.

The types are plain frozen dataclasses with no Telegram in them, and their fields map to
JSON directly: a tile is an engine `Tile` (written «6:4», read by `Tile.parse`), an end an
engine `End` (written and read by its letter, «W»), a version and a user id are ints.
Each action names the game it was made for, the game version its player saw (a stale one
is refused, as a stale button is) and who acts (the user id: his seat is found by it).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from bot.game.hints import Hint
from bot.game.match_records import Current
from bot.render import EndName
from engine import Doubles, Draw, End, Game, Move, MoveEntry, Play, SeatView, Tile, view_for

Picked = tuple[tuple[Tile, End], ...]  # doubles, each with the end it goes on


@dataclass(frozen=True)
class HandAction:
    """An action on a hand: the game, the version its player saw, and who acts."""

    game_id: str
    version: int
    user_id: int


# -- moves ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class PlayTile(HandAction):
    """Play `tile`, on `end`. Without an end: on the one end it fits, or (fitting several)
    a choice of ends comes back. `west`: for the opening only, the half laid facing west
    (by default the higher)."""

    tile: Tile
    end: End | None = None
    west: int | None = None


@dataclass(frozen=True)
class LayDoubles(HandAction):
    """muggins: lay 2 to 4 doubles at once, each on its own end."""

    doubles: Picked


@dataclass(frozen=True)
class DrawTile(HandAction):
    """Take a tile from the boneyard."""


@dataclass(frozen=True)
class PassTurn(HandAction):
    """Pass."""


# -- asking, and choosing (nothing changes) ---------------------------------------------------


@dataclass(frozen=True)
class AskHint(HandAction):
    """A practice game's «Hint»: the move the strong computer would make now, and why."""


@dataclass(frozen=True)
class PickDoubles(HandAction):
    """muggins: these doubles are picked so far (none: the picking starts); the choice of
    doubles that may be added comes back."""

    picked: Picked


@dataclass(frozen=True)
class ShowTiles(HandAction):
    """Back from choosing an end or doubles to the tiles."""


AnyHandAction = PlayTile | LayDoubles | DrawTile | PassTurn | AskHint | PickDoubles | ShowTiles


def action_for(game_id: str, version: int, user_id: int, move: Move) -> AnyHandAction:
    """The action that makes the engine move `move` (for callers that think in moves)."""
    if isinstance(move, Play):
        return PlayTile(game_id, version, user_id, move.tile, move.end, move.west)
    if isinstance(move, Doubles):
        picked = tuple((play.tile, play.end) for play in move.plays if play.end is not None)
        return LayDoubles(game_id, version, user_id, picked)
    if isinstance(move, Draw):
        return DrawTile(game_id, version, user_id)
    return PassTurn(game_id, version, user_id)


# -- the choices the rule asks the player to make ------------------------------------------


@dataclass(frozen=True)
class EndChoice:
    """«Which end?»: `tile` fits each of `ends` (in the order the buttons list them, each
    named as the board and the buttons name it); a `PlayTile` with one of them plays it."""

    tile: Tile
    ends: tuple[EndName, ...]


@dataclass(frozen=True)
class DoublesChoice:
    """muggins: the doubles `picked` so far, those that may be added to them (`addable`:
    tiles in hand order, a tile's ends in table order), and whether `picked` may be laid
    now (`LayDoubles`). A `PickDoubles` with another selection changes it."""

    picked: Picked
    addable: Picked
    layable: bool


@dataclass(frozen=True)
class TileChoice:
    """The tiles again: those of the hand that can be played now."""

    playable: tuple[Tile, ...]


Choice = EndChoice | DoublesChoice | TileChoice


# -- what the game service answers -----------------------------------------------------------


@dataclass(frozen=True)
class HandResult:
    """What a hand action did (`GameService.hand_action`; a refusal is raised instead).

    `current`: the match as it is now. `seat`: the acting person's. `before`: the engine
    game the action was decided on (before its move). Then one of: `entries`, the move
    made (his own, first) and those made after it for people who had no choice; `choice`,
    what he still has to choose (nothing changed); `hint`, a practice game's hint, one
    line in his words.
    """

    current: Current
    seat: int
    before: Game
    entries: tuple[MoveEntry, ...] = ()
    choice: Choice | None = None
    hint: str | None = None

    @property
    def lang(self) -> str:
        """The acting person's language (his seat's)."""
        return self.current.match.seats[self.seat].lang

    @property
    def view(self) -> SeatView:
        """The game as he saw it when he acted (worked out on each use)."""
        return view_for(self.before, self.seat)


# How a front-end words a hint: (the hint, each open end's name as the board and the
# buttons show it, the person's language) to one line. The service keeps the first line
# worked out for a game version: asking again shows the same words.
HintWords = Callable[[Hint, Mapping[End, EndName], str], str]
