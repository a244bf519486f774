"""The three games' rules, one `Ruleset` each, found through `VARIANTS`.

A ruleset holds only what differs between the games; the flow every game shares
(turns, drawing, blocking, rounds) lives in `engine.game`. Everything else that
treats games differently (the computer players, the bot's pictures and texts)
asks a ruleset's flags and methods, never a game's name: a new game is a new
`Ruleset` given to `register`.
"""

from __future__ import annotations

from typing import ClassVar, NamedTuple

from engine.table import OPENING_HUB, Table
from engine.tiles import End, Tile

OPENING_3_2 = Tile.of(3, 2)


class Counted(NamedTuple):
    """One open end in a game's count, as a player checks it against the table."""

    end: End | None  # None: a lone opening double, whose ends are one tile
    value: int  # the number the end shows
    double: bool  # a double lies at the end
    adds: int  # what it adds to the count
    counted: bool = True  # False: an open end this game's count leaves out


class Ruleset:
    """Behaviour shared by default; each game overrides what it changes."""

    name: ClassVar[str]
    # What the first double (fives) or first closed double (muggins) becomes. The
    # hub also says how the table counts (the simulator, engine.ai.sim, models the
    # two counts): a spinner table counts its four arms once all are taken, a house
    # table every open end, doubles twice.
    hub_kind: ClassVar[str | None] = None
    # The mover may score for the table as it lies after his play.
    scores_plays: ClassVar[bool] = True
    # fives: laying the spinner scores this; a count that is a multiple of five
    # scores `count_points` (0: the count divided by five, as muggins scores).
    hub_points: ClassVar[int] = 0
    count_points: ClassVar[int] = 0
    # muggins: 2-4 doubles may be laid at once.
    multi_doubles: ClassVar[bool] = False
    # twolane: one draw, then play it or pass with a penalty.
    single_draw: ClassVar[bool] = False
    pass_penalty: ClassVar[int] = 0
    # fives: a last tile played while the boneyard has tiles is replaced at once.
    refill_empty_hand: ClassVar[bool] = False
    # twolane: a player who empties his hand is skipped while the others play on.
    play_on_after_out: ClassVar[bool] = False
    # twolane: the match is one round, so rounds are never numbered.
    one_round: ClassVar[bool] = False
    # muggins: a play that reaches the target ends the match there, mid-round.
    target_mid_round: ClassVar[bool] = False
    # muggins: a round's end scores the pips left in the other hands (divided by five).
    scores_hands_left: ClassVar[bool] = False
    # twolane: the two rows growing from the opening are the game's two lanes, and
    # the table is drawn so (without a hub there is nothing to draw around).
    lanes: ClassVar[bool] = False
    # The match is scored in penalty points (fewer is better).
    penalty_scoring: ClassVar[bool] = False
    # fives: a single winner's record is his points minus everyone else's.
    keeps_record: ClassVar[bool] = False
    # muggins: the fewest points when the match ends have lost it.
    names_losers: ClassVar[bool] = False

    def __init__(self) -> None:
        # The class attributes declared above, copied onto the instance: the engine
        # reads them on every move, and Python finds an instance's own attribute
        # faster than its class's.
        for flag in Ruleset.__annotations__:
            setattr(self, flag, getattr(type(self), flag))

    def hand_size(self, players: int) -> int:
        raise NotImplementedError

    def default_target(self, players: int) -> int | None:
        return None

    def target_choices(self, players: int) -> tuple[int, ...]:
        """The targets a lobby may pick from, the default first; () if the target is fixed
        or there is none. A game whose target is a choice writes it in its records."""
        return ()

    def check_target(self, target: int | None, players: int) -> int | None:
        """The match target a game or record may use (None: this game has none)."""
        return self.default_target(players) if target is None else target

    def needs_redeal(self, round_number: int, boneyard: list[Tile]) -> bool:
        return False

    def first_starter(self, hands: list[list[Tile]], lot: int) -> int:
        """Round 1's starter: drawn by lot (`lot` is a random 32-bit number) unless named."""
        return lot % len(hands)

    def required_starter(self, hands: list[list[Tile]]) -> int | None:
        """The seat a record's first round must start with, if the rules name one."""
        return None

    def required_opening(self, round_number: int) -> Tile | None:
        return None

    def claim_hub(self, table: Table, end: End | None) -> None:
        """Called just after a tile was laid at `end` (None: the opening)."""

    def after_place(self, table: Table) -> int:
        """Points the mover scores for the table as it now lies."""
        return 0

    def count_parts(self, table: Table) -> list[Counted] | None:
        """The open ends as this game counts them, in the table's order of ends, those it
        leaves out included (None: nothing is counted now). The one place a count is
        decided: `count_terms` and every text that explains a count read it."""
        return None

    def count_terms(self, table: Table) -> list[int] | None:
        """The numbers this game adds up on the table (None: nothing is counted now)."""
        parts = self.count_parts(table)
        return None if parts is None else [part.adds for part in parts if part.counted]

    def round_end_points(
        self, hands: list[list[Tile]], totals: list[int], winner: int | None
    ) -> list[int]:
        """End-of-round points: `winner` went out, or None when the round is blocked."""
        return [0] * len(hands)

    def going_out_points(self, others_pips: float) -> float:
        """What emptying one's hand scores at the round's end (`round_end_points` for the
        player who went out), `others_pips` being the pips the other hands hold (or are
        expected to hold). A hand the boneyard refills has not gone out."""
        return 0.0

    def match_over(self, totals: list[int], target: int | None, round_over: bool) -> bool:
        """Whether the match ends now: once a round is over (`round_over`), or just after
        a scoring play (`round_over` False), which only `target_mid_round` games allow."""
        if self.one_round:
            return round_over
        if target is None or not (round_over or self.target_mid_round):
            return False
        return max(totals) >= target


class Fives(Ruleset):
    """Пятерное домино."""

    name = "fives"
    hub_kind = "spinner"
    hub_points = 2
    count_points = 4
    refill_empty_hand = True
    keeps_record = True
    OUT_POINTS: ClassVar[int] = 2  # for going out; a blocked round gives 1 to the fewest points
    # The lobby's targets by the number of players, the rules' default first.
    TARGETS: ClassVar[dict[int, tuple[int, ...]]] = {
        2: (25, 50, 100),
        3: (25, 50, 100),
        4: (20, 40, 100),
    }

    def hand_size(self, players: int) -> int:
        return 5 if players == 4 else 6

    def default_target(self, players: int) -> int | None:
        return self.target_choices(players)[0]

    def target_choices(self, players: int) -> tuple[int, ...]:
        return self.TARGETS[min(max(players, 2), 4)]

    def claim_hub(self, table: Table, end: End | None) -> None:
        # The round's first double is the spinner at once. It is laid before any
        # spinner exists, so it lies on the line: the opening or a W/E arm.
        if table.hub is not None:
            return
        if end is None:
            if table.opening is not None and table.opening.tile.is_double:
                table.set_hub(OPENING_HUB)
            return
        arm = table.arm(end)
        if arm[-1].tile.is_double:
            table.set_hub((end, len(arm) - 1))

    def after_place(self, table: Table) -> int:
        spinner = table.hub_tile()
        # The spinner is the round's first double: +2 on the move that laid it.
        points = self.hub_points if spinner is not None and spinner.seq == table.moves else 0
        terms = self.count_terms(table)
        if terms is not None:
            total = sum(terms)
            if total > 0 and total % 5 == 0:
                points += self.count_points
        return points

    def count_parts(self, table: Table) -> list[Counted] | None:
        if table.hub is None:
            return None
        ends = (End.W, End.E, End.N, End.S)
        if not all(table.arm_occupied(end) for end in ends):
            return None
        parts = []
        for end in ends:
            value = table.end_value(end)
            placed = table.outermost(end)
            # A double at an end counts its number once (docs/rules.md).
            parts.append(Counted(end, value, placed is not None and placed.tile.is_double, value))
        return parts

    def round_end_points(
        self, hands: list[list[Tile]], totals: list[int], winner: int | None
    ) -> list[int]:
        if winner is not None:
            return [self.OUT_POINTS if seat == winner else 0 for seat in range(len(hands))]
        fewest = min(totals)
        return [1 if total == fewest else 0 for total in totals]

    def going_out_points(self, others_pips: float) -> float:
        return float(self.OUT_POINTS)


class Muggins(Ruleset):
    """Пятёрки (до 51)."""

    name = "muggins"
    hub_kind = "house"
    multi_doubles = True
    target_mid_round = True
    scores_hands_left = True
    names_losers = True
    TARGET: ClassVar[int] = 51

    def hand_size(self, players: int) -> int:
        return 7

    def default_target(self, players: int) -> int | None:
        return self.TARGET

    def check_target(self, target: int | None, players: int) -> int | None:
        if target not in (None, self.TARGET):
            raise ValueError(f"{self.name} is played to {self.TARGET}")
        return self.TARGET

    def needs_redeal(self, round_number: int, boneyard: list[Tile]) -> bool:
        return round_number == 1 and OPENING_3_2 in boneyard

    def first_starter(self, hands: list[list[Tile]], lot: int) -> int:
        starter = self.required_starter(hands)
        return 0 if starter is None else starter

    def required_starter(self, hands: list[list[Tile]]) -> int | None:
        for seat, hand in enumerate(hands):
            if OPENING_3_2 in hand:
                return seat
        return None

    def required_opening(self, round_number: int) -> Tile | None:
        return OPENING_3_2 if round_number == 1 else None

    def claim_hub(self, table: Table, end: End | None) -> None:
        # The house is the first double closed on both its W and E sides: the
        # tile just laid may have closed the one it was attached to.
        if table.hub is not None or end not in (End.W, End.E):
            return
        arm = table.arm(end)
        if len(arm) >= 2:
            if arm[-2].tile.is_double:
                table.set_hub((end, len(arm) - 2))
            return
        opposite = End.E if end is End.W else End.W
        opening = table.opening
        if opening is not None and opening.tile.is_double and table.arm(opposite):
            table.set_hub(OPENING_HUB)

    def after_place(self, table: Table) -> int:
        total = sum(self.count_terms(table) or [])
        return total // 5 if total > 0 and total % 5 == 0 else 0

    def count_parts(self, table: Table) -> list[Counted] | None:
        opening = table.opening
        if opening is None:
            return None
        if opening.tile.is_double and not table.arm(End.W) and not table.arm(End.E):
            # A lone opening double counts once: one tile showing both ends.
            return [Counted(None, opening.outer, True, opening.tile.pips)]
        parts = []
        for end in (End.W, End.E, End.N, End.S):
            tile = table.outermost(end)
            if tile is None:
                if table.hub is not None and end in (End.N, End.S):
                    # The house's side with nothing on it yet: open, but not counted.
                    parts.append(Counted(end, table.end_value(end), False, 0, counted=False))
                continue
            value = table.end_value(end)  # the opening's free half on W is the one facing W
            if tile.tile.is_double:  # both halves
                parts.append(Counted(end, value, True, tile.tile.pips))
            else:
                parts.append(Counted(end, value, False, value))
        return parts

    def round_end_points(
        self, hands: list[list[Tile]], totals: list[int], winner: int | None
    ) -> list[int]:
        pips = [sum(t.pips for t in hand) for hand in hands]
        if winner is None:
            lowest = min(pips)
            holders = [seat for seat, p in enumerate(pips) if p == lowest]
            if len(holders) != 1:
                return [0] * len(hands)
            winner = holders[0]
        others = sum(p for seat, p in enumerate(pips) if seat != winner)
        return [others // 5 if seat == winner else 0 for seat in range(len(hands))]

    def going_out_points(self, others_pips: float) -> float:
        return float(int(others_pips) // 5)


class Twolane(Ruleset):
    """Двухполосное домино."""

    name = "twolane"
    scores_plays = False
    single_draw = True
    pass_penalty = 10
    play_on_after_out = True
    one_round = True
    lanes = True
    penalty_scoring = True

    def hand_size(self, players: int) -> int:
        return 6 if players == 4 else 5

    def check_target(self, target: int | None, players: int) -> int | None:
        if target is not None:
            raise ValueError("twolane has no target score")
        return None


# Every game, by name, in the order the bot offers them.
VARIANTS: dict[str, Ruleset] = {}


def register(rules: Ruleset) -> Ruleset:
    """Add a game to `VARIANTS` (a name may be taken once); returns it.

    Register before anything lists the games: the bot reads `VARIANTS` as it goes,
    but a stored game of an unregistered one cannot be read.
    """
    if not getattr(rules, "name", "") or rules.name in VARIANTS:
        raise ValueError(f"a game named {rules.name!r} is registered already")
    VARIANTS[rules.name] = rules
    return rules


for _rules in (Fives(), Muggins(), Twolane()):
    register(_rules)


def ruleset(name: str) -> Ruleset:
    try:
        return VARIANTS[name]
    except KeyError:
        raise ValueError(f"unknown game {name!r} (one of {', '.join(VARIANTS)})") from None
