"""Readable on a phone: the board's pips measured in the picture scaled to 400 px wide."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.render import render_board, render_hand
from bot.render.hand.hand_picture import HAND_TILE, hand_header, hand_slots
from bot.render.layout.board_geometry import TILE_MIN, TileBox
from bot.render.layout.board_layout import board_layout
from engine.view import SeatView, view_for
from tests.support.samples import SHAPES, catalog, full_table, play, sample_views, with_table

PHONE_WIDTH = 400
MIN_PIP = 4  # px, across and along, at the phone's width
# A table that fits the board only below the smallest size (a long one, laid out so that
# no tile ever moves: docs/pictures.md): every pip still shows, a little smaller.
MIN_PIP_BELOW = 3
# Halfway between a pip's ink and the ivory face: where a pip's edge is.
INK = (26 + 246) // 2


def _dark_blobs(image: Image.Image, box: tuple[int, int, int, int]) -> list[tuple[int, int]]:
    """The width and height of each dark patch (4-connected) inside `box` of a grey image."""
    left, top, right, bottom = box
    pixels = image.load()
    assert pixels is not None
    dark = {(x, y) for y in range(top, bottom) for x in range(left, right) if pixels[x, y] < INK}  # type: ignore[operator]
    blobs = []
    while dark:
        stack = [dark.pop()]
        xs, ys = [], []
        while stack:
            x, y = stack.pop()
            xs.append(x)
            ys.append(y)
            for near in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if near in dark:
                    dark.remove(near)
                    stack.append(near)
        blobs.append((max(xs) - min(xs) + 1, max(ys) - min(ys) + 1))
    return blobs


def _halves(box: TileBox) -> list[tuple[tuple[int, int, int, int], int]]:
    """Each half of a tile (its square) and the pips it shows."""
    side = min(box.w, box.h)
    if box.vertical:
        return [
            ((box.x, box.y, box.x + side, box.y + side), box.first),
            ((box.x, box.y + side, box.x + side, box.y + 2 * side), box.second),
        ]
    return [
        ((box.x, box.y, box.x + side, box.y + side), box.first),
        ((box.x + side, box.y, box.x + 2 * side, box.y + side), box.second),
    ]


def measure_pips(
    view: SeatView, width: int = PHONE_WIDTH
) -> list[tuple[int, list[tuple[int, int]]]]:
    """For every half on the table: its pip count and the dark patches seen there
    when the sent picture (the JPEG itself) is shown `width` px wide."""
    picture = render_board(view, catalog())
    image = Image.open(io.BytesIO(picture.data)).convert("L")
    scale = width / image.width
    small = image.resize((width, round(image.height * scale)), Image.Resampling.BICUBIC)
    layout = board_layout(view.table, view.variant)
    found = []
    for box in layout.boxes:
        for (left, top, right, bottom), pips in _halves(box):
            # Inside the half, clear of its edge and of the dividing line.
            inset = (right - left) * scale * 0.07
            inner = (
                round(left * scale + inset),
                round(top * scale + inset),
                round(right * scale - inset),
                round(bottom * scale - inset),
            )
            found.append((pips, _dark_blobs(small, inner)))
    return found


def _full_views() -> dict[str, SeatView]:
    base = {
        variant: view_for(play(variant, seed=3, until=lambda g: len(g.round.table.tiles()) >= 6))
        for variant in ("fives", "muggins", "twolane")
    }
    views = {}
    for variant, view in base.items():
        for shape in SHAPES:
            if variant == "twolane" and shape in ("north", "south"):
                continue
            views[f"{variant}-{shape}"] = with_table(view, full_table(variant, shape, seed=0))
    return views


POSITIONS = {**sample_views(), **_full_views()}
BOARDS = sorted(name for name in POSITIONS if not name.endswith(("-hand", "-final")))


@pytest.mark.parametrize("name", BOARDS)
def test_every_pip_stays_distinguishable_at_phone_width(name: str) -> None:
    """Every pip shows as a patch of its own, at least 4 px across and along."""
    view = POSITIONS[name]
    assert view.table.opening is not None
    layout = board_layout(view.table, view.variant)
    least = MIN_PIP if layout.tile >= TILE_MIN else MIN_PIP_BELOW
    halves = measure_pips(view)
    assert len(halves) == 2 * len(view.table.placements())
    for pips, blobs in halves:
        assert len(blobs) == pips, (name, pips, blobs)  # none merged, none missing
        for width, height in blobs:
            assert width >= least and height >= least, (name, pips, blobs)


def test_the_sample_boards_are_drawn_at_the_readable_size() -> None:
    """The boards of docs/pictures (mid-game and full) are drawn at the smallest size
    or larger, where every pip is 4 px on a phone."""
    for name in BOARDS:
        if name.endswith(("-board", "-full")):
            view = POSITIONS[name]
            assert board_layout(view.table, view.variant).tile >= TILE_MIN, name


HANDS = sorted(name for name in POSITIONS if name.endswith("-hand"))


@pytest.mark.parametrize("name", HANDS)
def test_a_hands_pips_are_distinguishable_at_phone_width(name: str) -> None:
    view = POSITIONS[name]
    tr = catalog()
    image = Image.open(io.BytesIO(render_hand(view, tr).data)).convert("L")
    scale = PHONE_WIDTH / image.width
    small = image.resize((PHONE_WIDTH, round(image.height * scale)), Image.Resampling.BICUBIC)
    header, _ = hand_header(view, tr)
    slots = hand_slots(view, header.height)
    assert slots
    side = HAND_TILE // 2
    for slot in slots:
        for top, pips in ((slot.y, slot.tile.high), (slot.y + side, slot.tile.low)):
            inset = side * scale * 0.07
            inner = (
                round(slot.x * scale + inset),
                round(top * scale + inset),
                round((slot.x + side) * scale - inset),
                round((top + side) * scale - inset),
            )
            blobs = _dark_blobs(small, inner)
            assert len(blobs) == pips, (name, slot, blobs)
            assert all(min(b) >= MIN_PIP for b in blobs), (name, slot, blobs)


def test_the_measure_sees_pips_that_are_too_small() -> None:
    """The measure can fail: the same full table shown 200 px wide does."""
    halves = measure_pips(POSITIONS["fives-cross"], width=200)
    assert any(len(blobs) != pips or any(min(b) < MIN_PIP for b in blobs) for pips, blobs in halves)
