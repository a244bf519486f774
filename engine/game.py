"""A match as plain data, and the one place where moves are judged and applied.

`Game.push` changes a game in place (fast, for simulations); `apply` is the pure
form the bot uses: it returns a new game and leaves the old one untouched. Every
accepted action raises `version` by one.
"""

from __future__ import annotations

import hashlib
import struct
from dataclasses import dataclass, field
from functools import partial
from operator import itemgetter
from typing import Any, NamedTuple

from engine.errors import (
    AmbiguousMoveError,
    GameOverError,
    IllegalMoveError,
    StateError,
    WrongTurnError,
    quoted,
)
from engine.moves import (
    DRAW,
    OPENINGS,
    PASS,
    PLAYS_BY_END,
    Doubles,
    Draw,
    Move,
    Pass,
    Play,
    parse_move,
)
from engine.table import Table, new_placed
from engine.tiles import ALL_TILES, End, Tile
from engine.variants import Ruleset, ruleset

MIN_PLAYERS = 2
MAX_PLAYERS = 4


class MoveEntry(NamedTuple):
    """One action of a round as the record writes it, and the points it scored itself."""

    seat: int
    text: str
    points: int


# Builds a MoveEntry from a tuple in C, skipping the generated __new__ (hot path).
_new_entry = partial(tuple.__new__, MoveEntry)


@dataclass(slots=True)
class Round:
    """One deal, from the opening to its end."""

    number: int
    starter: int
    dealt: list[list[Tile]]
    dealt_boneyard: list[Tile]
    hands: list[list[Tile]]
    boneyard: list[Tile]  # the next tile to draw first
    table: Table = field(default_factory=Table)
    turn: int = 0
    moves: list[MoveEntry] = field(default_factory=list)
    points: list[int] = field(default_factory=list)
    penalties: list[int] = field(default_factory=list)
    passed: set[int] = field(default_factory=set)  # seats that passed since the last play
    drew: bool = False  # twolane: the player to act has drawn his one tile
    out: list[int] = field(default_factory=list)  # seats in the order they emptied their hands
    end: str | None = None  # "out", "blocked", "target"

    @staticmethod
    def deal(number: int, starter: int, hands: list[list[Tile]], boneyard: list[Tile]) -> Round:
        """A round about to open; `hands` and `boneyard` become the record of the deal."""
        seats = len(hands)
        # Positional: this runs for every simulated deal, and keywords cost a third more.
        return Round(
            number,
            starter,
            hands,
            boneyard,
            list(map(list, hands)),
            list(boneyard),
            Table(),
            starter,
            [],
            [0] * seats,
            [0] * seats,
        )

    @property
    def over(self) -> bool:
        return self.end is not None

    def copy(self) -> Round:
        return Round(
            number=self.number,
            starter=self.starter,
            dealt=self.dealt,  # never changed after the deal
            dealt_boneyard=self.dealt_boneyard,
            hands=[list(hand) for hand in self.hands],
            boneyard=list(self.boneyard),
            table=self.table.copy(),
            turn=self.turn,
            moves=list(self.moves),
            points=list(self.points),
            penalties=list(self.penalties),
            passed=set(self.passed),
            drew=self.drew,
            out=list(self.out),
            end=self.end,
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "starter": self.starter,
            "dealt": [[str(t) for t in hand] for hand in self.dealt],
            "dealt_boneyard": [str(t) for t in self.dealt_boneyard],
            "hands": [[str(t) for t in hand] for hand in self.hands],
            "boneyard": [str(t) for t in self.boneyard],
            "table": self.table.to_json(),
            "turn": self.turn,
            "moves": [[m.seat, m.text, m.points] for m in self.moves],
            "points": list(self.points),
            "penalties": list(self.penalties),
            "passed": sorted(self.passed),
            "drew": self.drew,
            "out": list(self.out),
            "end": self.end,
        }

    @staticmethod
    def from_json(data: Any) -> Round:
        def tiles(items: Any) -> list[Tile]:
            return [Tile.parse(t) for t in items]

        return Round(
            number=int(data["number"]),
            starter=int(data["starter"]),
            dealt=[tiles(hand) for hand in data["dealt"]],
            dealt_boneyard=tiles(data["dealt_boneyard"]),
            hands=[tiles(hand) for hand in data["hands"]],
            boneyard=tiles(data["boneyard"]),
            table=Table.from_json(data["table"]),
            turn=int(data["turn"]),
            moves=[MoveEntry(int(s), str(t), int(p)) for s, t, p in data["moves"]],
            points=[int(p) for p in data["points"]],
            penalties=[int(p) for p in data["penalties"]],
            passed={int(s) for s in data["passed"]},
            drew=bool(data["drew"]),
            out=[int(s) for s in data["out"]],
            end=data["end"],
        )


@dataclass(slots=True)
class Game:
    """A whole match (for `twolane`, the single game).

    With a `seed`, each new round is dealt from it; without one (a replayed
    record) the caller deals each round with `start_round`.
    """

    variant: str
    players: list[str]
    target: int | None
    seed: int | None
    version: int = 0
    totals: list[int] = field(default_factory=list)
    rounds: list[Round] = field(default_factory=list)
    rules: Ruleset = field(init=False, repr=False, compare=False)
    # Whether the match is over: an attribute the game keeps up to date rather than
    # a property, because simulations ask it after every action.
    over: bool = field(default=False, init=False, compare=False)
    # legal_moves(), kept until the game changes (push and start_round forget it):
    # judging a generated move is then a lookup in it.
    _legal: tuple[Move, ...] | None = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.rules = ruleset(self.variant)
        self._update_over()

    def _update_over(self) -> None:
        # A match can only end with its round (muggins marks a cut-short round "target").
        self.over = (
            bool(self.rounds)
            and self.rounds[-1].end is not None
            and self.rules.match_over(self.totals, self.target, True)
        )

    # -- creating ------------------------------------------------------------

    @staticmethod
    def new(variant: str, players: list[str], seed: int, target: int | None = None) -> Game:
        """A match with round 1 dealt from `seed`: the same seed deals the same game."""
        game = Game.empty(variant, players, target)
        game.seed = seed
        game._deal_from_seed()
        return game

    @staticmethod
    def empty(variant: str, players: list[str], target: int | None = None) -> Game:
        """A match with no round dealt yet (records deal their own rounds)."""
        rules = ruleset(variant)
        if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
            raise ValueError(f"{MIN_PLAYERS} to {MAX_PLAYERS} players are needed")
        if target is not None and (isinstance(target, bool) or target <= 0):
            raise ValueError("the target must be a positive whole number")
        return Game(
            variant=variant,
            players=list(players),
            target=rules.check_target(target, len(players)),
            seed=None,
            totals=[0] * len(players),
        )

    def start_round(self, starter: int, hands: list[list[Tile]], boneyard: list[Tile]) -> None:
        """Deal the next round as given; raises ValueError if the rules do not allow it."""
        if self.over:
            raise ValueError("the game is already over")
        if self.rounds and not self.rounds[-1].over:
            raise ValueError("the current round is not over")
        seats = len(self.players)
        if len(hands) != seats:
            raise ValueError(f"hands: {seats} hands are needed, one per player")
        size = self.rules.hand_size(seats)
        for seat, hand in enumerate(hands):
            if len(hand) != size:
                raise ValueError(f"hands: seat {seat} holds {len(hand)} tiles, not {size}")
        everything = [t for hand in hands for t in hand] + list(boneyard)
        for tile in ALL_TILES:
            if everything.count(tile) != 1:
                state = "missing" if tile not in everything else "there twice"
                raise ValueError(f"tile {tile} is {state}")
        if not 0 <= starter < seats:
            raise ValueError(f"starter must be a seat from 0 to {seats - 1}")
        number = len(self.rounds) + 1
        if number > 1:
            expected = (self.rounds[-1].starter + 1) % seats
            if starter != expected:
                raise ValueError(f"starter must be seat {expected}")
        else:
            required = self.rules.required_starter(hands)
            if self.rules.required_opening(1) is not None and required is None:
                raise ValueError(f"the {self.rules.required_opening(1)} must be dealt")
            if required is not None and starter != required:
                raise ValueError(f"starter must hold {self.rules.required_opening(1)}")
        self._legal = None
        dealt = [list(hand) for hand in hands]  # the caller keeps his own lists
        self.rounds.append(Round.deal(number, starter, dealt, list(boneyard)))

    def _deal_from_seed(self) -> None:
        number = len(self.rounds) + 1
        seats = len(self.players)
        size = self.rules.hand_size(seats)
        attempt = 0
        while True:
            order, lot = _shuffle(f"{self.seed}:{number}:{attempt}")
            tiles = itemgetter(*order)(ALL_TILES)
            boneyard = list(tiles[seats * size :])
            if not self.rules.needs_redeal(number, boneyard):
                break
            attempt += 1
        hands = [list(tiles[start : start + size]) for start in range(0, seats * size, size)]
        if number == 1:
            starter = self.rules.first_starter(hands, lot)
        else:
            starter = (self.rounds[-1].starter + 1) % seats
        self.rounds.append(Round.deal(number, starter, hands, boneyard))

    # -- reading -------------------------------------------------------------

    @property
    def round(self) -> Round:
        return self.rounds[-1]

    @property
    def turn(self) -> int | None:
        """The seat to act, or None when the game is over or waits for a deal."""
        if not self.rounds or self.round.over:
            return None
        return self.round.turn

    @staticmethod
    def _has_play(hand: list[Tile], rnd: Round) -> bool:
        ends = rnd.table.ends
        if not ends:
            return True  # the opening: any tile will do
        values = {value for _, value in ends}
        return any(t[0] in values or t[1] in values for t in hand)

    def legal_moves(self) -> tuple[Move, ...]:
        """Every move the seat to act may make now (both ways round for an opening).

        This is where legality is decided: `push` accepts exactly these moves. The
        answer is kept until the game changes.
        """
        moves = self._legal
        if moves is not None:
            return moves
        rnd = self.rounds[-1] if self.rounds else None
        if rnd is None or rnd.end is not None:
            moves = ()
        elif not (ends := rnd.table.ends):
            moves = tuple(self._openings(rnd, rnd.hands[rnd.turn]))
        else:
            hand = rnd.hands[rnd.turn]
            plays: list[Move] = []
            for end, value in ends:
                fitting = PLAYS_FITTING[end][value]
                for t in hand:
                    if t in fitting:
                        plays.append(fitting[t])
            if plays:
                if self.rules.multi_doubles:
                    plays += double_combinations(hand, ends)
                moves = tuple(plays)
            elif self.rules.single_draw and rnd.drew:
                moves = ONLY_PASS
            else:
                moves = ONLY_DRAW if rnd.boneyard else ONLY_PASS
        self._legal = moves
        return moves

    def _openings(self, rnd: Round, hand: list[Tile]) -> list[Move]:
        required = self.rules.required_opening(rnd.number)
        moves: list[Move] = []
        for tile in hand if required is None else [required]:
            moves.append(OPENINGS[tile, tile.high])
            if not tile.is_double:
                moves.append(OPENINGS[tile, tile.low])
        return moves

    def parse_move(self, text: str) -> Move:
        """Read a move in record notation, resolving a play written without its end."""
        return self.resolve(parse_move(text))

    def resolve(self, move: Move) -> Move:
        """The move as `legal_moves` writes it, if it can be read as one (otherwise unchanged).

        Fills in the end of a play that fits exactly one end; an opening given
        without its W half (`Play(tile)`) lays the higher half on W, as
        `Play.__str__` writes it. A play on an end carries no W half, and the
        doubles of a move are kept in W, E, N, S order.
        """
        if isinstance(move, Doubles):
            return Doubles.of([_on_end(play) for play in move.plays])
        if not isinstance(move, Play) or not self.rounds:
            return move
        if move.end is not None:
            return PLAYS_BY_END[move.end][move.tile]
        ends = self.round.table.ends
        if not ends:
            west = move.tile.high if move.west is None else move.west
            return OPENINGS.get((move.tile, west), move)
        fits = [end for end, v in ends if move.tile.has(v)]
        return PLAYS_BY_END[fits[0]][move.tile] if len(fits) == 1 else move

    def refusal(self, move: Move, seat: int | None = None) -> IllegalMoveError | None:
        """Why `move` may not be made now (by `seat`, if given), or None if it is legal."""
        rnd = self.rounds[-1] if self.rounds else None
        if seat is not None and rnd is not None and rnd.end is None and seat != rnd.turn:
            return WrongTurnError(f"it is seat {rnd.turn}'s turn, not seat {seat}'s")
        legal = self.legal_moves()
        if move in legal or self.resolve(move) in legal:
            return None
        return self.explain(move) or IllegalMoveError(f"{move} is not allowed now")

    def explain(self, move: Move) -> IllegalMoveError | None:
        """The rule a move breaks, worked out from the rules themselves.

        `legal_moves` decides; this says why. A property test checks that the two
        agree: this finds a reason for exactly the moves `legal_moves` leaves out.
        """
        rnd = self.rounds[-1] if self.rounds else None
        if rnd is None or rnd.end is not None:
            if self.over:
                return GameOverError("the game is over")
            return IllegalMoveError("the next round has not been dealt", "no_round")
        hand = rnd.hands[rnd.turn]
        ends = rnd.table.ends
        if isinstance(move, Play):
            if move.end is not None and ends:
                if move.tile not in hand:
                    return IllegalMoveError(f"{move.tile} is not in hand", "not_in_hand")
                return _fit_refusal(move.tile, move.end, ends)
            return self._play_refusal(move, hand, rnd)
        if isinstance(move, Doubles):
            return self._doubles_refusal(move, hand, rnd)
        if not ends:
            return IllegalMoveError("the round must be opened with a tile", "must_open")
        if self._has_play(hand, rnd):
            what = "draw" if isinstance(move, Draw) else "pass"
            return IllegalMoveError(f"cannot {what}: a tile can be played", "can_play")
        drew_already = self.rules.single_draw and rnd.drew
        if isinstance(move, Draw):
            if drew_already:
                return IllegalMoveError("cannot draw again: pass", "drew_already")
            if not rnd.boneyard:
                return IllegalMoveError("cannot draw: the boneyard is empty", "boneyard_empty")
            return None
        if rnd.boneyard and not drew_already:
            return IllegalMoveError("cannot pass: draw from the boneyard first", "must_draw")
        return None

    def _play_refusal(self, play: Play, hand: list[Tile], rnd: Round) -> IllegalMoveError | None:
        """Plays other than the common case: the opening, or a play without its end."""
        tile = play.tile
        ends = rnd.table.ends
        if ends:
            if tile not in hand:
                return IllegalMoveError(f"{tile} is not in hand", "not_in_hand")
            fits = [str(end) for end, v in ends if tile.has(v)]
            if not fits:
                return IllegalMoveError(f"{tile} does not fit on any end", "does_not_fit")
            if len(fits) > 1:
                return AmbiguousMoveError(f"{tile} fits {', '.join(fits)}: name the end")
            return None
        if play.end is not None:
            return IllegalMoveError(f"{tile}@{play.end}: the opening takes no end", "opening_end")
        required = self.rules.required_opening(rnd.number)
        if required is not None and tile != required:
            return IllegalMoveError(f"the first round opens with {required}", "must_open_with")
        if tile not in hand:
            return IllegalMoveError(f"{tile} is not in hand", "not_in_hand")
        if play.west is not None and not tile.has(play.west):
            return IllegalMoveError(f"{tile} has no {play.west}", "bad_notation")
        return None

    def _doubles_refusal(
        self, move: Doubles, hand: list[Tile], rnd: Round
    ) -> IllegalMoveError | None:
        if not self.rules.multi_doubles:
            return IllegalMoveError(f"{self.variant}: one tile is played per move", "one_tile_only")
        if not rnd.table.ends:
            return IllegalMoveError("the round opens with a single tile", "must_open")
        if not 2 <= len(move.plays) <= 4:
            return IllegalMoveError("lay 2 to 4 doubles at once", "doubles_count")
        if len({p.tile for p in move.plays}) != len(move.plays):
            return IllegalMoveError("each double can be laid once", "doubles_repeat")
        if len({p.end for p in move.plays}) != len(move.plays):
            return IllegalMoveError("each double goes on a different end", "doubles_same_end")
        for play in move.plays:
            if not play.tile.is_double:
                return IllegalMoveError(f"{play.tile} is not a double", "not_double")
            if play.end is None:
                return AmbiguousMoveError(f"{play.tile}: name the end")
            if play.tile not in hand:
                return IllegalMoveError(f"{play.tile} is not in hand", "not_in_hand")
            refusal = _fit_refusal(play.tile, play.end, rnd.table.ends)
            if refusal is not None:
                return refusal
        return None

    # -- changing ------------------------------------------------------------

    def push(self, move: Move, seat: int | None = None, text: str | None = None) -> MoveEntry:
        """Make `move` for the seat to act (checked against `seat` if given).

        `text` is how a record wrote the move; by default it is written from the
        table. Raises an `IllegalMoveError`, changing nothing, if it is not allowed.
        """
        legal = self._legal
        if legal is None:
            legal = self.legal_moves()
        for candidate in legal:
            if candidate is move:  # the generated move itself: no comparing needed
                break
        else:
            candidate = None
        if candidate is None or (seat is not None and seat != self.rounds[-1].turn):
            refusal = self.refusal(move, seat)
            if refusal is not None:
                raise refusal
            move = self.resolve(move)
        rnd = self.rounds[-1]  # a legal move means a round is being played
        mover = rnd.turn
        kind = move.__class__
        if kind is Play:
            entry = self._play(rnd, mover, move, text)  # type: ignore[arg-type]
        elif kind is Draw:
            rnd.hands[mover].append(rnd.boneyard.pop(0))
            rnd.drew = True
            entry = _new_entry((mover, text or "draw", 0))
            rnd.moves.append(entry)
        elif kind is Pass:
            entry = self._pass(rnd, mover, text)
        else:
            entry = self._play_doubles(rnd, mover, move, text)  # type: ignore[arg-type]
        self.version += 1
        self._legal = None
        return entry

    def _pass(self, rnd: Round, mover: int, text: str | None) -> MoveEntry:
        entry = _new_entry((mover, text or "pass", 0))
        rnd.moves.append(entry)
        rnd.drew = False
        rnd.passed.add(mover)
        penalty = self.rules.pass_penalty
        if penalty:
            rnd.penalties[mover] += penalty
            self.totals[mover] += penalty
        # Blocked: everyone still holding tiles has passed since the last play (a
        # passer cannot have gone out since: going out takes a play).
        if not rnd.boneyard and len(rnd.passed) + len(rnd.out) == len(rnd.hands):
            self._end_round(rnd, "blocked", None)
        else:
            self._next_turn(rnd)
        return entry

    def _play(self, rnd: Round, mover: int, play: Play | None, text: str | None) -> MoveEntry:
        """Lay `play` (None: the move's tiles are down already), then steps 1 to 4 of
        the order of events. `text` is the record's notation, if it wrote the move."""
        table = rnd.table
        hand = rnd.hands[mover]
        rules = self.rules
        if play is not None:
            end = play.end
            if end is None:
                written = self._lay(table, play, True)  # not inside `or`: it lays the tile
                text = text or written
            else:
                # Table.attach and claim_hub, as _lay does them, inline: this is the
                # move simulations make most, and the calls would cost a tenth of it.
                tile = play.tile
                table.moves += 1
                ends = table.ends
                inner = ends[end][1]
                outer = tile[0] + tile[1] - inner
                table.arms[end].append(new_placed((tile, inner, outer, table.moves)))
                ends[end] = (end, outer)
                text = text or PLAY_TEXT[end][inner][outer]
                if table.hub is None and rules.hub_kind is not None:
                    rules.claim_hub(table, end)
            hand.remove(play.tile)
        if rnd.passed:
            rnd.passed.clear()
        rnd.drew = False
        points = rules.after_place(table) if rules.scores_plays else 0
        entry = _new_entry((mover, text, points))
        rnd.moves.append(entry)
        if points:
            rnd.points[mover] += points
            self.totals[mover] += points
        hands = rnd.hands
        if not hand:
            if rules.refill_empty_hand and rnd.boneyard:
                hand.append(rnd.boneyard.pop(0))
            else:
                rnd.out.append(mover)
                if not (rules.play_on_after_out and len(hands) - len(rnd.out) > 1):
                    self._end_round(rnd, "out", mover)
                    return entry
        if points and rules.match_over(self.totals, self.target, False):
            rnd.end = "target"  # muggins: 51 ends the match at once, mid-round
            self.over = True
            return entry
        # Step 4 inline (see _next_turn): the next seat clockwise still holding tiles.
        seats = len(hands)
        seat = (mover + 1) % seats
        while not hands[seat]:
            seat = (seat + 1) % seats
        rnd.turn = seat
        return entry

    def _play_doubles(self, rnd: Round, mover: int, move: Doubles, text: str | None) -> MoveEntry:
        table = rnd.table
        written = "+".join(self._lay(table, play, i == 0) for i, play in enumerate(move.plays))
        hand = rnd.hands[mover]
        for play in move.plays:
            hand.remove(play.tile)
        return self._play(rnd, mover, None, text or written)

    def _lay(self, table: Table, play: Play, new_move: bool) -> str:
        """Put one tile on the table and say how the record writes it."""
        if play.end is None:
            placed = table.open_with(play.tile, play.tile.high if play.west is None else play.west)
            written = f"{placed.inner}:{placed.outer}"
        else:
            placed = table.attach(play.tile, play.end, new_move)
            written = PLAY_TEXT[play.end][placed.inner][placed.outer]
        if table.hub is None and self.rules.hub_kind is not None:
            self.rules.claim_hub(table, play.end)
        return written

    def _end_round(self, rnd: Round, end: str, winner: int | None) -> None:
        """Steps 2 and 3 of the order of events: end-of-round points, then the match end."""
        rnd.end = end
        bonus = self.rules.round_end_points(rnd.hands, self.totals, winner)
        for seat, points in enumerate(bonus):
            rnd.points[seat] += points
            self.totals[seat] += points
        if self.rules.match_over(self.totals, self.target, True):
            self.over = True
        elif self.seed is not None:
            self._deal_from_seed()

    @staticmethod
    def _next_turn(rnd: Round) -> None:
        """Step 4: the next seat clockwise that still holds tiles."""
        seats = len(rnd.hands)
        seat = (rnd.turn + 1) % seats
        while not rnd.hands[seat]:
            seat = (seat + 1) % seats
        rnd.turn = seat

    # -- plain data ----------------------------------------------------------

    def copy(self) -> Game:
        return Game(
            variant=self.variant,
            players=list(self.players),
            target=self.target,
            seed=self.seed,
            version=self.version,
            totals=list(self.totals),
            rounds=[*self.rounds[:-1], self.rounds[-1].copy()] if self.rounds else [],
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "format": 1,
            "variant": self.variant,
            "players": list(self.players),
            "target": self.target,
            "seed": self.seed,
            "version": self.version,
            "totals": list(self.totals),
            "rounds": [rnd.to_json() for rnd in self.rounds],
        }

    @staticmethod
    def from_json(data: Any) -> Game:
        try:
            if data.get("format") != 1:
                raise StateError(f"unknown state format {quoted(data.get('format'))}")
            game = Game(
                variant=ruleset(str(data["variant"])).name,
                players=[str(p) for p in data["players"]],
                target=None if data["target"] is None else int(data["target"]),
                seed=None if data["seed"] is None else int(data["seed"]),
                version=int(data["version"]),
                totals=[int(t) for t in data["totals"]],
                rounds=[Round.from_json(r) for r in data["rounds"]],
            )
        except StateError:
            raise
        except (AttributeError, KeyError, TypeError, ValueError) as exc:
            raise StateError(f"cannot read the game state: {quoted(exc)}") from None
        seats = len(game.players)
        if not MIN_PLAYERS <= seats <= MAX_PLAYERS or len(game.totals) != seats:
            raise StateError("cannot read the game state: wrong number of seats")
        for rnd in game.rounds:
            if len(rnd.hands) != seats or not 0 <= rnd.turn < seats:
                raise StateError(f"cannot read the game state: round {rnd.number} is broken")
        return game


def apply(game: Game, move: Move | str, seat: int | None = None) -> Game:
    """The game after `move` (a Move or its notation); `game` itself is not changed."""
    after = game.copy()
    after.push(after.parse_move(move) if isinstance(move, str) else move, seat)
    return after


def _on_end(play: Play) -> Play:
    return play if play.end is None else PLAYS_BY_END[play.end][play.tile]


def _fit_refusal(tile: Tile, end: End, ends: list[tuple[End, int]]) -> IllegalMoveError | None:
    if end >= len(ends):
        return IllegalMoveError(f"there is no {end} end yet", "no_such_end")
    value = ends[end][1]
    if tile[0] != value and tile[1] != value:
        return IllegalMoveError(f"{tile} does not fit on {end}", "does_not_fit")
    return None


ONLY_DRAW: tuple[Move, ...] = (DRAW,)
ONLY_PASS: tuple[Move, ...] = (PASS,)

# PLAYS_FITTING[end][value]: the plays at `end` of every tile showing `value`.
PLAYS_FITTING: list[list[dict[Tile, Play]]] = [
    [{t: p for t, p in PLAYS_BY_END[end].items() if t.has(value)} for value in range(7)]
    for end in End
]

# PLAY_TEXT[end][inner][outer]: a play as the record writes it, touching half first.
PLAY_TEXT: list[list[list[str]]] = [
    [[f"{inner}:{outer}@{end}" for outer in range(7)] for inner in range(7)] for end in End
]


def double_combinations(hand: list[Tile], ends: list[tuple[End, int]]) -> list[Move]:
    """muggins: every way to lay 2-4 doubles from `hand` on different matching ends."""
    options = [
        (tile, [end for end, v in ends if v == tile.high]) for tile in hand if tile.is_double
    ]
    options = [(tile, fits) for tile, fits in options if fits]
    if len(options) < 2:
        return []
    found: list[Move] = []

    def extend(index: int, chosen: list[Play], used: set[End]) -> None:
        if index == len(options):
            if len(chosen) >= 2:
                found.append(Doubles.of(chosen))
            return
        extend(index + 1, chosen, used)
        tile, fits = options[index]
        for end in fits:
            if end not in used:
                extend(index + 1, [*chosen, Play(tile, end)], used | {end})

    extend(0, [], set())
    return found


def _shuffle(key: str) -> tuple[list[int], int]:
    """The set's indices in an order fixed by `key`, and a number for drawing lots.

    Sorting by 32-bit keys cut from one SHAKE-256 digest: a uniform shuffle (ties
    are one in ten million and fall back to set order) at a fifth of the cost of
    building and seeding a `random.Random` for each deal.
    """
    keys = _KEYS.unpack(hashlib.shake_256(key.encode()).digest(_KEYS.size))
    return sorted(range(len(ALL_TILES)), key=keys.__getitem__), keys[-1]


_KEYS = struct.Struct(f">{len(ALL_TILES) + 1}I")
