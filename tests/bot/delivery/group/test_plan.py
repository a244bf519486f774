"""bot/delivery/group/plan.py: what the group still misses, and how group calls are paced."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.delivery.group.converger import earlier_final
from bot.delivery.group.plan import (
    ANSWER_CALLS,
    ANSWER_ROOM,
    BOARD_BUCKET,
    FIRST_CALLS,
    LOBBY_GAP,
    RETIRE_TRIES,
    TURN_STAGGER,
    ChatMinute,
    GroupCall,
    GroupStep,
    at_table_step,
    board_room_at,
    board_turn,
    group_step,
    next_group_call,
    shares_turns,
    turn_stagger,
)
from bot.delivery.group.results import apply_result
from bot.storage.models import BoardMessage, GroupDelivery, Match
from bot.telegram.api import CallOutcome, Result
from bot.telegram.call_priority import Priority, group_limit
from engine import Game, unpack
from tests.bot.delivery.matches import a_match, played_until

EPSILON = 1e-6
OK = Result(CallOutcome.OK)
BOARD = GroupStep(GroupCall.EDIT_BOARD, "edit:1")
LOBBY = GroupStep(GroupCall.EDIT_LOBBY, "lobby:1")


def step(match: Match, shown: GroupDelivery) -> GroupStep | None:
    return group_step(match, None if match.engine is None else unpack(match.engine), shown)


# -- group_step -------------------------------------------------------------------------


def test_the_lobby_is_posted_then_edited_until_it_shows_its_revision() -> None:
    match = a_match(lobby_rev=2)
    assert step(match, GroupDelivery()) == GroupStep(GroupCall.POST_LOBBY, "post_lobby:2")
    shown = GroupDelivery(lobby_message_id=5, lobby_shows=1)
    assert step(match, shown) == GroupStep(GroupCall.EDIT_LOBBY, "lobby:2")
    shown.lobby_shows = 2
    assert step(match, shown) is None


def test_a_started_game_closes_the_lobby_then_posts_and_edits_its_board() -> None:
    engine_game = Game.new("fives", ["A", "B"], seed=3)
    match = a_match(engine_game, status="playing")
    shown = GroupDelivery(lobby_message_id=5)
    assert step(match, shown) == GroupStep(GroupCall.CLOSE_LOBBY, "close_lobby")
    shown.lobby_closed = True
    assert step(match, shown) == GroupStep(GroupCall.NEW_BOARD, "new:1", 1)
    shown.board = BoardMessage(message_id=9, round_number=1)
    assert step(match, shown) == GroupStep(GroupCall.EDIT_BOARD, f"edit:{engine_game.version}", 1)
    shown.board.shows_version = engine_game.version
    assert step(match, shown) is None


def test_a_new_round_finishes_the_old_board_and_posts_a_new_one() -> None:
    later = played_until(Game.new("fives", ["A", "B"], seed=11), lambda g: g.round.number == 2)
    match = a_match(later, status="playing")
    shown = GroupDelivery(lobby_closed=True)
    shown.board = BoardMessage(message_id=9, round_number=1, shows_version=3)
    assert step(match, shown) == GroupStep(GroupCall.FINISH_BOARD, "finish:1", 1)
    shown.board.finished = True
    assert step(match, shown) == GroupStep(GroupCall.NEW_BOARD, "new:2", 2)


def test_a_round_that_came_and_went_between_two_calls_still_gets_its_board() -> None:
    later = played_until(Game.new("fives", ["A", "B"], seed=11), lambda g: g.round.number == 3)
    match = a_match(later, status="playing")
    shown = GroupDelivery(lobby_closed=True)
    shown.board = BoardMessage(message_id=9, round_number=1, finished=True)
    assert step(match, shown) == GroupStep(GroupCall.NEW_BOARD, "new:2", 2)  # not straight to 3
    shown.board = BoardMessage(message_id=10, round_number=2, finished=True)
    assert step(match, shown) == GroupStep(GroupCall.NEW_BOARD, "new:3", 3)


def table_step(match: Match, shown: GroupDelivery) -> GroupStep | None:
    """The step while every person seated is at the live table."""
    planned = step(match, shown)
    if planned is None:
        return None
    return at_table_step(planned, match, shown) or planned


def test_at_the_table_the_rounds_follow_on_one_board_that_becomes_the_final_table() -> None:
    later = played_until(Game.new("fives", ["A", "B"], seed=11), lambda g: g.round.number == 3)
    match = a_match(later, status="playing")
    shown = GroupDelivery(lobby_closed=True)
    shown.board = BoardMessage(message_id=9, round_number=1, shows_version=3)
    assert table_step(match, shown) == GroupStep(GroupCall.FINISH_BOARD, "finish:1", 1)
    shown.board.finished = True
    assert table_step(match, shown) == GroupStep(GroupCall.NEXT_ROUND, "next:2", 2)
    apply_result(shown, match, later, GroupStep(GroupCall.NEXT_ROUND, "next:2", 2), OK, 4)
    # Round 2 came and went meanwhile: it is shown ended, and round 3 follows on the board.
    assert shown.board == BoardMessage(
        message_id=9, round_number=2, shows_version=later.version, shows_actions=4, finished=True
    )
    assert table_step(match, shown) == GroupStep(GroupCall.NEXT_ROUND, "next:3", 3)
    over = played_until(later, lambda g: g.over)
    match = a_match(over, status="over")
    assert table_step(match, shown) == GroupStep(GroupCall.BOARD_FINAL, "board_final")
    apply_result(shown, match, over, GroupStep(GroupCall.BOARD_FINAL, "board_final"), OK, 0)
    assert shown.final_message_id == 9 and shown.board.finished
    assert table_step(match, shown) is None


def test_at_the_table_a_board_deleted_by_someone_is_posted_anew() -> None:
    later = played_until(Game.new("fives", ["A", "B"], seed=11), lambda g: g.round.number == 2)
    match = a_match(later, status="playing")
    shown = GroupDelivery(lobby_closed=True, board=BoardMessage(message_id=9, finished=True))
    gone = Result(CallOutcome.GONE)
    apply_result(shown, match, later, GroupStep(GroupCall.NEXT_ROUND, "next:2", 2), gone, 0)
    assert table_step(match, shown) == GroupStep(GroupCall.NEW_BOARD, "new:2", 2)
    over = played_until(later, lambda g: g.over)
    match = a_match(over, status="over")
    shown.board = BoardMessage(message_id=10, round_number=2)
    apply_result(shown, match, over, GroupStep(GroupCall.BOARD_FINAL, "board_final"), gone, 0)
    assert table_step(match, shown) == GroupStep(
        GroupCall.NEW_BOARD, f"new:{over.round.number}", over.round.number
    )
    shown.board.message_id = 11
    shown.board.shows_version = over.version
    assert table_step(match, shown) == GroupStep(GroupCall.FINAL, "final")


def test_a_practice_game_keeps_a_board_a_round_at_the_table() -> None:
    later = played_until(Game.new("fives", ["A", "B"], seed=11), lambda g: g.round.number == 2)
    match = a_match(later, status="playing", chat_id=10)  # a private chat
    shown = GroupDelivery(lobby_closed=True, board=BoardMessage(message_id=9, finished=True))
    assert table_step(match, shown) == GroupStep(GroupCall.NEW_BOARD, "new:2", 2)


def test_the_end_finishes_the_board_then_posts_the_final_table() -> None:
    over = played_until(Game.new("twolane", ["A", "B"], seed=5), lambda g: g.over)
    match = a_match(over, status="over")
    shown = GroupDelivery(lobby_closed=True)
    shown.board = BoardMessage(message_id=9, round_number=1, shows_version=over.version - 2)
    assert step(match, shown) == GroupStep(GroupCall.FINISH_BOARD, "finish:1", 1)
    shown.board.finished = True
    shown.board.shows_version = over.version
    assert step(match, shown) == GroupStep(GroupCall.FINAL, "final")
    shown.final_message_id = 12
    assert step(match, shown) is None


def test_a_stopped_game_marks_its_board_once() -> None:
    match = a_match(Game.new("fives", ["A", "B"], seed=3), status="cancelled")
    shown = GroupDelivery(lobby_closed=True)
    # It ended before its first board went out (the lobby made way for the game): a board
    # is posted saying how it ended (issue 27, point 1: else the group saw nothing).
    assert step(match, shown) == GroupStep(GroupCall.STOP_BOARD, "stop:new:1", 1)
    shown.board = BoardMessage(message_id=9)
    assert step(match, shown) == GroupStep(GroupCall.STOP_BOARD, "stop:1")
    shown.board.finished = True
    assert step(match, shown) is None
    cancelled_lobby = a_match(status="cancelled")
    assert step(cancelled_lobby, GroupDelivery(lobby_message_id=5)) == GroupStep(
        GroupCall.CLOSE_LOBBY, "close_lobby"
    )


# -- next_group_call --------------------------------------------------------------------


def test_a_new_match_takes_the_rematch_button_off_the_previous_final_table() -> None:
    """After its own messages, never before them, and not for ever if Telegram refuses."""
    match = a_match(lobby_rev=0)
    shown = GroupDelivery(game_id=match.id, old_final=41)
    assert step(match, shown) == GroupStep(GroupCall.POST_LOBBY, "post_lobby:0")
    shown.lobby_message_id, shown.lobby_shows = 5, 0
    assert step(match, shown) == GroupStep(GroupCall.RETIRE_FINAL, "retire:41")
    shown.failures = RETIRE_TRIES
    assert step(match, shown) is None
    shown.failures = 0
    apply_result(shown, match, None, GroupStep(GroupCall.RETIRE_FINAL, "retire:41"), OK, 0)
    assert shown.old_final is None and step(match, shown) is None
    # The group removed the bot: nothing is sent there.
    gone = a_match(status="cancelled", ended="bot_removed")
    assert step(gone, GroupDelivery(game_id=gone.id, old_final=41)) is None


def test_the_final_table_left_by_the_match_before_is_the_one_to_retire() -> None:
    assert earlier_final(None) is None
    assert earlier_final(GroupDelivery(game_id="a", final_message_id=7)) == 7
    assert earlier_final(GroupDelivery(game_id="a", old_final=3)) == 3  # not retired yet
    assert earlier_final(GroupDelivery(game_id="a", lobby_message_id=9)) is None
    # Stored only while a button waits to go: an earlier release (which forbids fields it
    # does not know) reads every other record of ours as before.
    assert "old_final" not in GroupDelivery(game_id="a", final_message_id=7).model_dump_json()
    pending = GroupDelivery(game_id="a", old_final=3)
    assert GroupDelivery.model_validate_json(pending.model_dump_json()) == pending


def test_a_quiet_board_may_make_two_calls_at_once_then_one_per_interval() -> None:
    calls: list[float] = []
    for _ in range(BOARD_BUCKET):
        assert next_group_call(calls, calls, 100.0, 3.0, 600, BOARD) == 100.0
        calls.append(100.0)
    assert next_group_call(calls, calls, 100.0, 3.0, 600, BOARD) == 103.0
    calls.append(103.0)
    assert next_group_call(calls, calls, 103.0, 3.0, 600, BOARD) == 106.0  # never 3x the wait
    assert next_group_call(calls, calls, 110.0, 3.0, 600, BOARD) == 110.0
    # With 10 calls a minute, the pace is never faster than a full bucket and one call per
    # interval allow within the minute (one call left over for the rest): the bucket's
    # third token comes two such intervals after the two calls at 100.
    slower = 60 / 9
    assert next_group_call(calls, calls, 103.0, 3.0, 10, BOARD) == pytest.approx(100 + 2 * slower)
    # The per-minute limit, once reached, holds the group for the rest of the minute.
    spread = [float(t) for t in range(0, 60, 3)]
    assert next_group_call(spread, [], 59.5, 0.1, 20, BOARD) == 60.0
    assert next_group_call(spread, [], 61.0, 0.1, 20, BOARD) == 61.0


def test_a_lobby_edit_waits_only_a_moment_and_does_not_spend_the_boards_pace() -> None:
    calls = [100.0, 100.0, 100.0]
    assert next_group_call(calls, [], 100.2, 3.1, 20, LOBBY) == 100.0 + LOBBY_GAP
    assert next_group_call(calls, [], 101.5, 3.1, 20, LOBBY) == 101.5
    # A bot that shows boards faster than the lobby's gap shows its lobby that fast too.
    assert next_group_call(calls, [], 100.1, 0.25, 20, LOBBY) == 100.25
    assert next_group_call(calls, [], 100.2, 3.1, 20, BOARD) == 100.2  # lobby calls: not paced
    final = GroupStep(GroupCall.FINAL, "final")
    assert next_group_call(calls, calls, 100.2, 3.1, 20, final) == 100.2


def test_the_chats_minute_is_one_for_all_its_topics() -> None:
    """Another topic's boards and the answers to the chat's people fill the same minute as
    ours: none of our calls goes while it is full, whichever kind it is."""
    others = ChatMinute(tuple(float(t) for t in range(0, 51, 3)), answers=0, window=61.0)
    assert len(others.calls) == 17
    for kind in (BOARD, LOBBY, GroupStep(GroupCall.FINAL, "final")):
        # Ours alone would go at once; the chat's oldest call leaves at 61.
        assert next_group_call([], [], 55.0, 3.5, 20, kind) == 55.0
        assert next_group_call([], [], 55.0, 3.5, 17, kind, others) == 61.0
    assert next_group_call([], [], 61.5, 3.5, 17, BOARD, others) == 61.5


def test_answers_to_the_chats_people_slow_its_boards_down() -> None:
    """The chat's boards take turns, spread over what the answers left of the minute; and
    a board's own pace leaves that room too."""
    assert board_turn(17, ChatMinute((), 0, 61.0)) == pytest.approx(61 / 17)
    assert board_turn(17, ChatMinute((), 8, 61.0)) == pytest.approx(61 / 9)
    assert board_turn(17, ChatMinute((), 30, 61.0)) == 61.0  # answers took it all
    paced = [10.0, 13.0]
    assert next_group_call(paced, paced, 14.0, 1.0, 17, BOARD) == 14.0
    # Three answers came meanwhile: the bucket's third token comes one interval of
    # 61 / (17 - 3 - 1) s after the first call.
    chat = ChatMinute((10.0, 11.0, 12.0, 13.0), answers=3, window=61.0)
    wait = next_group_call(paced, paced, 14.0, 1.0, 17, BOARD, chat)
    assert wait == pytest.approx(10.0 + 61 / 13)


def test_a_chats_boards_take_turns_once_other_boards_than_ours_came() -> None:
    ours = [10.0, 14.0]
    alone = ChatMinute((10.0, 12.0, 14.0), answers=1, window=61.0, boards=2)
    assert not shares_turns(alone, ours, 20.0)  # an answer is no board
    forum = ChatMinute((10.0, 12.0, 14.0), answers=0, window=61.0, boards=3)
    assert shares_turns(forum, ours, 20.0)  # another topic's board, or an earlier game's
    # A new game, whose record has no call yet, after the earlier game's last board.
    assert shares_turns(ChatMinute((70.0,), 0, 61.0, 1), [], 80.0)


def test_the_board_shown_longest_ago_tries_for_the_turn_first() -> None:
    turn = 61 / 17
    waits = [turn_stagger([now - waited], now, turn) for now, waited in ((50, 1), (50, 9))]
    never = turn_stagger([], 50.0, turn)  # a new game's first board
    assert TURN_STAGGER > waits[0] > waits[1] > never > 0


def test_after_a_burst_boards_leave_room_for_the_answers_to_come() -> None:
    """Fourteen calls at once (a forum's lobbies, a flurry of commands) leave three of the
    boards' seventeen until they leave the window, 61 s later. A board takes one only once
    fewer than three answers (at ANSWER_ROOM a minute, or at half the boards' share if that
    is less) may come before the burst leaves."""
    burst = [0.0] * 14
    room_at = board_room_at(burst, 5.0, 17, 61.0)
    assert room_at == pytest.approx(61 - 3 * 60 / min(ANSWER_ROOM, 17 / 2))
    assert next_group_call([], [], 5.0, 3.5, 17, BOARD, ChatMinute(tuple(burst), 0, 61.0)) == (
        pytest.approx(room_at)
    )
    # The same calls spread over the minute hold nobody back: one leaves every few seconds.
    spread = [float(t) * 60 / 17 for t in range(14)]
    assert board_room_at(spread, spread[-1] + 1, 17, 61.0) == spread[-1] + 1
    # With the window full, only its oldest call leaving makes room.
    full = [float(t) for t in range(17)]
    assert board_room_at(full, 20.0, 17, 61.0) == 61.0


def test_while_games_start_their_routine_calls_leave_room_for_the_answers_to_come() -> None:
    """Seen: two topic games starting in one minute filled the forum's minute with their
    lobbies' edits, and a /newgame waited 32 s. Every routine call of a match now leaves
    room for the answers that may come, as the boards do: the lobby's edits, closing it,
    the first board, the final table. The lobby a /newgame asked for is itself an answer."""
    burst = ChatMinute(tuple([0.0] * 14), answers=0, window=61.0)
    routine = group_limit(Priority.BOARD, 20)
    room_at = board_room_at(list(burst.calls), 5.0, routine, 61.0)
    assert room_at > 5.0
    for call in (GroupCall.EDIT_LOBBY, GroupCall.CLOSE_LOBBY, GroupCall.NEW_BOARD):
        step = GroupStep(call, call.value)
        assert next_group_call([], [], 5.0, 3.5, routine, step, burst) == pytest.approx(room_at)
    final = GroupStep(GroupCall.FINAL, "final")
    assert next_group_call([], [], 5.0, 3.5, routine, final, burst) == pytest.approx(room_at)
    # The lobby asked for goes at once, in the answers' share of the minute: all of it.
    post = GroupStep(GroupCall.POST_LOBBY, "post_lobby:0")
    assert post.call in ANSWER_CALLS
    answers = group_limit(Priority.ANSWER, 20)
    assert next_group_call([], [], 5.0, 3.5, answers, post, burst) == 5.0
    full = ChatMinute(tuple(float(t) for t in range(20)), answers=20, window=61.0)
    assert next_group_call([], [], 25.0, 3.5, answers, post, full) == 61.0


def test_a_stopped_games_board_is_not_paced_and_goes_ahead_of_the_routine_boards() -> None:
    """Seen: a stopped game's board went on naming whose turn it was for 34 s. It waits
    for no pace, turn or room: only for the budget, which lets it go first of the boards
    and take one call of the minute more than they (never the answers' last one)."""
    stop = GroupStep(GroupCall.STOP_BOARD, "stop:1")
    assert stop.call in FIRST_CALLS
    full = ChatMinute(tuple([0.0] * 18), answers=0, window=61.0, boards=18)
    assert next_group_call([0.0] * 18, [0.0] * 18, 5.0, 3.5, 18, stop, full) == 5.0
    assert next_group_call([0.0] * 18, [0.0] * 18, 5.0, 3.5, 18, BOARD, full) == 61.0
    assert group_limit(Priority.BOARD, 20, ahead=True) == 19
    assert group_limit(Priority.BOARD, 20) == 18
    assert group_limit(Priority.ANSWER, 20, ahead=True) == 20


@settings(max_examples=200, deadline=None)
@given(
    requests=st.lists(st.floats(0, 400, allow_nan=False), max_size=150),
    interval=st.floats(0.01, 5),
    per_minute=st.integers(1, 30),
    lobby=st.lists(st.booleans(), min_size=150, max_size=150),
    answers=st.lists(st.floats(0, 400, allow_nan=False), max_size=60),
)
def test_pacing_never_exceeds_the_limits(
    requests: list[float],
    interval: float,
    per_minute: int,
    lobby: list[bool],
    answers: list[float],
) -> None:
    """Callers ask at random times and wait until they may, while the chat's people get
    answers at random times too. Whatever the times, none of our calls finds the chat's
    minute full (answers may fill it: they come first), board calls keep their pace (on
    average one per interval, never more than the bucket at once), and nobody waits for
    nothing."""
    window = 61.0
    calls: list[float] = []
    paced: list[float] = []
    answered = sorted(answers)

    def chat(now: float) -> ChatMinute:
        told = [t for t in answered if t <= now]
        every = sorted(t for t in calls + told if now - t < window)
        return ChatMinute(tuple(every), sum(1 for t in told if now - t < window), window)

    for asked, is_lobby in zip(sorted(requests), lobby, strict=False):
        kind = LOBBY if is_lobby else BOARD
        now = max(asked, calls[-1] if calls else asked)
        allowed = next_group_call(calls, paced, now, interval, per_minute, kind, chat(now))
        for _ in range(100):  # answers that come meanwhile may hold it back again
            if allowed <= now:
                break
            now = allowed
            allowed = next_group_call(calls, paced, now, interval, per_minute, kind, chat(now))
        assert allowed <= now
        assert sum(1 for t in calls + answered if t <= now < t + window - EPSILON) < per_minute
        calls.append(now)
        if not is_lobby:
            paced.append(now)
    for i in range(len(paced)):
        # However many calls a span holds, it is at most the bucket plus one per interval.
        for j in range(i + 1, len(paced)):
            span = paced[j] - paced[i]
            assert j - i + 1 <= BOARD_BUCKET + span / interval + EPSILON
