"""A second, independent reading of docs/rules.md: a referee that follows a game move by move.

It keeps its own hands, boneyard, ends and scores, and works out the legal moves
and every point from the rules text alone (it never asks the engine how). The
property tests play random games and compare the engine with it after each
action. Only the deal comes from the engine (the shuffle is not a rule).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations, product

from engine import Game, Tile, standings
from engine.game import Round as EngineRound

ENDS = ("W", "E", "N", "S")
OTHER = {"W": "E", "E": "W"}
THREE_TWO = Tile.of(3, 2)


def pips(tiles: list[Tile]) -> int:
    return sum(t.high + t.low for t in tiles)


@dataclass
class Round:
    number: int
    starter: int
    hands: list[list[Tile]]
    boneyard: list[Tile]
    turn: int
    ends: dict[str, int] = field(default_factory=dict)  # W E (N S) -> value
    opening: Tile | None = None
    # fives: the spinner and which of its arms hold a tile
    spinner: bool = False
    occupied: dict[str, bool] = field(default_factory=dict)
    # muggins: tiles on each W/E arm, whether each end's outer tile is a double,
    # the house and whether its N/S arms hold a tile
    arm_len: dict[str, int] = field(default_factory=lambda: {"W": 0, "E": 0})
    double_at: dict[str, bool] = field(default_factory=dict)
    house: bool = False
    arm_has: dict[str, bool] = field(default_factory=lambda: {"N": False, "S": False})
    passed: set[int] = field(default_factory=set)
    drew: bool = False
    out: list[int] = field(default_factory=list)
    end: str | None = None
    points: list[int] = field(default_factory=list)
    penalties: list[int] = field(default_factory=list)


class Referee:
    def __init__(self, game: Game) -> None:
        self.variant = game.variant
        self.players = len(game.players)
        defaults = {"fives": 20 if self.players == 4 else 25, "muggins": 51, "twolane": None}
        self.target = game.target if self.variant == "fives" else defaults[self.variant]
        self.totals = [0] * self.players
        self.over = False
        self.first_double = False  # fives: the move being scored laid the spinner
        self.rounds: list[Round] = []
        self.take_deal(game)

    # -- dealing ------------------------------------------------------------------

    def take_deal(self, game: Game) -> None:
        """Pick up the round the engine dealt, checking what the rules say of a deal."""
        dealt = game.round
        n = self.players
        size = {"fives": 5 if n == 4 else 6, "muggins": 7, "twolane": 6 if n == 4 else 5}
        assert [len(h) for h in dealt.hands] == [size[self.variant]] * n
        number = len(self.rounds) + 1
        assert dealt.number == number
        if number > 1:
            assert dealt.starter == (self.rounds[-1].starter + 1) % n
        elif self.variant == "muggins":
            assert THREE_TWO in dealt.hands[dealt.starter]
        self.rounds.append(
            Round(
                number=number,
                starter=dealt.starter,
                hands=[list(h) for h in dealt.hands],
                boneyard=list(dealt.boneyard),
                turn=dealt.starter,
                points=[0] * n,
                penalties=[0] * n,
            )
        )

    @property
    def round(self) -> Round:
        return self.rounds[-1]

    # -- legal moves ----------------------------------------------------------------

    def legal(self) -> list[str]:
        rnd = self.round
        if rnd.end is not None:
            return []
        hand = rnd.hands[rnd.turn]
        if rnd.opening is None:
            if self.variant == "muggins" and rnd.number == 1:
                return ["3:2", "2:3"]
            found = []
            for t in hand:
                found.append(f"{t.high}:{t.low}")
                if t.high != t.low:
                    found.append(f"{t.low}:{t.high}")
            return found
        plays = [f"{t}@{e}" for e, v in rnd.ends.items() for t in hand if v in (t.high, t.low)]
        if plays:
            if self.variant == "muggins":
                plays += self.doubles_moves(hand)
            return plays
        if self.variant == "twolane" and rnd.drew:
            return ["pass"]
        return ["draw"] if rnd.boneyard else ["pass"]

    def doubles_moves(self, hand: list[Tile]) -> list[str]:
        doubles = [t for t in hand if t.high == t.low]
        found = set()
        for size in (2, 3, 4):
            for chosen in combinations(doubles, size):
                options = [[e for e, v in self.round.ends.items() if v == d.high] for d in chosen]
                for ends in product(*options):
                    if len(set(ends)) == size:
                        plays = sorted(
                            zip(ends, chosen, strict=True), key=lambda p: ENDS.index(p[0])
                        )
                        found.add("+".join(f"{d}@{e}" for e, d in plays))
        return sorted(found)

    # -- applying ---------------------------------------------------------------------

    def act(self, text: str) -> int:
        """Apply a move written as the engine writes legal moves; the points it scores."""
        rnd = self.round
        mover = rnd.turn
        hand = rnd.hands[mover]
        if text == "draw":
            hand.append(rnd.boneyard.pop(0))
            rnd.drew = True
            return 0
        if text == "pass":
            self.pass_turn(rnd, mover)
            return 0
        if "@" not in text:
            west, east = (int(x) for x in text.split(":"))
            tile = Tile.of(west, east)
            hand.remove(tile)
            self.open(rnd, tile, west, east)
        else:
            before = dict(rnd.ends)
            for part in text.split("+"):
                tile_text, end = part.split("@")
                tile = Tile.parse(tile_text)
                assert before[end] in (tile.high, tile.low)
                hand.remove(tile)
                self.attach(rnd, tile, end)
        points = self.score(rnd)
        rnd.passed.clear()
        rnd.drew = False
        rnd.points[mover] += points
        self.totals[mover] += points
        if not hand:
            if self.variant == "fives" and rnd.boneyard:
                hand.append(rnd.boneyard.pop(0))
            else:
                rnd.out.append(mover)
                holders = sum(1 for h in rnd.hands if h)
                if self.variant != "twolane" or holders <= 1:
                    self.end_round(rnd, "out", mover)
                    return points
        if self.variant == "muggins" and max(self.totals) >= 51:
            rnd.end = "target"
            self.over = True
            return points
        self.next_turn(rnd)
        return points

    def open(self, rnd: Round, tile: Tile, west: int, east: int) -> None:
        rnd.opening = tile
        rnd.ends = {"W": west, "E": east}
        double = west == east
        if self.variant == "fives" and double:
            rnd.spinner = True
            rnd.ends.update(N=west, S=west)
            rnd.occupied = dict.fromkeys(ENDS, False)
            self.first_double = True
        rnd.double_at = {"W": double, "E": double}

    def attach(self, rnd: Round, tile: Tile, end: str) -> None:
        value = rnd.ends[end]
        rnd.ends[end] = tile.low if tile.high == value else tile.high
        double = tile.high == tile.low
        if self.variant == "fives":
            if rnd.spinner:
                rnd.occupied[end] = True
            elif double:
                rnd.spinner = True
                rnd.ends.update(N=value, S=value)
                rnd.occupied = dict.fromkeys(ENDS, False)
                rnd.occupied[OTHER[end]] = True  # the line it was laid on
                self.first_double = True
        if self.variant == "muggins":
            if end in OTHER:
                if not rnd.house:
                    inner_double = rnd.double_at[end]
                    if rnd.arm_len[end] > 0 and inner_double:
                        self.make_house(rnd, value)
                    elif rnd.arm_len[end] == 0 and inner_double and rnd.arm_len[OTHER[end]] > 0:
                        self.make_house(rnd, value)  # the opening double, now covered both ways
                rnd.arm_len[end] += 1
            else:
                rnd.arm_has[end] = True
            rnd.double_at[end] = double

    def make_house(self, rnd: Round, value: int) -> None:
        rnd.house = True
        rnd.ends.update(N=value, S=value)

    def score(self, rnd: Round) -> int:
        if self.variant == "fives":
            points = 2 if self.first_double else 0
            self.first_double = False
            if rnd.spinner and all(rnd.occupied.values()):
                total = sum(rnd.ends.values())
                if total > 0 and total % 5 == 0:
                    points += 4
            return points
        if self.variant == "muggins":
            if rnd.arm_len == {"W": 0, "E": 0} and rnd.opening.high == rnd.opening.low:
                total = rnd.opening.high * 2
            else:
                total = 0
                for end in ENDS:
                    if end in ("N", "S") and not rnd.arm_has[end]:
                        continue
                    value = rnd.ends[end]
                    total += 2 * value if rnd.double_at[end] else value
            return total // 5 if total > 0 and total % 5 == 0 else 0
        return 0

    def pass_turn(self, rnd: Round, mover: int) -> None:
        if self.variant == "twolane":
            rnd.penalties[mover] += 10
            self.totals[mover] += 10
        rnd.passed.add(mover)
        rnd.drew = False
        holders = [s for s, h in enumerate(rnd.hands) if h]
        if not rnd.boneyard and all(s in rnd.passed for s in holders):
            self.end_round(rnd, "blocked", None)
        else:
            self.next_turn(rnd)

    def end_round(self, rnd: Round, end: str, winner: int | None) -> None:
        rnd.end = end
        n = self.players
        bonus = [0] * n
        if self.variant == "fives":
            if winner is not None:
                bonus[winner] = 2
            else:
                fewest = min(self.totals)
                bonus = [1 if t == fewest else 0 for t in self.totals]
        elif self.variant == "muggins":
            held = [pips(h) for h in rnd.hands]
            if winner is None:
                lowest = min(held)
                if held.count(lowest) == 1:
                    winner = held.index(lowest)
            if winner is not None:
                bonus[winner] = (sum(held) - held[winner]) // 5
        for seat in range(n):
            rnd.points[seat] += bonus[seat]
            self.totals[seat] += bonus[seat]
        if self.variant == "fives":
            self.over = max(self.totals) >= self.target
        elif self.variant == "muggins":
            self.over = max(self.totals) >= 51
        else:
            self.over = True

    def next_turn(self, rnd: Round) -> None:
        seat = (rnd.turn + 1) % self.players
        while not rnd.hands[seat]:
            seat = (seat + 1) % self.players
        rnd.turn = seat

    # -- comparing ----------------------------------------------------------------------

    def places(self) -> list[int]:
        if self.variant != "twolane":
            keys: list[tuple[int, ...]] = [(-t,) for t in self.totals]
        else:
            rnd = self.round
            keys = [
                (
                    self.totals[s],
                    rnd.out.index(s) if s in rnd.out else self.players,
                    len(rnd.hands[s]),
                    pips(rnd.hands[s]),
                )
                for s in range(self.players)
            ]
        return [1 + sum(1 for k in keys if k < key) for key in keys]

    def check(self, game: Game) -> None:
        """The engine agrees with the referee on everything the rules decide."""
        if len(game.rounds) > len(self.rounds):
            mine = self.round
            theirs = game.rounds[len(self.rounds) - 1]
            self.compare_round(mine, theirs)
            assert not self.over, "the engine dealt a round after the match ended"
            self.take_deal(game)
        rnd = self.round
        self.compare_round(rnd, game.round)
        assert game.totals == self.totals
        assert game.over == self.over
        assert game.turn == (None if rnd.end is not None else rnd.turn)
        assert sorted(str(m) for m in game.legal_moves()) == sorted(self.legal())
        assert len(game.legal_moves()) == len(self.legal())
        if self.over:
            assert list(standings(game).places) == self.places()

    def compare_round(self, mine: Round, theirs: EngineRound) -> None:
        assert [sorted(h) for h in theirs.hands] == [sorted(h) for h in mine.hands]
        assert theirs.boneyard == mine.boneyard
        assert theirs.end == mine.end
        assert theirs.out == mine.out
        assert theirs.points == mine.points
        assert theirs.penalties == mine.penalties
        assert {e.name: v for e, v in theirs.table.open_ends()} == mine.ends
