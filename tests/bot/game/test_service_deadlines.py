"""Deadlines: turn timeouts, computer seats, restarts, and exactly-once across processes."""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

from redis.asyncio import Redis

from bot.delivery.liveness import Liveness
from bot.delivery.scheduler import Delivery
from bot.game.match_records import DEADLINE_SLACK
from bot.game.service import GameService
from bot.storage.keys import Keys
from bot.storage.store import Store
from tests.bot.conftest import ANDREY_TO_ACT, Harness, Snapshot, Table, ru

TIMED_OUT = "Андрей: время вышло, ход сделан автоматически."


async def moved(h: Harness, chat: int, version: int) -> Snapshot:
    async def later() -> Snapshot | None:
        game = await h.game(chat)
        return game if game.version > version else None

    found: Snapshot = await h.until(later, f"a move after version {version}")
    return found


async def time_out(h: Harness, table: Table) -> Snapshot:
    """The seat to act lets its deadline pass; the game after the move made for it."""
    version = (await table.game()).version
    await h.expire(table.chat)
    return await moved(h, table.chat, version)


async def play_by_hand(h: Harness, table: Table, user: int) -> Snapshot:
    """`user` makes some legal move with his buttons; the game after it."""
    game = await table.game()
    await h.play_any(user, game.version)
    return await moved(h, game.match.chat_id, game.version)


async def test_a_missed_deadline_plays_for_the_human_and_says_so(h: Harness) -> None:
    table, game = await h.match_at(ANDREY_TO_ACT)
    andrey, _ = table.users
    old_hand = await h.hand_for(andrey, game.version)
    assert game.deadline is not None and game.deadline - h.clock() > 80  # 90 s per move
    game = await time_out(h, table)
    assert game.version == ANDREY_TO_ACT.version + 1
    entry = game.game().round.moves[-1]
    assert entry.seat == 0 and entry.text.startswith("6:2@")
    assert game.seats[0].missed == 1 and not game.seats[0].computer
    await table.board_caption(TIMED_OUT)
    # His keyboard from before is out of date now (pressed on a client that still shows
    # it: the bot may already have taken it off the message).
    answer = await h.forge(andrey, andrey, old_hand.buttons[0].callback_data)
    assert (answer.text, answer.show_alert) == (ru("stale_button"), True)


async def test_computer_seats_play_without_waiting_for_the_clock(h: Harness) -> None:
    table = await h.table("fives", people=1, computers="s")
    (andrey,) = table.users
    for _ in range(3):
        if await table.to_act() == andrey:
            await play_by_hand(h, table, andrey)

        async def andreys_turn() -> bool:
            game = await h.game(table.chat)
            return game.status != "playing" or game.game().turn == 1

        await h.until(andreys_turn, "the computer played its turn")
    game = await h.game(table.chat)
    assert any(entry.seat == 0 for entry in game.game().round.moves)
    assert game.seats[0].computer and game.seats[0].level == "strong"


async def test_a_deadline_fires_after_a_restart(h: Harness) -> None:
    table, _ = await h.match_at(ANDREY_TO_ACT)
    await h.settle()
    await h.stop(h.running[0])
    await h.expire(table.chat)  # the time passes while no bot runs
    # What the next process goes by: the game's next due time (its reminder or deadline),
    # kept in the due index, now past.
    due = await h.store.due.due_time(table.chat, None)
    assert due is not None and due <= h.clock()
    await h.launch()
    game = await moved(h, table.chat, ANDREY_TO_ACT.version)
    assert game.seats[0].missed == 1
    await table.board_caption(TIMED_OUT)


def _version(markup: Any) -> int:
    """The game version a hand keyboard (as the fake server recorded it) was made for."""
    if isinstance(markup, str):
        markup = json.loads(markup)
    first = markup["inline_keyboard"][0][0]["callback_data"]
    return int(first.split(":")[4])


def _stack(h: Harness, redis_url: str) -> tuple[Redis, GameService, Delivery]:
    """What one more bot process would hold: its own Redis client and services."""
    client = Redis.from_url(redis_url)
    store = Store(client, Keys(h.key_prefix))
    # Computers as slow as people: every turn waits for the test's clock, so each sweep
    # below plays one turn (a process's own timers run on real time).
    settings = h.settings.model_copy(update={"computer_delay_seconds": 30})
    service = GameService(store, settings, h.clock)
    delivery = Delivery(
        h.running[0].app.bot, service, settings, Liveness(store.heartbeats), h.clock
    )
    return client, service, delivery


async def test_a_due_turn_is_played_exactly_once_by_concurrent_sweepers(
    h: Harness, redis_url: str
) -> None:
    table, _ = await h.match_at(ANDREY_TO_ACT)
    await h.running[0].delivery.stop()  # only the "processes" below sweep
    stacks = [_stack(h, redis_url) for _ in range(4)]
    turns = 0
    try:
        for _ in range(20):
            before = await table.game()
            if before.status != "playing":
                break
            engine_before = before.game()
            seat = engine_before.turn
            assert seat is not None
            # Past the deadline and the slack the due index leaves for the process that set it.
            h.clock.advance(max(0.0, (before.deadline or 0) + DEADLINE_SLACK - h.clock()) + 0.01)
            await asyncio.gather(*(delivery.sweep_once() for *_, delivery in stacks))
            await asyncio.gather(*(delivery.idle() for *_, delivery in stacks))
            after = await table.game()
            entries = [e for r in after.game().rounds for e in r.moves][engine_before.version :]
            assert len(entries) == after.version - before.version >= 1
            own = [e for e in entries if e.seat == seat]
            assert entries[: len(own)] == own, entries
            assert own[-1].text != "draw"  # the whole turn, and only one
            # After it, only what people with no choice had to do (made for them).
            forced = entries[len(own) :]
            assert all(e.text in ("draw", "pass") for e in forced), entries
            human = before.seats[seat]
            if not human.computer:
                assert after.seats[seat].missed == human.missed + 1
            turns += 1
        # Their syncs did not double any call either: one board per round, no hand twice.
        final = await table.game()
        boards = final.game().round.number + (1 if final.final_message_id is not None else 0)
        assert h.api.count_calls("sendPhoto", table.chat) == boards
        for user in table.users:
            keyboards = [c.params.get("reply_markup") for c in h.api.calls("sendPhoto", user)]
            versions = [_version(k) for k in keyboards if k]
            assert versions and len(versions) == len(set(versions)), versions
        assert turns >= 10
    finally:
        for client, _, delivery in stacks:
            await delivery.stop()
            await client.aclose()


async def test_run_due_commits_once_when_called_at_the_same_moment(
    h: Harness, redis_url: str
) -> None:
    table, _ = await h.match_at(ANDREY_TO_ACT)
    await h.running[0].delivery.stop()
    stacks = [_stack(h, redis_url) for _ in range(3)]
    try:
        for _ in range(5):
            before = await table.game()
            h.clock.advance(max(0.0, (before.deadline or 0) - h.clock()) + 0.01)
            services = [service for _, service, _ in stacks] * 3
            played = await asyncio.gather(*(s.run_due(table.chat, None) for s in services))
            done = [p for p in played if p is not None]
            assert len(done) == 1
            after = await table.game()
            assert after.version == before.version + len(done[0].entries)
            # Not due any more: nobody plays again.
            assert await stacks[0][1].run_due(table.chat, None) is None
    finally:
        for client, _, delivery in stacks:
            await delivery.stop()
            await client.aclose()


async def test_the_sweeper_stops_even_when_its_cancellation_is_swallowed(h: Harness) -> None:
    """redis-py can swallow a CancelledError mid-command; stop() must still return."""
    delivery = h.running[0].delivery
    calls = 0

    async def take_due(*args: Any) -> Any:
        nonlocal calls
        calls += 1
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.sleep(5)
        raise RuntimeError("not reached in time")

    await delivery.stop()
    delivery.due.take_due = take_due  # type: ignore[method-assign]
    delivery.start()
    await asyncio.sleep(0.05)
    await asyncio.wait_for(delivery.stop(), 2)
    assert calls == 1
