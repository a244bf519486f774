"""What a group call that Telegram answered changed in the group's delivery record."""

from __future__ import annotations

from bot.delivery.group.plan import BOARD_CALLS, ROUND_OPENINGS, GroupCall, GroupStep
from bot.storage.models import BoardMessage, GroupDelivery, Match
from bot.telegram.api import CallOutcome, Result
from engine import Game


def apply_result(
    shown: GroupDelivery,
    match: Match,
    game: Game | None,
    step: GroupStep,
    result: Result,
    actions: int,
) -> None:
    """What a call that Telegram answered changed in the group's record."""
    gone = result.outcome is CallOutcome.GONE
    ok = result.ok
    call = step.call
    if call is GroupCall.POST_LOBBY and ok:
        shown.lobby_message_id = result.message_id
        shown.lobby_shows = match.lobby_rev
    elif call is GroupCall.EDIT_LOBBY:
        if gone:
            shown.lobby_message_id = None  # deleted by someone: post it again
        elif ok:
            shown.lobby_shows = max(shown.lobby_shows, match.lobby_rev)
    elif call is GroupCall.CLOSE_LOBBY and (ok or gone):
        shown.lobby_closed = True
    elif call is GroupCall.STOP_BOARD and (ok or gone):
        if shown.board.message_id is None and ok:  # posted: the game ended before its board
            shown.board.message_id = result.message_id
            shown.board.round_number = step.round_number
        shown.board.finished = True
    elif call is GroupCall.FINAL and ok:
        shown.final_message_id = result.message_id or 0
    elif call is GroupCall.BOARD_FINAL and (ok or gone):
        if gone:  # deleted by someone: the last round's board and the final table go anew
            shown.board.message_id = None
        else:
            shown.final_message_id = shown.board.message_id
        shown.board.finished = True
        if game is not None:  # the game is over: no round after the last
            shown.board.round_number = game.round.number
    elif call is GroupCall.RETIRE_FINAL and (ok or gone):
        shown.old_final = None
    elif call in BOARD_CALLS:
        if gone:  # deleted by someone: post a new one (of the round it was to show)
            shown.board.message_id = None
            if call is GroupCall.NEXT_ROUND:
                shown.board = BoardMessage(round_number=step.round_number)
            return
        if not ok or game is None:
            return
        if call is GroupCall.NEW_BOARD:
            shown.board.message_id = result.message_id
        if call is GroupCall.NEXT_ROUND:
            shown.board.round_number = step.round_number
        round_over = step.round_number < game.round.number or match.status == "over"
        shown.board.shows_version = game.version
        shown.board.shows_actions = actions
        shown.board.finished = call is GroupCall.FINISH_BOARD or (
            call in ROUND_OPENINGS and round_over
        )
        shown.notes_shown = match.notes_total
