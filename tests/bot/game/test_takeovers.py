"""Which seats the computer took over, and why (bot.game.takeovers), as the three rules
that hand a seat over leave them; and the board is edited to say so at once."""

from __future__ import annotations

from bot.delivery.group.plan import GroupCall, GroupStep, group_step
from bot.game import play_rules
from bot.game.clock import Moment
from bot.game.takeovers import taken_seats
from bot.storage.models import BoardMessage, GroupDelivery
from tests.bot.game.test_play_rules import ANDREY, SETTINGS, START, changed, running, time_out


def test_each_way_a_seat_changes_hands_is_told_apart() -> None:
    match, game = running()
    assert taken_seats(match) == {}
    now = Moment(START - 50)
    left = changed(play_rules.leave(match, game, ANDREY, now, SETTINGS)).match
    assert taken_seats(left) == {0: "left"}
    blocked = changed(play_rules.seat_blocked(match, game, "g1", 0, now, SETTINGS)).match
    assert taken_seats(blocked) == {0: "blocked_bot"}
    missed = match
    for _ in range(play_rules.MISSES_BEFORE_COMPUTER):
        missed = time_out(missed, game, Moment(START)).match.model_copy(update={"deadline": START})
    assert taken_seats(missed) == {0: "missed_turns"}
    # Two missed turns, then a blocked bot: it was the block that handed the seat over.
    twice = match.model_copy(deep=True)
    twice.seats[0].missed = 2
    blocked_later = changed(play_rules.seat_blocked(twice, game, "g1", 0, now, SETTINGS)).match
    assert taken_seats(blocked_later) == {0: "blocked_bot"}
    # A computer from the start was never anyone's seat.
    computer = match.model_copy(deep=True)
    computer.seats[1].user_id, computer.seats[1].computer = None, True
    assert taken_seats(computer) == {}


def test_a_seat_changing_hands_without_a_move_edits_the_board() -> None:
    match, game = running()
    shown = GroupDelivery(lobby_closed=True, notes_shown=match.notes_total)
    shown.board = BoardMessage(message_id=9, round_number=1, shows_version=game.version)
    assert group_step(match, game, shown) is None
    left = changed(play_rules.leave(match, game, ANDREY, Moment(START - 50), SETTINGS)).match
    edit = GroupStep(GroupCall.EDIT_BOARD, f"edit:{game.version}:{left.notes_total}", 1)
    assert group_step(left, game, shown) == edit
    shown.notes_shown = left.notes_total  # the edit told it
    assert group_step(left, game, shown) is None
