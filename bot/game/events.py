"""The events and metrics of committed changes: what bench/load.py and an operator's logs
follow."""

from __future__ import annotations

import logging

from bot import metrics
from bot.game.match_records import Current
from bot.logs import event
from engine import MoveEntry

log = logging.getLogger(__name__)


def started(current: Current) -> None:
    """A lobby became a running game."""
    match = current.match
    event(
        log,
        "start",
        chat=match.chat_id,
        game=match.id,
        variant=match.variant,
        seats=len(match.seats),
        humans=sum(1 for s in match.seats if s.human),
        v=current.game.version if current.game is not None else 0,
    )
    metrics.game_started(match.variant)


def moved(current: Current, entries: list[MoveEntry], by: str) -> None:
    """The event of a committed move: what bench/load.py and an operator's logs follow."""
    match, game = current.match, current.game
    assert game is not None
    event(
        log,
        "move",
        chat=match.chat_id,
        game=match.id,
        v=game.version,
        seat=entries[0].seat if entries else None,  # the mover (then those with no choice)
        by=by,
        actions=len(entries),
        turn=game.turn,
        over=game.over,
    )
    metrics.game_moved(match.variant, len(entries), game.over)
    if game.over:
        event(log, "finish", chat=match.chat_id, game=match.id, v=game.version, totals=game.totals)
