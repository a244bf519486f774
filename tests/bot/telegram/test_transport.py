"""The aiohttp transport under python-telegram-bot: what it sends and how it fails."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

import pytest
from aiohttp import web
from telegram import InputFile
from telegram.error import NetworkError, TimedOut
from telegram.request import RequestData
from telegram.request._requestparameter import RequestParameter

from bot.telegram.transport import AiohttpRequest
from tests.support.redis_server import free_port


class Server:
    def __init__(self) -> None:
        self.seen: list[dict[str, Any]] = []
        self.delay = 0.0

    async def handle(self, request: web.Request) -> web.Response:
        entry: dict[str, Any] = {"path": request.path, "type": request.content_type}
        if request.content_type == "multipart/form-data":
            form = await request.post()
            entry["fields"] = {k: v for k, v in form.items() if isinstance(v, str)}
            entry["files"] = {
                k: (v.filename, v.file.read(), v.content_type)
                for k, v in form.items()
                if isinstance(v, web.FileField)
            }
        else:
            entry["fields"] = dict(await request.post())
        self.seen.append(entry)
        if self.delay:
            await asyncio.sleep(self.delay)
        return web.json_response({"ok": True, "result": True})


@pytest.fixture
async def server() -> AsyncIterator[tuple[Server, str]]:
    state = Server()
    app = web.Application()
    app.router.add_post("/{tail:.*}", state.handle)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    yield state, f"http://127.0.0.1:{port}"
    await runner.cleanup()


def _data(**fields: object) -> RequestData:
    return RequestData([RequestParameter.from_input(k, v) for k, v in fields.items()])


async def test_fields_arrive_as_form_fields(server: tuple[Server, str]) -> None:
    state, base = server
    request = AiohttpRequest()
    await request.initialize()
    try:
        status, payload = await request.do_request(
            f"{base}/botX/sendMessage", "POST", _data(chat_id=5, text="Андрей ходит")
        )
    finally:
        await request.shutdown()
    assert status == 200 and json.loads(payload)["ok"] is True
    assert state.seen[0]["path"] == "/botX/sendMessage"
    assert state.seen[0]["fields"] == {"chat_id": "5", "text": "Андрей ходит"}


async def test_a_file_arrives_as_multipart(server: tuple[Server, str]) -> None:
    state, base = server
    request = AiohttpRequest()
    await request.initialize()
    try:
        photo = InputFile(b"\xff\xd8picture", filename="board.jpg")
        await request.do_request(f"{base}/botX/sendPhoto", "POST", _data(chat_id=5, photo=photo))
    finally:
        await request.shutdown()
    seen = state.seen[0]
    assert seen["type"] == "multipart/form-data"
    assert seen["fields"]["chat_id"] == "5"
    ((name, content, _mime),) = [v for v in seen["files"].values()]
    assert name == "board.jpg" and content == b"\xff\xd8picture"


async def test_a_late_answer_is_a_timeout(server: tuple[Server, str]) -> None:
    state, base = server
    state.delay = 2.0
    request = AiohttpRequest(read_timeout=0.3)
    await request.initialize()
    try:
        with pytest.raises(TimedOut):
            await request.do_request(f"{base}/botX/sendMessage", "POST", _data(chat_id=5))
    finally:
        await request.shutdown()
    assert len(state.seen) == 1  # the call did arrive: the caller must treat it as uncertain


async def test_nobody_listening_is_a_network_error() -> None:
    port = free_port()
    request = AiohttpRequest(connect_timeout=1.0)
    await request.initialize()
    try:
        with pytest.raises(NetworkError) as caught:
            await request.do_request(f"http://127.0.0.1:{port}/botX/getMe", "POST")
    finally:
        await request.shutdown()
    assert not isinstance(caught.value, TimedOut)


async def test_closed_transport_refuses() -> None:
    request = AiohttpRequest()
    with pytest.raises(RuntimeError):
        await request.do_request("http://127.0.0.1:1/botX/getMe", "POST")


async def test_a_network_error_never_quotes_the_token() -> None:
    port = free_port()
    request = AiohttpRequest(connect_timeout=1.0)
    await request.initialize()
    token = "123456:SECRETsecretSECRETsecret"
    try:
        with pytest.raises(NetworkError) as caught:
            # An unsupported scheme: aiohttp's error repeats the whole URL.
            await request.do_request(f"ftp://127.0.0.1:{port}/bot{token}/getMe", "POST")
    finally:
        await request.shutdown()
    assert token not in str(caught.value)
    assert caught.value.__cause__ is None and caught.value.__suppress_context__
