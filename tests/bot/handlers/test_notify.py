"""/notify: a private call with a Join button whenever a game opens in the group."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import pytest
from telegram import Bot

from bot.handlers import notify
from bot.storage.subscriptions import MAX_SUBSCRIBERS
from bot.telegram.api import CallOutcome, Result
from bot.telegram.call_priority import Priority
from tests.bot.conftest import JOIN, Harness
from tests.fakebotapi import MessageView

SUBSCRIBED = "Буду звать вас сюда"
CALL = "чтобы сесть за стол"
CALLED = re.compile(r"🔔 Позвали (\d+) подписчик")


async def subscribe(h: Harness, user: int, chat: int, text: str = "/notify") -> MessageView:
    """`user` types `text` in the group; the bot's private answer to him."""
    after = h.api.last_id(user)
    h.api.send_text(user, chat, text)
    return await h.api.wait_message_async(user, after=after)


def calls_to(h: Harness, user: int) -> list[MessageView]:
    return [m for m in h.api.messages(user, from_bot=True) if CALL in m.content]


def called_in_lobby(lobby: MessageView) -> int:
    found = CALLED.search(lobby.content)
    return int(found.group(1)) if found else 0


async def started(h: Harness, *names: str) -> list[int]:
    users = h.people(*names)
    for user in users:
        await h.start_bot(user)
    return users


async def test_notify_reaches_the_subscriber_and_only_them(h: Harness) -> None:
    andrey, irina, olga = await started(h, "Андрей", "Ирина", "Ольга")
    chat = h.group(andrey, [irina, olga])
    before = len(h.api.messages(chat, from_bot=True))
    answer = await subscribe(h, irina, chat)
    assert SUBSCRIBED in answer.text and "«Домино»" in answer.text
    await h.settle()
    assert len(h.api.messages(chat, from_bot=True)) == before  # the group is not spent on it

    lobby = await h.newgame(andrey, chat)
    assert called_in_lobby(lobby) == 1
    call = await h.api.wait_message_async(irina, contains=CALL)
    assert "«Домино»" in call.text
    await h.settle()
    assert calls_to(h, olga) == [] and calls_to(h, andrey) == []

    # Its Join button is the lobby's: it seats her.
    joined = h.api.follow_url_button(irina, irina, call.id, JOIN)
    await h.api.wait_message_async(irina, after=joined, contains="Вы")
    assert (await h.game(chat)).seat_of(irina) is not None

    # It stands: the next game calls her again.
    await h.say(andrey, chat, "/stop")
    await h.store_change(chat, None, lambda m: setattr(m, "status", "cancelled"))
    again = await h.newgame(andrey, chat)
    assert again.id != lobby.id and called_in_lobby(again) == 1
    await h.wait(lambda a: len(calls_to(h, irina)) == 2, "the second call")


async def test_off_stops_the_calls(h: Harness) -> None:
    andrey, irina = await started(h, "Андрей", "Ирина")
    chat = h.group(andrey, [irina])
    await subscribe(h, irina, chat)
    off = await subscribe(h, irina, chat, "/notify off")
    assert "Больше не зову" in off.text
    again = await subscribe(h, irina, chat, "/notify off")
    assert "и так не звали" in again.text
    assert await h.store.subscriptions.subscribers(chat, None) == {}

    lobby = await h.newgame(andrey, chat)
    assert called_in_lobby(lobby) == 0 and "Позвали" not in lobby.content
    await h.settle()
    assert calls_to(h, irina) == []


async def test_the_creator_is_not_called(h: Harness) -> None:
    andrey, irina = await started(h, "Андрей", "Ирина")
    chat = h.group(andrey, [irina])
    await subscribe(h, andrey, chat)
    await subscribe(h, irina, chat)
    lobby = await h.newgame(andrey, chat)
    assert called_in_lobby(lobby) == 1
    await h.api.wait_message_async(irina, contains=CALL)
    await h.settle()
    assert calls_to(h, andrey) == []

    # A /newgame while the lobby is open calls nobody, and the lobby keeps its count.
    await h.say(irina, chat, "/newgame", reply=False)
    await h.lobby_button(andrey, chat, lobby, "ce")
    shown = await h.lobby_settled(chat)
    assert called_in_lobby(h.api.message(chat, shown.lobby_message_id)) == 1
    assert len(calls_to(h, irina)) == 1
    pattern = h.store.keys.chat_pattern(chat)
    keys = [k async for k in h.store.redis.scan_iter(match=pattern) if b":called:" in k]
    assert len(keys) == 1


async def test_a_blocked_subscriber_is_dropped(h: Harness) -> None:
    andrey, irina, olga = await started(h, "Андрей", "Ирина", "Ольга")
    chat = h.group(andrey, [irina, olga])
    await subscribe(h, irina, chat)
    await subscribe(h, olga, chat)
    h.api.block_bot(irina)
    lobby = await h.newgame(andrey, chat)
    assert called_in_lobby(lobby) == 2
    await h.api.wait_message_async(olga, contains=CALL)
    subscriptions = h.store.subscriptions

    async def dropped() -> bool:
        return irina not in await subscriptions.subscribers(chat, None)

    await h.until(dropped, "the blocked subscriber dropped")
    assert olga in await subscriptions.subscribers(chat, None)


async def test_one_who_never_pressed_start_is_told_to(h: Harness) -> None:
    andrey, irina = h.people("Андрей", "Ирина")
    chat = h.group(andrey, [irina])
    answer = await h.say(irina, chat, "/notify")
    assert "«Запустить»" in answer.text
    assert answer.buttons and answer.buttons[0].url == f"https://t.me/{h.api.bot_username}"
    assert await h.store.subscriptions.subscribers(chat, None) == {}
    # Typed again, it costs the group at most a short note.
    note = await h.say(andrey, chat, "/notify", reply=False)
    assert note.reply_to == answer.id and "выше" in note.text
    # Nor can the bot write to him to say that off is done: the group is told.
    off = await h.say(irina, chat, "/notify off")
    assert "Больше не зову" in off.text


async def test_bad_input_and_private_chats_change_nothing(h: Harness) -> None:
    (andrey,) = await started(h, "Андрей")
    chat = h.group(andrey)
    usage = await h.say(andrey, chat, "/notify sometimes")
    assert "/notify off" in usage.text
    private = await h.say(andrey, andrey, "/notify")
    assert "в группе" in private.text
    assert await h.store.subscriptions.subscribers(chat, None) == {}


async def test_a_chat_holds_at_most_so_many_subscribers(h: Harness) -> None:
    andrey, irina = await started(h, "Андрей", "Ирина")
    chat = h.group(andrey, [irina])
    subscriptions = h.store.subscriptions
    for user_id in range(1, MAX_SUBSCRIBERS + 1):
        await subscriptions.subscribe(chat, None, 10_000_000 + user_id, "ru")
    full = await h.say(irina, chat, "/notify")
    assert f"уже {MAX_SUBSCRIBERS} подписчиков" in full.text
    found = await subscriptions.subscribers(chat, None)
    assert len(found) == MAX_SUBSCRIBERS and irina not in found


async def test_calls_go_one_at_a_time_at_the_lowest_priority(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    (andrey,) = await started(h, "Андрей")
    chat = h.group(andrey)
    await h.newgame(andrey, chat)
    match = (await h.game(chat)).match
    seen: list[tuple[int, object, bool]] = []
    in_flight = 0

    async def send_text(bot: Bot, chat_id: int, text: str, **kwargs: Any) -> Result:
        nonlocal in_flight
        in_flight += 1
        assert in_flight == 1  # never two of a chat's calls at once
        await asyncio.sleep(0)
        in_flight -= 1
        seen.append((chat_id, kwargs["priority"], kwargs["patient"]))
        return Result(CallOutcome.OK)

    monkeypatch.setattr(notify.api, "send_text", send_text)
    calls = {user_id: "ru" for user_id in range(1, 6)}
    made = await notify.call_all(h.running[0].app.bot, h.deps, match, calls)
    assert made == 5
    assert seen == [(user_id, Priority.OTHER, False) for user_id in range(1, 6)]
