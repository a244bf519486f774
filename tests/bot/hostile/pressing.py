"""How a press is made: any data on any message, polled or handed to one bot process."""

from __future__ import annotations

import asyncio
import secrets
import threading
import time
from typing import Any

from telegram import Update

from bot.app import build_application
from tests.bot.conftest import Harness, Running
from tests.fakebotapi import CallbackAnswer, FakeBotApi
from tests.fakebotapi.state import CallbackQuery, chat_instance
from tests.fakebotapi.views import MessageView, message_view

FORGED = "·"  # the text of the messages and buttons the tests put data on


class Answers:
    """Every answer to a callback query, awaited without a thread per press."""

    def __init__(self, api: FakeBotApi) -> None:
        self.loop = asyncio.get_running_loop()
        self._lock = threading.Lock()
        self._got: dict[str, CallbackAnswer] = {}
        self._waiting: dict[str, asyncio.Future[CallbackAnswer]] = {}
        self.stop = api.on_callback_answer(self._answered)

    def _answered(self, query_id: str, answer: CallbackAnswer, at: float) -> None:
        with self._lock:
            waiting = self._waiting.pop(query_id, None)
            if waiting is None:
                self._got[query_id] = answer
                return
        self.loop.call_soon_threadsafe(_resolve, waiting, answer)

    async def of(self, query_id: str, timeout: float = 15) -> CallbackAnswer | None:
        """The answer to the query, or None if there was none within `timeout` seconds."""
        with self._lock:
            if query_id in self._got:
                return self._got.pop(query_id)
            future: asyncio.Future[CallbackAnswer] = self.loop.create_future()
            self._waiting[query_id] = future
        try:
            return await asyncio.wait_for(future, timeout)
        except TimeoutError:
            with self._lock:
                self._waiting.pop(query_id, None)
            return None


def _resolve(future: asyncio.Future[CallbackAnswer], answer: CallbackAnswer) -> None:
    if not future.done():
        future.set_result(answer)


def query(api: FakeBotApi, user: int, chat: int, message_id: int, data: str) -> dict[str, Any]:
    """The update of `user`'s client saying it pressed a button with `data` on this message,
    whatever the message shows (the fake server's own `press` allows only buttons that are
    there); the server records the query, so that the bot can answer it."""
    with api._st.lock:
        state = api._st
        message = state.get_message(state.chats[chat], message_id)
        assert message is not None, (chat, message_id)
        query_id = str(secrets.randbits(62) | (1 << 61))
        state.queries[query_id] = CallbackQuery(
            query_id, user, chat, message_id, data, time.monotonic()
        )
        payload = {
            "id": query_id,
            "from": state.users[user].to_json(),
            "message": state.message_json(message),
            "chat_instance": chat_instance(chat),
            "data": data,
        }
        update = {"update_id": state.next_update_id, "callback_query": payload}
        state.next_update_id += 1
        return update


def query_id(update: dict[str, Any]) -> str:
    return str(update["callback_query"]["id"])


def poll(api: FakeBotApi, update: dict[str, Any]) -> None:
    """Queue the update for the bot's getUpdates (the way Telegram hands it over)."""
    with api._st.lock:
        state = api._st
        state.updates.append(update)
        state.all_updates.append(update)
        state.changed()


async def tap(run: Running, update: dict[str, Any]) -> None:
    """Hand the update straight to this bot process (as its webhook would)."""
    await run.app.update_queue.put(Update.de_json(update, run.app.bot))


def forged_message(api: FakeBotApi, chat: int, data: str) -> int:
    """A message of the bot's own in `chat` with one button carrying `data` (what a stale
    button of any kind looks like to the bot); the test's, so not watched."""
    with api._st.lock:
        state = api._st
        markup = {"inline_keyboard": [[{"text": FORGED, "callback_data": data}]]}
        message = state.add_message(
            state.chats[chat],
            sender_id=state.bot.id,
            text=FORGED,
            raw_text=FORGED,
            reply_markup=markup,
        )
        return message.message_id


def recent_messages(api: FakeBotApi, chat: int, count: int = 24) -> list[MessageView]:
    """The bot's newest messages in a chat (cheap however long the chat is)."""
    with api._st.lock:
        state = api._st
        found = []
        for message in reversed(state.chats[chat].messages.values()):
            if message.sender_id == state.bot.id and not message.deleted:
                found.append(message_view(message, state.bot.id))
                if len(found) == count:
                    break
        return found


async def second_process(h: Harness) -> Running:
    """One more bot process on the same Redis and token: it gets its updates only from
    `tap` (two processes cannot both poll), and delivers and sweeps like the first."""
    run = Running(build_application(h.settings), h.clock)
    app = run.app
    await app.initialize()
    if app.post_init is not None:
        await app.post_init(app)
    run.deps.service.clock = h.clock
    run.deps.delivery.clock = h.clock
    await app.start()
    h.running.append(run)
    return run
