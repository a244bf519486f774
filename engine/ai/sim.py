"""A compact copy of one round in play, fast enough for thousands of rollouts per move.

`Game.push` keeps the whole table (every tile, the record text, the legal-move
cache); a rollout only needs the open ends and a few flags per end, so this
plays the rest of a round several times faster. It is built from a `Game`
(`Sim.from_game`) and follows the same rules, read from the game's `Ruleset`
(`SimRules`); a test plays many random games of every registered game through
both and checks that they never disagree, and that `greedy_step` makes the
greedy player's move.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from engine.ai.greedy import STUCK
from engine.game import Game
from engine.moves import Doubles, Draw, Move, Play
from engine.tiles import End, Tile, pips_held_by_others
from engine.variants import Ruleset

W, E, N, S = 0, 1, 2, 3

# A move as the tiles it lays, each with its end: one pair for a play, 2-4 for a
# muggins doubles move; an opening's end is -1 - (the half facing W).
Candidate = tuple[tuple[Tile, int], ...]
Key = tuple[float, int, int, int]
TILE_OF: list[list[Tile]] = [[Tile(max(a, b), min(a, b)) for b in range(7)] for a in range(7)]


@dataclass(frozen=True, slots=True)
class SimRules:
    """A ruleset's switches and numbers as a rollout reads them, taken once (`sim_rules`).

    The table is modelled by its hub: a spinner (the first double; the four arms
    count once all are taken, see `Fives`), a house (the first double closed;
    every open end counts, doubles twice, see `Muggins`) or none (nothing counts).
    """

    ruleset: Ruleset
    spinner: bool
    house: bool
    hub_points: int  # laying the spinner
    count_points: int  # a spinner count that comes to a multiple of five
    multi_doubles: bool
    single_draw: bool
    pass_penalty: int
    refill: bool  # the boneyard refills an emptied hand
    play_on: bool  # the others play on after a player went out
    stuck: bool  # the greedy ranking minds a hand left with nothing that fits
    target_mid_round: bool
    # The spinner's shortcut of `greedy_step` (`_spinner_step`) makes the greedy move,
    # and the careful seat can judge the next seat's threat (`_threat`).
    spinner_step: bool


@cache
def sim_rules(rules: Ruleset) -> SimRules:
    """What the simulation needs of `rules`; a ValueError for a table it cannot model."""
    if rules.hub_kind not in (None, "spinner", "house"):
        raise ValueError(f"no simulation of a {rules.hub_kind!r} hub")
    if rules.hub_kind is not None and not rules.scores_plays:
        raise ValueError("no simulation of a hub that does not count")
    spinner = rules.hub_kind == "spinner"
    return SimRules(
        ruleset=rules,
        spinner=spinner,
        house=rules.hub_kind == "house",
        hub_points=rules.hub_points,
        count_points=rules.count_points,
        multi_doubles=rules.multi_doubles,
        single_draw=rules.single_draw,
        pass_penalty=rules.pass_penalty,
        refill=rules.refill_empty_hand,
        play_on=rules.play_on_after_out,
        stuck=rules.penalty_scoring,
        target_mid_round=rules.target_mid_round,
        spinner_step=spinner
        and not (rules.multi_doubles or rules.single_draw or rules.penalty_scoring),
    )


class Sim:
    """One round from some position on, with every hand known (a determinization).

    The table is kept as its open ends only: `ends[e]` the value, `occ[e]` whether
    the arm counts as occupied (fives: as the spinner rule means it; muggins: a
    tile lies on it), `dbl[e]` whether the tile showing there is a double (muggins
    counts both halves), `hub` whether the spinner or house is down.

    Every seat plays the greedy player's moves (`greedy_step`), except that the
    `careful` seat, at a spinner table, also weighs what its move leaves the next
    seat to score (`_threat`): the expert's own turns in its rollouts.
    """

    __slots__ = (
        "bone",
        "careful",
        "dbl",
        "drew",
        "end",
        "ends",
        "hands",
        "hub",
        "nends",
        "occ",
        "opening",
        "out",
        "passed",
        "rules",
        "seats",
        "target",
        "totals",
        "turn",
    )

    def __init__(self, rules: Ruleset) -> None:
        self.rules = sim_rules(rules)
        self.seats = 0
        self.hands: list[list[Tile]] = []
        self.bone: list[Tile] = []  # the next tile to draw last, for a cheap pop()
        self.turn = 0
        self.totals: list[int] = []  # match points, or twolane penalties
        self.target: int | None = None
        self.passed = 0  # bit mask of the seats that passed since the last play
        self.drew = False
        self.out: list[int] = []
        self.end: str | None = None
        self.ends = [0, 0, 0, 0]
        self.occ = [False, False, False, False]
        self.dbl = [False, False, False, False]
        self.hub = False
        self.nends = 0
        self.opening: Tile | None = None  # the tile an empty table must be opened with
        self.careful = -1  # a seat that plays greedy but minds the next seat's chances

    # -- building ----------------------------------------------------------

    @staticmethod
    def from_game(game: Game) -> Sim:
        rnd = game.rounds[-1]
        table = rnd.table
        sim = Sim(game.rules)
        rules = sim.rules
        sim.seats = len(rnd.hands)
        sim.hands = [list(hand) for hand in rnd.hands]
        sim.bone = rnd.boneyard[::-1]
        sim.turn = rnd.turn
        sim.totals = list(game.totals)
        sim.target = game.target
        sim.passed = sum(1 << seat for seat in rnd.passed)
        sim.drew = rnd.drew
        sim.out = list(rnd.out)
        sim.end = rnd.end
        sim.opening = game.rules.required_opening(rnd.number)
        sim.nends = len(table.ends)
        sim.hub = table.hub is not None
        for end, value in table.ends:
            sim.ends[end] = value
            outer = table.outermost(end)
            if end in (End.N, End.S) and not table.arm(end):
                outer = None
            if rules.house:
                sim.dbl[end] = outer is not None and outer.tile.is_double
                sim.occ[end] = bool(table.arm(end))
            elif rules.spinner:
                sim.occ[end] = sim.hub and table.arm_occupied(end)
        return sim

    def copy(self) -> Sim:
        sim = Sim.__new__(Sim)
        sim.rules = self.rules
        sim.seats = self.seats
        sim.hands = [list(hand) for hand in self.hands]
        sim.bone = list(self.bone)
        sim.turn = self.turn
        sim.totals = list(self.totals)
        sim.target = self.target
        sim.passed = self.passed
        sim.drew = self.drew
        sim.out = list(self.out)
        sim.end = self.end
        sim.ends = list(self.ends)
        sim.occ = list(self.occ)
        sim.dbl = list(self.dbl)
        sim.hub = self.hub
        sim.nends = self.nends
        sim.opening = self.opening
        sim.careful = self.careful
        return sim

    # -- the table -----------------------------------------------------------

    def _open(self, tile: Tile, west: int) -> bool:
        """Lay the opening; True if it is the spinner."""
        double = tile[0] == tile[1]
        self.ends[W] = west
        self.ends[E] = tile[0] + tile[1] - west
        rules = self.rules
        if rules.house:
            self.dbl[W] = self.dbl[E] = double
        self.nends = 2
        if rules.spinner and double:
            self.hub = True
            self.ends[N] = self.ends[S] = west
            self.nends = 4
            return True
        return False

    def _attach(self, tile: Tile, end: int) -> bool:
        """Lay `tile` at `end`; True if it is the spinner."""
        ends = self.ends
        value = ends[end]
        double = tile[0] == tile[1]
        rules = self.rules
        if rules.spinner:
            ends[end] = tile[0] + tile[1] - value
            if self.hub:
                self.occ[end] = True
                return False
            if double:
                # The first double, laid on the line: nothing beyond it yet on its
                # own side, the line behind it on the other.
                self.hub = True
                self.occ[end] = False
                self.occ[1 - end] = True
                ends[N] = ends[S] = value
                self.nends = 4
                return True
            return False
        if rules.house:
            if not self.hub and end <= E and self.dbl[end] and (self.occ[end] or self.occ[1 - end]):
                # A tile on a line end closes the double showing there (the opening
                # double once both its sides are covered): the first double
                # closed becomes the house.
                self.hub = True
                ends[N] = ends[S] = value
                self.nends = 4
            self.occ[end] = True
            self.dbl[end] = double
        ends[end] = tile[0] + tile[1] - value
        return False

    def _points(self, spinner: bool) -> int:
        """What the move just laid scores by itself."""
        rules = self.rules
        ends = self.ends
        if rules.spinner:
            if spinner:
                return rules.hub_points
            occ = self.occ
            if self.hub and occ[0] and occ[1] and occ[2] and occ[3]:
                total = ends[0] + ends[1] + ends[2] + ends[3]
                if total > 0 and total % 5 == 0:
                    return rules.count_points
            return 0
        if rules.house:
            occ = self.occ
            dbl = self.dbl
            if not occ[W] and not occ[E] and dbl[W]:
                total = ends[W] * 2  # a lone opening double counts once
            else:
                total = 0
                for end in (0, 1) if not self.hub else (0, 1, 2, 3):
                    if end <= E or occ[end]:
                        total += ends[end] * 2 if dbl[end] else ends[end]
            return total // 5 if total > 0 and total % 5 == 0 else 0
        return 0

    def _play_effect(self, tile: Tile, end: int) -> tuple[int, list[int]]:
        """What one tile laid at `end` would score, and the open ends' values after it.

        The same as `_lay` and `_points` without touching the table: the greedy
        ranking asks this of every candidate of every simulated move.
        """
        ends = self.ends
        value = ends[end]
        new = tile[0] + tile[1] - value
        values = ends[: self.nends]
        values[end] = new
        rules = self.rules
        if rules.spinner:
            if not self.hub:
                if tile[0] == tile[1]:
                    values += (value, value)
                    return rules.hub_points, values
                return 0, values
            occ = self.occ
            for other in range(4):
                if other != end and not occ[other]:
                    return 0, values
            total = values[0] + values[1] + values[2] + values[3]
            return (rules.count_points if total > 0 and total % 5 == 0 else 0), values
        if rules.house:
            occ = self.occ
            dbl = self.dbl
            if not self.hub and end <= E and dbl[end] and (occ[end] or occ[1 - end]):
                values += (value, value)  # a new house: its N and S sides count once covered
            # After any play a line arm is covered, so the lone opening double never
            # applies here.
            total = 0
            for other in range(self.nends):
                if other == end:
                    total += new * 2 if tile[0] == tile[1] else new
                elif other <= E or occ[other]:
                    total += ends[other] * 2 if dbl[other] else ends[other]
            return (total // 5 if total > 0 and total % 5 == 0 else 0), values
        return 0, values

    def _save(self) -> tuple[list[int], list[bool], list[bool], bool, int]:
        return (list(self.ends), list(self.occ), list(self.dbl), self.hub, self.nends)

    def _restore(self, saved: tuple[list[int], list[bool], list[bool], bool, int]) -> None:
        self.ends, self.occ, self.dbl, self.hub, self.nends = saved

    def _lay(self, candidate: Candidate) -> int:
        """Put the candidate's tiles on the table; the points the move scores."""
        if len(candidate) > 1:
            for tile, end in candidate:
                self._attach(tile, end)
            return self._points(False)
        tile, end = candidate[0]
        spinner = self._open(tile, -1 - end) if end < 0 else self._attach(tile, end)
        return self._points(spinner)

    # -- playing -------------------------------------------------------------

    def apply(self, move: Move) -> None:
        """Make an engine move (a legal one: it is not checked)."""
        if isinstance(move, Play):
            if move.end is None:
                west = move.tile.high if move.west is None else move.west
                self._make(((move.tile, -1 - west),))
            else:
                self._make(((move.tile, int(move.end)),))
        elif isinstance(move, Doubles):
            self._make(tuple((p.tile, int(p.end)) for p in move.plays if p.end is not None))
        elif isinstance(move, Draw):
            self._draw()
        else:
            self._pass()

    def make(self, candidate: Candidate) -> None:
        """Lay one of `candidates()`."""
        self._make(candidate)

    def pass_turn(self) -> None:
        """Pass (and take the pass's penalty, if the game has one); only when no play fits."""
        self._pass()

    def _can_draw(self) -> bool:
        return bool(self.bone) and not (self.rules.single_draw and self.drew)

    def _draw(self) -> None:
        self.hands[self.turn].append(self.bone.pop())
        self.drew = True

    def _pass(self) -> None:
        turn = self.turn
        self.passed |= 1 << turn
        self.drew = False
        penalty = self.rules.pass_penalty
        if penalty:
            self.totals[turn] += penalty
        if not self.bone:
            passed = self.passed
            if all(passed >> seat & 1 for seat, hand in enumerate(self.hands) if hand):
                self._end_round("blocked", None)
                return
        self._next_turn()

    def _make(self, candidate: Candidate) -> None:
        turn = self.turn
        hand = self.hands[turn]
        points = self._lay(candidate)
        for tile, _ in candidate:
            hand.remove(tile)
        self.passed = 0
        self.drew = False
        if points:
            self.totals[turn] += points
        rules = self.rules
        if not hand:
            if rules.refill and self.bone:
                hand.append(self.bone.pop())
            else:
                self.out.append(turn)
                if not rules.play_on or sum(1 for h in self.hands if h) <= 1:
                    self._end_round("out", turn)
                    return
        if (
            points
            and rules.target_mid_round
            and rules.ruleset.match_over(self.totals, self.target, False)
        ):
            self.end = "target"
            return
        self._next_turn()

    def _next_turn(self) -> None:
        seats = self.seats
        seat = (self.turn + 1) % seats
        while not self.hands[seat]:
            seat = (seat + 1) % seats
        self.turn = seat

    def _end_round(self, how: str, winner: int | None) -> None:
        self.end = how
        totals = self.totals
        # Once a rollout: the ruleset's own count is quick enough here.
        bonus = self.rules.ruleset.round_end_points(self.hands, totals, winner)
        for seat, points in enumerate(bonus):
            if points:
                totals[seat] += points

    @property
    def match_over(self) -> bool:
        """Whether the match (of a one-round game: the game) is over; only once the round
        has ended."""
        if self.end is None:
            return False
        return self.rules.ruleset.match_over(self.totals, self.target, True)

    # -- the greedy policy -----------------------------------------------------

    def candidates(self) -> list[Candidate]:
        """The plays open to the seat to act, in the engine's `legal_moves` order."""
        hand = self.hands[self.turn]
        ends = self.ends
        found: list[Candidate] = []
        if self.nends == 0:
            for tile in hand if self.opening is None else [self.opening]:
                found.append(((tile, -1 - tile[0]),))
                if tile[0] != tile[1]:
                    found.append(((tile, -1 - tile[1]),))
            return found
        for end in range(self.nends):
            value = ends[end]
            for tile in hand:
                if tile[0] == value or tile[1] == value:
                    found.append(((tile, end),))
        if found and self.rules.multi_doubles:
            found.extend(self._double_combinations(hand))
        return found

    def _double_combinations(self, hand: list[Tile]) -> list[Candidate]:
        ends = self.ends
        options = []
        for tile in hand:
            if tile[0] == tile[1]:
                fits = [end for end in range(self.nends) if ends[end] == tile[0]]
                if fits:
                    options.append((tile, fits))
        if len(options) < 2:
            return []
        found: list[Candidate] = []

        def extend(index: int, chosen: list[tuple[Tile, int]], used: int) -> None:
            if index == len(options):
                if len(chosen) >= 2:
                    found.append(tuple(sorted(chosen, key=lambda play: play[1])))
                return
            extend(index + 1, chosen, used)
            tile, fits = options[index]
            for end in fits:
                if not used >> end & 1:
                    extend(index + 1, [*chosen, (tile, end)], used | 1 << end)

        extend(0, [], 0)
        return found

    def key(self, candidate: Candidate, others_pips: float | None = None) -> Key:
        """The greedy ranking of a candidate (see `engine.ai.greedy.move_key`).

        `others_pips` (the pips in the other hands) only matters to a move that goes
        out; None: counted here when needed.
        """
        hand = self.hands[self.turn]
        laid: tuple[Tile, ...]
        if len(candidate) == 1:
            tile, end = candidate[0]
            if end >= 0:
                points, values = self._play_effect(tile, end)
            else:
                saved = self._save()
                points = self._lay(candidate)
                values = self.ends[: self.nends]
                self._restore(saved)
            laid_pips = tile[0] + tile[1]
            left = len(hand) - 1
            laid = (tile,)
        else:
            saved = self._save()
            points = self._lay(candidate)
            values = self.ends[: self.nends]
            self._restore(saved)
            laid = tuple(t for t, _ in candidate)
            laid_pips = sum(t[0] + t[1] for t in laid)
            left = len(hand) - len(laid)
        score = float(points)
        shown = 0  # the open ends' values after the move, as bits
        for value in values:
            shown |= 1 << value
        fits, kept = fits_and_kept(hand, laid, shown)
        rules = self.rules
        if not left:
            if not (rules.refill and self.bone):
                if others_pips is None:
                    others_pips = pips_held_by_others(self.hands, self.turn)
                score += rules.ruleset.going_out_points(others_pips)
        elif rules.stuck and not fits:
            score += STUCK
        return (score, laid_pips, fits, kept)

    def greedy_step(self) -> int:
        """Make the greedy player's move for the seat to act; how many plays it weighed."""
        if self.nends and self.rules.spinner_step:
            return self._spinner_step()
        found = self.candidates()
        if not found:
            if self._can_draw():
                self._draw()
            else:
                self._pass()
            return 0
        best = found[0]
        if len(found) > 1:
            careful = self.turn == self.careful and self.rules.spinner_step
            key = self.key
            best_key = key(best)
            if careful:
                best_key = (best_key[0] - self._threat(best), *best_key[1:])
            for candidate in found[1:]:
                new_key = key(candidate)
                if careful:
                    new_key = (new_key[0] - self._threat(candidate), *new_key[1:])
                if new_key > best_key:
                    best, best_key = candidate, new_key
        self._make(best)
        return len(found)

    def _spinner_step(self) -> int:
        """`greedy_step` at a spinner table once it is open: the same move, found faster.

        Most of a rollout is spent here. The ranking is lexicographic, so each play
        is ranked by its points (less the careful seat's threat) and pips first,
        read off the ends without building the candidate, and only plays tied on
        both are told apart by the rest of `key`.
        """
        hand = self.hands[self.turn]
        ends = self.ends
        found: list[tuple[Tile, int]] = []
        for end in range(self.nends):
            value = ends[end]
            for tile in hand:
                if tile[0] == value or tile[1] == value:
                    found.append((tile, end))
        count = len(found)
        if not count:
            if self.bone:
                self._draw()
            else:
                self._pass()
            return 0
        if count == 1:
            self._make((found[0],))
            return 1
        careful = self.turn == self.careful
        rules = self.rules
        hub_points = rules.hub_points
        count_points = rules.count_points
        hub = self.hub
        occ = self.occ
        empty = -1  # the one empty arm, if only one is; -2: more than one
        if hub:
            for arm in range(4):
                if not occ[arm]:
                    empty = arm if empty == -1 else -2
        total = ends[0] + ends[1] + ends[2] + ends[3]
        bonus = 0.0
        if len(hand) == 1 and not (rules.refill and self.bone):
            # Going out: every play here lays the one tile.
            others = pips_held_by_others(self.hands, self.turn)
            bonus = rules.ruleset.going_out_points(others)
        best_rank: tuple[float, int] | None = None
        tied: list[tuple[Tile, int]] = []
        for play in found:
            tile, end = play
            low, high = tile[1], tile[0]
            if not hub:
                points = hub_points if low == high else 0
            elif empty == -1 or empty == end:
                after = total - ends[end] + low + high - ends[end]
                points = count_points if after > 0 and after % 5 == 0 else 0
            else:
                points = 0
            score = float(points) + bonus
            if careful:
                score = score - self._threat((play,))
            rank = (score, low + high)
            if best_rank is None or rank > best_rank:
                best_rank = rank
                tied = [play]
            elif rank == best_rank:
                tied.append(play)
        best = tied[0]
        if len(tied) > 1:
            # The rest of `key`: the tiles left that fit an end after the play, then
            # the distinct values they keep.
            best_rest = (-1, -1)
            for play in tied:
                tile, end = play
                shown = 1 << (tile[0] + tile[1] - ends[end])
                for other in range(self.nends):
                    if other != end:
                        shown |= 1 << ends[other]
                rest = fits_and_kept(hand, (tile,), shown)
                if rest > best_rest:
                    best, best_rest = play, rest
        self._make((best,))
        return count

    def _threat(self, candidate: Candidate) -> float:
        """The points the next seat may expect to score right after `candidate` (at a
        spinner table).

        Judged from what the mover can know: which tiles would score (at most two
        per end: the sum must come to a multiple of 5), how many of them it cannot
        see, and how many tiles the next seat holds. Read off the ends without
        laying the tile: it runs for every option of the careful seat's every move.
        """
        tile, end = candidate[0]
        ends = self.ends
        targets: set[Tile] = set()
        if end < 0:
            return self._threat_by_laying(candidate)
        new = tile[0] + tile[1] - ends[end]
        if self.hub:
            occ = self.occ
            empty = [other for other in range(4) if not occ[other] and other != end]
            if len(empty) > 1:
                return 0.0  # no sum counts until at most one arm is empty
            values = list(ends)
            values[end] = new
            total = values[0] + values[1] + values[2] + values[3]
            for other in empty or range(4):
                value = values[other]
                for pips in range(7):
                    after = total - value + pips
                    if after > 0 and after % 5 == 0:
                        targets.add(TILE_OF[value][pips])
            worth = self.rules.count_points
        elif tile[0] == tile[1]:
            return 0.0  # it becomes the spinner, with three arms still empty
        else:
            worth = self.rules.hub_points  # the first double
            other = ends[1 - end]
            targets.add(TILE_OF[other][other])
            targets.add(TILE_OF[new][new])
        return self._chance(targets, worth)

    def _threat_by_laying(self, candidate: Candidate) -> float:
        """`_threat` for an opening: lay it, look, and take it back."""
        saved = self._save()
        self._lay(candidate)
        ends = self.ends
        targets: set[Tile] = set()
        if not self.hub:
            for end in range(self.nends):
                targets.add(TILE_OF[ends[end]][ends[end]])
        self._restore(saved)
        # An opening spinner leaves every arm empty: nothing counts yet.
        return self._chance(targets, self.rules.hub_points) if targets else 0.0

    def _chance(self, targets: set[Tile], worth: int) -> float:
        """`worth` times the chance that the next seat holds one of `targets`."""
        if not targets:
            return 0.0
        turn = self.turn
        unseen = len(self.bone)
        found = 0
        for seat, hand in enumerate(self.hands):
            if seat != turn:
                unseen += len(hand)
                for tile in hand:
                    if tile in targets:
                        found += 1
        for tile in self.bone:
            if tile in targets:
                found += 1
        if not found:
            return 0.0
        nxt = (turn + 1) % self.seats
        while not self.hands[nxt]:
            nxt = (nxt + 1) % self.seats
        held = len(self.hands[nxt]) if nxt != turn else 0
        return worth * (1.0 - (1.0 - found / unseen) ** held)

    def play_out(self) -> int:
        """Greedy play for every seat until the round ends.

        Returns the work it took, a measure of its time: a unit per move and
        per play weighed.
        """
        work = 0
        while self.end is None:
            work += 1 + self.greedy_step()
        return work


def fits_and_kept(hand: list[Tile], laid: tuple[Tile, ...], shown: int) -> tuple[int, int]:
    """The rest of the greedy key: how many tiles kept (`hand` less `laid`) fit an end
    whose value is among `shown` (as bits), and how many distinct values they keep."""
    fits = 0
    kept = 0
    for held in hand:
        if held in laid:
            continue
        bits = 1 << held[0] | 1 << held[1]
        if bits & shown:
            fits += 1
        kept |= bits
    return fits, kept.bit_count()
