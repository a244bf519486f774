"""A process that dies half-way (kill -9, a lost machine) leaves nothing undone.

A hand or a group call is claimed in its delivery record before it is made. If the
process dies between the claim and the call, the claim names a process whose
heartbeat is gone, and the next pass makes the call itself instead of letting the
player wait for his turn to time out. A move committed just before dying is shown,
and a game finished just before dying is counted, by a sweeper soon after.
"""

from __future__ import annotations

import asyncio

import pytest

from bot.delivery.liveness import Liveness
from bot.game.match_records import RETRY_AFTER_CRASH
from bot.game.people import Person
from bot.storage.models import Claim, GroupDelivery, HandDelivery, Match
from engine import Game, pack
from tests.bot.conftest import ANDREY_TO_ACT, Harness, Table

DEAD = "deadprocess0"  # a process id with no heartbeat: it is not running
ALIVE = "liveprocess0"


async def claim_then_die(h: Harness, table: Table, owner: str, *, group: bool) -> Game:
    """Store a new position whose hand (or board edit) `owner` claimed but never made."""
    engine_game = ANDREY_TO_ACT.copy()
    await h.settle()

    def apply(match: Match) -> None:
        match.engine = pack(engine_game)

    # The claim first (a pass that sees the new position would make the call at once).
    claim = Claim(key="claimed", by=owner, since=h.clock())
    if group:
        key = h.store.keys.group(table.chat, None)

        def claimed_board(shown: GroupDelivery | None) -> GroupDelivery:
            assert shown is not None
            shown.claim = claim
            return shown

        await h.store.games.change(key, GroupDelivery, claimed_board)
    else:
        key = h.store.keys.hand(table.chat, None, 0)

        def claimed_hand(shown: HandDelivery | None) -> HandDelivery:
            assert shown is not None
            shown.claim = claim
            return shown

        await h.store.games.change(key, HandDelivery, claimed_hand)
    await h.store_change(table.chat, None, apply)
    return engine_game


async def hand_at(h: Harness, user: int, version: int) -> bool:
    try:
        await h.hand_for(user, version, timeout=1.5)
    except TimeoutError:
        return False
    return True


async def test_a_hand_a_dead_process_claimed_is_sent_by_the_next_sync(h: Harness) -> None:
    table = await h.table("fives")
    andrey = table.users[0]
    engine_game = await claim_then_die(h, table, DEAD, group=False)
    await h.sync(table.chat)
    await h.hand_for(andrey, engine_game.version, timeout=5)
    assert (await table.game()).hands[0].claim is None  # done, nothing left claimed


async def test_a_hand_a_running_process_is_sending_is_not_sent_twice(h: Harness) -> None:
    table = await h.table("fives")
    andrey = table.users[0]
    await h.store.heartbeats.heartbeat(ALIVE, 30)
    try:
        engine_game = await claim_then_die(h, table, ALIVE, group=False)
        await h.sync(table.chat)
        assert not await hand_at(h, andrey, engine_game.version)
    finally:
        await h.store.redis.delete(h.store.keys.process(ALIVE))  # now it has died
    await h.sync(table.chat)
    await h.hand_for(andrey, engine_game.version, timeout=5)


async def board_version(h: Harness, table: Table, version: int, timeout: float) -> bool:
    deadline = asyncio.get_running_loop().time() + timeout
    while asyncio.get_running_loop().time() < deadline:
        if (await table.game()).board.shows_version == version:
            return True
        await asyncio.sleep(0.05)
    return False


async def test_a_board_edit_a_dead_process_claimed_is_made_at_once(h: Harness) -> None:
    table = await h.table("fives")
    h.clock.advance(60)  # the start's group calls are out of the pacing window
    engine_game = await claim_then_die(h, table, DEAD, group=True)
    await h.sync(table.chat)
    assert await board_version(h, table, engine_game.version, timeout=5)
    assert (await table.game()).group.claim is None


async def test_a_board_edit_under_way_elsewhere_is_left_to_its_process(h: Harness) -> None:
    table = await h.table("fives")
    h.clock.advance(60)
    await h.store.heartbeats.heartbeat(ALIVE, 30)
    try:
        engine_game = await claim_then_die(h, table, ALIVE, group=True)
        await h.sync(table.chat)
        assert not await board_version(h, table, engine_game.version, timeout=1)
    finally:
        await h.store.redis.delete(h.store.keys.process(ALIVE))
    await h.sync(table.chat)
    assert await board_version(h, table, engine_game.version, timeout=5)


@pytest.mark.timing
async def test_a_process_is_alive_while_it_beats(h: Harness) -> None:
    mine = Liveness(h.store.heartbeats, ttl=0.5)
    other = Liveness(h.store.heartbeats, ttl=0.5)
    assert mine.process_id != other.process_id
    assert not await other.heartbeats.alive(mine.process_id)  # never beat
    mine.start()
    try:
        await h.until(lambda: other.heartbeats.alive(mine.process_id), "its first beat", timeout=5)
        await asyncio.sleep(1.0)  # longer than its key lives: only the beating keeps it
        assert await other.heartbeats.alive(mine.process_id)
    finally:
        await mine.stop()

    async def gone() -> bool:
        return not await other.heartbeats.alive(mine.process_id)

    # Its key outlives the last beat by its TTL at most (waited for: a loaded machine).
    await h.until(gone, "its key expired", timeout=5)
    assert await mine.alive(mine.process_id)  # a process knows it runs without asking


async def test_a_move_committed_just_before_dying_is_shown_soon(h: Harness) -> None:
    table, game = await h.match_at(ANDREY_TO_ACT)
    andrey, irina = table.users
    await h.hand_for(andrey, game.version)
    # The move is committed; the process dies before its delivery starts.
    delivery = h.service.on_change
    h.service.on_change = None
    move = game.game().legal_moves()[0]
    await h.service.play(table.chat, None, game.id, game.version, Person(andrey, "А", "ru"), move)
    h.service.on_change = delivery
    h.clock.advance(RETRY_AFTER_CRASH + 0.1)  # not the 90 s of Ирина's turn
    await h.hand_for(irina, game.version + 1, timeout=5)
    await table.board_caption("Ходит: Ирина")


async def test_a_game_finished_just_before_dying_is_still_counted(h: Harness) -> None:
    table = await h.table("fives")
    await h.finish(table.chat)
    keys = h.store.keys
    due_key, game_key = keys.due(), keys.game(table.chat, None)

    async def swept() -> bool:
        return await h.store.redis.zscore(due_key, game_key) is None

    await h.until(swept, "nothing left to do")
    counted = await h.store.scores.stats(table.chat)
    assert len(counted) == 2
    # As if the process died between the last move and counting the game: only the
    # safety net it noted before the move is left.
    await h.store.redis.delete(keys.stats(table.chat), keys.counted(table.chat))
    await h.store.due.note_due(table.chat, None, h.clock())

    async def recounted() -> bool:
        return await h.store.scores.stats(table.chat) == counted

    await h.until(recounted, "the game counted again")
    await h.store.due.note_due(table.chat, None, h.clock())  # and never twice
    await h.until(swept, "the sweeper looked again")
    assert await h.store.scores.stats(table.chat) == counted
