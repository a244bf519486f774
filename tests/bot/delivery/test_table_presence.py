"""Fewer Bot API calls while people sit at the live table (docs/table.md, "Fewer Bot API
calls"): a present seat's private hand message waits, and catches up at once when his
table closes or lapses; the board is paced slower while every person seated is present,
and goes at once at a round's end. A seat not at the table gets what it got before.

Presence is written here as a table's process writes it (bot.storage.presence); the
tables themselves are tests/table's."""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable

import pytest

from bot.delivery.group import plan
from bot.delivery.hand.plan import hand_want
from bot.game import computer
from bot.game.people import Person
from bot.storage.presence import OpenTable
from engine import Game, Move
from tests.bot.conftest import Harness, Snapshot, Table

WEBAPP = "https://domino.example.org"
HAND_CALLS = ["sendPhoto", "editMessageMedia", "editMessageCaption", "editMessageReplyMarkup"]
BOARD_CALLS = ["sendPhoto", "editMessageMedia", "editMessageCaption"]
FAR = 600.0  # seconds: a table renewed for longer than any test


async def at_table(h: Harness, table: Table, user: int, lapse: float = FAR) -> OpenTable:
    game = await table.game()
    opened = OpenTable(None, game.match.id, user)
    await h.store.presence.arrive(table.chat, opened, "another-process", h.clock() + lapse)
    return opened


async def play_at_table(h: Harness, table: Table, user: int) -> None:
    """`user` makes a legal move as the table makes it: through the game service."""
    game = await table.game()
    engine_game = game.game()
    person = Person(user, "", "ru")
    move = engine_game.legal_moves()[0]
    await h.service.play(table.chat, None, game.match.id, engine_game.version, person, move)


async def everyone_at_table(h: Harness, monkeypatch: pytest.MonkeyPatch, board_gap: float) -> Table:
    """A match of two people, both at the live table, its board paced `board_gap` s apart
    while they are."""
    monkeypatch.setattr(plan, "TABLE_BOARD_GAP", board_gap)
    await h.relaunch(webapp_url=WEBAPP)
    table = await h.table(people=2)
    for user in table.users:
        await at_table(h, table, user)
    return table


def hand_is_current(game: Snapshot, user: int) -> bool:
    seat = game.seat_of(user)
    assert seat is not None
    want = hand_want(game.match, game.game(), seat)
    return want is not None and game.hands[seat].shows == want.shows


async def test_a_seat_at_the_table_gets_no_hand_call_until_it_closes(h: Harness) -> None:
    await h.relaunch(webapp_url=WEBAPP)
    table = await h.table(people=2)
    andrei, irina = table.users
    opened = await at_table(h, table, irina)
    await h.delivery.idle()
    before = h.api.count_calls(HAND_CALLS, irina)
    andrei_before = h.api.count_calls(HAND_CALLS, andrei)

    for _ in range(6):  # Андрей on the buttons, Ирина at the table
        game = await table.game()
        if game.status != "playing":
            break
        if await table.to_act() == irina:
            await play_at_table(h, table, irina)
        else:
            await h.play_any(andrei, game.version)
    await h.delivery.idle()
    assert h.api.count_calls(HAND_CALLS, irina) == before  # nothing per move
    assert h.api.count_calls(HAND_CALLS, andrei) > andrei_before  # as ever
    assert not hand_is_current(await table.game(), irina)

    # Her table closes: her hand catches up at once, in one call.
    await h.store.presence.leave(table.chat, opened, "another-process")
    h.delivery.table_closed(table.chat, None)

    async def caught_up() -> bool:
        return hand_is_current(await table.game(), irina)

    await h.until(caught_up, "her hand caught up")
    await h.delivery.idle()
    shows = ["sendPhoto", "editMessageMedia"]
    caught = [c.method for c in h.api.calls(HAND_CALLS, irina)[before:] if c.method in shows]
    assert len(caught) == 1, caught


async def test_a_table_that_lapses_lets_the_hand_catch_up(h: Harness) -> None:
    """Its process died: nobody closes it, nobody renews it. The held-back hand looks again
    when it lapses."""
    await h.relaunch(webapp_url=WEBAPP)
    table = await h.table(people=2)
    andrei, irina = table.users
    await at_table(h, table, irina, lapse=3.0)
    before = h.api.count_calls(HAND_CALLS, irina)
    game = await table.game()
    if await table.to_act() == irina:
        await play_at_table(h, table, irina)
    else:
        await h.play_any(andrei, game.version)

    async def caught_up() -> bool:
        return hand_is_current(await table.game(), irina)

    await h.delivery.idle()
    assert not await caught_up()  # held back while present
    await h.until(caught_up, "her hand caught up after the lapse", timeout=15)
    assert h.api.count_calls(HAND_CALLS, irina) > before


async def test_a_press_in_the_private_chat_brings_his_hand_up_to_date(h: Harness) -> None:
    """At the table, he plays with his private chat's buttons all the same: he uses the
    buttons, and his hand is kept up to date from then on."""
    await h.relaunch(webapp_url=WEBAPP)
    table = await h.table(people=2)
    andrei, irina = table.users
    if await table.to_act() != andrei:
        await play_at_table(h, table, irina)
    version = (await table.game()).version
    await h.hand_for(andrei, version)  # his turn, with buttons
    await at_table(h, table, andrei)
    await h.delivery.idle()

    await h.play_any(andrei, version)

    async def caught_up() -> bool:
        game = await table.game()
        return game.version > version and hand_is_current(game, andrei)

    await h.until(caught_up, "his hand kept up to date after his move")
    game = await table.game()
    assert (
        await h.store.presence.present(table.chat, None, game.match.id, [andrei], h.clock()) == {}
    )


async def test_the_board_is_paced_while_every_person_is_at_the_table(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = await everyone_at_table(h, monkeypatch, board_gap=3.0)
    andrei, irina = table.users
    await h.delivery.idle()
    since = time.time()  # the fake's clock
    hands_before = h.api.count_calls(HAND_CALLS, andrei) + h.api.count_calls(HAND_CALLS, irina)
    for _ in range(4):
        if (await table.game()).status != "playing":
            break
        await play_at_table(h, table, andrei if await table.to_act() == andrei else irina)

    async def board_current() -> bool:
        game = await table.game()
        return game.board.shows_version == game.version

    await h.until(board_current, "the board shows the last move")
    boards = h.api.calls(BOARD_CALLS, table.chat)
    times = [c.time for c in boards]
    gaps = [b - a for a, b in itertools.pairwise(times)]
    moved = [c for c in boards if c.time >= since]
    # The moves shown together, each edit 3 s after the board's last call was claimed (a
    # second of it may go in drawing the one before).
    assert moved
    assert all(gap >= 2.0 for gap in gaps[-len(moved) :]), gaps
    hands = h.api.count_calls(HAND_CALLS, andrei) + h.api.count_calls(HAND_CALLS, irina)
    assert hands == hands_before


async def play_the_move(h: Harness, table: Table, position: Game, move: Move) -> None:
    """Set the match at `position` and make `move` there, as its player's table does."""
    await h.set_position(table.chat, position)
    game = await table.game()
    turn = position.turn
    assert turn is not None
    person = Person(table.users[turn], "", "ru")
    await h.service.play(table.chat, None, game.match.id, game.version, person, move)


async def end_at_the_table(
    h: Harness, table: Table, reached: Callable[[Game], bool]
) -> tuple[int | None, int]:
    """The match set one move before `reached` and shown, then that move made: the board's
    message before it, and the group's `sendPhoto` calls until then."""
    before, move = one_move_before(reached)
    await h.set_position(table.chat, before)
    await h.delivery.idle()
    board_id = (await table.game()).board.message_id
    posted = h.api.count_calls("sendPhoto", table.chat)
    await play_the_move(h, table, before, move)
    return board_id, posted


def next_round(game: Game) -> bool:
    return game.round.number == 2 and not game.over


async def test_a_round_end_goes_at_once_at_the_table(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = await everyone_at_table(h, monkeypatch, board_gap=300.0)
    before_end, ending = one_move_before(next_round)
    await h.set_position(table.chat, before_end)
    game = await table.game()
    assert game.board.shows_version != game.version  # a move's edit waits for the pace
    board_id = game.board.message_id
    await play_the_move(h, table, before_end, ending)

    async def round_shown_ended() -> bool:
        game = await table.game()
        return game.board.round_number == 1 and game.board.finished

    await h.until(round_shown_ended, "the round's end on its board", timeout=5)
    game = await table.game()
    assert game.board.message_id == board_id


async def test_at_the_table_the_next_round_turns_up_on_the_same_board_at_the_pace(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While everyone plays at the table the group keeps one board for the game: the next
    round is edited onto it (at the table's pace, so the round's end stays in sight), no
    new board is posted."""
    table = await everyone_at_table(h, monkeypatch, board_gap=2.0)
    board_id, posted = await end_at_the_table(h, table, next_round)

    async def next_round_shown() -> bool:
        game = await table.game()
        return game.board.round_number == 2 and game.board.shows_version == game.version

    await h.until(next_round_shown, "the next round on the board", timeout=10)
    game = await table.game()
    assert game.board.message_id == board_id and not game.board.finished
    assert h.api.count_calls("sendPhoto", table.chat) == posted
    edits = h.api.calls("editMessageMedia", table.chat)
    finished, turned = edits[-2:]
    assert "Кон 1 окончен" in str(finished.params)
    assert turned.time - finished.time >= 1.5  # the round's end stayed in sight
    assert "Кон 2" in str(turned.params)


async def test_at_the_table_the_board_becomes_the_final_table(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = await everyone_at_table(h, monkeypatch, board_gap=300.0)
    board_id, posted = await end_at_the_table(h, table, lambda game: game.over)

    async def final_shown() -> bool:
        game = await table.game()
        return game.group.final_message_id is not None

    await h.until(final_shown, "the final table", timeout=10)
    game = await table.game()
    assert game.group.final_message_id == board_id
    assert h.api.count_calls("sendPhoto", table.chat) == posted
    final = h.api.calls("editMessageMedia", table.chat)[-1]
    assert "Игра окончена" in str(final.params)
    buttons = str(final.params.get("reply_markup"))
    assert "Реванш" in buttons


async def test_with_one_person_on_the_buttons_each_round_gets_its_board(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(plan, "TABLE_BOARD_GAP", 300.0)
    await h.relaunch(webapp_url=WEBAPP)
    table = await h.table(people=2)
    await at_table(h, table, table.users[1])  # Андрей plays on the buttons
    board_id, _ = await end_at_the_table(h, table, next_round)

    async def new_board() -> bool:
        game = await table.game()
        return game.board.round_number == 2 and game.board.message_id != board_id

    await h.until(new_board, "the next round's own board", timeout=10)


def one_move_before(reached: Callable[[Game], bool]) -> tuple[Game, Move]:
    """A fives match of two whose next move gets it where `reached` says, and that move."""
    game = Game.new("fives", ["Андрей", "Ирина"], seed=1)
    turn = 0
    while True:
        for move in game.legal_moves():
            after = game.copy()
            after.push(move)
            if reached(after):
                return game, move
        computer.turn_moves(game, "easy", turn, 0.01)
        turn += 1


async def test_a_seat_taken_at_the_table_by_one_who_never_opened_the_private_chat_costs_no_call(
    h: Harness,
) -> None:
    """Telegram refuses a bot's first word to him: his hand and his result are not tried
    (his table shows them), his seat stays his, and the other player gets his as ever."""
    await h.relaunch(webapp_url=WEBAPP)
    table = await h.table(people=2, start=False)
    andrei, irina = table.users
    lobby = await table.game()
    await h.store.tables.note_seated(table.chat, None, lobby.match.id, irina)
    await h.store.prefs.mark_unreachable(irina)  # as one who never sent /start in private
    before = h.api.count_calls(["sendPhoto", "sendMessage"], irina)
    await table.start()
    await h.delivery.idle()
    game = await table.game()
    assert h.api.count_calls(["sendPhoto", "sendMessage"], irina) == before
    seat = game.seat_of(irina)
    assert seat is not None and not game.match.seats[seat].computer
    assert h.api.count_calls("sendPhoto", andrei) >= 1
