"""One open table's WebSocket, from its hello to its close.

The first message must be the hello with Telegram's init data (a browser cannot set
headers on a WebSocket, and a URL reaches proxies' logs: the data never goes there).
Data that is missing, forged, expired or another bot's closes the socket with 4401
"unauthorized" before anything is read or changed. Then the table gets its words and
its first view, and may ask for actions; every later view is pushed by the hub.

What a client sends wrong is answered and logged in one line, never with a traceback:
a message that cannot be read gets a refusal («bad_message»); one too large closes the
socket (1009, aiohttp's); actions faster than a person presses are refused
(«too_fast»), and a client that keeps on is closed (4429). aiohttp's heartbeat closes a
socket whose other end stopped answering.
"""

from __future__ import annotations

import contextlib
import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web
from redis.exceptions import RedisError

from bot.game.match_errors import BrokenGameError, ConflictError, StoreError
from bot.game.outcomes import Refusal
from bot.i18n import Translator
from bot.table.actions import Place, perform
from bot.table.hub import Seat
from bot.table.initdata import Identity, Unauthorized
from bot.table.messages import MAX_MESSAGE, Action, Hello, Malformed, read_message
from bot.telegram import webapp_texts

if TYPE_CHECKING:
    from bot.table.server import TableServer

log = logging.getLogger(__name__)

HEARTBEAT = 20.0  # seconds between pings; a socket without a pong by half that closes
HELLO_WAIT = 10.0  # seconds the hello may take
# A person presses a few times a second at most: a burst of this many, then this many a
# second; past `CLOSE_AFTER` refusals in a row the client is closed.
BURST = 6
PER_SECOND = 3.0
CLOSE_AFTER = 20

# Close codes (4000-4999 are the application's): each with its reason.
UNAUTHORIZED = 4401
NO_GAME = 4404
NO_HELLO = 4408
TOO_FAST = 4429
BAD_HELLO = 4400
GOING_AWAY = 1001


@dataclass
class RateLimit:
    """A token bucket: `burst` presses at once, refilled at `rate` a second."""

    burst: float = BURST
    rate: float = PER_SECOND
    clock: Callable[[], float] = time.monotonic
    tokens: float = BURST
    at: float = field(default=-1.0)
    refused: int = 0  # in a row

    def allow(self) -> bool:
        now = self.clock()
        if self.at >= 0:
            self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1:
            self.tokens -= 1
            self.refused = 0
            return True
        self.refused += 1
        return False


class Session:
    """Serves one WebSocket (see the module)."""

    def __init__(self, table: TableServer, request: web.Request) -> None:
        self.table = table
        self.request = request
        self.socket = web.WebSocketResponse(
            heartbeat=HEARTBEAT, max_msg_size=MAX_MESSAGE, autoping=True
        )
        self.limit = RateLimit()

    async def run(self) -> web.StreamResponse:
        socket = self.socket
        try:
            await socket.prepare(self.request)
        except ConnectionError:  # the page went before its handshake was answered
            log.debug("table: gone before its handshake")
            # Not the half-prepared socket, which aiohttp would then try to close: a plain
            # answer, whose writing fails as aiohttp expects on a closed connection.
            return web.Response(status=400)
        found = await self._hello()
        if found is None:
            return socket
        identity, place, tr = found
        seat = Seat(socket, identity, tr, (place.chat_id, place.thread_id), place.game_id)
        await self._answer(
            {
                "type": "welcome",
                "words": webapp_texts.page_words(tr),
                "lang": tr.lang,
                "now": self.table.clock(),  # the page's clock counts from the server's
            }
        )
        if socket.closed:  # it closed right after its hello
            return socket
        try:
            try:
                await self.table.hub.attach(seat)
            except (StoreError, RedisError) as exc:
                await self._close(1011, "storage unavailable", exc.__class__.__name__)
                return socket
            await self._listen(seat, place)
        finally:
            await self.table.hub.detach(seat)
        return socket

    async def _hello(self) -> tuple[Identity, Place, Translator] | None:
        """Who opened the table, for which game (None: refused, and the socket closed)."""
        socket = self.socket
        try:
            message = await socket.receive(timeout=HELLO_WAIT)
        except TimeoutError:
            await self._close(NO_HELLO, "no hello")
            return None
        if message.type != WSMsgType.TEXT:
            if message.type == WSMsgType.ERROR:
                await self._close(BAD_HELLO, "bad hello")
            return None
        hello = read_message(message.data)
        if not isinstance(hello, Hello):
            await self._close(BAD_HELLO, "bad hello")
            return None
        try:
            identity = self.table.identify(hello.init_data)
        except Unauthorized as refused:
            await self._close(UNAUTHORIZED, "unauthorized", refused.reason)
            return None
        try:
            place = await self.table.place(identity, hello.game)
        except (StoreError, RedisError):
            await self._close(1011, "storage unavailable")
            return None
        if place is None:
            await self._close(NO_GAME, "no such game")
            return None
        return identity, place, await self.table.translator(identity)

    async def _listen(self, seat: Seat, place: Place) -> None:
        async for message in self.socket:
            if message.type == WSMsgType.ERROR:
                log.warning("table: socket closed (%s)", self.socket.exception())
                return
            if message.type != WSMsgType.TEXT:
                await self._refuse(seat, None, "bad_message", "binary")
                continue
            if not self.limit.allow():
                if self.limit.refused > CLOSE_AFTER:
                    await self._close(TOO_FAST, "too fast")
                    return
                if self.limit.refused == 1:  # one line a burst
                    log.warning("table: user %s presses too fast", seat.identity.user_id)
                await self._answer(
                    {
                        "type": "refused",
                        "id": None,
                        "code": "too_fast",
                        "text": webapp_texts.refusal(seat.tr, "too_fast"),
                    }
                )
                continue
            asked = read_message(message.data)
            if isinstance(asked, Malformed):
                await self._refuse(seat, asked.id, "bad_message", asked.reason)
            elif isinstance(asked, Hello):
                await self._refuse(seat, None, "bad_message", "a second hello")
            else:
                await self._act(seat, place, asked)

    async def _act(self, seat: Seat, place: Place, action: Action) -> None:
        try:
            said = await perform(self.table.service, place, seat.identity, seat.tr.lang, action)
        except Refusal as refusal:
            await self._answer(
                {
                    "type": "refused",
                    "id": action.id,
                    "code": refusal.code,
                    "text": webapp_texts.refusal(seat.tr, refusal.code),
                }
            )
            return
        except BrokenGameError as exc:
            await self._refuse(seat, action.id, exc.code, "broken game")
            return
        except ConflictError:
            await self._refuse(seat, action.id, "busy", "conflict")
            return
        except (StoreError, RedisError) as exc:
            await self._refuse(seat, action.id, "storage_down", exc.__class__.__name__)
            return
        done: dict[str, Any] = {"type": "done", "id": action.id}
        if said is not None:  # a practice hint, in the player's words
            done["text"] = said
        await self._answer(done)

    async def _refuse(self, seat: Seat, ask_id: int | None, code: str, why: str) -> None:
        log.warning("table: user %s refused: %s (%s)", seat.identity.user_id, code, why)
        text = webapp_texts.refusal(seat.tr, code)
        await self._answer({"type": "refused", "id": ask_id, "code": code, "text": text})

    async def _answer(self, message: dict[str, Any]) -> None:
        if not self.socket.closed:
            with contextlib.suppress(ConnectionError, RuntimeError):  # it closed meanwhile
                await self.socket.send_str(json.dumps(message, ensure_ascii=False))

    async def _close(self, code: int, reason: str, why: str = "") -> None:
        log.warning("table: socket closed: %s%s", reason, f" ({why})" if why else "")
        await self.socket.close(code=code, message=reason.encode())
