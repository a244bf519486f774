"""When Telegram or Redis fail: blocked players, deleted boards, flood control, migration,
a storage that does not answer and a stored game that cannot be read."""

from __future__ import annotations

import asyncio
import time

import pytest
from redis.asyncio import Redis

from bot.storage.store_errors import GameLostError
from tests.bot.conftest import ANDREY_TO_ACT, Harness, Table, hand_buttons, ru
from tests.fakebotapi import FakeBotApi
from tests.support.waiting import until_async

NOT_MODIFIED = (
    "Bad Request: message is not modified: specified new message content and reply markup "
    "are exactly the same as a current content and reply markup of the message"
)


def delete_message(api: FakeBotApi, chat: int, message_id: int) -> None:
    """Someone deletes a message in the chat (the fake server has no control call for it)."""
    with api._st.lock:
        api._st.chats[int(chat)].messages[message_id].deleted = True
        api._st.changed()


async def play_62(h: Harness, table: Table, chat: int | None = None) -> None:
    """Андрей plays 6:2 on W from the position above (with buttons naming `chat`)."""
    andrey = table.users[0]
    game = await h.game(chat or table.chat)
    hand = await h.hand_for(andrey, game.version)
    tile = next(b for b in hand_buttons(hand) if b.callback_data.endswith(":62"))
    if chat is not None:
        assert tile.callback_data.startswith(f"P:{chat}:")
    answer = await h.press(andrey, andrey, hand.id, tile.callback_data)
    assert (answer.text, answer.show_alert) == ("К какому концу?", False), answer
    ends = await h.wait(
        lambda api: (m := api.message(andrey, hand.id)).buttons[0].text == "🔵⬅️ 6" and m, "ends"
    )
    answer = await h.press(andrey, andrey, hand.id, ends.buttons[0].callback_data)
    assert (answer.text, answer.show_alert) == ("Сыграно 6:2 🔵⬅️", False), answer


async def board_up_to_date(h: Harness, chat: int) -> None:
    async def shown() -> bool:
        game = await h.game(chat)
        return game.board.shows_version == game.version and not game.busy()

    await h.until(shown, "the board shows the last move")


async def test_a_player_who_blocked_the_bot_is_played_by_the_computer(h: Harness) -> None:
    table, _ = await h.match_at(ANDREY_TO_ACT)
    h.api.block_bot(table.users[1])
    await play_62(h, table)  # Ирина's turn: her hand cannot reach her

    async def computer_moved() -> bool:
        game = await h.game(table.chat)
        return game.game().round.moves[-1].seat == 1

    await h.until(computer_moved, "the computer's move for Ирина")
    game = await h.game(table.chat)
    assert game.seats[1].computer and not game.seats[0].computer
    # Her line says from then on who plays her seat and why; the event is told once under
    # the board (on the edit it makes at once, or with the computer's move).
    await table.board_caption(" · компьютер: личный чат закрыт")
    told = "Ирина: бот не может писать в личный чат — место занимает компьютер."
    assert any(told in str(call.params) for call in h.api.calls(chat_id=table.chat))
    assert any(c.error_code == 403 for c in h.api.calls(("sendPhoto",), table.users[1], ok=False))


async def test_a_deleted_board_is_posted_again(h: Harness) -> None:
    table, game = await h.match_at(ANDREY_TO_ACT)
    await board_up_to_date(h, table.chat)
    old = game.board.message_id
    assert old is not None
    delete_message(h.api, table.chat, old)
    await play_62(h, table)

    async def new_board() -> int | None:
        game = await h.game(table.chat)
        board = game.board.message_id
        return board if board not in (None, old) and game.board.shows_version == 3 else None

    board_id = await h.until(new_board, "a new board")
    board = h.api.message(table.chat, board_id)
    assert board.photo is not None and [b.text for b in board.buttons] == ["🁢 Мои кости"]
    assert "Андрей: 6:2" in (board.caption or "")
    # The game goes on, on the new board.
    await h.settle()
    assert (await h.game(table.chat)).board.message_id == board_id


async def test_message_is_not_modified_counts_as_done(h: Harness) -> None:
    table, _ = await h.match_at(ANDREY_TO_ACT)
    await board_up_to_date(h, table.chat)
    await h.settle()
    photos = h.api.count_calls("sendPhoto", table.chat)
    h.api.inject_error("editMessageMedia", table.chat, error_code=400, description=NOT_MODIFIED)
    await play_62(h, table)
    await board_up_to_date(h, table.chat)
    await h.settle()
    failed = h.api.calls("editMessageMedia", table.chat, ok=False)
    assert [c.description for c in failed] == [NOT_MODIFIED]
    assert h.api.count_calls("sendPhoto", table.chat) == photos  # no new board for it


async def test_flood_control_waits_and_tries_again(h: Harness) -> None:
    (a,) = h.people("Андрей")
    group = h.group(a)
    h.api.inject_error("sendMessage", group, error_code=429, retry_after=1)
    started = time.monotonic()
    answer = await h.say(a, group, "/help")
    assert answer.text.startswith("Домино для групповых чатов")
    calls = h.api.calls("sendMessage", group)
    assert [(c.ok, c.error_code) for c in calls] == [(False, 429), (True, None)]
    assert calls[1].monotonic - calls[0].monotonic >= 1.0
    assert time.monotonic() - started >= 1.0


async def test_flood_control_on_a_board_edit(h: Harness) -> None:
    table, _ = await h.match_at(ANDREY_TO_ACT)
    await board_up_to_date(h, table.chat)
    h.api.inject_error("editMessageMedia", table.chat, error_code=429, retry_after=1)
    await play_62(h, table)
    await board_up_to_date(h, table.chat)
    edits = h.api.calls("editMessageMedia", table.chat)
    assert [c.error_code for c in edits][-2:] == [429, None]


async def test_a_group_that_becomes_a_supergroup_keeps_its_game(h: Harness) -> None:
    table, game = await h.match_at(ANDREY_TO_ACT)
    andrey, irina = table.users
    await board_up_to_date(h, table.chat)
    await h.settle()
    new = h.api.migrate_group(table.chat)

    async def moved() -> bool:
        game = await h.store.games.load(new, None)
        return game is not None and game.chat_id == new

    await h.until(moved, "the game in the new chat")
    assert await h.store.games.load(table.chat, None) is None
    # The players' keyboards now name the new chat, and the game goes on there.
    await h.wait(
        lambda api: (m := h.hand(andrey)) and m.buttons[0].callback_data.startswith(f"P:{new}:"),
        "a hand keyboard naming the supergroup",
    )
    await play_62(h, table, chat=new)
    game = await h.game(new)
    assert game.version == 3 and game.game().turn == 1

    async def board_in_new_chat() -> bool:
        current = await h.game(new)
        board = current.board.message_id
        return board is not None and current.board.shows_version == 3 and not current.busy()

    await h.until(board_in_new_chat, "the board in the supergroup")
    board = h.api.message(new, (await h.game(new)).board.message_id or 0)
    assert board.photo is not None and "Ходит: Ирина" in (board.caption or "")
    answer = await h.say(irina, new, "/score")
    assert "Ходит: Ирина" in answer.text
    sent = h.api.send_text(andrey, new, "/newgame")
    answer = await h.api.wait_message_async(new, after=sent, where=lambda m: m.text)
    assert answer.text.startswith(ru("game_running")) and answer.reply_to == board.id


async def test_a_storage_that_does_not_answer(h: Harness) -> None:
    (a,) = h.people("Андрей")
    group = h.group(a)
    lobby = await h.newgame(a, group)
    store = h.running[0].deps.service.store
    owners = [o for o in vars(store).values() if hasattr(o, "redis")]  # each has the client
    working = store.redis
    broken = Redis.from_url("redis://127.0.0.1:1/0", socket_connect_timeout=0.5)
    for owner in owners:
        owner.redis = broken
    try:
        for command in ("/newgame", "/score", "/stats"):
            answer = await h.say(a, group, command)
            assert answer.text == ru("storage_down"), command
        answer = await h.lobby_button(a, group, lobby, "ce")
        assert (answer.text, answer.show_alert) == (ru("storage_down"), True)
        await h.start_bot(a)  # in private too
        assert h.api.messages(a, from_bot=True)[-1].text == ru("storage_down")
        await asyncio.sleep(0.2)  # the sweeper meets the failure too, and goes on
        sweeper = h.running[0].delivery._sweeper
        assert sweeper is not None and not sweeper.done()
    finally:
        for owner in owners:
            owner.redis = working
        await broken.aclose()
    # Back to normal: nothing was lost, nothing crashed.
    assert (await h.say(a, group, "/help")).text.startswith("Домино для групповых чатов")
    answer = await h.lobby_button(a, group, lobby, "ce")
    assert (answer.text, answer.show_alert) == ("Компьютер сел за стол.", False)


async def test_a_pass_under_way_when_the_game_is_set_aside_brings_nothing_back_to_the_index(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A pass begun on the game before it was found unreadable ends after, with a call it
    means to make later: that time is of a game that is gone, and must not be noted."""
    table = await h.table("fives")
    await h.settle()
    delivery = h.delivery
    under_way, finish = asyncio.Event(), asyncio.Event()

    async def slow_group_pass(chat_id: int, thread_id: int | None) -> float | None:
        under_way.set()
        await finish.wait()
        return delivery.clock() + 5  # as when the group's pace holds a call back

    monkeypatch.setattr(delivery.group, "run", slow_group_pass)
    delivery.kick(table.chat, None)
    await asyncio.wait_for(under_way.wait(), 10)
    await h.store.redis.set(h.store.keys.game(table.chat, None), b'{"id": "oops"')
    with pytest.raises(GameLostError):
        await h.service.current(table.chat, None)  # sets it aside, as a press would
    finish.set()
    await delivery.idle()
    assert await h.store.due.due_time(table.chat, None) is None


async def test_a_broken_stored_game_is_set_aside_said_once_and_a_new_one_starts(
    h: Harness,
) -> None:
    table = await h.table("fives")
    irina = table.users[1]
    board = await table.board()
    await h.settle()
    key = h.store.keys.game(table.chat, None)
    broken = b'{"id": "oops", "seats": ['
    await h.store.redis.set(key, broken)
    await h.store.due.note_due(table.chat, None, h.clock())
    assert ru("game_lost") == (
        "Сохранённую игру этого чата не удалось прочитать, поэтому она закрыта. "
        "Начните новую: /newgame."
    )
    answer = await h.press_text(irina, table.chat, board.id, "Мои кости")
    assert answer.text in (ru("game_lost"), ru("game_gone"))  # the sweeper may be first
    assert answer.show_alert

    # The group is told once, by whoever set the game aside; the value is kept aside.
    notice = await h.wait(
        lambda api: next((m for m in api.messages(table.chat) if m.text == ru("game_lost")), None),
        "the notice in the group",
    )
    assert await h.store.redis.get(h.store.keys.broken(table.chat, None)) == broken
    assert await h.store.redis.get(key) is None

    # Not due any more: a delivery pass under way when it was set aside may note it due
    # once more as it ends (what it had next: the turn's reminder, a minute ahead, as seen
    # in CI); the sweep that takes that when it is due finds no game and forgets it. The
    # clock is moved on to that moment rather than waited for.
    async def forgotten() -> bool:
        due = await h.store.due.due_time(table.chat, None)
        if due is not None and due > h.clock():
            h.clock.advance(due - h.clock() + 0.01)
        return due is None

    await until_async(forgotten, "the set-aside game no longer due", timeout=10)
    assert (await h.say(irina, table.chat, "/score")).text == ru("no_game")

    # Anyone may start the next game at once (no admin needed, nothing to /stop).
    assert (await h.newgame(irina, table.chat)).buttons
    await h.settle()
    assert [m.id for m in h.api.messages(table.chat) if m.text == ru("game_lost")] == [notice.id]
