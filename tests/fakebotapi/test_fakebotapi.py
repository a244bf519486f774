"""Tests of the fake Bot API, driven through python-telegram-bot's own client."""

from __future__ import annotations

import asyncio
import collections
import contextlib
import datetime as dtm
import hashlib
import io
import itertools
import socket
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import Any

import httpx
import pytest
from aiohttp import web
from PIL import Image
from telegram import (
    Bot,
    BotCommand,
    BotCommandScopeChat,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InputMediaDocument,
    InputMediaPhoto,
    Update,
)
from telegram.error import (
    BadRequest,
    ChatMigrated,
    Conflict,
    EndPointNotFound,
    Forbidden,
    InvalidToken,
    NetworkError,
    RetryAfter,
    TimedOut,
)
from telegram.ext import (
    Application,
    ApplicationBuilder,
    CallbackQueryHandler,
    CommandHandler,
    ContextTypes,
)

from bot.telegram.transport import AiohttpRequest
from tests.fakebotapi import (
    ANY,
    FLOOD_METHODS,
    Balancer,
    BotMessageEvent,
    CallbackAnswer,
    FakeBotApi,
    FakeBotApiError,
    Fault,
)
from tests.fakebotapi.htmltext import HtmlParseError, parse_html

pytestmark = pytest.mark.timeout(60)
JSONDict = dict[str, Any]


def png(width: int = 120, height: int = 60, color: str = "red") -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (width, height), color).save(buf, "PNG")
    return buf.getvalue()


def keyboard(*rows: list[tuple[str, str]]) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(
        [[InlineKeyboardButton(text, callback_data=data) for text, data in row] for row in rows]
    )


@pytest.fixture
def api() -> Iterator[FakeBotApi]:
    with FakeBotApi(bot_username="domino_test_bot") as server:
        yield server


@pytest.fixture
async def bot(api: FakeBotApi) -> AsyncIterator[Bot]:
    async with client_for(api) as client:
        yield client


def client_for(api: FakeBotApi, *, read_timeout: float | None = None) -> Bot:
    """A PTB Bot for ``api`` on the bot's own transport, optionally with a short read
    timeout for all its calls (PTB's default HTTPX client builds a TLS context with
    every CA certificate each time, which a plain-HTTP test server never uses)."""
    request = (
        AiohttpRequest() if read_timeout is None else AiohttpRequest(read_timeout=read_timeout)
    )
    return Bot(
        api.token,
        base_url=api.base_url,
        base_file_url=api.base_file_url,
        request=request,
        get_updates_request=AiohttpRequest(connection_pool_size=1),
    )


def application_for(api: FakeBotApi) -> Application:  # type: ignore[type-arg]
    """A PTB Application talking to ``api`` (no handlers yet)."""
    return (
        ApplicationBuilder()
        .token(api.token)
        .base_url(api.base_url)
        .base_file_url(api.base_file_url)
        .request(AiohttpRequest())
        .get_updates_request(AiohttpRequest(connection_pool_size=1))
        .build()
    )


def retry_seconds(error: RetryAfter) -> float:
    retry = error.retry_after
    return retry.total_seconds() if isinstance(retry, dtm.timedelta) else float(retry)


# ------------------------------------------------------------------------------ basics


async def test_get_me(api: FakeBotApi, bot: Bot) -> None:
    me = await bot.get_me()
    assert me.id == api.bot_id == 123456
    assert me.username == "domino_test_bot"
    assert me.is_bot
    assert api.count_calls("getMe") == 2  # Bot.initialize() + ours


async def test_wrong_token_is_unauthorized(api: FakeBotApi) -> None:
    with pytest.raises(InvalidToken):
        async with Bot("654321:WRONG", base_url=api.base_url, base_file_url=api.base_file_url):
            pass
    resp = httpx.get(f"{api.url}/bot654321:WRONG/getMe")
    assert resp.status_code == 401
    assert resp.json() == {"ok": False, "error_code": 401, "description": "Unauthorized"}


def test_envelope_methods_case_insensitive_and_unknown(api: FakeBotApi) -> None:
    alice = api.add_user("Alice", started=True)
    base = f"{api.url}/bot{api.token}"
    assert httpx.get(f"{base}/GETME").json()["result"]["username"] == "domino_test_bot"
    resp = httpx.post(f"{base}/sendmessage", json={"chat_id": alice, "text": "json body"})
    assert resp.json()["ok"] and resp.json()["result"]["text"] == "json body"
    resp = httpx.post(f"{base}/sendMessage", data={"chat_id": str(alice), "text": "form"})
    assert resp.json()["result"]["message_id"] == 2
    resp = httpx.post(f"{base}/noSuchMethod")
    assert resp.status_code == 404
    assert resp.json() == {
        "ok": False,
        "error_code": 404,
        "description": "Not Found: method not found",
    }
    assert [c.method for c in api.calls()] == [
        "getMe",
        "sendMessage",
        "sendMessage",
        "noSuchMethod",
    ]


async def test_unknown_method_via_ptb(bot: Bot) -> None:
    with pytest.raises(EndPointNotFound):
        await bot.do_api_request("fooBar")


# ------------------------------------------------------------------------------ messages


async def test_send_edit_and_not_modified(api: FakeBotApi, bot: Bot) -> None:
    alice = api.add_user("Андрей", language_code="ru")
    group = api.add_group("Домино", owner=alice)
    markup = keyboard([("Join", "join:1"), ("Leave", "leave:1")])
    sent = await bot.send_message(
        group, "<b>Game</b> &lt;1&gt;", parse_mode="HTML", reply_markup=markup
    )
    assert sent.chat.type == "group" and sent.chat.title == "Домино"
    assert sent.text == "Game <1>"
    assert sent.text_html == "<b>Game</b> &lt;1&gt;"
    assert sent.reply_markup == markup
    view = api.message(group, sent.message_id)
    assert view.text == "Game <1>" and view.raw_text == "<b>Game</b> &lt;1&gt;"
    assert [b.callback_data for b in view.buttons] == ["join:1", "leave:1"]
    assert api.buttons(group, sent.message_id) == [("Join", "join:1"), ("Leave", "leave:1")]
    for text, data in api.buttons(group, sent.message_id):
        assert data == view.button(text).callback_data

    edited = await bot.edit_message_text("Game 2", group, sent.message_id, reply_markup=markup)
    assert isinstance(edited, type(sent)) and edited.text == "Game 2"
    assert edited.edit_date is not None
    with pytest.raises(BadRequest, match=r"(?i)message is not modified"):
        await bot.edit_message_text("Game 2", group, sent.message_id, reply_markup=markup)
    # Same text without reply_markup: the keyboard is removed, which *is* a modification.
    await bot.edit_message_text("Game 2", group, sent.message_id)
    view = api.message(group, sent.message_id)
    assert view.reply_markup == [] and view.edit_count == 2
    # Only the markup.
    await bot.edit_message_reply_markup(group, sent.message_id, reply_markup=markup)
    with pytest.raises(BadRequest, match=r"(?i)not modified"):
        await bot.edit_message_reply_markup(group, sent.message_id, reply_markup=markup)

    with pytest.raises(BadRequest, match=r"(?i)message to edit not found"):
        await bot.edit_message_text("x", group, 999)
    assert await bot.delete_message(group, sent.message_id)
    with pytest.raises(BadRequest, match=r"(?i)message to edit not found"):
        await bot.edit_message_text("x", group, sent.message_id)
    with pytest.raises(BadRequest, match=r"(?i)message to delete not found"):
        await bot.delete_message(group, sent.message_id)
    assert api.messages(group) == []
    assert api.messages(group, include_deleted=True)[0].deleted


async def test_message_ids_are_per_chat(api: FakeBotApi, bot: Bot) -> None:
    alice = api.add_user("Alice", started=True)
    g1 = api.add_group("One", owner=alice)
    g2 = api.add_group("Two", supergroup=True, owner=alice)
    assert g1 < 0 and str(g2).startswith("-100")
    a = await bot.send_message(g1, "a")
    b = await bot.send_message(g1, "b")
    c = await bot.send_message(g2, "c")
    d = await bot.send_message(alice, "d")
    assert b.message_id == a.message_id + 1
    assert c.message_id == a.message_id
    assert c.chat.type == "supergroup"
    assert d.chat.type == "private" and d.chat.first_name == "Alice" and d.chat.id == alice
    with pytest.raises(BadRequest, match=r"(?i)message to edit not found"):
        await bot.edit_message_text("x", g2, b.message_id)  # exists in g1, not in g2


async def test_private_chat_errors(api: FakeBotApi, bot: Bot) -> None:
    alice = api.add_user("Alice")
    with pytest.raises(Forbidden, match=r"(?i)bot can't initiate conversation with a user"):
        await bot.send_message(alice, "hi")
    with pytest.raises(BadRequest, match=r"(?i)chat not found"):
        await bot.send_message(987654321, "hi")
    api.start_bot(alice)
    await bot.send_message(alice, "hi")
    api.block_bot(alice)
    with pytest.raises(Forbidden, match=r"(?i)bot was blocked by the user"):
        await bot.send_message(alice, "hi again")
    api.start_bot(alice)  # unblocks ("Restart" button)
    await bot.send_message(alice, "welcome back")
    kinds = [next(k for k in u if k != "update_id") for u in api.all_updates()]
    assert kinds == ["message", "my_chat_member", "my_chat_member", "message"]


async def test_text_limits_and_html_errors(api: FakeBotApi, bot: Bot) -> None:
    alice = api.add_user("Alice")
    group = api.add_group("G", owner=alice)
    await bot.send_message(group, "я" * 4096)
    with pytest.raises(BadRequest, match=r"(?i)message is too long"):
        await bot.send_message(group, "я" * 4097)
    # Tags do not count towards the limit.
    await bot.send_message(group, "<b>" + "x" * 4096 + "</b>", parse_mode="HTML")
    with pytest.raises(BadRequest, match=r"(?i)can't parse entities: Unsupported start tag"):
        await bot.send_message(group, "score < 5 for <Вася>", parse_mode="HTML")
    with pytest.raises(BadRequest, match=r"(?i)Can't find end tag"):
        await bot.send_message(group, "<b>bold", parse_mode="HTML")
    with pytest.raises(BadRequest, match=r"(?i)message caption is too long"):
        await bot.send_photo(group, png(), caption="c" * 1025)
    with pytest.raises(BadRequest, match=r"(?i)message text is empty"):
        await bot.send_message(group, "<i></i>  ", parse_mode="HTML")


def test_html_parser() -> None:
    plain, entities = parse_html('<b>a<i>b</i></b> &amp; <a href="https://x.y/?a=1&amp;b=2">л</a>')
    assert plain == "ab & л"
    assert entities == [
        {"type": "bold", "offset": 0, "length": 2},
        {"type": "italic", "offset": 1, "length": 1},
        {"type": "text_link", "offset": 5, "length": 1, "url": "https://x.y/?a=1&b=2"},
    ]
    plain, entities = parse_html("😀<u>x</u> &unknown; &#60;")
    assert plain == "😀x &unknown; <"
    assert entities == [{"type": "underline", "offset": 2, "length": 1}]  # UTF-16 offsets
    with pytest.raises(HtmlParseError, match='expected "</b>", found "</i>"'):
        parse_html("<b>x</i>")
    with pytest.raises(HtmlParseError, match='must have class "tg-spoiler"'):
        parse_html("<span>x</span>")


# ------------------------------------------------------------------------------ keyboards


async def test_callback_data_limits(api: FakeBotApi, bot: Bot) -> None:
    alice = api.add_user("Alice")
    group = api.add_group("G", owner=alice)
    await bot.send_message(group, "ok", reply_markup=keyboard([("x", "d" * 64)]))
    with pytest.raises(BadRequest, match=r"(?i)BUTTON_DATA_INVALID"):
        await bot.send_message(group, "too long", reply_markup=keyboard([("x", "d" * 65)]))
    with pytest.raises(BadRequest, match=r"(?i)BUTTON_DATA_INVALID"):  # 33 Cyrillic letters = 66 B
        await bot.send_message(group, "too long", reply_markup=keyboard([("x", "ж" * 33)]))
    url_markup = InlineKeyboardMarkup(
        [[InlineKeyboardButton("Open", url="https://t.me/domino_test_bot?start=abc")]]
    )
    sent = await bot.send_message(group, "url", reply_markup=url_markup)
    assert api.buttons(group, sent.message_id)[0].url == "https://t.me/domino_test_bot?start=abc"
    with pytest.raises(BadRequest, match=r"(?i)BUTTON_URL_INVALID"):
        await bot.send_message(
            group,
            "bad url",
            reply_markup=InlineKeyboardMarkup([[InlineKeyboardButton("x", url="nope")]]),
        )


async def test_press_and_answer(api: FakeBotApi, bot: Bot) -> None:
    alice = api.add_user("Alice", language_code="ru")
    bob = api.add_user("Bob")
    group = api.add_group("G", owner=alice)
    sent = await bot.send_message(group, "pick", reply_markup=keyboard([("A", "a"), ("B", "b")]))
    with pytest.raises(FakeBotApiError, match="no button with callback_data 'c'"):
        api.press(alice, group, sent.message_id, "c")
    with pytest.raises(FakeBotApiError, match="no button matching 'C'"):
        api.press_button(alice, group, sent.message_id, "C")
    with pytest.raises(FakeBotApiError, match="not found"):
        api.press(alice, group, 12345, "a")
    qid = api.press_button(bob, group, sent.message_id, "B")
    updates = await bot.get_updates()
    query = updates[-1].callback_query
    assert query is not None
    assert query.id == qid and query.data == "b" and query.from_user.id == bob
    assert query.message is not None and query.message.message_id == sent.message_id
    assert query.chat_instance
    assert api.member_status(group, bob) == "member"  # joined by pressing
    assert await query.answer("Нажато", show_alert=True)
    text, show_alert = api.callback_answer(qid)
    assert (text, show_alert) == ("Нажато", True)
    with pytest.raises(BadRequest, match=r"(?i)query is too old"):
        await bot.answer_callback_query(qid)
    with pytest.raises(BadRequest, match=r"(?i)query is too old"):
        await bot.answer_callback_query("12345")
    qid = api.press(alice, group, sent.message_id, "a")
    await bot.answer_callback_query(qid, url="https://t.me/domino_test_bot?start=g1")
    start_id = api.follow_callback_url(qid)
    assert api.message(alice, start_id).text == "/start g1"
    # After an edit removes the keyboard, the button can no longer be pressed.
    await bot.edit_message_text("done", group, sent.message_id)
    with pytest.raises(FakeBotApiError, match="no inline keyboard"):
        api.press(alice, group, sent.message_id, "a")


async def test_deep_link_button(api: FakeBotApi, bot: Bot) -> None:
    alice = api.add_user("Alice")
    group = api.add_group("G", owner=alice)
    markup = InlineKeyboardMarkup(
        [
            [InlineKeyboardButton("Other", url="https://example.com/")],
            [InlineKeyboardButton("Hand", url="https://t.me/domino_test_bot?start=hand_42")],
        ]
    )
    sent = await bot.send_message(group, "see your hand", reply_markup=markup)
    with pytest.raises(FakeBotApiError, match=r"not a t\.me link"):
        api.follow_url_button(alice, group, sent.message_id, "Other")
    with pytest.raises(FakeBotApiError, match="no url button"):
        api.follow_url_button(alice, group, sent.message_id, "Missing")
    start_id = api.follow_url_button(alice, group, sent.message_id, "Hand")
    assert api.user_started(alice)
    updates = await bot.get_updates()
    msg = updates[-1].message
    assert msg is not None and msg.text == "/start hand_42" and msg.message_id == start_id
    assert msg.chat.type == "private" and msg.chat.id == alice
    assert msg.entities[0].type == "bot_command" and msg.entities[0].length == 6
    await bot.send_message(alice, "your hand")  # now allowed


async def test_user_commands_entities(api: FakeBotApi, bot: Bot) -> None:
    alice = api.add_user("Андрей", language_code="ru")
    group = api.add_group("G", owner=alice)
    api.send_text(alice, group, "/newgame@domino_test_bot fives")
    api.send_text(alice, group, "hello /notacommand")
    updates = await bot.get_updates()
    first, second = (u.message for u in updates)
    assert first is not None and second is not None
    assert first.entities[0].length == len("/newgame@domino_test_bot")
    assert first.from_user is not None and first.from_user.language_code == "ru"
    assert second.entities == ()


async def test_privacy_mode_and_kicked_bot(bot: Bot) -> None:
    with FakeBotApi(privacy_mode=True) as private_api:
        async with Bot(private_api.token, base_url=private_api.base_url) as pbot:
            alice = private_api.add_user("Alice")
            group = private_api.add_group("G", owner=alice)
            private_api.send_text(alice, group, "chatter")
            private_api.send_text(alice, group, "/cmd@other_bot")
            private_api.send_text(alice, group, "/newgame")
            sent = await pbot.send_message(group, "question")
            private_api.send_text(alice, group, "answer", reply_to=sent.message_id)
            texts = [u.message.text for u in await pbot.get_updates() if u.message]
            assert texts == ["/newgame", "answer"]
            private_api.kick_bot(group)
            with pytest.raises(Forbidden, match=r"(?i)bot was kicked from the group chat"):
                await pbot.send_message(group, "hi")
            kinds = [u.my_chat_member for u in await pbot.get_updates(offset=-1)]
            assert kinds[0] is not None and kinds[0].new_chat_member.status == "kicked"


# ------------------------------------------------------------------------------ media


async def test_photo_upload_and_edit_media(api: FakeBotApi, bot: Bot) -> None:
    alice = api.add_user("Alice")
    group = api.add_group("G", owner=alice)
    red, blue = png(color="red"), png(200, 100, color="blue")
    sent = await bot.send_photo(
        group,
        red,
        caption="<b>Board</b>",
        parse_mode="HTML",
        reply_markup=keyboard([("Move", "m")]),
    )
    assert sent.photo[-1].width == 120 and sent.photo[-1].height == 60
    assert sent.caption == "Board"
    view = api.message(group, sent.message_id)
    assert view.photo == red and view.photo_size == (120, 60) and view.raw_caption == "<b>Board</b>"

    edited = await bot.edit_message_media(
        InputMediaPhoto(blue, caption="Board 2"),
        group,
        sent.message_id,
        reply_markup=keyboard([("Move", "m")]),
    )
    assert isinstance(edited, type(sent))
    assert edited.photo[-1].width == 200 and edited.caption == "Board 2"
    view = api.message(group, sent.message_id)
    assert view.photo == blue and view.caption == "Board 2" and view.edit_count == 1
    with pytest.raises(BadRequest, match=r"(?i)not modified"):
        await bot.edit_message_media(
            InputMediaPhoto(blue, caption="Board 2"),
            group,
            sent.message_id,
            reply_markup=keyboard([("Move", "m")]),
        )
    with pytest.raises(BadRequest, match=r"(?i)there is no text in the message to edit"):
        await bot.edit_message_text("text", group, sent.message_id)
    await bot.edit_message_caption(group, sent.message_id, caption="new caption")
    assert api.message(group, sent.message_id).caption == "new caption"
    with pytest.raises(BadRequest, match=r"(?i)IMAGE_PROCESS_FAILED"):
        await bot.send_photo(group, b"not an image")
    with pytest.raises(BadRequest, match=r"(?i)PHOTO_INVALID_DIMENSIONS"):
        await bot.send_photo(group, png(2100, 100))


async def test_file_id_reuse_and_documents(api: FakeBotApi, bot: Bot) -> None:
    alice = api.add_user("Alice", started=True)
    group = api.add_group("G", owner=alice)
    big = png(1000, 500)
    first = await bot.send_photo(group, big)
    assert len(first.photo) > 1  # thumbnails + original, largest last
    file_id = first.photo[-1].file_id
    second = await bot.send_photo(alice, file_id, caption="again")
    assert second.photo[-1].file_unique_id == first.photo[-1].file_unique_id
    assert api.message(alice, second.message_id).photo == big
    third = await bot.send_message(group, "text")
    with pytest.raises(BadRequest, match=r"(?i)not modified"):  # same file, no caption
        await bot.edit_message_media(InputMediaPhoto(file_id), group, first.message_id)
    await bot.edit_message_media(InputMediaPhoto(file_id, caption="c"), group, first.message_id)
    assert api.message(group, first.message_id).caption == "c"
    with pytest.raises(BadRequest, match=r"(?i)wrong file identifier"):
        await bot.send_photo(group, "AgACAgIAAxkBAAI-no-such-file")
    with pytest.raises(BadRequest, match=r"(?i)there is no media in the message to edit"):
        await bot.edit_message_media(InputMediaPhoto(file_id), group, third.message_id)

    doc = await bot.send_document(group, b"log line\n", filename="game.log", caption="log")
    assert doc.document is not None and doc.document.file_name == "game.log"
    view = api.message(group, doc.message_id)
    assert view.document == b"log line\n" and view.document_filename == "game.log"
    file = await bot.get_file(doc.document.file_id)
    assert bytes(await file.download_as_bytearray()) == b"log line\n"
    assert api.file_bytes(file_id) == big
    await bot.edit_message_media(
        InputMediaDocument(b"other", filename="b.txt"), group, doc.message_id
    )
    assert api.message(group, doc.message_id).document == b"other"
    with pytest.raises(BadRequest, match=r"(?i)can't use file of type Document as Photo"):
        await bot.send_photo(group, doc.document.file_id)


# ------------------------------------------------------------------------------ updates


@pytest.mark.timing
async def test_get_updates_offset_and_long_poll(api: FakeBotApi, bot: Bot) -> None:
    alice = api.add_user("Alice")
    group = api.add_group("G", owner=alice)
    api.send_text(alice, group, "one")
    api.send_text(alice, group, "two")
    updates = await bot.get_updates()
    assert [u.message.text for u in updates if u.message] == ["one", "two"]
    ids = [u.update_id for u in updates]
    assert ids[1] == ids[0] + 1
    assert [u.update_id for u in await bot.get_updates(limit=1)] == ids[:1]
    # offset confirms
    assert [u.update_id for u in await bot.get_updates(offset=ids[1])] == ids[1:]
    assert await bot.get_updates(offset=ids[1] + 1) == ()
    assert api.pending_updates() == []

    # long poll: no update -> waits for the timeout
    started = time.monotonic()
    assert await bot.get_updates(offset=ids[1] + 1, timeout=dtm.timedelta(seconds=1)) == ()
    assert 0.9 <= time.monotonic() - started < 3

    # long poll: returns as soon as an update arrives
    timer = threading.Timer(0.3, lambda: api.send_text(alice, group, "three"))
    timer.start()
    started = time.monotonic()
    updates = await bot.get_updates(offset=ids[1] + 1, timeout=dtm.timedelta(seconds=10))
    assert time.monotonic() - started < 3
    assert [u.message.text for u in updates if u.message] == ["three"]
    api.wait_delivered(timeout=1)

    # allowed_updates filters (and drops) other kinds
    api.send_text(alice, group, "msg")
    msg = api.last_message(group, from_bot=None)
    assert msg is not None
    sent = await bot.send_message(group, "k", reply_markup=keyboard([("x", "x")]))
    api.press(alice, group, sent.message_id, "x")
    got = await bot.get_updates(
        offset=updates[-1].update_id + 1, allowed_updates=[Update.CALLBACK_QUERY]
    )
    assert [u.callback_query.data for u in got if u.callback_query] == ["x"]
    assert all(u.message is None for u in got)


def test_concurrent_get_updates_conflict(api: FakeBotApi) -> None:
    base = f"{api.url}/bot{api.token}/getUpdates"
    results: list[httpx.Response] = []
    first = threading.Thread(
        target=lambda: results.append(httpx.post(base, data={"timeout": "5"}, timeout=10))
    )
    first.start()
    api.wait_for(lambda a: a._st.poll_generation == 1, 2)
    second = httpx.post(base, data={"timeout": "0"})
    first.join(5)
    assert second.json() == {"ok": True, "result": []}
    assert results[0].status_code == 409
    assert "terminated by other getUpdates request" in results[0].json()["description"]


async def test_conflict_surfaces_in_ptb(api: FakeBotApi, bot: Bot) -> None:
    await bot.set_webhook("https://example.com/hook")
    with pytest.raises(Conflict, match=r"(?i)webhook is active"):
        await bot.get_updates()
    await bot.delete_webhook()
    assert await bot.get_updates() == ()


# ------------------------------------------------------------------------------ chats


async def test_migration_surfaces_as_chat_migrated(api: FakeBotApi, bot: Bot) -> None:
    alice = api.add_user("Alice")
    group = api.add_group("G", owner=alice)
    new = api.migrate_group(group)
    assert new != group and str(new).startswith("-100")
    with pytest.raises(ChatMigrated) as info:
        await bot.send_message(group, "hi")
    assert info.value.new_chat_id == new
    with pytest.raises(ChatMigrated):
        await bot.edit_message_text("x", group, 1)
    with pytest.raises(FakeBotApiError, match="migrated"):
        api.send_text(alice, group, "hello")
    sent = await bot.send_message(new, "hi")
    assert sent.chat.type == "supergroup"
    updates = await bot.get_updates()
    migrate = [u.message for u in updates if u.message]
    assert migrate[0].migrate_to_chat_id == new
    assert migrate[1].migrate_from_chat_id == group
    assert api.member_status(new, alice) == "creator"
    assert api.migrated_to(group) == new


async def test_chat_members_and_chat(api: FakeBotApi, bot: Bot) -> None:
    owner = api.add_user("Owner")
    admin = api.add_user("Admin")
    member = api.add_user("Member")
    stranger = api.add_user("Stranger")
    group = api.add_group("G", owner=owner, admins=[admin], members=[member], bot_admin=True)
    assert (await bot.get_chat_member(group, owner)).status == "creator"
    assert (await bot.get_chat_member(group, admin)).status == "administrator"
    assert (await bot.get_chat_member(group, member)).status == "member"
    assert (await bot.get_chat_member(group, stranger)).status == "left"
    assert (await bot.get_chat_member(group, api.bot_id)).status == "administrator"
    admins = await bot.get_chat_administrators(group)
    assert [a.user.id for a in admins] == [owner, admin, api.bot_id]
    chat = await bot.get_chat(group)
    assert chat.title == "G" and chat.type == "group"
    with pytest.raises(BadRequest, match=r"(?i)chat not found"):
        await bot.get_chat(-42)
    assert await bot.send_chat_action(group, "typing")
    assert await bot.set_my_description("Играем в домино", language_code="ru")
    assert await bot.set_my_short_description("Домино")
    assert api.bot_text("description", "ru") == "Играем в домино"
    assert (await bot.get_my_short_description()).short_description == "Домино"


async def test_forum_topics(api: FakeBotApi, bot: Bot) -> None:
    alice = api.add_user("Alice")
    forum = api.add_group("Forum", owner=alice, is_forum=True)
    topic = api.add_topic(forum, "Games")
    api.send_text(alice, forum, "/newgame", thread_id=topic)
    updates = await bot.get_updates()
    msg = updates[-1].message
    assert msg is not None and msg.message_thread_id == topic and msg.is_topic_message
    sent = await bot.send_message(forum, "in topic", message_thread_id=topic)
    assert sent.message_thread_id == topic and sent.is_topic_message
    general = await bot.send_message(forum, "general")
    assert general.message_thread_id is None
    assert [m.text for m in api.messages(forum, thread_id=topic, from_bot=True)] == ["in topic"]
    assert [m.text for m in api.messages(forum, thread_id=None, from_bot=True)] == ["general"]
    assert len(api.messages(forum, thread_id=ANY)) == 4
    with pytest.raises(BadRequest, match=r"(?i)message thread not found"):
        await bot.send_message(forum, "x", message_thread_id=9999)


async def test_commands_scopes(api: FakeBotApi, bot: Bot) -> None:
    alice = api.add_user("Alice", language_code="ru")
    group = api.add_group("G", owner=alice)
    await bot.set_my_commands([BotCommand("newgame", "New game")])
    await bot.set_my_commands([BotCommand("newgame", "Новая игра")], language_code="ru")
    await bot.set_my_commands([BotCommand("stop", "Stop")], scope=BotCommandScopeChat(group))
    assert [c.command for c in await bot.get_my_commands()] == ["newgame"]
    assert [c.description for c in await bot.get_my_commands(language_code="ru")] == ["Новая игра"]
    assert api.commands() == [("newgame", "New game")]
    assert api.commands({"type": "chat", "chat_id": group}) == [("stop", "Stop")]
    assert api.effective_commands(alice) == [("newgame", "Новая игра")]
    assert api.effective_commands(alice, group) == [("stop", "Stop")]
    with pytest.raises(BadRequest, match=r"(?i)BOT_COMMAND_INVALID"):
        await bot.set_my_commands([BotCommand("NewGame", "x")])
    await bot.delete_my_commands(language_code="ru")
    assert await bot.get_my_commands(language_code="ru") == ()


# ------------------------------------------------------------------------------ flood / faults


@pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")
async def test_flood_control_retry_after(api: FakeBotApi, bot: Bot) -> None:
    alice = api.add_user("Alice", started=True)
    group = api.add_group("G", owner=alice)
    api.set_flood_limits(group_per_minute=3)
    for i in range(3):
        await bot.send_message(group, f"m{i}")
    with pytest.raises(RetryAfter) as info:
        await bot.send_message(group, "m3")
    retry = info.value.retry_after
    seconds = retry.total_seconds() if isinstance(retry, dtm.timedelta) else retry
    assert 1 <= seconds <= 60
    await bot.send_message(alice, "private chats are not limited by the group limit")
    assert api.count_calls("sendMessage", group) == 4
    assert api.count_calls("sendMessage", group, ok=True) == 3
    assert api.max_calls_in_window(group, window=60) == 3
    calls = api.calls("sendMessage", group, ok=False)
    assert calls[0].error_code == 429 and calls[0].params["text"] == "m3"


async def test_calls_to_some_chats_are_counted_with_all_at_one_moment(
    api: FakeBotApi, bot: Bot
) -> None:
    alice = api.add_user("Alice", started=True)
    group = api.add_group("G", owner=alice)
    other = api.add_group("H", owner=alice)
    await bot.send_message(group, "to the group")
    await bot.send_message(group, "again")
    await bot.send_message(other, "to the other group")
    await bot.send_message(alice, "private")
    assert api.count_calls_to(FLOOD_METHODS, [group]) == (4, 2)
    assert api.count_calls_to(FLOOD_METHODS, [group, other]) == (4, 3)
    assert api.count_calls_to("sendMessage", []) == (4, 0)
    assert api.count_calls_to("getMe", [group]) == (api.count_calls("getMe"), 0)


@pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")
async def test_injected_errors(api: FakeBotApi, bot: Bot) -> None:
    alice = api.add_user("Alice", started=True)
    api.inject_error("sendMessage", alice, error_code=429, retry_after=7)
    with pytest.raises(RetryAfter):
        await bot.send_message(alice, "x")
    await bot.send_message(alice, "x")  # only once
    api.inject_error("editMessageText", error_code=400, description="Bad Request: custom")
    with pytest.raises(BadRequest, match=r"(?i)custom"):
        await bot.edit_message_text("y", alice, 1)


@pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")
async def test_injected_429_only_affects_its_chat(api: FakeBotApi, bot: Bot) -> None:
    alice = api.add_user("Alice", started=True)
    one = api.add_group("One", owner=alice)
    two = api.add_group("Two", owner=alice)
    api.inject_error("sendMessage", one, error_code=429, retry_after=5, times=2)
    await bot.send_message(two, "the other chat is untouched")
    await bot.send_message(alice, "and so is a private chat")
    with pytest.raises(RetryAfter) as info:
        await bot.send_message(one, "x")
    assert retry_seconds(info.value) == 5
    resp = httpx.post(f"{api.url}/bot{api.token}/sendMessage", data={"chat_id": one, "text": "x"})
    assert resp.status_code == 429
    assert resp.json() == {
        "ok": False,
        "error_code": 429,
        "description": "Too Many Requests: retry after 5",
        "parameters": {"retry_after": 5},
    }
    await bot.send_message(one, "used up")
    assert [c.ok for c in api.calls("sendMessage", one)] == [False, False, True]
    assert api.over_limit_calls() == 0  # injected errors are not the fake's own limits


@pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")
async def test_random_faults_in_turn_only_in_their_chat(api: FakeBotApi) -> None:
    alice = api.add_user("Alice", started=True)
    group = api.add_group("G", owner=alice)
    faults = [Fault(error_code=429, retry_after=2), Fault(late=1.0), Fault(error_code=502)]
    api.inject_random_faults(chat=group, rate=1.0, faults=faults, in_turn=True)
    async with client_for(api, read_timeout=0.3) as bot:
        await bot.send_message(alice, "a private chat is untouched")
        with pytest.raises(RetryAfter) as info:
            await bot.send_message(group, "1")
        assert retry_seconds(info.value) == 2
        with pytest.raises(TimedOut):
            await bot.send_message(group, "2")  # made; its answer is late
        with pytest.raises(NetworkError, match="Bad Gateway"):
            await bot.send_message(group, "3")
        with pytest.raises(RetryAfter):
            await bot.send_message(group, "4")  # round again
    assert [m.text for m in api.messages(group)] == ["2"]
    assert api.random_faults_given() == {"429": 2, "late 1s before": 1, "502": 1}
    api.clear_random_faults()
    async with client_for(api, read_timeout=3) as bot:
        await bot.send_message(group, "5")
    api.inject_random_faults(rate=0.0, faults=faults)
    async with client_for(api, read_timeout=3) as bot:
        await bot.send_message(group, "6")
    assert [m.text for m in api.messages(group)] == ["2", "5", "6"]
    with pytest.raises(FakeBotApiError):
        api.inject_random_faults("getUpdates", rate=0.5, faults=faults)
    with pytest.raises(FakeBotApiError):
        api.inject_random_faults(rate=0.5, faults=[Fault()])  # neither an error nor late


# ------------------------------------------------------------------------------ limits


@pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")
async def test_group_limit_refuses_the_21st_call_in_a_minute() -> None:
    with FakeBotApi(group_limit_per_minute=20) as api:
        alice = api.add_user("Alice", started=True)
        group = api.add_group("G", owner=alice, supergroup=True)
        async with client_for(api) as bot:
            for i in range(20):
                await bot.send_message(group, f"m{i}")
            with pytest.raises(RetryAfter) as info:
                await bot.send_message(group, "m20")
            assert 1 <= retry_seconds(info.value) <= 60
            for i in range(25):  # private chats are not limited by group_per_minute
                await bot.send_message(alice, f"p{i}")
        assert api.over_limit_calls(group) == 1
        assert api.over_limit_calls() == 1
        assert api.over_limit_calls(alice) == 0
        assert api.count_calls("sendMessage", group, ok=True) == 20
        assert api.max_calls_in_window(group, window=60) == 20
        refused = api.calls("sendMessage", group, ok=False)
        assert [(c.error_code, c.over_limit) for c in refused] == [(429, True)]


@pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")
async def test_every_call_changing_a_chat_counts(api: FakeBotApi, bot: Bot) -> None:
    assert {"deleteMessage", "editMessageReplyMarkup", "sendChatAction"} <= FLOOD_METHODS
    assert not {"answerCallbackQuery", "getUpdates", "getMe", "getChat"} & FLOOD_METHODS
    alice = api.add_user("Alice", started=True)
    group = api.add_group("G", owner=alice)
    api.set_flood_limits(group_per_minute=4)
    sent = await bot.send_message(group, "k", reply_markup=keyboard([("A", "a")]))  # 1
    first = api.press(alice, group, sent.message_id, "a")
    second = api.press(alice, group, sent.message_id, "a")
    assert await bot.answer_callback_query(first, "not counted")
    await bot.edit_message_reply_markup(group, sent.message_id, reply_markup=None)  # 2
    await bot.send_chat_action(group, "typing")  # 3
    assert await bot.delete_message(group, sent.message_id)  # 4
    with pytest.raises(RetryAfter):
        await bot.send_message(group, "over")
    with pytest.raises(RetryAfter):
        await bot.delete_message(group, 1)
    # Not counted and so not limited: callback answers, getters and settings.
    assert await bot.answer_callback_query(second, "still fine")
    assert (await bot.get_chat(group)).title == "G"
    assert await bot.set_my_commands([BotCommand("play", "Play")])
    assert api.over_limit_calls(group) == 2
    assert api.max_calls_in_window(group) == 4
    assert api.count_calls("answerCallbackQuery", group, ok=True) == 2


@pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")
@pytest.mark.timing
async def test_refused_calls_do_not_extend_the_window(api: FakeBotApi, bot: Bot) -> None:
    alice = api.add_user("Alice", started=True)
    api.set_flood_limits(chat_per_second=1)
    await bot.send_message(alice, "one")
    first = api.calls("sendMessage")[0].ran
    await asyncio.sleep(0.5)
    with pytest.raises(RetryAfter):
        await bot.send_message(alice, "refused")
    # The window of the first call is over; had the refused one counted, it would still block.
    await asyncio.sleep(first + 1.05 - time.monotonic())
    await bot.send_message(alice, "two")
    assert api.over_limit_calls(alice) == 1
    refused = api.calls("sendMessage", ok=False)[0].ran
    assert refused - first > 0.05  # so "two" came less than 1 s after the refused call


@pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")
async def test_global_limit_over_all_chats() -> None:
    with FakeBotApi(global_limit_per_second=2) as api:
        users = [api.add_user(name, started=True) for name in ("A", "B", "C")]
        async with client_for(api) as bot:
            await bot.send_message(users[0], "a")
            await bot.send_message(users[1], "b")
            with pytest.raises(RetryAfter):
                await bot.send_message(users[2], "c")
            assert (await bot.get_me()).username  # not counted
        assert api.over_limit_calls(users[2]) == 1
        assert api.max_calls_in_window(window=1.0) == 2


# ------------------------------------------------------------------------------ delays


async def test_delayed_answer_takes_effect_at_once(api: FakeBotApi, bot: Bot) -> None:
    alice = api.add_user("Alice", started=True)
    group = api.add_group("G", owner=alice)
    api.delay_answers("SENDMESSAGE", group, seconds=2.0)
    started = time.monotonic()
    with pytest.raises(TimedOut):
        await bot.send_message(group, "answered late", read_timeout=0.5)
    assert time.monotonic() - started < 1.5
    # Telegram did send it; only its answer was late.
    assert [m.text for m in api.messages(group)] == ["answered late"]
    # Meanwhile other calls are served (the rule was used up).
    await bot.send_message(group, "on time", read_timeout=0.5)
    assert time.monotonic() - started < 1.8
    calls = api.calls("sendMessage", group)
    assert [(c.ok, c.delay) for c in calls] == [(True, 2.0), (True, 0.0)]
    # A patient client gets the answer when it comes.
    api.delay_answers("getMe", seconds=0.3)
    started = time.monotonic()
    assert (await bot.get_me()).username == "domino_test_bot"
    assert time.monotonic() - started >= 0.3


@pytest.mark.timing
async def test_delayed_call_takes_effect_after_the_delay(api: FakeBotApi) -> None:
    alice = api.add_user("Alice", started=True)
    group = api.add_group("G", owner=alice)
    api.delay_answers("editMessageText", seconds=1.0, effect="after", times=2)
    async with client_for(api, read_timeout=0.3) as bot:
        sent = await bot.send_message(group, "v1")
        started = time.monotonic()
        with pytest.raises(TimedOut):
            await bot.edit_message_text("v2", group, sent.message_id)
        assert api.message(group, sent.message_id).text == "v1"  # not yet
        view = await api.wait_for_async(
            lambda a: a.message(group, sent.message_id).text == "v2", timeout=5
        )
        assert view and time.monotonic() - started >= 0.95
        # With a long enough timeout the client gets the answer of the call made late.
        edited = await bot.edit_message_text("v3", group, sent.message_id, read_timeout=3)
        assert not isinstance(edited, bool) and edited.text == "v3"
    call = api.calls("editMessageText")[0]
    assert call.ok and call.ran - call.monotonic >= 0.95 and call.delay == 1.0


def test_delay_answers_arguments(api: FakeBotApi) -> None:
    with pytest.raises(FakeBotApiError):
        api.delay_answers("getUpdates", seconds=1)
    with pytest.raises(FakeBotApiError):
        api.delay_answers(seconds=1, times=0)
    with pytest.raises(FakeBotApiError):
        api.delay_answers(seconds=1, effect="never")  # type: ignore[arg-type]


# ------------------------------------------------------------------------------ hooks


async def test_hooks_see_bot_messages_and_answers(
    api: FakeBotApi, bot: Bot, capsys: pytest.CaptureFixture[str]
) -> None:
    alice = api.add_user("Alice", started=True)
    group = api.add_group("G", owner=alice)
    events: list[BotMessageEvent] = []
    texts: list[str | None] = []
    answers: list[tuple[str, CallbackAnswer, float]] = []

    def lock_is_free() -> bool:
        got: list[bool] = []

        def probe() -> None:
            got.append(api._st.lock.acquire(timeout=1))
            if got[0]:
                api._st.lock.release()

        thread = threading.Thread(target=probe)
        thread.start()
        thread.join()
        return got[0]

    def on_message(event: BotMessageEvent) -> None:
        assert lock_is_free()  # fired after the state lock was released
        events.append(event)
        if event.kind != "deleted":  # the control API may be used from a callback
            texts.append(api.message(event.chat_id, event.message_id).text)

    def broken(event: BotMessageEvent) -> None:
        raise RuntimeError("boom in a test hook")

    api.on_bot_message(on_message)
    remove_broken = api.on_bot_message(broken)
    api.on_callback_answer(lambda qid, answer, at: answers.append((qid, answer, at)))
    sent = await bot.send_message(group, "hi", reply_markup=keyboard([("A", "a")]))
    qid = api.press(alice, group, sent.message_id, "a")
    assert await bot.answer_callback_query(qid, "ok")
    await bot.edit_message_text("hi 2", group, sent.message_id)
    remove_broken()
    assert await bot.delete_messages(group, [sent.message_id])
    assert [(e.kind, e.chat_id, e.message_id) for e in events] == [
        ("sent", group, sent.message_id),
        ("edited", group, sent.message_id),
        ("deleted", group, sent.message_id),
    ]
    assert events[0].view is not None and events[0].view.buttons == [("A", "a")]
    assert events[1].view is not None and events[1].view.text == "hi 2"
    assert events[2].view is None
    assert texts == ["hi", "hi 2"]
    assert events[0].time <= events[1].time <= events[2].time <= time.monotonic()
    assert [(q, a) for q, a, _ in answers] == [(qid, ("ok", False))]
    latencies = api.answer_latencies()
    assert len(latencies) == 1 and 0 <= latencies[0] < 5
    query = api._st.queries[qid]
    assert query.answered_at == answers[0][2] and query.answered_at - query.created == latencies[0]
    # A window that does not hold the press leaves it out.
    assert api.answer_latencies(since=query.created + 0.001) == []
    assert api.answer_latencies(query.created, query.created) == latencies
    assert capsys.readouterr().err.count("RuntimeError: boom in a test hook") == 2


# ------------------------------------------------------------------------------ load


async def test_keep_files_false_keeps_size_and_hash_only() -> None:
    data = png(1000, 500)
    with FakeBotApi(keep_files=False) as api:
        alice = api.add_user("Alice", started=True)
        async with client_for(api) as bot:
            sent = await bot.send_photo(alice, data, caption="board")
            file_id = sent.photo[-1].file_id
            assert sent.photo[-1].file_size == len(data) and len(sent.photo) > 1
            view = api.message(alice, sent.message_id)
            assert view.photo == b"" and view.photo_size == (1000, 500)
            assert view.media_size == len(data)
            assert view.media_sha256 == hashlib.sha256(data).hexdigest()
            with pytest.raises(FakeBotApiError, match="keep_files=False"):
                api.file_bytes(file_id)
            file = await bot.get_file(file_id)
            assert file.file_size == len(data) and file.file_path
            resp = httpx.get(file.file_path)  # PTB made it the full download url
            assert resp.status_code == 404 and "not kept" in resp.json()["description"]
            # "Not modified" is still detected, by the digest.
            with pytest.raises(BadRequest, match=r"(?i)not modified"):
                await bot.edit_message_media(
                    InputMediaPhoto(data, caption="board"), alice, sent.message_id
                )
            await bot.edit_message_media(
                InputMediaPhoto(png(1000, 500, "blue"), caption="board"), alice, sent.message_id
            )
            assert api.message(alice, sent.message_id).media_sha256 != view.media_sha256


@pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")
async def test_bounded_call_log_keeps_exact_counters() -> None:
    with FakeBotApi(max_calls_kept=5, group_limit_per_minute=3) as api:
        alice = api.add_user("Alice", started=True)
        group = api.add_group("G", owner=alice)
        async with client_for(api) as bot:  # initialize(): getMe
            for i in range(4):
                with contextlib.suppress(RetryAfter):
                    await bot.send_message(group, f"g{i}")
            for i in range(10):
                await bot.send_message(alice, f"p{i}")
                api.send_text(alice, alice, f"u{i}")
        calls = api.calls()
        assert len(calls) == 5 and [c.params["text"] for c in calls] == [
            f"p{i}" for i in range(5, 10)
        ]
        assert calls[-1].seq == 15
        assert api.count_calls() == 15
        assert api.count_calls("sendMessage") == 14
        assert api.count_calls("sendMessage", group, ok=False) == 1
        assert api.count_calls(["getMe", "sendMessage"], ok=True) == 14
        assert api.over_limit_calls(group) == 1
        assert api.count_calls("sendMessage", since=0) == 5  # needs the calls themselves
        assert len(api.all_updates()) == 5
        assert "last 25 Bot API calls" in api.dump()


def test_multipart_parsing_by_hand(api: FakeBotApi) -> None:
    alice = api.add_user("Alice", started=True)
    base = f"{api.url}/bot{api.token}"
    resp = httpx.post(
        f"{base}/sendDocument",
        data={"chat_id": str(alice), "caption": 'отчёт; "x"', "parse_mode": ""},
        files={"document": ("счёт партии.txt", b"\x00\xffdata\r\n--", "text/plain")},
    )
    assert resp.json()["ok"], resp.json()
    view = api.last_message(alice)
    assert view is not None and view.caption == 'отчёт; "x"'
    assert view.document == b"\x00\xffdata\r\n--"
    assert view.document_filename == "счёт партии.txt"
    body = (
        b"--XyZ\r\n"
        b'Content-Disposition: form-data; name="chat_id"\r\n\r\n'
        + str(alice).encode()
        + b"\r\n--XyZ\r\n"
        b'Content-Disposition: form-data; name="document"; filename="a.txt"; '
        b"filename*=UTF-8''%D0%B6.txt\r\nContent-Type: application/octet-stream\r\n\r\n"
        b"payload\r\n--XyZ--\r\n"
    )
    headers = {"Content-Type": 'multipart/form-data; boundary="XyZ"'}
    resp = httpx.post(f"{base}/sendDocument", content=body, headers=headers)
    assert resp.json()["result"]["document"]["file_name"] == "ж.txt"
    bad = httpx.post(f"{base}/sendDocument", content=b"junk", headers=headers)
    assert bad.status_code == 400 and "multipart" in bad.json()["description"]


# ------------------------------------------------------------------------------ full loop


async def test_application_polling_full_loop(api: FakeBotApi) -> None:
    async def ping(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        assert update.effective_chat is not None
        await context.bot.send_message(
            update.effective_chat.id,
            "pong",
            reply_markup=keyboard([("Again", "again"), ("Stop", "stop")]),
        )

    async def pressed(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query = update.callback_query
        assert query is not None and query.message is not None
        await query.answer(f"got {query.data}")
        await query.edit_message_text(f"pressed {query.data}")

    app = application_for(api)
    app.add_handler(CommandHandler("ping", ping))
    app.add_handler(CallbackQueryHandler(pressed))

    alice = api.add_user("Андрей", language_code="ru")
    group = api.add_group("Домино", owner=alice)
    async with app:
        await app.start()
        assert app.updater is not None
        await app.updater.start_polling(poll_interval=0, timeout=dtm.timedelta(seconds=1))
        try:
            mid = api.send_text(alice, group, "/ping@domino_test_bot")
            reply = await api.wait_message_async(group, after=mid, contains="pong", timeout=10)
            assert reply.from_bot and [b.text for b in reply.buttons] == ["Again", "Stop"]
            qid = api.press_button(alice, group, reply.message_id, "Stop")
            answer = await api.callback_answer_async(qid, timeout=10)
            assert answer == ("got stop", False)
            edited = await api.wait_for_async(
                lambda a: a.message(group, reply.message_id).text == "pressed stop", 10
            )
            assert edited
            assert api.message(group, reply.message_id).reply_markup == []
        finally:
            await app.updater.stop()
            await app.stop()
    assert api.pending_updates() == []  # everything confirmed on shutdown
    assert api.count_calls("deleteWebhook") == 1


def test_wait_for_timeout_dumps_calls(api: FakeBotApi) -> None:
    alice = api.add_user("Alice")
    group = api.add_group("G", owner=alice)
    api.send_text(alice, group, "hello")
    with pytest.raises(TimeoutError, match="last 25 Bot API calls") as info:
        api.wait_message(group, contains="never", timeout=0.2)
    assert "'hello'" in str(info.value)


async def test_async_waits_do_not_block_loop(api: FakeBotApi, bot: Bot) -> None:
    alice = api.add_user("Alice", started=True)

    async def later() -> None:
        await asyncio.sleep(0.2)
        await bot.send_message(alice, "late")

    task = asyncio.create_task(later())
    view = await api.wait_message_async(alice, contains="late", timeout=5)
    await task
    assert view.text == "late"


# ------------------------------------------------------------------------------ webhook

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def free_port() -> int:
    """A port nothing listens on (bound and released)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextlib.asynccontextmanager
async def endpoint(handler: Handler, port: int = 0) -> AsyncIterator[str]:
    """A tiny aiohttp app in the test's loop answering every path with ``handler``; yields
    its base URL."""
    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", handler)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", port))
    await web.SockSite(runner, sock).start()
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        await runner.cleanup()


async def test_webhook_delivers_updates_with_the_secret(api: FakeBotApi, bot: Bot) -> None:
    got: list[tuple[str, str | None, str, JSONDict]] = []

    async def hook(request: web.Request) -> web.Response:
        secret = request.headers.get("X-Telegram-Bot-Api-Secret-Token")
        got.append((request.path, secret, request.content_type, await request.json()))
        return web.Response()

    alice = api.add_user("Alice", started=True)
    sent = await bot.send_message(alice, "k", reply_markup=keyboard([("x", "x")]))
    async with endpoint(hook) as base:
        url = f"{base}/hook"
        assert await bot.set_webhook(
            url, secret_token="s3cr3t_-X", max_connections=5, allowed_updates=["message"]
        )
        info = await bot.get_webhook_info()
        assert (info.url, info.max_connections, info.allowed_updates) == (url, 5, ("message",))
        api.press(alice, alice, sent.message_id, "x")  # not allowed: dropped
        mid = api.send_text(alice, alice, "hello")
        await asyncio.to_thread(api.wait_delivered, 5)
    assert len(got) == 1
    path, secret, ctype, body = got[0]
    assert (path, secret, ctype) == ("/hook", "s3cr3t_-X", "application/json")
    assert body == api.all_updates()[-1]  # the very JSON getUpdates would have returned
    update = Update.de_json(body, bot)
    assert update.message is not None and update.message.message_id == mid
    assert update.message.text == "hello"
    assert api.pending_updates() == []
    [delivery] = api.webhook_deliveries()
    assert (delivery.update_id, delivery.url, delivery.status, delivery.error) == (
        update.update_id,
        url,
        200,
        None,
    )
    assert delivery.ok and delivery.attempt == 1
    with pytest.raises(Conflict, match=r"(?i)webhook is active"):
        await bot.get_updates()


@pytest.mark.timing
async def test_webhook_retries_until_2xx(api: FakeBotApi, bot: Bot) -> None:
    seen: list[int] = []

    async def flaky(request: web.Request) -> web.Response:
        seen.append((await request.json())["update_id"])
        return web.Response(status=500 if len(seen) <= 2 else 200)

    alice = api.add_user("Alice")
    async with endpoint(flaky) as base:
        await bot.set_webhook(f"{base}/hook")
        api.start_bot(alice)
        await asyncio.to_thread(api.wait_delivered, 10)
        info = await bot.get_webhook_info()
    update_id = api.all_updates()[-1]["update_id"]
    assert seen == [update_id] * 3
    assert api.pending_updates() == []
    attempts = api.webhook_deliveries(update_id)
    assert [(d.status, d.ok, d.attempt) for d in attempts] == [
        (500, False, 1),
        (500, False, 2),
        (200, True, 3),
    ]
    # backoff: 0.5 s, then 1 s
    gaps = [b.started - (a.started + a.duration) for a, b in itertools.pairwise(attempts)]
    assert 0.45 <= gaps[0] < 2.0 and 0.95 <= gaps[1] < 3.0, gaps
    assert info.pending_update_count == 0
    assert info.last_error_message == "Wrong response from the webhook: 500 Internal Server Error"


@pytest.mark.timing
async def test_webhook_retries_after_refused_connections_and_timeouts() -> None:
    port = free_port()
    slow_once: list[int] = []

    async def hook(request: web.Request) -> web.Response:
        if not slow_once:
            slow_once.append(1)
            await asyncio.sleep(1.0)  # longer than webhook_timeout: a failed attempt
        return web.Response()

    with FakeBotApi(webhook_timeout=0.3, webhook_retry=0.05, webhook_retry_max=0.1) as api:
        async with client_for(api) as bot:
            await bot.set_webhook(f"http://127.0.0.1:{port}/hook")
            alice = api.add_user("Alice")
            api.start_bot(alice)
            await api.wait_for_async(lambda a: len(a.webhook_deliveries()) >= 3, 5)
            assert api.pending_updates() != []  # never lost
            refused = api.webhook_deliveries()
            assert all(d.status is None and d.error for d in refused)
            assert "Connection failed" in (refused[0].error or "")
            async with endpoint(hook, port):
                await asyncio.to_thread(api.wait_delivered, 5)
            answered = [
                (d.status, d.error)
                for d in api.webhook_deliveries()
                if not (d.error or "").startswith("Connection failed")
            ]
            assert answered == [
                (None, "Read timeout expired"),
                (200, None),
            ]
            assert api.pending_updates() == []


async def test_webhook_keeps_each_chat_in_order_but_chats_in_parallel(
    api: FakeBotApi, bot: Bot
) -> None:
    alice = api.add_user("Alice")
    bob = api.add_user("Bob")
    group_a = api.add_group("A", owner=alice)
    group_b = api.add_group("B", owner=bob)
    arrivals: list[tuple[int, str]] = []
    in_flight: collections.Counter[int] = collections.Counter()
    most: collections.Counter[int] = collections.Counter()
    b_arrived = asyncio.Event()

    async def hook(request: web.Request) -> web.Response:
        message = (await request.json())["message"]
        chat, text = message["chat"]["id"], message["text"]
        arrivals.append((chat, text))
        in_flight[chat] += 1
        most[chat] = max(most[chat], in_flight[chat])
        try:
            if text == "a1":  # held until B's update came: B is not queued behind A
                await asyncio.wait_for(b_arrived.wait(), 5)
            if chat == group_b:
                b_arrived.set()
            await asyncio.sleep(0.02)
        finally:
            in_flight[chat] -= 1
        return web.Response()

    async with endpoint(hook) as base:
        await bot.set_webhook(f"{base}/hook")
        for text in ("a1", "a2", "a3"):
            api.send_text(alice, group_a, text)
        api.send_text(bob, group_b, "b1")
        await asyncio.to_thread(api.wait_delivered, 10)
    assert [t for c, t in arrivals if c == group_a] == ["a1", "a2", "a3"]
    assert arrivals.index((group_b, "b1")) < arrivals.index((group_a, "a2"))
    assert most[group_a] == 1  # one update of a chat in flight at a time
    assert all(d.ok for d in api.webhook_deliveries()) and len(api.webhook_deliveries()) == 4


async def test_set_webhook_validation(api: FakeBotApi, bot: Bot) -> None:
    base = f"{api.url}/bot{api.token}/setWebhook"
    for secret in ("bad token!", "x" * 257, "ключ"):
        resp = httpx.post(base, data={"url": "http://127.0.0.1:1/hook", "secret_token": secret})
        assert resp.status_code == 400
        assert (
            resp.json()["description"] == "Bad Request: secret token contains unallowed characters"
        )
    with pytest.raises(BadRequest, match=r"(?i)secret token contains unallowed characters"):
        await bot.set_webhook("http://127.0.0.1:1/hook", secret_token="no spaces")
    for url in ("ftp://127.0.0.1/hook", "127.0.0.1:8443/hook", "https:///hook"):
        resp = httpx.post(base, data={"url": url})
        assert resp.status_code == 400
        assert resp.json()["description"].startswith("Bad Request: bad webhook: "), url
    assert (await bot.get_webhook_info()).url == ""
    ok = httpx.post(base, data={"url": "http://127.0.0.1:1/hook", "secret_token": "A-z_09" * 40})
    assert ok.json() == {"ok": True, "result": True}


async def test_delete_webhook_stops_delivery(api: FakeBotApi, bot: Bot) -> None:
    got: list[str] = []

    async def hook(request: web.Request) -> web.Response:
        got.append((await request.json())["message"]["text"])
        return web.Response()

    alice = api.add_user("Alice")
    group = api.add_group("G", owner=alice)
    async with endpoint(hook) as base:
        # a long poll waiting when the webhook is set ends with 409
        poll = asyncio.create_task(bot.get_updates(timeout=dtm.timedelta(seconds=5)))
        await api.wait_for_async(lambda a: a._st.poll_generation == 1, 2)
        await bot.set_webhook(f"{base}/hook")
        with pytest.raises(Conflict):
            await poll
        api.send_text(alice, group, "one")
        await asyncio.to_thread(api.wait_delivered, 5)
        assert await bot.delete_webhook()
        api.send_text(alice, group, "two")
        await asyncio.sleep(0.3)
        assert got == ["one"]
        assert [u["message"]["text"] for u in api.pending_updates()] == ["two"]
        updates = await bot.get_updates()
        assert [u.message.text for u in updates if u.message] == ["two"]
        # pending updates are dropped on request
        api.send_text(alice, group, "three")
        await bot.set_webhook(f"{base}/hook", drop_pending_updates=True)
        await bot.delete_webhook(drop_pending_updates=True)
        assert api.pending_updates() == []
    assert got == ["one"]
    assert (await bot.get_webhook_info()).url == ""


async def test_balancer_round_robin_and_dead_backends() -> None:
    hits: list[tuple[str, str, str, str | None, bytes]] = []

    def backend(name: str) -> Handler:
        async def handle(request: web.Request) -> web.Response:
            secret = request.headers.get("X-Telegram-Bot-Api-Secret-Token")
            hits.append((name, request.method, request.path_qs, secret, await request.read()))
            return web.json_response({"backend": name}, status=201 if name == "b" else 200)

        return handle

    dead = f"http://127.0.0.1:{free_port()}"
    async with endpoint(backend("a")) as a, endpoint(backend("b")) as b:
        with Balancer([a, b]) as lb:
            async with httpx.AsyncClient(base_url=lb.url) as client:
                answers = [
                    await client.post(
                        f"/hook/{i}?q={i}",
                        content=b'{"n": %d}' % i,
                        headers={
                            "X-Telegram-Bot-Api-Secret-Token": "tok",
                            "Content-Type": "application/json",
                        },
                    )
                    for i in range(4)
                ]
                assert [r.json()["backend"] for r in answers] == ["a", "b", "a", "b"]
                assert [r.status_code for r in answers] == [200, 201, 200, 201]
                assert hits[1] == ("b", "POST", "/hook/1?q=1", "tok", b'{"n": 1}')
                assert lb.forwarded == {a: 2, b: 2}

                lb.set_backends([a, dead, b])
                names = [(await client.get("/x")).json()["backend"] for _ in range(6)]
                assert sorted(set(names)) == ["a", "b"] and len(names) == 6
                assert lb.forwarded[dead] == 0 and lb.refused[dead] >= 1

                lb.set_backends([dead])
                resp = await client.get("/x")
                assert resp.status_code == 502 and lb.failed == 1


async def test_webhook_behind_the_balancer(api: FakeBotApi, bot: Bot) -> None:
    got: dict[str, list[int]] = {"a": [], "b": []}

    def backend(name: str) -> Handler:
        async def handle(request: web.Request) -> web.Response:
            assert request.headers["X-Telegram-Bot-Api-Secret-Token"] == "tok"
            got[name].append((await request.json())["update_id"])
            return web.Response()

        return handle

    users = [api.add_user(f"U{i}") for i in range(6)]
    async with endpoint(backend("a")) as a, endpoint(backend("b")) as b:
        with Balancer([a, f"http://127.0.0.1:{free_port()}", b]) as lb:
            await bot.set_webhook(f"{lb.url}/hook", secret_token="tok")
            for user in users:
                api.start_bot(user)
            await asyncio.to_thread(api.wait_delivered, 10)
    assert got["a"] and got["b"]
    assert sorted(got["a"] + got["b"]) == [u["update_id"] for u in api.all_updates()]
    assert all(d.ok for d in api.webhook_deliveries())


@pytest.mark.timing
def test_stop_is_prompt_while_a_delivery_hangs() -> None:
    with socket.socket() as silent:  # accepts connections (backlog) but never answers
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)
        api = FakeBotApi().start()
        try:
            httpx.post(
                f"{api.url}/bot{api.token}/setWebhook",
                data={"url": f"http://127.0.0.1:{silent.getsockname()[1]}/hook"},
            )
            api.start_bot(api.add_user("Alice"))
            api.wait_for(lambda a: a._st.webhook_in_flight, 5)
        finally:
            started = time.monotonic()
            api.stop()
        assert time.monotonic() - started < 2
        assert api.webhook_deliveries() == []  # the request in flight was abandoned


async def test_two_ptb_applications_in_webhook_mode_behind_the_balancer(api: FakeBotApi) -> None:
    def application(name: str) -> Application:  # type: ignore[type-arg]
        async def ping(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
            assert update.effective_chat is not None
            await context.bot.send_message(update.effective_chat.id, f"pong from {name}")

        app = application_for(api)
        app.add_handler(CommandHandler("ping", ping))
        return app

    ports = [free_port(), free_port()]
    users = [api.add_user(f"U{i}", started=True) for i in range(6)]
    with Balancer([f"http://127.0.0.1:{port}" for port in ports]) as lb:
        async with application("A") as app_a, application("B") as app_b:
            for app, port in ((app_a, ports[0]), (app_b, ports[1])):
                await app.start()
                assert app.updater is not None
                await app.updater.start_webhook(
                    listen="127.0.0.1",
                    port=port,
                    url_path="hook",
                    webhook_url=f"{lb.url}/hook",
                    secret_token="s3cret",
                    max_connections=10,
                )
            try:
                for user in users:
                    api.send_text(user, user, "/ping")
                replies = [
                    await api.wait_message_async(user, contains="pong", timeout=10)
                    for user in users
                ]
                await asyncio.to_thread(api.wait_delivered, 5)
            finally:
                for app in (app_a, app_b):
                    assert app.updater is not None
                    await app.updater.stop()
                    await app.stop()
    senders = {reply.text for reply in replies}
    assert senders == {"pong from A", "pong from B"}
    assert sorted(lb.forwarded.values()) == [3, 3]
    assert api.pending_updates() == []
    assert all(d.ok for d in api.webhook_deliveries())
