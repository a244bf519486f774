"""The rays that leave the opening and the hub, each with the quarter of the table it keeps to.

The line leaves the opening westward and eastward: W turns north, E south. The
hub (the `fives` spinner or the `muggins` house) lies across the line wherever
it was laid, and three rays leave it: the line going on, and the N and S arms.
Each of them runs straight, then turns into a quarter of the plane around the
hub that no other ray uses: the three turn the same way round (a pinwheel), and
the way round is the one that leaves free the quarter where the rest of the
table lies (the line back to the opening, and the other end's ray).

Every frame is worked out from where the opening or the hub lies, nothing else.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.render.layout.snake import SEPARATION, STEP, Bounds, Box, Frame, opposite, turned
from engine.tiles import End

# Where the rest of the table lies, seen from a hub in the W or the E arm: the
# W ray runs west and north, the E ray east and south, so the opening and the
# other ray lie south-east of a hub in the W arm, north-west of one in the E arm.
BEHIND: dict[End, tuple[int, int]] = {End.W: (1, 1), End.E: (-1, -1)}
# Which of a hub's two free sides is its N arm: the first of these it has.
NORTH_FIRST = (End.N, End.W, End.E, End.S)


@dataclass(frozen=True, slots=True)
class HubPlace:
    """A double laid across the line (the hub, or one that may still become it).

    `back`: the way to the tile it was laid against; `on`: the way the line goes on
    from it (None for both: the opening); `side`: the arm it lies in (None: the
    opening).
    """

    box: Box
    back: End | None = None
    on: End | None = None
    side: End | None = None

    @property
    def centre(self) -> tuple[int, int]:
        left, top, right, bottom = self.box
        return ((left + right) // 2, (top + bottom) // 2)


def opening_frames(box: Box, bounds: Bounds) -> dict[End, Frame]:
    """The W and E rays of an opening that is not a hub (nor may become one)."""
    half = (box[2] - box[0]) // 2
    return {
        End.W: Frame.within((0, 0), End.W, End.N, half, half + SEPARATION, bounds),
        End.E: Frame.within((0, 0), End.E, End.S, half, half + SEPARATION, bounds),
    }


def hub_frames(place: HubPlace, bounds: Bounds) -> dict[End, Frame]:
    """The frames of the rays that leave the hub, by the end they carry: W or E for the
    line going on (both, for the opening), N and S for the arms."""
    if place.back is None or place.on is None or place.side is None:
        ways = {End.W: End.W, End.E: End.E, End.N: End.N, End.S: End.S}
        clockwise = True
    else:
        free = [w for w in End if w not in (place.back, place.on)]
        north = next(w for w in NORTH_FIRST if w in free)
        south = next(w for w in free if w is not north)
        ways = {place.side: place.on, End.N: north, End.S: south}
        (bx, by), (cx, cy) = STEP[place.back], STEP[turned(place.back, True)]
        clockwise = (bx + cx, by + cy) == BEHIND[place.side]
    return {end: _frame(place, way, clockwise, bounds) for end, way in ways.items()}


def _frame(place: HubPlace, way: End, clockwise: bool, bounds: Bounds) -> Frame:
    left, top, right, bottom = place.box
    half = (right - left) // 2 if way in (End.W, End.E) else (bottom - top) // 2
    return Frame.within(place.centre, way, turned(way, clockwise), half, half + SEPARATION, bounds)


def back_of(frame: Frame) -> End:
    """The way back along a ray's first row: to the tile it was laid against."""
    return opposite(frame.d)
