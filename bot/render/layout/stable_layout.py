"""The table in grid units: every tile's place, decided once when it is laid, never moved.

The round's tiles are laid out in the order they were played (`Placed.seq`, the
ends of one `muggins` doubles move in the order W, E, N, S), each from the places
of the tiles before it and the state of the round before its move: so the layout
of a table is the first tiles of the layout of any later table of the same
round, and the picture only pans or zooms out as a whole (`bot.render.layout.fitting`).

- The opening lies at (0, 0), along the line; W leaves it westward, E eastward.
- A double that is, or may still become, the hub (every double laid before the
  hub is down: in `fives` that is the spinner itself, in `muggins` any double
  until one is closed) lies across the line, so that the hub never has to turn;
  the line goes on past it in the hub's frame (`bot.render.layout.rays`).
- Before the hub is down, a ray steps rather than folds (`bot.render.layout.snake`), so
  a hub laid at its end always has room for its arms.

Units: a tile is 4 x 2 (`bot.render.layout.snake`). Each open end has the slot its next
tile goes to: the same for any tile (a double there lies across it, in its place).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, field, replace
from functools import lru_cache

from bot.render.layout.rays import HubPlace, back_of, hub_frames, opening_frames
from bot.render.layout.snake import (
    MIN_RUN,
    SEPARATION,
    Bounds,
    Box,
    Course,
    Frame,
    NextSlot,
    next_slot,
)
from engine.table import Placed, Table
from engine.tiles import End
from engine.variants import ruleset

# The box around the opening that rays turn at (units: half its width, half its
# height): the board at the smallest tile size holds it, a little wider than tall.
BOUNDS: dict[bool, Bounds] = {False: (14, 14), True: (14, 14)}


@dataclass(frozen=True, slots=True)
class Spot:
    """A table tile's place in the grid.

    `first` is the pip count on the left half (horizontal) or the top half
    (vertical). `arm`, `index`: where it lies on the table (`arm` None: the
    opening). `travel`: the way the line runs through it, from the opening or
    hub out (a corner: the way it turns); None for the opening. `across`: a
    double laid across the line; `hub`: the spinner or house.
    """

    placed: Placed
    arm: End | None
    index: int
    box: Box
    first: int
    second: int
    travel: End | None
    across: bool = False
    hub: bool = False
    corner: bool = False

    @property
    def vertical(self) -> bool:
        return self.box[3] - self.box[1] > self.box[2] - self.box[0]


@dataclass(frozen=True, slots=True)
class OpenEnd:
    """An open end: where its next tile goes (`slot.box`, `slot.travel`), and where a
    double laid there would lie (`double`: across it, or the corner's own place);
    `across`: whether a double laid there would lie across (it may become the hub)."""

    end: End
    value: int
    slot: NextSlot
    double: Box
    across: bool = False


@dataclass(frozen=True, slots=True)
class TableGrid:
    """A table laid out in grid units: its tiles in the order laid, its open ends."""

    spots: tuple[Spot, ...]
    ends: tuple[OpenEnd, ...]

    def extent(self) -> Box:
        """The smallest box holding every tile and every open end's next slot."""
        boxes = [s.box for s in self.spots] + [e.slot.box for e in self.ends]
        if not boxes:
            return (0, 0, 0, 0)
        return (
            min(b[0] for b in boxes),
            min(b[1] for b in boxes),
            max(b[2] for b in boxes),
            max(b[3] for b in boxes),
        )

    def end(self, end: End) -> OpenEnd | None:
        return next((e for e in self.ends if e.end is end), None)


@dataclass(frozen=True, slots=True)
class Rules:
    """What a game's layout depends on."""

    hubs: bool  # the game has a spinner or house
    house: bool  # the hub is the first double closed (muggins), not the first laid
    bounds: Bounds


def rules_of(variant: str) -> Rules:
    rules = ruleset(variant)
    return Rules(rules.hub_kind is not None, rules.hub_kind == "house", BOUNDS[rules.lanes])


def grid_of(table: Table, variant: str) -> TableGrid:
    """The table's layout in grid units (cached by the table's shape: the board, its
    caption, the hands and the buttons all lay out the same table)."""
    if table.opening is None:
        return TableGrid((), ())
    return _cached_grid(TableKey(table, table_shape(table)), rules_of(variant))


def table_shape(table: Table) -> tuple[object, ...]:
    """A table as a hashable value: equal when the same tiles lie the same way."""
    return (table.opening, tuple(map(tuple, table.arms)), table.hub)


@dataclass(frozen=True, slots=True)
class TableKey:
    """A table as a cache key: equal when the same tiles lie the same way."""

    table: Table = field(compare=False, hash=False)
    shape: tuple[object, ...]


# Sized for a few hundred games at once: each one's table now, and the tables its
# latest moves are named from (a grid is a few kilobytes).
@lru_cache(maxsize=2048)
def _cached_grid(key: TableKey, rules: Rules) -> TableGrid:
    return lay_out(key.table, rules)


def lay_out(table: Table, rules: Rules) -> TableGrid:
    """Lay the table's tiles out one by one, in the order they were played."""
    opening = table.opening
    assert opening is not None
    start = _Start(rules, opening, table.hub_tile(), _hub_seq(table, rules.house))
    steps = tuple(sorted((p.seq, end, i, p) for end in End for i, p in enumerate(table.arm(end))))
    layer = _replayed(start, steps)
    coming = table.moves + 1
    ends = tuple(layer.open_end(end, value, coming) for end, value in table.ends)
    return TableGrid(tuple(layer.spots), ends)


@dataclass(frozen=True, slots=True)
class _Start:
    """What a replay depends on besides its tiles: the rules, the opening, and the hub
    as the table being laid out knows it (its tile, and the move after which it was down)."""

    rules: Rules
    opening: Placed
    hub: Placed | None
    hub_seq: int | None


Step = tuple[int, End, int, Placed]  # a tile's move number, end, place in its arm, tile


# A move adds a tile (or a muggins doubles move up to four) to a table laid out a move
# ago: the replay goes on from that table's, kept here, instead of laying every tile
# again (a whole replay was a tenth of a move's CPU at the live table). Each tile is
# laid from the replay before it and the start alone, so going on is the same as
# starting over. Only each table's own replay is kept (not those of the tables between):
# a few hundred games' latest few tables.
REPLAYS_KEPT = 1024
MOST_TILES_A_MOVE = 4
_replays: OrderedDict[tuple[_Start, tuple[Step, ...]], _Layer] = OrderedDict()
_replays_lock = threading.Lock()


def _replayed(start: _Start, steps: tuple[Step, ...]) -> _Layer:
    """The replay once `steps` are laid (never changed once kept: copied to go on)."""
    for back in range(1, min(MOST_TILES_A_MOVE, len(steps)) + 1):
        earlier = _kept((start, steps[:-back]))
        if earlier is not None:
            layer, rest = earlier.copy(), steps[-back:]
            break
    else:
        layer, rest = _Layer.opened(start), steps
    for step in rest:
        layer.lay(*step)
    with _replays_lock:
        _replays[(start, steps)] = layer
        if len(_replays) > REPLAYS_KEPT:
            _replays.popitem(last=False)
    return layer


def _kept(key: tuple[_Start, tuple[Step, ...]]) -> _Layer | None:
    # By hand: functools' caches cannot be asked for an entry without making it, and
    # the replay a move ago is only worth going on from if it is there already.
    with _replays_lock:  # the drawing threads lay boards out too
        found = _replays.get(key)
        if found is not None:
            _replays.move_to_end(key)
        return found


def forget_replays() -> None:
    """Drop every replay kept (tests: a layout made with nothing kept)."""
    with _replays_lock:
        _replays.clear()


class _Layer:
    """The replay: the rays as they stand after each tile, until the table is laid."""

    def __init__(self, start: _Start) -> None:
        self.start = start
        self.rules = start.rules
        self.hub = start.hub
        self.hub_seq = start.hub_seq
        self.courses: dict[End, Course] = {}
        # An end whose last tile lies across: the place it holds, and the end's
        # course if that double turns out not to be the hub.
        self.pending: dict[End, tuple[HubPlace, Course]] = {}
        self.places: dict[Placed, HubPlace] = {}
        self.spots: list[Spot] = []

    def copy(self) -> _Layer:
        """A replay to go on with (what it holds is immutable: the containers are new)."""
        other = _Layer(self.start)
        other.courses = dict(self.courses)
        other.pending = dict(self.pending)
        other.places = dict(self.places)
        other.spots = list(self.spots)
        return other

    def hub_before(self, seq: int) -> bool:
        """Whether the hub was down before the move numbered `seq`."""
        return self.hub_seq is not None and self.hub_seq < seq

    @classmethod
    def opened(cls, start: _Start) -> _Layer:
        """The replay with the opening laid."""
        self = cls(start)
        opening = start.opening
        across = self.rules.hubs and opening.tile.is_double
        box = (-1, -2, 1, 2) if across else (-2, -1, 2, 1)
        frames: dict[End, Frame]
        if across:
            place = HubPlace(box)
            self.places[opening] = place
            frames = hub_frames(place, self.rules.bounds)
        else:
            frames = opening_frames(box, self.rules.bounds)
        # The hub's arms start from the hub, which may be another double (muggins).
        self.courses = {end: Course.starting(frames[end]) for end in (End.W, End.E)}
        first, second = opening.inner, opening.outer  # the W half, then the E half
        hub = self._is_hub(opening)
        self.spots.append(Spot(opening, None, 0, box, first, second, None, across, hub))
        return self

    def _is_hub(self, placed: Placed) -> bool:
        return self.hub is not None and placed == self.hub

    def _course(self, end: End, seq: int, replay: bool) -> Course:
        """The course the end's next tile follows (its move numbered `seq`)."""
        pending = self.pending.get(end)
        if pending is not None:
            place, plain = pending
            if replay:
                # The table knows which double became the hub.
                becomes = self.hub is not None and self.places.get(self.hub) is place
            else:
                # The next tile closes it; with no hub yet, that makes it the hub. (In
                # a doubles move that closes two, the first tile lies alike either way.)
                becomes = self.hub is None or self.places.get(self.hub) is place
            if becomes:
                return Course.starting(hub_frames(place, self.rules.bounds)[end])
            return plain
        course = self.courses.get(end)
        if course is None:  # the hub's N or S arm, still empty
            course = Course.starting(hub_frames(self._hub_place(), self.rules.bounds)[end])
        return course

    def _hub_place(self) -> HubPlace:
        assert self.hub is not None, "an N or S end without a hub"
        return self.places[self.hub]

    def _fold(self, seq: int) -> bool:
        return not self.rules.hubs or self.hub_before(seq)

    def _slot(self, end: End, seq: int, replay: bool) -> tuple[Course, NextSlot]:
        """The course the end's next tile follows, and its slot. A first row turns
        early rather than run beside another ray closer than rays keep apart (a
        double left across the line sticks out of it by a unit)."""
        course = self._course(end, seq, replay)
        fold = self._fold(seq)
        slot = next_slot(course, fold, self.rules.bounds)
        # Not before two tiles: a fold needs a row as long to fold beside. (Only a
        # double left across, which sticks out of its line, then comes a unit closer.)
        started = course.head - course.frame.start >= MIN_RUN
        if course.row == 0 and started and not slot.corner and self._crowded(end, slot, seq):
            f = course.frame
            turn = replace(course, frame=replace(f, length=course.head - f.start))
            slot = next_slot(turn, fold, self.rules.bounds)
        return course, slot

    def _crowded(self, end: End, slot: NextSlot, seq: int) -> bool:
        head = self._head(end)
        near = [s.box for s in self.spots if s.placed.seq < seq]
        boxes = [slot.box]
        if slot.across is not None and self.rules.hubs and not self.hub_before(seq):
            boxes.append(slot.across)  # a double laid there would lie across
        for other in near:
            if other == head or _distance(other, head) == 0:
                continue  # the tile it leaves from, and those that touch that one
            if any(_distance(box, other) < SEPARATION for box in boxes):
                return True
        return False

    def _head(self, end: End) -> Box:
        """The box of the tile an end's next tile is laid against."""
        arm = [s for s in self.spots if s.arm is end]
        if arm:
            return arm[-1].box
        if end in (End.W, End.E):
            return self.spots[0].box
        return self._hub_place().box

    def lay(self, seq: int, end: End, index: int, placed: Placed) -> None:
        course, slot = self._slot(end, seq, replay=True)
        across = self.rules.hubs and placed.tile.is_double and not self.hub_before(seq)
        self.pending.pop(end, None)
        box, after = slot.box, slot.course
        if across:
            if slot.across is not None and slot.after_across is not None:
                box, after = slot.across, slot.after_across
            side = end if end in (End.W, End.E) else None
            place = HubPlace(box, back_of(course.frame), slot.travel, side)
            self.places[placed] = place
            self.pending[end] = (place, after)
        self.courses[end] = after
        near, far = placed.inner, placed.outer
        first, second = (near, far) if slot.travel in (End.E, End.S) else (far, near)
        hub = self._is_hub(placed)
        self.spots.append(
            Spot(placed, end, index, box, first, second, slot.travel, across, hub, slot.corner)
        )

    def open_end(self, end: End, value: int, seq: int) -> OpenEnd:
        _, slot = self._slot(end, seq, replay=False)
        across = self.rules.hubs and not self.hub_before(seq)
        double = slot.across if across and slot.across is not None else slot.box
        return OpenEnd(end, value, slot, double, across)


def _distance(a: Box, b: Box) -> int:
    """How far apart two boxes lie along the grid (0: they touch or overlap)."""
    return max(0, a[0] - b[2], b[0] - a[2], a[1] - b[3], b[1] - a[3])


def _hub_seq(table: Table, house: bool) -> int | None:
    """The move after which the hub was down: the spinner's own (`fives`), or the one
    that closed the house (`muggins`: the tile laid against it, or for an opening
    double the first tile on its second side)."""
    hub = table.hub_tile()
    if hub is None or table.hub is None:
        return None
    if not house:
        return hub.seq
    side, index = table.hub
    if side is None:
        return max(table.arm(End.W)[0].seq, table.arm(End.E)[0].seq)
    return table.arm(side)[index + 1].seq
