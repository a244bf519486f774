"""bot/sync.py: what the group still misses, how group calls are paced, what a hand shows."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.delivery.sync import BURST, GroupStep, hand_state, next_group_call, plan_group_step
from bot.game import computer
from bot.storage.models import Board, ChatGame, Seat
from bot.storage.store import Tx
from engine import Game
from tests.bot.conftest import ANDREY_TO_ACT, Harness, hand_buttons, position

EPSILON = 1e-6


def chat_game(engine_game: Game | None = None, **fields: object) -> ChatGame:
    seats = [Seat(name=name, user_id=10 + i) for i, name in enumerate(["A", "B", "C", "D"])]
    game = ChatGame(
        id="abcdefgh",
        chat_id=-100,
        creator_id=10,
        seats=seats[: len(engine_game.players) if engine_game else 2],
        **fields,  # type: ignore[arg-type]
    )
    if engine_game is not None:
        game.store_game(engine_game)
    return game


def played_until(game: Game, done: object) -> Game:
    """Computers play `game` (a copy) until `done(game)`."""
    game = game.copy()
    turn = 0
    while not done(game):  # type: ignore[operator]
        computer.turn_moves(game, "easy", turn, 0.01)
        turn += 1
    return game


def step(game: ChatGame) -> GroupStep | None:
    return plan_group_step(game, game.game() if game.engine is not None else None)


# -- plan_group_step ------------------------------------------------------------------


def test_the_lobby_is_edited_until_it_shows_its_revision() -> None:
    assert step(chat_game()) is None  # not posted yet
    game = chat_game(lobby_message_id=5, lobby_rev=2, lobby_shows=1)
    assert step(game) == GroupStep("edit_lobby", "lobby:2")
    game.lobby_shows = 2
    assert step(game) is None


def test_a_started_game_closes_the_lobby_then_posts_and_edits_its_board() -> None:
    engine_game = Game.new("fives", ["A", "B"], seed=3)
    game = chat_game(engine_game, status="playing", lobby_message_id=5)
    assert step(game) == GroupStep("close_lobby", "close_lobby")
    game.lobby_closed = True
    assert step(game) == GroupStep("new_board", "new:1", 1)
    game.board = Board(message_id=9, round_number=1)
    assert step(game) == GroupStep("edit_board", f"edit:{engine_game.version}")
    game.board.shows_version = engine_game.version
    assert step(game) is None


def test_a_new_round_finishes_the_old_board_and_posts_a_new_one() -> None:
    start = Game.new("fives", ["A", "B"], seed=11)
    later = played_until(start, lambda g: g.over or g.round.number == 2)
    assert later.round.number == 2
    game = chat_game(later, status="playing", lobby_closed=True)
    game.board = Board(message_id=9, round_number=1, shows_version=3)
    assert step(game) == GroupStep("finish_board", "finish:1")
    game.board.finished = True
    assert step(game) == GroupStep("new_board", "new:2", 2)


def test_a_round_that_came_and_went_between_two_calls_still_gets_its_board() -> None:
    start = Game.new("fives", ["A", "B"], seed=11)
    later = played_until(start, lambda g: g.over or g.round.number == 3)
    assert later.round.number == 3
    game = chat_game(later, status="playing", lobby_closed=True)
    game.board = Board(message_id=9, round_number=1, finished=True)
    assert step(game) == GroupStep("new_board", "new:2", 2)  # round 2, not straight to 3
    game.board = Board(message_id=10, round_number=2, finished=True)
    assert step(game) == GroupStep("new_board", "new:3", 3)


def test_the_end_finishes_the_board_then_posts_the_final_table() -> None:
    over = played_until(Game.new("twolane", ["A", "B"], seed=5), lambda g: g.over)
    game = chat_game(over, status="over", lobby_closed=True)
    game.board = Board(message_id=9, round_number=1, shows_version=over.version - 2)
    assert step(game) == GroupStep("finish_board", "finish:1")
    game.board.finished = True
    game.board.shows_version = over.version
    assert step(game) == GroupStep("final", "final")
    game.final_message_id = 12
    assert step(game) is None


def test_a_stopped_game_marks_its_board_once() -> None:
    engine_game = Game.new("fives", ["A", "B"], seed=3)
    game = chat_game(engine_game, status="cancelled", lobby_closed=True)
    assert step(game) is None  # no board was posted
    game.board = Board(message_id=9)
    assert step(game) == GroupStep("stop_board", "stop:1")
    game.board.finished = True
    assert step(game) is None
    cancelled_lobby = chat_game(status="cancelled", lobby_message_id=5)
    assert step(cancelled_lobby) == GroupStep("close_lobby", "close_lobby")


# -- next_group_call ------------------------------------------------------------------


def test_a_burst_goes_at_once_then_the_group_waits() -> None:
    calls: list[float] = []
    for _ in range(BURST):
        assert next_group_call(calls, 100.0, 1.0, 20) == 100.0
        calls.append(100.0)
    assert next_group_call(calls, 100.0, 1.0, 20) == 100.0 + BURST * 1.0
    # The per-minute limit, once reached, holds the group for the rest of the minute.
    spread = [float(t) for t in range(0, 60, 3)]
    assert next_group_call(spread, 59.5, 0.1, 20) == 60.0
    assert next_group_call(spread, 61.0, 0.1, 20) == 61.0


@settings(max_examples=200, deadline=None)
@given(
    requests=st.lists(st.floats(0, 400, allow_nan=False), max_size=150),
    interval=st.floats(0.01, 5),
    per_minute=st.integers(1, 30),
)
def test_pacing_never_exceeds_the_limits(
    requests: list[float], interval: float, per_minute: int
) -> None:
    """Callers ask at random times and wait until they may; whatever the times, no window
    holds more calls than allowed, and nobody waits when neither limit is reached."""
    calls: list[float] = []
    for asked in sorted(requests):
        now = max(asked, calls[-1] if calls else asked)
        allowed = next_group_call(calls, now, interval, per_minute)
        free = (
            sum(1 for t in calls if now - t < 60) < per_minute
            and sum(1 for t in calls if now - t < interval * BURST) < BURST
        )
        if free:
            assert allowed == now
        for _ in range(10):
            if allowed <= now:
                break
            now = allowed
            allowed = next_group_call(calls, now, interval, per_minute)
        assert allowed <= now
        calls.append(now)
    for i in range(len(calls)):
        if i + per_minute < len(calls):
            assert calls[i + per_minute] - calls[i] >= 60 - EPSILON
        if i + BURST < len(calls):
            assert calls[i + BURST] - calls[i] >= interval * BURST - EPSILON


# -- hand_state ----------------------------------------------------------------------


def test_only_the_seat_to_act_has_an_active_hand() -> None:
    engine_game = position(
        "fives", ["A", "B"], ["6:5 6:2 1:0 4:3 1:1 0:0", "5:2 3:1 4:1 3:2 2:0 4:2"]
    )
    game = chat_game(engine_game, status="playing")
    assert hand_state(game, engine_game, 0) == (True, "A:0")
    assert hand_state(game, engine_game, 1) == (False, "P:playing:1:5:2 3:1 4:1 3:2 2:0 4:2")
    engine_game.push(engine_game.parse_move("6:5"))
    assert hand_state(game, engine_game, 0) == (False, "P:playing:1:6:2 1:0 4:3 1:1 0:0")
    assert hand_state(game, engine_game, 1) == (True, "A:1")
    game.status = "cancelled"
    assert hand_state(game, engine_game, 1)[0] is False


# -- pacing in a running bot -----------------------------------------------------------


async def test_moves_faster_than_the_pace_are_shown_together(h: Harness) -> None:
    table = await h.table("fives")
    andrey, irina = table.users
    start = ANDREY_TO_ACT.copy()
    await h.set_position(table.chat, start)

    async def shown(version: int) -> bool:
        game = await h.game(table.chat)
        return game.board.shows_version == version and not game.group_busy

    await h.until(lambda: shown(start.version), "the board shows the position")
    # The same bot again, pacing the group at three calls per minute (a burst of three,
    # one per 20 s): the calls just made fill the minute's burst.
    await h.stop(h.running[0])
    await h.launch(group_edit_interval_seconds=20)
    await h.settle()
    made = h.api.count_calls(None, table.chat)
    for user in (andrey, irina, andrey):
        game = await h.game(table.chat)
        hand = await h.hand_for(user, game.version)
        tile = next(b for b in hand_buttons(hand) if b.text.startswith("🟢"))
        answer = await h.press(user, user, hand.id, tile.callback_data)
        if answer.text == "К какому концу?":
            ends = await h.wait(
                lambda api, u=user, m=hand.id: (
                    (x := api.message(u, m)).buttons[0].callback_data.startswith("E:") and x
                ),
                "ends",
            )
            answer = await h.press(user, user, hand.id, ends.buttons[0].callback_data)
        assert answer.text.startswith("Сыграно"), answer
    await h.settle(0.5)
    assert h.api.count_calls(None, table.chat) == made  # the group waits its turn
    game = await h.game(table.chat)
    assert game.board.shows_version == start.version
    due = await h.store.redis.zscore(h.store.keys.due(), h.store.keys.game(table.chat, None))
    assert due == pytest.approx(sorted(game.group_calls)[-BURST] + BURST * 20)  # then it may

    h.clock.advance(61)  # a minute later the board catches up, in one edit
    await h.until(lambda: shown(start.version + 3), "the board catches up")
    await h.settle()
    assert h.api.count_calls(None, table.chat) == made + 1
    caption = (await table.board()).caption or ""
    lines = [x for x in caption.split("\n") if x.startswith("С прошлой картинки:")]
    assert len(lines) == 1 and lines[0].count(";") == 2, caption  # the three moves


async def test_a_group_call_finished_elsewhere_is_not_forgotten(h: Harness) -> None:
    """Two syncs of one game: B finds A making a group call and leaves the group to A; A
    finishes that call while B still sends hands, and A's loop ends (or the pace stops it)
    with the next call noted in the due index. B's own note must not wipe A's out: the
    final table has to come all the same."""
    table = await h.table("twolane")
    over = await h.finish(table.chat)
    final_id = over.final_message_id
    assert final_id is not None
    # The moment before: the board not yet finished, A at it, the final still to come.
    now = h.clock()

    def before(tx: Tx) -> None:
        assert tx.game is not None
        tx.game.board.finished = False
        tx.game.final_message_id = None
        tx.game.group_busy, tx.game.group_busy_since = "finish:1", now

    await h.store.change(table.chat, None, before)
    syncer = h.syncer
    hands = syncer._sync_hands

    async def hands_while_a_finishes(chat_id: int, thread_id: int | None) -> None:
        await hands(chat_id, thread_id)

        def a_records(tx: Tx) -> None:  # A's call went through ...
            assert tx.game is not None
            tx.game.board.finished = True
            tx.game.group_busy = ""

        await h.store.change(chat_id, thread_id, a_records)
        await h.store.reschedule(chat_id, thread_id, h.clock())  # ... and A noted what is next

    syncer._sync_hands = hands_while_a_finishes  # type: ignore[method-assign]
    try:
        await syncer.sync(table.chat, None)  # B
    finally:
        syncer._sync_hands = hands  # type: ignore[method-assign]

    async def final_posted() -> bool:
        return (await h.game(table.chat)).final_message_id not in (None, final_id)

    await h.until(final_posted, "the final table after the race", timeout=5)
