"""The fake Telegram Bot API server (aiohttp, background thread) and its test-side control API.

Usage::

    with FakeBotApi(token=TOKEN, bot_username="domino_test_bot") as api:
        alice = api.add_user("Андрей", language_code="ru")
        group = api.add_group("Домино", owner=alice)
        # start the real bot with base_url=api.base_url, base_file_url=api.base_file_url
        mid = api.send_text(alice, group, "/newgame fives")
        reply = api.wait_message(group, after=mid)
        qid = api.press_button(alice, group, reply.message_id, "Join")
        text, show_alert = api.callback_answer(qid)

Updates reach the bot by long polling (``getUpdates``) or, once the bot has called
``setWebhook``, as POSTs to its webhook like Telegram sends them: JSON bodies, the
``X-Telegram-Bot-Api-Secret-Token`` header, up to ``max_connections`` requests in flight, one
update per chat at a time (so each chat stays in order), an update confirmed by a 2xx answer
and retried with a backoff otherwise (:meth:`FakeBotApi.webhook_deliveries` lists the
attempts). :class:`~.balancer.Balancer` puts several bot processes behind one webhook URL.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import re
import secrets
import threading
import time
import traceback
import urllib.parse
from collections.abc import Callable, Coroutine, Iterable
from typing import Any, Literal, TypeVar

import aiohttp
from aiohttp import web

from .background import LoopThreadServer, serve_all_paths, stop_loop_thread
from .methods import (
    CANONICAL,
    FLOOD_METHODS,
    GET_UPDATES,
    Params,
    Upload,
    call_chat_id,
    create_topic,
    dispatch,
    member_json,
    scope_key,
)
from .state import (
    DEFAULT_ALLOWED_UPDATES,
    JSON,
    ApiError,
    Call,
    CallbackAnswer,
    CallbackQuery,
    Chat,
    DelayedAnswer,
    FakeBotApiError,
    Fault,
    FloodLimits,
    InjectedError,
    Pending,
    RandomFaults,
    State,
    User,
    WebhookDelivery,
    canonical,
    chat_instance,
    update_chat_key,
    update_kind,
    user_text_entities,
)
from .views import ANY, BotMessageEvent, Button, ButtonSelector, MessageView, message_view

T = TypeVar("T")

DEFAULT_TOKEN = "123456:TEST-token-abcdefghijklmnopqrstuvwxyz123"
_BOT_PATH = re.compile(r"^/bot(?P<token>[^/]+)/(?P<method>[^/]*)$")
_FILE_PATH = re.compile(r"^/file/bot(?P<token>[^/]+)/(?P<path>.+)$")
_PAYLOAD_RE = re.compile(r"[A-Za-z0-9_-]{1,64}")
_DEFAULT_DESCRIPTIONS = {
    400: "Bad Request",
    401: "Unauthorized",
    403: "Forbidden",
    404: "Not Found",
    409: "Conflict",
    500: "Internal Server Error",
    502: "Bad Gateway",
}

_BOUNDARY_RE = re.compile(r'boundary=(?:"([^"]+)"|([^;\s]+))', re.IGNORECASE)
_DISPOSITION_PARAM_RE = re.compile(r';\s*([A-Za-z0-9_*-]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^;]*)')
_CHARSET_RE = re.compile(r'charset="?([A-Za-z0-9_.:-]+)', re.IGNORECASE)

UserLike = int
ChatLike = int


def _api_error(
    error_code: int,
    description: str | None,
    retry_after: int | None,
    migrate_to_chat_id: int | None,
) -> ApiError:
    """An error answer as Telegram words it (a 429 always carries ``retry_after``)."""
    params: JSON = {}
    if retry_after is not None:
        params["retry_after"] = retry_after
    if migrate_to_chat_id is not None:
        params["migrate_to_chat_id"] = migrate_to_chat_id
    if description is None:
        if error_code == 429:
            description = f"Too Many Requests: retry after {retry_after or 1}"
            params.setdefault("retry_after", retry_after or 1)
        else:
            description = _DEFAULT_DESCRIPTIONS.get(error_code, "Internal Server Error")
    return ApiError(error_code, description, params or None)


def _disposition_params(value: str) -> dict[str, str]:
    """``name`` / ``filename`` of a Content-Disposition header (RFC 5987 ``*`` forms too)."""
    params: dict[str, str] = {}
    for key, raw in _DISPOSITION_PARAM_RE.findall(value):
        key = key.lower()
        raw = raw.strip()
        if raw.startswith('"') and raw.endswith('"') and len(raw) >= 2:
            raw = re.sub(r"\\(.)", r"\1", raw[1:-1])
        if key.endswith("*"):
            charset, _, rest = raw.partition("'")
            _lang, _, encoded = rest.partition("'")
            params[key[:-1]] = urllib.parse.unquote(
                encoded, encoding=charset or "utf-8", errors="replace"
            )
        else:
            params.setdefault(key, raw)
    return params


def parse_multipart(body: bytes, boundary: str) -> tuple[dict[str, Any], dict[str, Upload]]:
    """Split a multipart/form-data body into text fields and uploads.

    A few ``bytes.find`` calls per part: much cheaper than aiohttp's ``request.post()``, whose
    header parsing (and spooling of files to temporary files) was the fake's bottleneck."""
    values: dict[str, Any] = {}
    uploads: dict[str, Upload] = {}
    delimiter = b"\r\n--" + boundary.encode("latin-1")
    pos = body.find(delimiter[2:])
    if pos < 0:
        raise ApiError(400, "Bad Request: can't parse multipart request body")
    pos += len(delimiter) - 2
    while True:
        if body.startswith(b"--", pos):
            break  # the closing delimiter
        head_start = body.find(b"\r\n", pos)
        head_end = body.find(b"\r\n\r\n", head_start)
        end = body.find(delimiter, head_end + 4) if head_end >= 0 else -1
        if head_start < 0 or head_end < 0 or end < 0:
            raise ApiError(400, "Bad Request: can't parse multipart request body")
        headers: dict[str, str] = {}
        for line in body[head_start + 2 : head_end].decode("utf-8", "replace").split("\r\n"):
            key, _, value = line.partition(":")
            headers[key.strip().lower()] = value.strip()
        data = body[head_end + 4 : end]
        pos = end + len(delimiter)
        disposition = _disposition_params(headers.get("content-disposition", ""))
        name = disposition.get("name")
        if name is None:
            continue
        ctype = headers.get("content-type")
        if "filename" in disposition:
            uploads[name] = Upload(name, disposition["filename"], ctype, data)
        elif ctype is None or ctype.lower().startswith("text/"):
            charset = _CHARSET_RE.search(ctype or "")
            values[name] = data.decode(charset.group(1) if charset else "utf-8", "replace")
        else:
            uploads[name] = Upload(name, None, ctype, data)
    return values, uploads


def _calls_asked(
    method: str | Iterable[str] | None,
    chat_id: ChatLike | None,
    ok: bool | None,
    include_polling: bool,
) -> Callable[[str, int | None, bool], bool]:
    """Whether a call (its method, chat id and success) is one ``calls(...)`` asks for:
    ``method`` case-insensitive, getUpdates only if named or ``include_polling``."""
    if isinstance(method, str):
        wanted: set[str] | None = {method.lower()}
    elif method is not None:
        wanted = {m.lower() for m in method}
    else:
        wanted = None

    def asked(name: str, chat: int | None, success: bool) -> bool:
        lowered = name.lower()
        if wanted is not None and lowered not in wanted:
            return False
        if wanted is None and not include_polling and lowered == "getupdates":
            return False
        if chat_id is not None and chat != int(chat_id):
            return False
        return ok is None or success == ok

    return asked


class _IdRef(int):
    """An ``int`` id that shows as the number (``str``, ``format``) and has it as ``.id``."""

    @property
    def id(self) -> int:
        return int(self)

    def __str__(self) -> str:
        return str(int(self))

    __format__ = int.__format__


class UserRef(_IdRef):
    """A test user: an ``int`` (its id, also its private chat id) with a few attributes."""

    first_name: str
    username: str | None
    language_code: str | None

    def __new__(
        cls, user_id: int, first_name: str, username: str | None, language_code: str | None
    ) -> UserRef:
        obj = super().__new__(cls, user_id)
        obj.first_name = first_name
        obj.username = username
        obj.language_code = language_code
        return obj

    def __repr__(self) -> str:
        return f"UserRef({int(self)}, {self.first_name!r})"


class ChatRef(_IdRef):
    """A test group: an ``int`` (the chat id) with a few attributes."""

    title: str
    type: str
    is_forum: bool

    def __new__(cls, chat_id: int, title: str, chat_type: str, is_forum: bool) -> ChatRef:
        obj = super().__new__(cls, chat_id)
        obj.title = title
        obj.type = chat_type
        obj.is_forum = is_forum
        return obj

    def __repr__(self) -> str:
        return f"ChatRef({int(self)}, {self.title!r}, {self.type})"


class FakeBotApi(LoopThreadServer):
    """A fake Telegram Bot API server plus a thread-safe, synchronous control API for tests."""

    thread_name = "fake-bot-api"

    def __init__(
        self,
        token: str = DEFAULT_TOKEN,
        bot_username: str = "domino_test_bot",
        bot_first_name: str = "Domino Test Bot",
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        privacy_mode: bool = False,
        group_limit_per_minute: int | None = None,
        chat_limit_per_second: int | None = None,
        global_limit_per_second: int | None = None,
        callback_timeout: float | None = None,
        keep_files: bool = True,
        max_calls_kept: int | None = None,
        webhook_timeout: float = 10.0,
        webhook_retry: float = 0.5,
        webhook_retry_max: float = 5.0,
    ) -> None:
        """``privacy_mode``: in groups deliver only commands, replies to the bot and service
        messages (unless the bot is an admin). ``callback_timeout``: answering a callback query
        later than this many seconds fails like on Telegram (off by default).
        ``*_limit_*``: flood limits, see :meth:`set_flood_limits`.

        For load tests: ``keep_files=False`` keeps only the size and SHA-256 of uploads (views
        then carry ``b""`` as photo/document and :meth:`file_bytes` raises);
        ``max_calls_kept`` bounds the call log (and the update history of
        :meth:`all_updates`) to the newest calls. The counters behind :meth:`count_calls` and
        :meth:`over_limit_calls` stay exact; what looks at individual calls (:meth:`calls`,
        ``count_calls(since=...)``, :meth:`max_calls_in_window`, :meth:`dump`) only sees the
        calls kept.

        Webhook delivery (after the bot's setWebhook): a request that gets no answer within
        ``webhook_timeout`` seconds fails; a failed update is sent again after
        ``webhook_retry`` seconds, doubling up to ``webhook_retry_max``."""
        if max_calls_kept is not None and max_calls_kept < 1:
            raise ValueError("max_calls_kept must be at least 1 (or None)")
        self._st = State(
            token,
            bot_username,
            bot_first_name,
            privacy_mode=privacy_mode,
            callback_timeout=callback_timeout,
            keep_files=keep_files,
            max_calls_kept=max_calls_kept,
        )
        self._st.flood = FloodLimits(
            group_limit_per_minute, chat_limit_per_second, global_limit_per_second
        )
        self._host = host
        self._port = port
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._runner: web.AppRunner | None = None
        self._delay_tasks: set[asyncio.Future[Any]] = set()
        self.port = 0
        if webhook_timeout <= 0 or webhook_retry < 0 or webhook_retry_max < webhook_retry:
            raise ValueError("bad webhook_timeout / webhook_retry / webhook_retry_max")
        self._wh_timeout = webhook_timeout
        self._wh_retry = webhook_retry
        self._wh_retry_max = webhook_retry_max
        self._wh_session: aiohttp.ClientSession | None = None
        self._wh_wake: asyncio.Event | None = None
        self._wh_task: asyncio.Future[None] | None = None
        self._wh_posts: set[asyncio.Future[None]] = set()
        self._wh_listener: Callable[[], None] | None = None
        self._wh_seen: tuple[int, int] = (0, 0)  # (next_update_id, webhook_generation)

    # ---------------------------------------- lifecycle (start and with: LoopThreadServer)
    @property
    def token(self) -> str:
        return self._st.token

    @property
    def bot_id(self) -> int:
        return self._st.bot.id

    @property
    def bot_username(self) -> str:
        return self._st.bot.username or ""

    @property
    def url(self) -> str:
        return f"http://{self._host}:{self.port}"

    @property
    def base_url(self) -> str:
        """For ``ApplicationBuilder().base_url(...)`` / ``Bot(base_url=...)``."""
        return f"{self.url}/bot"

    @property
    def base_file_url(self) -> str:
        return f"{self.url}/file/bot"

    async def _astart(self) -> None:
        self._runner, self.port = await serve_all_paths(self._handle, self._host, self._port)
        self._start_webhook_delivery()

    def stop(self) -> None:
        if self._thread is None or self._loop is None:
            return
        with self._st.lock:
            self._st.closing = True
            self._st.changed()

        async def cancel_delays() -> None:
            for task in list(self._delay_tasks):
                task.cancel()

        with contextlib.suppress(Exception):  # best effort: delayed answers are dropped
            asyncio.run_coroutine_threadsafe(cancel_delays(), self._loop).result(5)
        with contextlib.suppress(Exception):  # best effort: webhook requests are abandoned
            asyncio.run_coroutine_threadsafe(self._stop_webhook_delivery(), self._loop).result(5)
        runner = self._runner
        stop_loop_thread(self._loop, self._thread, runner.cleanup if runner is not None else None)
        self._thread = None

    # ------------------------------------------------------------------ HTTP layer
    @staticmethod
    def _json(status: int, body: JSON) -> web.Response:
        return web.Response(
            status=status,
            text=json.dumps(body, ensure_ascii=False),
            content_type="application/json",
        )

    async def _read_params(self, request: web.Request) -> Params:
        values: dict[str, Any] = dict(request.query)
        uploads: dict[str, Upload] = {}
        if request.method == "POST" and request.body_exists:
            # Parsed by hand: aiohttp's content_type (email.headerregistry) is slow.
            raw_type = request.headers.get("Content-Type", "")
            ctype = raw_type.split(";", 1)[0].strip().lower()
            if ctype == "application/json":
                try:
                    body = json.loads(await request.read())
                except ValueError:
                    raise ApiError(400, "Bad Request: can't parse JSON request body") from None
                if not isinstance(body, dict):
                    raise ApiError(400, "Bad Request: JSON request body must be an object")
                values.update(body)
            elif ctype == "application/x-www-form-urlencoded":
                text = (await request.read()).decode("utf-8", "replace")
                values.update(urllib.parse.parse_qsl(text, keep_blank_values=True))
            elif ctype == "multipart/form-data":
                match = _BOUNDARY_RE.search(raw_type)
                if match is None:
                    raise ApiError(400, "Bad Request: multipart request without a boundary")
                fields, uploads = parse_multipart(
                    await request.read(), match.group(1) or match.group(2)
                )
                values.update(fields)
        return Params(values, uploads)

    def _fire(self) -> None:
        """Run the hook callbacks for events collected under the lock (called without it)."""
        st = self._st
        if not st.pending_events:
            return
        with st.lock:
            events: list[Pending] = st.take_pending()
            message_listeners = list(st.message_listeners)
            answer_listeners = list(st.answer_listeners)
        for kind, args in events:
            listeners: list[Callable[..., None]] = list(
                message_listeners if kind == "message" else answer_listeners
            )
            for callback in listeners:
                try:
                    callback(*args)
                except Exception:  # a broken test hook must not break the server
                    traceback.print_exc()

    async def _dispatch(self, method: str, params: Params, started: float) -> tuple[int, JSON]:
        """Run a method, holding back its answer (or the whole call) per ``delay_answers``."""
        st = self._st
        with st.lock:
            delay = None
            if st.random_faults:
                name = CANONICAL.get(method.lower(), method)
                st.roll_faults(name, call_chat_id(st, name, params))
            if st.delays:
                name = CANONICAL.get(method.lower(), method)
                delay = st.take_delay(name, call_chat_id(st, name, params))
            if delay is None or delay.effect == "before":
                status, body = dispatch(
                    st, method, params, started, delay=delay.seconds if delay else 0.0
                )
        self._fire()
        if delay is None:
            return status, body
        if delay.effect == "before":
            await self._delayed(asyncio.sleep(delay.seconds))
            return status, body
        # "after": performed when the delay has passed even if the client gave up meanwhile
        # (shielded from the cancellation of this handler).
        return await self._delayed(self._later(delay, method, params, started))

    async def _later(
        self, delay: DelayedAnswer, method: str, params: Params, started: float
    ) -> tuple[int, JSON]:
        await asyncio.sleep(delay.seconds)
        with self._st.lock:
            result = dispatch(self._st, method, params, started, delay=delay.seconds)
        self._fire()
        return result

    async def _delayed(self, coro: Coroutine[Any, Any, T]) -> T:
        """Await ``coro`` as a task that ``stop()`` can cancel; shielded from the handler."""
        task = asyncio.ensure_future(coro)
        self._delay_tasks.add(task)
        task.add_done_callback(self._delay_tasks.discard)
        return await asyncio.shield(task)

    async def _handle(self, request: web.Request) -> web.StreamResponse:
        st = self._st
        started = time.monotonic()
        path = request.path
        match = _BOT_PATH.match(path)
        if match:
            method = match["method"]
            if match["token"] != st.token:
                error = ApiError(401, "Unauthorized")
                with st.lock:
                    st.record_call(
                        CANONICAL.get(method.lower(), method), None, started, {}, None, error
                    )
                return self._json(401, error.to_json())
            try:
                params = await self._read_params(request)
            except ApiError as exc:
                with st.lock:
                    st.record_call(method, None, started, {}, None, exc)
                return self._json(exc.error_code, exc.to_json())
            if method.lower() == GET_UPDATES.lower():
                status, body = await self._get_updates(params, started)
            else:
                status, body = await self._dispatch(method, params, started)
            return self._json(status, body)
        match = _FILE_PATH.match(path)
        if match:
            if match["token"] != st.token:
                return self._json(401, ApiError(401, "Unauthorized").to_json())
            with st.lock:
                stored = st.files_by_path.get(match["path"])
            if stored is None:
                return self._json(404, ApiError(404, "Not Found").to_json())
            if not stored.kept:
                return self._json(
                    404,
                    ApiError(404, "Not Found: file bytes not kept (keep_files=False)").to_json(),
                )
            return web.Response(
                body=stored.data, content_type=stored.mime_type or "application/octet-stream"
            )
        return self._json(404, ApiError(404, "Not Found").to_json())

    async def _get_updates(self, p: Params, started: float) -> tuple[int, JSON]:
        st = self._st
        loop = asyncio.get_running_loop()
        event = asyncio.Event()

        def listener() -> None:
            with contextlib.suppress(RuntimeError):  # loop already closed
                loop.call_soon_threadsafe(event.set)

        result: list[JSON] = []
        error: ApiError | None = None
        gen = 0
        timeout = 0.0
        limit = 100
        with st.lock:
            try:
                injected = st.take_injected(GET_UPDATES, None)
                if injected is not None:
                    raise injected
                if st.webhook_url:
                    raise ApiError(
                        409,
                        "Conflict: can't use getUpdates method while webhook is active; "
                        "use deleteWebhook to delete the webhook first",
                    )
                limit = max(1, min(p.integer("limit") or 100, 100))
                timeout = max(0.0, min(p.number("timeout") or 0.0, 50.0))
                allowed = p.decoded("allowed_updates")
                if isinstance(allowed, list):
                    st.allowed_updates = (
                        frozenset(str(a) for a in allowed) if allowed else DEFAULT_ALLOWED_UPDATES
                    )
                st.confirm(p.integer("offset"))
                st.poll_generation += 1
                gen = st.poll_generation
                st.changed()  # terminates an older pending getUpdates with 409
                st.update_listeners.append(listener)
            except ApiError as exc:
                error = exc
        if error is None:
            deadline = loop.time() + timeout
            try:
                while True:
                    event.clear()
                    with st.lock:
                        if st.webhook_url:
                            error = ApiError(
                                409,
                                "Conflict: terminated by setWebhook request",
                            )
                            break
                        if st.poll_generation != gen:
                            error = ApiError(
                                409,
                                "Conflict: terminated by other getUpdates request; make sure "
                                "that only one bot instance is running",
                            )
                            break
                        if st.closing:
                            break
                        result = st.deliverable(limit)
                        remaining = deadline - loop.time()
                        if result or remaining <= 0:
                            break
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(event.wait(), remaining)
            finally:
                with st.lock:
                    if listener in st.update_listeners:
                        st.update_listeners.remove(listener)
        with st.lock:
            st.record_call(
                GET_UPDATES,
                None,
                started,
                p.normalized(),
                result,
                error,
                notify=bool(result) or error is not None,
            )
        if error is not None:
            return error.error_code, error.to_json()
        return 200, {"ok": True, "result": result}

    # ------------------------------------------------------------------ webhook delivery
    def _start_webhook_delivery(self) -> None:
        """In the server loop: the client session and the task that POSTs updates to the
        webhook (idle until the bot calls setWebhook)."""
        st = self._st
        loop = asyncio.get_running_loop()
        self._wh_session = aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(limit=0),
            timeout=aiohttp.ClientTimeout(total=self._wh_timeout),
        )
        wake = self._wh_wake = asyncio.Event()

        def listener() -> None:  # called with the lock held, on any thread
            if st.webhook_url and (st.next_update_id, st.webhook_generation) != self._wh_seen:
                with contextlib.suppress(RuntimeError):  # loop already closed
                    loop.call_soon_threadsafe(wake.set)

        self._wh_listener = listener
        with st.lock:
            st.update_listeners.append(listener)
        self._wh_task = asyncio.ensure_future(self._webhook_loop())

    async def _stop_webhook_delivery(self) -> None:
        with self._st.lock:
            if self._wh_listener in self._st.update_listeners:
                self._st.update_listeners.remove(self._wh_listener)
        tasks = [t for t in (self._wh_task, *self._wh_posts) if t is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        if self._wh_session is not None:
            await self._wh_session.close()

    async def _webhook_loop(self) -> None:
        st = self._st
        wake = self._wh_wake
        assert wake is not None
        loop = asyncio.get_running_loop()
        while True:
            wake.clear()
            with st.lock:
                if st.closing:
                    return
                self._wh_seen = (st.next_update_id, st.webhook_generation)
                sends, next_retry = self._webhook_pick(loop.time())
            for args in sends:
                task = asyncio.ensure_future(self._webhook_post(*args))
                self._wh_posts.add(task)
                task.add_done_callback(self._wh_posts.discard)
            timeout = None if next_retry is None else max(0.0, next_retry - loop.time())
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(wake.wait(), timeout)

    def _webhook_pick(self, now: float) -> tuple[list[tuple[Any, ...]], float | None]:
        """With the lock held: the updates to POST now — the oldest pending update of each
        chat that has none in flight and is not waiting for a retry, up to max_connections in
        flight — and when the next retry is due."""
        st = self._st
        if not st.webhook_url:
            return [], None
        if any(update_kind(u) not in st.allowed_updates for u in st.updates):
            # Dropped, like getUpdates does: the bot did not ask for this kind of update.
            st.updates = [u for u in st.updates if update_kind(u) in st.allowed_updates]
            st.changed()
        busy = set(st.webhook_in_flight.values())  # chats whose next update must wait
        free = st.webhook_max_connections - len(st.webhook_in_flight)
        sends: list[tuple[Any, ...]] = []
        next_retry: float | None = None
        for update in st.updates:
            if free <= 0:
                break
            update_id = update["update_id"]
            if update_id in st.webhook_in_flight:
                continue
            key = update_chat_key(update)
            if key in busy:
                continue
            busy.add(key)  # later updates of this chat wait for this one
            due = st.webhook_retry_at.get(update_id)
            if due is not None and due > now:
                next_retry = due if next_retry is None else min(next_retry, due)
                continue
            st.webhook_in_flight[update_id] = key
            free -= 1
            body = json.dumps(update, ensure_ascii=False).encode("utf-8")
            attempt = st.webhook_failures.get(update_id, 0) + 1
            sends.append(
                (update_id, body, st.webhook_url, st.webhook_secret, st.webhook_generation, attempt)
            )
        return sends, next_retry

    async def _webhook_post(
        self,
        update_id: int,
        body: bytes,
        url: str,
        secret: str | None,
        generation: int,
        attempt: int,
    ) -> None:
        """One delivery attempt of one update (outside the lock while on the network)."""
        st = self._st
        session = self._wh_session
        assert session is not None
        headers = {"Content-Type": "application/json"}
        if secret:
            headers["X-Telegram-Bot-Api-Secret-Token"] = secret
        status: int | None = None
        error: str | None = None
        reason = ""
        started = time.monotonic()
        try:
            async with session.post(url, data=body, headers=headers) as response:
                status = response.status
                reason = response.reason or ""
                await response.read()
        except TimeoutError:
            error = "Read timeout expired"
        except aiohttp.ClientConnectorError as exc:
            error = f"Connection failed: {exc.os_error or exc}"
        except aiohttp.ClientError as exc:
            error = f"{type(exc).__name__}: {exc}"
        except Exception as exc:  # e.g. a malformed url: fails and is retried like the rest
            error = f"{type(exc).__name__}: {exc}"
        ended = time.monotonic()
        ok = status is not None and 200 <= status < 300
        with st.lock:
            st.webhook_in_flight.pop(update_id, None)
            st.webhook_log.append(
                WebhookDelivery(
                    update_id, url, status, error, time.time(), started, ended - started, attempt
                )
            )
            if ok:
                # Confirmed (also if the webhook changed meanwhile: the bot did get it).
                st.updates = [u for u in st.updates if u["update_id"] != update_id]
                st.webhook_failures.pop(update_id, None)
                st.webhook_retry_at.pop(update_id, None)
                st.last_delivery = ended
            elif generation == st.webhook_generation and any(
                u["update_id"] == update_id for u in st.updates
            ):
                failures = st.webhook_failures[update_id] = attempt
                backoff = min(self._wh_retry * 2 ** (failures - 1), self._wh_retry_max)
                st.webhook_retry_at[update_id] = asyncio.get_running_loop().time() + backoff
                message = error or f"Wrong response from the webhook: {status} {reason}".strip()
                st.webhook_last_error = (int(time.time()), message)
            st.changed()
        if self._wh_wake is not None:
            self._wh_wake.set()

    # ------------------------------------------------------------------ lookups
    def _user(self, user: UserLike) -> User:
        found = self._st.users.get(int(user))
        if found is None:
            raise FakeBotApiError(f"unknown user {user!r}")
        return found

    def _chat_any(self, chat: ChatLike) -> Chat:
        found = self._st.chats.get(int(chat))
        if found is None:
            raise FakeBotApiError(f"unknown chat {chat!r}")
        return found

    def _chat(self, chat: ChatLike) -> Chat:
        found = self._chat_any(chat)
        if found.migrated_to is not None:
            raise FakeBotApiError(f"chat {found.id} was migrated to supergroup {found.migrated_to}")
        return found

    def _actor(self, chat: Chat, by: UserLike | None) -> User | None:
        if by is not None:
            return self._user(by)
        for wanted in ("creator", "administrator", "member"):
            for uid, status in chat.members.items():
                if status == wanted:
                    return self._st.users[uid]
        return None

    def _join(self, user: User, chat: Chat) -> None:
        if chat.type == "private":
            if chat.user_id != user.id:
                raise FakeBotApiError(
                    f"user {user.id} cannot act in the private chat of user {chat.user_id}"
                )
            if user.blocked:
                raise FakeBotApiError(
                    f"user {user.id} blocked the bot; call unblock_bot() or start_bot() first"
                )
            return
        status = chat.members.get(user.id)
        if status is None:
            chat.members[user.id] = "member"
        elif status in ("left", "kicked"):
            raise FakeBotApiError(f"user {user.id} is not a member of chat {chat.id} ({status})")

    def _deliver_message(self, chat: Chat, msg_id: int) -> None:
        st = self._st
        msg = chat.messages[msg_id]
        if st.should_deliver_group_message(chat, msg):
            st.enqueue("message", st.message_json(msg))

    def _my_chat_member(self, chat: Chat, actor: User, old: str, new: str) -> None:
        st = self._st
        bot = st.bot.to_json()

        def member(status: str) -> JSON:
            if not status:
                return {"status": "left", "user": bot}
            return member_json(st, chat, st.bot, status)

        st.enqueue(
            "my_chat_member",
            {
                "chat": st.chat_json(chat),
                "from": actor.to_json(),
                "date": int(time.time()),
                "old_chat_member": member(old),
                "new_chat_member": member(new),
            },
        )

    # ------------------------------------------------------------------ set-up
    def add_user(
        self,
        first_name: str,
        *,
        last_name: str | None = None,
        username: str | None = None,
        language_code: str | None = None,
        started: bool = False,
        user_id: int | None = None,
    ) -> UserRef:
        """Create a user; its private chat (id == user id) exists but is not started."""
        with self._st.lock:
            uid = user_id if user_id is not None else self._st.new_user_id()
            if uid in self._st.users or uid <= 0:
                raise FakeBotApiError(f"bad or duplicate user id {uid}")
            self._st.add_user(
                User(
                    id=uid,
                    first_name=first_name,
                    last_name=last_name,
                    username=username,
                    language_code=language_code,
                    started=started,
                )
            )
            self._st.changed()
        return UserRef(uid, first_name, username, language_code)

    def add_group(
        self,
        title: str,
        *,
        owner: UserLike | None = None,
        admins: Iterable[UserLike] = (),
        members: Iterable[UserLike] = (),
        supergroup: bool = False,
        is_forum: bool = False,
        bot_admin: bool = False,
        username: str | None = None,
        announce: bool = False,
    ) -> ChatRef:
        """Create a group (negative id) or supergroup (``-100…``; implied by ``is_forum``) the
        bot is a member of. ``announce`` enqueues the ``my_chat_member`` update of the bot being
        added (by the owner / first admin)."""
        supergroup = supergroup or is_forum
        with self._st.lock:
            st = self._st
            chat = Chat(
                id=st.new_group_id(supergroup),
                type="supergroup" if supergroup else "group",
                title=title,
                username=username,
                is_forum=is_forum,
                bot_status="administrator" if bot_admin else "member",
                next_message_id=2,  # 1 is the "group created" service message
            )
            if owner is not None:
                chat.members[self._user(owner).id] = "creator"
            for admin in admins:
                chat.members[self._user(admin).id] = "administrator"
            for member in members:
                chat.members.setdefault(self._user(member).id, "member")
            st.chats[chat.id] = chat
            if announce:
                actor = self._actor(chat, None)
                if actor is None:
                    raise FakeBotApiError("announce=True needs an owner, admin or member")
                self._my_chat_member(chat, actor, "", chat.bot_status)
            st.changed()
            return ChatRef(chat.id, title, chat.type, is_forum)

    def set_member(self, chat: ChatLike, user: UserLike, status: str = "member") -> None:
        """Set a user's status in a group: creator | administrator | member | left | kicked."""
        if status not in ("creator", "administrator", "member", "left", "kicked"):
            raise FakeBotApiError(f"bad status {status!r}")
        with self._st.lock:
            self._chat(chat).members[self._user(user).id] = status
            self._st.changed()

    def add_topic(self, group: ChatLike, name: str, *, by: UserLike | None = None) -> int:
        """Create a forum topic; returns its ``message_thread_id``."""
        with self._st.lock:
            chat = self._chat(group)
            if not chat.is_forum:
                raise FakeBotApiError(f"chat {chat.id} is not a forum")
            actor = self._actor(chat, by)
            try:
                msg = create_topic(self._st, chat, name, actor.id if actor else None)
            except ApiError as exc:
                raise FakeBotApiError(exc.description) from None
            self._deliver_message(chat, msg.message_id)
            self._st.changed()
            return msg.message_id

    def rename_topic(
        self, group: ChatLike, thread_id: int, name: str, *, by: UserLike | None = None
    ) -> int:
        """Rename a forum topic: a ``forum_topic_edited`` service message in it (its id)."""
        with self._st.lock:
            chat = self._chat(group)
            if thread_id not in chat.topics:
                raise FakeBotApiError(f"chat {chat.id} has no topic {thread_id}")
            actor = self._actor(chat, by)
            msg = self._st.add_message(
                chat,
                sender_id=actor.id if actor else None,
                service={"forum_topic_edited": {"name": name}},
            )
            msg.thread_id = thread_id
            chat.topics[thread_id] = name
            self._deliver_message(chat, msg.message_id)
            self._st.changed()
            return msg.message_id

    def block_bot(self, user: UserLike) -> None:
        """The user blocks the bot (a ``my_chat_member`` update is sent, like Telegram does)."""
        with self._st.lock:
            found = self._user(user)
            if not found.blocked:
                found.blocked = True
                self._my_chat_member(self._st.chats[found.id], found, "member", "kicked")

    def unblock_bot(self, user: UserLike) -> None:
        with self._st.lock:
            found = self._user(user)
            if found.blocked:
                found.blocked = False
                self._my_chat_member(self._st.chats[found.id], found, "kicked", "member")

    def set_bot_status(
        self,
        chat: ChatLike,
        status: Literal["member", "administrator", "left", "kicked"],
        *,
        by: UserLike | None = None,
    ) -> None:
        """Change the bot's own membership in a group (sends ``my_chat_member``)."""
        with self._st.lock:
            found = self._chat(chat)
            if found.type == "private":
                raise FakeBotApiError("use block_bot/unblock_bot for private chats")
            old = found.bot_status
            if old == status:
                return
            found.bot_status = status
            actor = self._actor(found, by)
            if actor is not None:
                self._my_chat_member(found, actor, old, status)
            self._st.changed()

    def kick_bot(self, chat: ChatLike, *, by: UserLike | None = None) -> None:
        self.set_bot_status(chat, "kicked", by=by)

    def migrate_group(self, group: ChatLike, *, by: UserLike | None = None) -> ChatRef:
        """Upgrade a basic group to a supergroup; returns the new chat (an int id). Calls to the
        old id then fail with ``migrate_to_chat_id``; service messages are delivered in both."""
        with self._st.lock:
            st = self._st
            old = self._chat(group)
            if old.type != "group":
                raise FakeBotApiError(f"chat {old.id} is not a basic group")
            new = Chat(
                id=st.new_group_id(True),
                type="supergroup",
                title=old.title,
                username=old.username,
                members=dict(old.members),
                bot_status=old.bot_status,
                migrated_from=old.id,
            )
            st.chats[new.id] = new
            actor = self._actor(old, by)
            sender = actor.id if actor else None
            first = st.add_message(old, sender_id=sender, service={"migrate_to_chat_id": new.id})
            second = st.add_message(new, sender_id=sender, service={"migrate_from_chat_id": old.id})
            self._deliver_message(old, first.message_id)
            old.migrated_to = new.id
            self._deliver_message(new, second.message_id)
            st.changed()
            return ChatRef(new.id, new.title or "", "supergroup", False)

    def set_flood_limits(
        self,
        *,
        group_per_minute: int | None = None,
        chat_per_second: int | None = None,
        global_per_second: int | None = None,
    ) -> None:
        """Enable/disable 429 flood control: sliding windows over the calls that change
        messages in a chat (``FLOOD_METHODS``): ``group_per_minute`` per group/supergroup over
        60 s, ``chat_per_second`` per chat over 1 s, ``global_per_second`` for all of them
        together over 1 s. A refused call answers 429 with ``retry_after`` (whole seconds, at
        least 1), is counted by :meth:`over_limit_calls` and does not extend the window."""
        with self._st.lock:
            self._st.flood = FloodLimits(group_per_minute, chat_per_second, global_per_second)

    def over_limit_calls(self, chat: ChatLike | None = None) -> int:
        """How many calls the fake's flood limits refused (in all or to one chat); injected
        errors are not counted. Exact even when old calls were dropped from the log."""
        with self._st.lock:
            if chat is None:
                return sum(self._st.over_limit.values())
            return self._st.over_limit[int(chat)]

    def delay_answers(
        self,
        method: str | None = None,
        chat: ChatLike | None = None,
        *,
        seconds: float,
        times: int = 1,
        effect: Literal["before", "after"] = "before",
    ) -> None:
        """Answer the next ``times`` matching calls ``seconds`` late, like a slow Telegram.

        ``effect="before"``: the call takes effect at once, only the HTTP answer is late (a
        client with a shorter timeout gets a timeout although the message was sent/edited).
        ``effect="after"``: the call is performed when the delay has passed, even if the client
        gave up meanwhile (not if the fake is stopped first). Other calls are served
        meanwhile. ``method`` is case-insensitive; ``method=None`` / ``chat=None`` match any
        (getUpdates is never delayed)."""
        if seconds < 0 or times < 1:
            raise FakeBotApiError("delay_answers needs seconds >= 0 and times >= 1")
        if effect not in ("before", "after"):
            raise FakeBotApiError(f"bad effect {effect!r}: 'before' or 'after'")
        name = CANONICAL.get(method.lower(), method) if method else None
        if name == GET_UPDATES:
            raise FakeBotApiError("getUpdates answers cannot be delayed")
        with self._st.lock:
            self._st.delays.append(
                DelayedAnswer(name, int(chat) if chat is not None else None, seconds, times, effect)
            )

    def on_bot_message(self, callback: Callable[[BotMessageEvent], None]) -> Callable[[], None]:
        """Call ``callback(event)`` for every message the bot sends, edits or deletes; returns a
        function that unregisters it. Callbacks run on the server thread after the state lock
        is released (they may use the control API, but must not block: no ``wait_*``);
        exceptions are printed and ignored."""
        return self._listen(self._st.message_listeners, callback)

    def on_callback_answer(
        self, callback: Callable[[str, CallbackAnswer, float], None]
    ) -> Callable[[], None]:
        """Call ``callback(query_id, answer, time)`` for every successful answerCallbackQuery
        (``time``: ``time.monotonic()``); like :meth:`on_bot_message` otherwise."""
        return self._listen(self._st.answer_listeners, callback)

    def _listen(self, listeners: list[Any], callback: Any) -> Callable[[], None]:
        with self._st.lock:
            listeners.append(callback)

        def remove() -> None:
            with self._st.lock:
                if callback in listeners:
                    listeners.remove(callback)

        return remove

    def answer_latencies(self, since: float = 0.0, until: float = float("inf")) -> list[float]:
        """Seconds from each press to the bot's answer, for the answered callback queries
        pressed between `since` and `until` (in the order of the presses; every time is
        ``time.monotonic()``)."""
        with self._st.lock:
            return [
                q.answered_at - q.created
                for q in self._st.queries.values()
                if q.answered_at is not None and since <= q.created <= until
            ]

    def inject_error(
        self,
        method: str | None = None,
        chat: ChatLike | None = None,
        *,
        error_code: int = 500,
        description: str | None = None,
        retry_after: int | None = None,
        migrate_to_chat_id: int | None = None,
        times: int = 1,
    ) -> None:
        """Make the next ``times`` matching calls fail (e.g. ``error_code=429, retry_after=3``,
        or 502 for a network hiccup). ``method=None`` / ``chat=None`` match any."""
        error = _api_error(error_code, description, retry_after, migrate_to_chat_id)
        with self._st.lock:
            self._st.injected.append(
                InjectedError(
                    CANONICAL.get(method.lower(), method) if method else None,
                    int(chat) if chat is not None else None,
                    error,
                    times,
                )
            )

    def inject_random_faults(
        self,
        method: str | None = None,
        chat: ChatLike | None = None,
        *,
        rate: float,
        faults: Iterable[Fault],
        seed: int = 0,
        in_turn: bool = False,
    ) -> None:
        """From now on each matching call gets, with probability ``rate``, one of ``faults``
        (picked evenly, or each in turn with ``in_turn``): an error answer, or an answer held
        back (see :class:`Fault`). Like a flaky Telegram, for as long as the test runs or
        until :meth:`clear_random_faults`. Draws come from a generator seeded with ``seed``;
        the first matching rule decides. ``method=None`` / ``chat=None`` match any
        (getUpdates never gets one)."""
        if not 0 <= rate <= 1:
            raise FakeBotApiError("inject_random_faults needs 0 <= rate <= 1")
        built: list[tuple[Fault, ApiError | None]] = []
        for fault in faults:
            if (fault.error_code is None) == (fault.late <= 0):
                raise FakeBotApiError(f"{fault!r}: give either error_code or late > 0")
            if fault.effect not in ("before", "after"):
                raise FakeBotApiError(f"bad effect {fault.effect!r}: 'before' or 'after'")
            error = None
            if fault.error_code is not None:
                error = _api_error(fault.error_code, fault.description, fault.retry_after, None)
            built.append((fault, error))
        if not built:
            raise FakeBotApiError("inject_random_faults needs at least one fault")
        name = CANONICAL.get(method.lower(), method) if method else None
        if name == GET_UPDATES:
            raise FakeBotApiError("getUpdates gets no random faults (use inject_error)")
        with self._st.lock:
            self._st.random_faults.append(
                RandomFaults(
                    name,
                    int(chat) if chat is not None else None,
                    rate,
                    tuple(built),
                    random.Random(seed),
                    in_turn,
                )
            )

    def clear_random_faults(self) -> None:
        """No more random faults (those already given to calls under way still apply)."""
        with self._st.lock:
            self._st.random_faults.clear()

    def random_faults_given(self) -> dict[str, int]:
        """How many faults random rules gave so far, by kind ("429", "late 2s before" ...)."""
        with self._st.lock:
            return dict(self._st.faults_given)

    # ------------------------------------------------------------------ user actions
    def send_text(
        self,
        user: UserLike,
        chat: ChatLike,
        text: str,
        *,
        thread_id: int | None = None,
        reply_to: int | None = None,
    ) -> int:
        """The user writes ``text`` in ``chat`` (joining a group if needed). A leading
        ``/command`` or ``/command@bot`` gets a ``bot_command`` entity. Returns the message id."""
        with self._st.lock:
            st = self._st
            sender = self._user(user)
            target = self._chat(chat)
            self._join(sender, target)
            if target.type == "private":
                sender.started = True
            if thread_id is not None and thread_id not in target.topics:
                raise FakeBotApiError(f"chat {target.id} has no topic {thread_id}")
            if reply_to is not None and st.get_message(target, reply_to) is None:
                raise FakeBotApiError(f"message {reply_to} not found in chat {target.id}")
            msg = st.add_message(
                target,
                sender_id=sender.id,
                thread_id=thread_id,
                text=text,
                raw_text=text,
                entities=user_text_entities(text),
                reply_to=reply_to,
            )
            self._deliver_message(target, msg.message_id)
            st.changed()
            return msg.message_id

    def start_bot(self, user: UserLike, payload: str | None = None) -> int:
        """The user opens the bot's private chat and presses Start (optionally via a deep link
        ``?start=<payload>``): sends ``/start [payload]``. Returns the message id."""
        if payload is not None and payload != "" and not _PAYLOAD_RE.fullmatch(payload):
            raise FakeBotApiError(
                f"invalid deep-link payload {payload!r}: Telegram allows 1-64 chars of "
                "A-Z, a-z, 0-9, _ and -"
            )
        with self._st.lock:
            found = self._user(user)
            if found.blocked:
                self.unblock_bot(found.id)
            found.started = True
            text = f"/start {payload}" if payload else "/start"
            return self.send_text(found.id, found.id, text)

    def parse_deep_link(self, url: str) -> str | None:
        """The ``start`` payload of a ``https://t.me/<bot>?start=...`` link to this bot."""
        parts = urllib.parse.urlsplit(url)
        query = urllib.parse.parse_qs(parts.query, keep_blank_values=True)
        if parts.scheme in ("http", "https") and (parts.hostname or "").lower() in (
            "t.me",
            "www.t.me",
            "telegram.me",
            "telegram.dog",
        ):
            username = parts.path.strip("/").split("/")[0]
        elif parts.scheme == "tg" and parts.netloc == "resolve":
            username = query.get("domain", [""])[0]
        else:
            raise FakeBotApiError(f"{url!r} is not a t.me link")
        if username.lower() != self.bot_username.lower():
            raise FakeBotApiError(f"{url!r} does not point to @{self.bot_username}")
        if "startgroup" in query or "startchannel" in query:
            raise FakeBotApiError(f"{url!r}: startgroup/startchannel links are not supported")
        values = query.get("start")
        return values[0] if values else None

    def follow_url_button(
        self,
        user: UserLike,
        chat: ChatLike,
        message_id: int,
        button: ButtonSelector | None = None,
    ) -> int:
        """The user clicks a url button of a message that is a deep link to this bot (the first
        url button if ``button`` is None): sends ``/start <payload>`` in private. Returns the
        id of that /start message."""
        with self._st.lock:
            view = self.message(chat, message_id)
            if view.deleted:
                raise FakeBotApiError(f"message {message_id} in chat {int(chat)} was deleted")
            candidates = [b for b in view.buttons if b.url is not None]
            if button is not None:
                candidates = [b for b in candidates if b.matches(button)]
            if not candidates:
                raise FakeBotApiError(
                    f"message {message_id} in chat {int(chat)} has no url button matching "
                    f"{button!r}; it has: {view.describe_buttons()}"
                )
            url = candidates[0].url
            assert url is not None
            return self.start_bot(user, self.parse_deep_link(url))

    def press(self, user: UserLike, chat: ChatLike, message_id: int, callback_data: str) -> str:
        """The user presses the inline button carrying exactly ``callback_data``; returns the
        callback query id. Raises FakeBotApiError if the message has no such button now."""
        with self._st.lock:
            st = self._st
            presser = self._user(user)
            target = self._chat(chat)
            self._join(presser, target)
            msg = st.get_message(target, message_id)
            if msg is None:
                raise FakeBotApiError(
                    f"message {message_id} not found in chat {target.id} (never sent or deleted)"
                )
            view = message_view(msg, st.bot.id)
            if not any(b.callback_data == callback_data for b in view.buttons):
                raise FakeBotApiError(
                    f"message {message_id} in chat {target.id} has no button with callback_data "
                    f"{callback_data!r}; it has: {view.describe_buttons()}"
                )
            qid = str(secrets.randbits(62) | (1 << 61))
            st.queries[qid] = CallbackQuery(
                qid, presser.id, target.id, message_id, callback_data, time.monotonic()
            )
            st.enqueue(
                "callback_query",
                {
                    "id": qid,
                    "from": presser.to_json(),
                    "message": st.message_json(msg),
                    "chat_instance": chat_instance(target.id),
                    "data": callback_data,
                },
            )
            return qid

    def press_button(
        self, user: UserLike, chat: ChatLike, message_id: int, button: ButtonSelector
    ) -> str:
        """Press a callback button chosen by its text (exact), a regex or a predicate."""
        with self._st.lock:
            found = self.message(chat, message_id).button(button)
            if found.callback_data is None:
                raise FakeBotApiError(
                    f"button {found.text!r} is not a callback button (url={found.url!r})"
                )
            return self.press(user, chat, message_id, found.callback_data)

    def callback_answer(self, query_id: str, timeout: float = 5.0) -> CallbackAnswer:
        """Wait for the bot's answerCallbackQuery; returns ``(text, show_alert)``."""
        with self._st.lock:
            if query_id not in self._st.queries:
                raise FakeBotApiError(f"unknown callback query {query_id!r}")
        return self.wait_for(
            lambda api: api._st.queries[query_id].answer,
            timeout,
            f"answerCallbackQuery for query {query_id}",
        )

    def follow_callback_url(self, query_id: str, timeout: float = 5.0) -> int:
        """The client opens the ``url`` the bot gave in answerCallbackQuery (must be a
        ``t.me/<bot>?start=...`` link): the presser sends ``/start <payload>`` in private."""
        self.callback_answer(query_id, timeout)
        with self._st.lock:
            query = self._st.queries[query_id]
            if not query.url:
                raise FakeBotApiError(f"the answer to query {query_id} carries no url")
            return self.start_bot(query.user_id, self.parse_deep_link(query.url))

    def query_answer(self, query_id: str) -> CallbackAnswer | None:
        """The answer to a callback query so far (non-blocking)."""
        with self._st.lock:
            query = self._st.queries.get(query_id)
            return query.answer if query else None

    # ------------------------------------------------------------------ inspection
    def messages(
        self,
        chat: ChatLike,
        *,
        thread_id: Any = ANY,
        from_bot: bool | None = None,
        include_deleted: bool = False,
    ) -> list[MessageView]:
        """Messages of a chat in order. ``thread_id``: ANY (default), None (no topic) or an id;
        ``from_bot``: None (all), True (bot only) or False (users/service only)."""
        with self._st.lock:
            found = self._chat_any(chat)
            out = []
            for msg in sorted(found.messages.values(), key=lambda m: m.message_id):
                if msg.deleted and not include_deleted:
                    continue
                if thread_id is not ANY and msg.thread_id != thread_id:
                    continue
                is_bot = msg.sender_id == self._st.bot.id
                if from_bot is not None and is_bot != from_bot:
                    continue
                out.append(message_view(msg, self._st.bot.id))
            return out

    def message(self, chat: ChatLike, message_id: int) -> MessageView:
        """One message as it is now (also if deleted: check ``.deleted``)."""
        with self._st.lock:
            msg = self._chat_any(chat).messages.get(message_id)
            if msg is None:
                raise FakeBotApiError(f"message {message_id} not found in chat {int(chat)}")
            return message_view(msg, self._st.bot.id)

    def last_message(
        self,
        chat: ChatLike,
        *,
        thread_id: Any = ANY,
        from_bot: bool | None = True,
        where: Callable[[MessageView], bool] | None = None,
    ) -> MessageView | None:
        """The newest non-deleted message (by default: from the bot) matching the filters."""
        for view in reversed(self.messages(chat, thread_id=thread_id, from_bot=from_bot)):
            if where is None or where(view):
                return view
        return None

    def last_id(self, chat: ChatLike) -> int:
        """Highest message id used in the chat so far (handy as ``after=`` marker)."""
        with self._st.lock:
            return self._chat_any(chat).next_message_id - 1

    def buttons(self, chat: ChatLike, message_id: int) -> list[Button]:
        """Inline buttons of a message (``.text``, ``.callback_data``, ``.url``, ``.value``)."""
        return self.message(chat, message_id).buttons

    def pinned(self, chat: ChatLike) -> list[int]:
        with self._st.lock:
            return list(self._chat_any(chat).pinned)

    def user_started(self, user: UserLike) -> bool:
        with self._st.lock:
            return self._user(user).started

    def member_status(self, chat: ChatLike, user: UserLike) -> str:
        with self._st.lock:
            return self._chat_any(chat).members.get(int(user), "left")

    def migrated_to(self, chat: ChatLike) -> int | None:
        with self._st.lock:
            return self._chat_any(chat).migrated_to

    def file_bytes(self, file_id: str) -> bytes:
        with self._st.lock:
            entry = self._st.files.get(file_id)
            if entry is None:
                raise FakeBotApiError(f"unknown file_id {file_id!r}")
            if not entry[0].kept:
                raise FakeBotApiError(
                    f"the bytes of file {file_id!r} were not kept: the fake runs with "
                    f"keep_files=False (size {entry[0].size}, sha256 {entry[0].sha256})"
                )
            return entry[0].data

    def calls(
        self,
        method: str | Iterable[str] | None = None,
        chat_id: ChatLike | None = None,
        *,
        ok: bool | None = None,
        include_polling: bool = False,
        since: float | None = None,
    ) -> list[Call]:
        """Recorded calls (oldest first). ``method`` is case-insensitive (one or several);
        getUpdates is left out unless asked for or ``include_polling``; ``since`` is a
        ``time.time()`` value."""
        asked = _calls_asked(method, chat_id, ok, include_polling)
        with self._st.lock:
            out = []
            for call in self._st.calls:
                if not asked(call.method, call.chat_id, call.ok):
                    continue
                if since is not None and call.time < since:
                    continue
                out.append(call)
            return out

    def count_calls(
        self,
        method: str | Iterable[str] | None = None,
        chat_id: ChatLike | None = None,
        *,
        ok: bool | None = None,
        include_polling: bool = False,
        since: float | None = None,
    ) -> int:
        """``len(calls(...))``, but exact from counters even if old calls were dropped from the
        log (``max_calls_kept``) — except with ``since``, which needs the calls kept."""
        if since is not None:
            return len(
                self.calls(method, chat_id, ok=ok, include_polling=include_polling, since=since)
            )
        return self._counted(_calls_asked(method, chat_id, ok, include_polling))[0]

    def count_calls_to(
        self, method: str | Iterable[str] | None, chat_ids: Iterable[ChatLike]
    ) -> tuple[int, int]:
        """The calls of ``method`` to any chat, and those to ``chat_ids``, counted at one
        moment: the server answers in its own thread, so two counts taken one after the
        other may differ by a call made between them."""
        every = _calls_asked(method, None, None, False)
        chats = {int(chat_id) for chat_id in chat_ids}
        total, to_chats = self._counted(
            every, lambda name, chat, success: chat in chats and every(name, chat, success)
        )
        return total, to_chats

    def _counted(self, *asked: Callable[[str, int | None, bool], bool]) -> list[int]:
        """How many calls each of `asked` takes, all counted under one hold of the lock."""
        totals = [0] * len(asked)
        with self._st.lock:
            for (name, chat, success), count in self._st.call_counts.items():
                for index, takes in enumerate(asked):
                    if takes(name, chat, success):
                        totals[index] += count
        return totals

    def max_calls_in_window(
        self,
        chat_id: ChatLike | None = None,
        *,
        window: float = 60.0,
        methods: Iterable[str] = FLOOD_METHODS,
        ok: bool | None = True,
    ) -> int:
        """The largest number of (by default successful, counted: ``FLOOD_METHODS``) calls to
        ``chat_id`` (or to all chats) that took effect within any sliding window of ``window``
        seconds (of the calls still kept, see ``max_calls_kept``)."""
        times = sorted(c.monotonic for c in self.calls(list(methods), chat_id, ok=ok))
        best = 0
        start = 0
        for end, t in enumerate(times):
            while t - times[start] >= window:
                start += 1
            best = max(best, end - start + 1)
        return best

    def commands(
        self, scope: JSON | str | None = None, language_code: str = ""
    ) -> list[tuple[str, str]]:
        """Commands set for exactly this scope (dict or type name) and language."""
        if isinstance(scope, str):
            scope = {"type": scope}
        with self._st.lock:
            try:
                key = scope_key(self._st, scope)
            except ApiError as exc:
                raise FakeBotApiError(exc.description) from None
            return [
                (c["command"], c["description"])
                for c in self._st.commands.get((key, language_code), [])
            ]

    def effective_commands(
        self, user: UserLike, chat: ChatLike | None = None, language_code: str | None = None
    ) -> list[tuple[str, str]]:
        """The command list a Telegram client would show ``user`` in ``chat`` (private chat by
        default), following the Bot API scope resolution order."""
        with self._st.lock:
            found_user = self._user(user)
            found_chat = self._chat_any(chat if chat is not None else found_user.id)
            lang = language_code if language_code is not None else found_user.language_code
            scopes: list[JSON] = []
            if found_chat.type == "private":
                scopes += [
                    {"type": "chat", "chat_id": found_chat.id},
                    {"type": "all_private_chats"},
                ]
            else:
                is_admin = found_chat.members.get(found_user.id) in ("creator", "administrator")
                scopes.append(
                    {"type": "chat_member", "chat_id": found_chat.id, "user_id": found_user.id}
                )
                if is_admin:
                    scopes.append({"type": "chat_administrators", "chat_id": found_chat.id})
                scopes.append({"type": "chat", "chat_id": found_chat.id})
                if is_admin:
                    scopes.append({"type": "all_chat_administrators"})
                scopes.append({"type": "all_group_chats"})
            scopes.append({"type": "default"})
            for scope in scopes:
                for lang_key in ([lang] if lang else []) + [""]:
                    cmds = self._st.commands.get((canonical(scope), lang_key))
                    if cmds:
                        return [(c["command"], c["description"]) for c in cmds]
            return []

    def bot_text(self, kind: str = "description", language_code: str = "") -> str | None:
        """What setMyDescription / setMyShortDescription / setMyName stored
        (``kind``: description | short_description | name)."""
        with self._st.lock:
            return self._st.texts.get((kind, language_code))

    def pending_updates(self) -> list[JSON]:
        """Updates not yet confirmed by the bot (deep copies)."""
        with self._st.lock:
            copied: list[JSON] = json.loads(json.dumps(self._st.updates))
            return copied

    def webhook_deliveries(self, update_id: int | None = None) -> list[WebhookDelivery]:
        """The attempts to deliver updates to the webhook (oldest first; ``.ok``: answered
        2xx), all or those of one update; bounded by ``max_calls_kept`` like the call log."""
        with self._st.lock:
            return [
                d for d in self._st.webhook_log if update_id is None or d.update_id == update_id
            ]

    def all_updates(self) -> list[JSON]:
        with self._st.lock:
            copied: list[JSON] = json.loads(json.dumps(list(self._st.all_updates)))
            return copied

    # ------------------------------------------------------------------ waiting
    def wait_for(
        self,
        predicate: Callable[[FakeBotApi], T | None],
        timeout: float = 10.0,
        what: str | None = None,
    ) -> T:
        """Re-evaluate ``predicate(api)`` (with the state locked) whenever something changes
        until it returns a truthy value, which is returned; else raise TimeoutError with a dump
        of recent calls."""
        deadline = time.monotonic() + timeout
        with self._st.cond:
            while True:
                value = predicate(self)
                if value:
                    return value
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise TimeoutError(
                        f"{what or 'condition'} not met within {timeout}s\n{self.dump()}"
                    )
                self._st.cond.wait(min(remaining, 0.1))

    def wait_message(
        self,
        chat: ChatLike,
        *,
        contains: str | None = None,
        where: Callable[[MessageView], bool] | None = None,
        thread_id: Any = ANY,
        after: int | None = None,
        from_bot: bool | None = True,
        timeout: float = 10.0,
    ) -> MessageView:
        """Wait for the first message (by default from the bot) with id > ``after`` whose
        text/caption contains ``contains`` and which satisfies ``where``."""

        def find(api: FakeBotApi) -> MessageView | None:
            for view in api.messages(chat, thread_id=thread_id, from_bot=from_bot):
                if after is not None and view.message_id <= after:
                    continue
                if contains is not None and contains not in view.content:
                    continue
                if where is not None and not where(view):
                    continue
                return view
            return None

        what = f"message in chat {int(chat)}" + (f" containing {contains!r}" if contains else "")
        if after is not None:
            what += f" after #{after}"
        return self.wait_for(find, timeout, what)

    def wait_edit(
        self,
        chat: ChatLike,
        message_id: int,
        *,
        after_edits: int | None = None,
        where: Callable[[MessageView], bool] | None = None,
        timeout: float = 10.0,
    ) -> MessageView:
        """Wait until the message has been edited more than ``after_edits`` times (default: its
        edit count now) and satisfies ``where``."""
        base = self.message(chat, message_id).edit_count if after_edits is None else after_edits

        def find(api: FakeBotApi) -> MessageView | None:
            view = api.message(chat, message_id)
            if view.edit_count > base and (where is None or where(view)):
                return view
            return None

        return self.wait_for(find, timeout, f"edit of message {message_id} in chat {int(chat)}")

    def wait_delivered(self, timeout: float = 10.0) -> None:
        """Wait until the bot has fetched every update enqueued so far (with a webhook: until
        each was delivered and answered 2xx)."""

        def done(api: FakeBotApi) -> bool:
            return api._st.all_delivered()

        self.wait_for(done, timeout, "delivery of all pending updates")

    def wait_quiet(self, quiet: float = 0.3, timeout: float = 10.0) -> None:
        """Wait until all updates were fetched and the bot made no call (other than
        getUpdates) for ``quiet`` seconds — useful before asserting that nothing happened."""

        def done(api: FakeBotApi) -> bool:
            st = api._st
            if not st.all_delivered():
                return False
            return time.monotonic() - max(st.last_bot_call, st.last_delivery) >= quiet

        self.wait_for(done, timeout, f"{quiet}s without bot API calls")

    async def wait_for_async(
        self,
        predicate: Callable[[FakeBotApi], T | None],
        timeout: float = 10.0,
        what: str | None = None,
    ) -> T:
        """:meth:`wait_for` for async tests (does not block the running event loop)."""
        return await asyncio.to_thread(self.wait_for, predicate, timeout, what)

    async def callback_answer_async(self, query_id: str, timeout: float = 5.0) -> CallbackAnswer:
        return await asyncio.to_thread(self.callback_answer, query_id, timeout)

    async def wait_message_async(self, chat: ChatLike, **kwargs: Any) -> MessageView:
        return await asyncio.to_thread(lambda: self.wait_message(chat, **kwargs))

    def dump(self, last: int = 25) -> str:
        """Human-readable summary: recent calls, pending updates, last messages per chat."""
        with self._st.lock:
            st = self._st
            lines = [f"--- last {last} Bot API calls (getUpdates omitted) ---"]
            calls = [c for c in st.calls if c.method != GET_UPDATES][-last:]
            lines += [c.short() for c in calls] or ["(none)"]
            polls = [c for c in st.calls if c.method == GET_UPDATES]
            lines.append(
                f"--- getUpdates calls: {len(polls)}; unconfirmed updates: "
                f"{[u['update_id'] for u in st.updates]}; delivered up to {st.delivered_upto} ---"
            )
            if st.webhook_url:
                lines.append(
                    f"--- webhook {st.webhook_url}: in flight {sorted(st.webhook_in_flight)}; "
                    f"retrying {sorted(st.webhook_retry_at)}; last error {st.webhook_last_error} "
                    "---"
                )
            pending = [q.id for q in st.queries.values() if q.answer is None]
            if pending:
                lines.append(f"--- unanswered callback queries: {pending} ---")
            for chat in st.chats.values():
                live = [m for m in chat.messages.values() if not m.deleted]
                if not live:
                    continue
                lines.append(f"--- chat {chat.id} ({chat.type} {chat.title or ''}) ---")
                for msg in sorted(live, key=lambda m: m.message_id)[-5:]:
                    view = message_view(msg, st.bot.id)
                    who = "bot" if view.from_bot else f"user {view.sender_id}"
                    content = view.content.replace("\n", "\\n")
                    if len(content) > 100:
                        content = content[:97] + "..."
                    extra = " [photo]" if view.photo else ""
                    if view.service:
                        extra += f" [service: {', '.join(view.service)}]"
                    if view.document is not None:
                        extra += f" [document {view.document_filename}]"
                    extra += f" buttons: {view.describe_buttons()}" if view.reply_markup else ""
                    lines.append(f"#{view.message_id} {who}: {content!r}{extra}")
            return "\n".join(lines)
