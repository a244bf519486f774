"""The marks the final table shows (in its picture and caption), and the legend that
explains each one shown."""

from __future__ import annotations

from collections.abc import Collection
from enum import Enum

from bot.render.words.naming import N_, Translate
from engine.view import SeatView


class Mark(Enum):
    """A mark the final table may show, in the order the legend explains them."""

    PLACES = N_("Medals: places by points; equal points share a place")
    PENALTY_PLACES = N_(
        "Places: the fewest penalties; then who ran out of tiles first; "
        "then the fewest tiles, then the fewest pips left"
    )
    OUT = N_("✓ ran out of tiles")
    BLOCKED = N_("⊘ blocked: nobody could play")
    TARGET = N_("⚑ the round stopped there: someone reached {points}")
    RECORD = N_("Record: the winner's points minus everyone else's")
    LOST = N_("Lost: the fewest points when someone reached {points}")
    FORFEIT = N_("Left the game: gave the seat up with /leave, so the last place")
    RATING = N_("rating: how much the player's rating in this chat changed")


OUT_MARK = "✓"  # after the points of the seat that ran out of tiles
BLOCKED_MARK = "⊘"  # after a blocked round's number
TARGET_MARK = "⚑"  # after the number of the muggins round that the target cut short


def legend(tr: Translate, marks: Collection[Mark], target: int | None = None) -> list[str]:
    """One line for each mark shown, in the legend's order; `target`: the match's."""
    return [tr(mark.value).format(points=target) for mark in Mark if mark in marks]


def shown_record(view: SeatView) -> int | None:
    """The fives record as the bot shows it: only a margin above zero (docs/rules.md)."""
    record = view.standings.record
    return record if record is not None and record > 0 else None
