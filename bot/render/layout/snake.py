"""How one ray of the table runs, in grid units: straight, then round a corner, never back.

A ray is laid in a *frame*: `u` runs along its first row, away from where it
starts; `v` across, towards the side it turns to. It runs straight until it
would leave a box around the opening that depends only on the game (but for two
tiles at least), then a corner tile, laid across, turns it:

- once folding is allowed (a game without a hub, or the hub is down), it folds
  back and forth in rows beside its first one, each row between the first
  corner and an inner bound that keeps it clear of the neighbouring ray, the
  rows marching on across (`v`) for as long as the ray grows;
- before the hub is down, it steps instead: the corner turns it by a quarter and
  the next stretch runs straight on in the new frame (W, say: west, then north,
  then west again). A ray that steps never lies beside itself, so its end always
  has free room on both sides, where the hub's arms would go.

A unit is a quarter of a tile's length: a tile lies 4 x 2 units, rows lie 4 units
apart (a row, then a free row as wide as a tile is thick). Everything here is
decided from the ray so far: laying a tile never moves one laid before it.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.tiles import End

# One step each way, in picture coordinates (y runs down).
STEP: dict[End, tuple[int, int]] = {End.W: (-1, 0), End.E: (1, 0), End.N: (0, -1), End.S: (0, 1)}
WAY: dict[tuple[int, int], End] = {step: end for end, step in STEP.items()}

LONG = 4  # a tile's length, in units
SHORT = 2  # its width
FOLD_ROW = 4  # from one row of a fold to the next
SEPARATION = 2  # between two rays (as far as the rows of one fold lie apart)

MIN_RUN = 2 * LONG  # a first row holds two tiles at least: room for its fold's rows
WIDEN = LONG  # how much further each row of a fold that runs out goes than the last

# Half the width and half the height of the box around the opening that rays turn
# at, in units: a game's own (see `bot.render.layout.stable_layout`).
Bounds = tuple[int, int]

Box = tuple[int, int, int, int]  # (left, top, right, bottom), in units


def opposite(way: End) -> End:
    x, y = STEP[way]
    return WAY[(-x, -y)]


def turned(way: End, clockwise: bool) -> End:
    """`way` turned a quarter (clockwise as the picture shows it, or against)."""
    x, y = STEP[way]
    return WAY[(-y, x) if clockwise else (y, -x)]


@dataclass(frozen=True, slots=True)
class Frame:
    """Where a ray's rows lie: `u` along `d` from `origin`, `v` along `a`.

    The first row runs from `start` (the side of the tile the ray leaves) to at
    most `start + length`; the rows of a fold come back as far as `inner`.
    """

    origin: tuple[int, int]
    d: End
    a: End
    start: int
    inner: int
    length: int

    @staticmethod
    def within(
        origin: tuple[int, int], d: End, a: End, start: int, inner: int, bounds: Bounds
    ) -> Frame:
        """A frame whose first row ends where its corner would leave the box `bounds`."""
        (x, y), (half_w, half_h) = origin, bounds
        room = {End.W: x + half_w, End.E: half_w - x, End.N: y + half_h, End.S: half_h - y}
        return Frame(origin, d, a, start, inner, max(MIN_RUN, room[d] - start - SHORT))

    def point(self, u: int, v: int) -> tuple[int, int]:
        (dx, dy), (ax, ay) = STEP[self.d], STEP[self.a]
        return (self.origin[0] + u * dx + v * ax, self.origin[1] + u * dy + v * ay)

    def box(self, u0: int, u1: int, v0: int, v1: int) -> Box:
        x0, y0 = self.point(u0, v0)
        x1, y1 = self.point(u1, v1)
        return (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))


@dataclass(frozen=True, slots=True)
class Course:
    """Where a ray stands: its frame, the row its last tile lies in and that tile's
    outer edge along `u` (`head`); `outer`, once the ray has folded, is where the
    rows turn at the far side."""

    frame: Frame
    row: int = 0
    head: int = 0
    outer: int | None = None

    @staticmethod
    def starting(frame: Frame) -> Course:
        return Course(frame, 0, frame.start)

    @property
    def forward(self) -> int:
        """+1 while the row runs along `d`, -1 on a row of a fold that runs back."""
        return -1 if self.row % 2 else 1


@dataclass(frozen=True, slots=True)
class NextSlot:
    """Where the next tile of a ray goes.

    `box` is an ordinary tile's place; `travel` the way the ray runs through it (a
    corner: the way it turns); `mark` the point just past the ray's last tile, on
    its row's centre line, where the end's mark is drawn.
    """

    box: Box
    travel: End
    mark: tuple[int, int]
    corner: bool
    course: Course  # the ray as it stands once an ordinary tile lies here
    across: Box | None = None  # a double laid across, where one would go straight
    after_across: Course | None = None


def next_slot(course: Course, fold: bool, bounds: Bounds) -> NextSlot:
    """The next tile's place. `fold`: whether the ray may fold back beside itself;
    `bounds`: the game's box (a step starts a new frame)."""
    f = course.frame
    v = course.row * FOLD_ROW
    s = course.forward
    head = course.head
    mark = f.point(head + s, v)
    if course.row == 0:
        if head + LONG <= f.start + f.length:
            return _straight(course, v, mark)
        if not fold:
            return _step(course, mark, bounds)
        box = f.box(head, head + SHORT, v, v + FOLD_ROW)
        return NextSlot(box, f.a, mark, True, Course(f, 1, head, head))
    assert course.outer is not None
    if (head + LONG <= course.outer) if s > 0 else (head - LONG - SHORT >= f.inner):
        return _straight(course, v, mark)
    u0 = head if s > 0 else head - SHORT
    box = f.box(u0, u0 + SHORT, v, v + FOLD_ROW)
    # Past the inner corner, the next row runs out further than the last: beyond the
    # outer corners lies only free room, and a long ray folds into a wedge rather than
    # a strip as long as the ray (which would leave the picture tiny).
    outer = course.outer + WIDEN if s < 0 else course.outer
    return NextSlot(box, f.a, mark, True, Course(f, course.row + 1, head, outer))


def _straight(course: Course, v: int, mark: tuple[int, int]) -> NextSlot:
    f, s, head = course.frame, course.forward, course.head
    u0, u1 = sorted((head, head + s * LONG))
    box = f.box(u0, u1, v - SHORT // 2, v + SHORT // 2)
    after = Course(f, course.row, head + s * LONG, course.outer)
    travel = f.d if s > 0 else opposite(f.d)
    if course.row:  # a fold's rows hold no double across (there is no hub to come)
        return NextSlot(box, travel, mark, False, after)
    across = f.box(head, head + SHORT, v - SHORT, v + SHORT)
    after_across = Course(f, 0, head + SHORT, None)
    return NextSlot(box, travel, mark, False, after, across, after_across)


def _step(course: Course, mark: tuple[int, int], bounds: Bounds) -> NextSlot:
    """A corner that turns the ray a quarter and starts a new frame: the stretch after
    it runs straight on (along the old `a`), and would turn, in its turn, the old way."""
    f, head = course.frame, course.head
    # Flush with the row's outer edge: the corner's far side is then free all along,
    # and its near end meets the last tile only at a corner (room for a hub's arm).
    box = f.box(head, head + SHORT, -SHORT // 2, LONG - SHORT // 2)
    centre = f.point(head + SHORT // 2, 0)
    frame = Frame.within(centre, f.a, f.d, LONG - SHORT // 2, SHORT // 2 + SEPARATION, bounds)
    return NextSlot(box, f.a, mark, True, Course.starting(frame))
