"""Data model of the fake Bot API: users, chats, messages, files, updates and recorded calls.

Everything here is plain synchronous Python guarded by :attr:`State.lock` (an ``RLock`` shared
with :attr:`State.cond`). The HTTP layer (``server.py``) and the Bot API method implementations
(``methods.py``) call into it with the lock held; so does the test-side control API.
"""

from __future__ import annotations

import bisect
import collections
import hashlib
import io
import itertools
import json
import math
import random
import re
import secrets
import struct
import threading
import time
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, NamedTuple, Protocol, TypeVar

from .htmltext import HtmlParseError, parse_html, utf16_len

if TYPE_CHECKING:
    from .views import BotMessageEvent

_PILImage: Any
try:  # Pillow is optional: without it photo sizes are read from PNG headers only.
    from PIL import Image as _PILImage
except ImportError:  # pragma: no cover - Pillow is a project dependency
    _PILImage = None

JSON = dict[str, Any]

NOT_MODIFIED = (
    "message is not modified: specified new message content and reply markup are exactly the "
    "same as a current content and reply markup of the message"
)
QUERY_TOO_OLD = "query is too old and response timeout expired or query ID is invalid"
TEXT_LIMIT = 4096
CAPTION_LIMIT = 1024
CALLBACK_DATA_LIMIT = 64
MAX_INLINE_BUTTONS = 100
DEFAULT_ALLOWED_UPDATES = frozenset(
    {
        "message",
        "edited_message",
        "channel_post",
        "edited_channel_post",
        "business_connection",
        "business_message",
        "edited_business_message",
        "deleted_business_messages",
        "inline_query",
        "chosen_inline_result",
        "callback_query",
        "shipping_query",
        "pre_checkout_query",
        "purchased_paid_media",
        "poll",
        "poll_answer",
        "my_chat_member",
        "chat_join_request",
        "chat_boost",
        "removed_chat_boost",
    }
)
_BUTTON_ACTIONS = (
    "callback_data",
    "url",
    "login_url",
    "switch_inline_query",
    "switch_inline_query_current_chat",
    "switch_inline_query_chosen_chat",
    "callback_game",
    "pay",
    "web_app",
    "copy_text",
)
_COMMAND_RE = re.compile(r"/[A-Za-z0-9_]{1,64}(?:@[A-Za-z0-9_]{1,64})?")


class ApiError(Exception):
    """An error answer of the Bot API (``{"ok": false, ...}``)."""

    def __init__(self, error_code: int, description: str, parameters: JSON | None = None) -> None:
        super().__init__(f"{error_code}: {description}")
        self.error_code = error_code
        self.description = description
        self.parameters = parameters

    def to_json(self) -> JSON:
        body: JSON = {"ok": False, "error_code": self.error_code, "description": self.description}
        if self.parameters:
            body["parameters"] = self.parameters
        return body


class FakeBotApiError(AssertionError):
    """Raised by the test-side control API when the test asks for something impossible
    (pressing a button the message does not have, writing to an unknown chat, ...)."""


def bad_request(text: str) -> ApiError:
    return ApiError(400, f"Bad Request: {text}")


def forbidden(text: str) -> ApiError:
    return ApiError(403, f"Forbidden: {text}")


# --------------------------------------------------------------------------------------------
# Model objects
# --------------------------------------------------------------------------------------------


@dataclass
class User:
    id: int
    first_name: str
    last_name: str | None = None
    username: str | None = None
    language_code: str | None = None
    is_bot: bool = False
    started: bool = False
    blocked: bool = False

    def to_json(self, *, with_language: bool = True) -> JSON:
        data: JSON = {"id": self.id, "is_bot": self.is_bot, "first_name": self.first_name}
        if self.last_name:
            data["last_name"] = self.last_name
        if self.username:
            data["username"] = self.username
        if with_language and self.language_code and not self.is_bot:
            data["language_code"] = self.language_code
        return data


@dataclass(slots=True)
class StoredFile:
    kind: str  # "photo" | "document"
    data: bytes  # b"" when the fake was told not to keep file bytes (``keep_files=False``)
    file_unique_id: str
    file_path: str
    filename: str | None = None
    mime_type: str | None = None
    width: int = 0
    height: int = 0
    # JSON of the sizes (photo: list of PhotoSize, largest last) or [Document] for documents.
    sizes: list[JSON] = field(default_factory=list)
    size: int = 0  # bytes uploaded (kept or not)
    sha256: str = ""  # hex digest of the uploaded bytes (kept or not)
    kept: bool = True  # False: ``data`` is empty, only ``size`` and ``sha256`` are known

    @property
    def file_id(self) -> str:
        return str(self.sizes[-1]["file_id"])

    def to_message_fields(self) -> JSON:
        if self.kind == "photo":
            return {"photo": [dict(s) for s in self.sizes]}
        return {"document": dict(self.sizes[-1])}


@dataclass
class Message:
    chat_id: int
    message_id: int
    date: int
    sender_id: int | None
    thread_id: int | None = None
    text: str | None = None  # plain text as Telegram shows it (HTML parsed)
    raw_text: str | None = None  # exactly what the bot sent
    entities: list[JSON] = field(default_factory=list)
    caption: str | None = None
    raw_caption: str | None = None
    caption_entities: list[JSON] = field(default_factory=list)
    parse_mode: str | None = None
    media: StoredFile | None = None
    reply_markup: JSON | None = None  # inline keyboard (returned in Message JSON)
    keyboard_markup: JSON | None = None  # reply keyboard / remove / force reply (not returned)
    reply_to: int | None = None
    edit_count: int = 0
    edit_date: int | None = None
    deleted: bool = False
    service: JSON = field(default_factory=dict)
    topic_root: bool = False  # forum_topic_created message: the root of a thread


@dataclass
class Chat:
    id: int
    type: str  # private | group | supergroup
    title: str | None = None
    username: str | None = None
    is_forum: bool = False
    user_id: int | None = None  # private chats: the user
    members: dict[int, str] = field(default_factory=dict)  # user id -> status
    bot_status: str = "member"  # member | administrator | left | kicked
    messages: dict[int, Message] = field(default_factory=dict)
    next_message_id: int = 1
    topics: dict[int, str] = field(default_factory=dict)
    migrated_to: int | None = None
    migrated_from: int | None = None
    pinned: list[int] = field(default_factory=list)


class CallbackAnswer(NamedTuple):
    """What the bot answered to a callback query (``text, show_alert = answer`` works)."""

    text: str | None
    show_alert: bool


@dataclass
class CallbackQuery:
    id: str
    user_id: int
    chat_id: int
    message_id: int
    data: str
    created: float  # time.monotonic() when the user pressed the button
    answer: CallbackAnswer | None = None
    answered_at: float | None = None  # time.monotonic() of the successful answerCallbackQuery
    url: str | None = None
    cache_time: int = 0


@dataclass(frozen=True)
class Call:
    """One recorded HTTP call of the bot to the fake API."""

    seq: int
    method: str  # canonical Bot API name, e.g. "sendMessage" (as sent if unknown)
    chat_id: int | None
    time: float  # time.time() when the call took effect (was performed)
    monotonic: float  # time.monotonic() when the call arrived
    params: JSON  # decoded parameters (uploaded files replaced by a short description)
    ok: bool
    error_code: int | None = None
    description: str | None = None
    result: Any = None
    ran: float = 0.0  # time.monotonic() when it took effect (later than ``monotonic`` if delayed)
    delay: float = 0.0  # seconds its answer was held back by ``delay_answers``
    over_limit: bool = False  # refused by the fake's own flood limits (429)

    @property
    def timestamp(self) -> float:
        return self.time

    def short(self) -> str:
        shown = []
        for key, value in self.params.items():
            text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
            shown.append(f"{key}={text if len(text) <= 80 else text[:77] + '...'}")
        status = "ok" if self.ok else f"{self.error_code} {self.description}"
        return f"#{self.seq} {self.method}({', '.join(shown)}) -> {status}"


@dataclass
class InjectedError:
    method: str | None
    chat_id: int | None
    error: ApiError
    times: int


@dataclass
class FloodLimits:
    """Per-chat sliding-window limits; ``None`` disables a limit."""

    group_per_minute: int | None = None  # group/supergroup chats, 60 s window
    chat_per_second: int | None = None  # any chat, 1 s window
    global_per_second: int | None = None  # all chats together, 1 s window


@dataclass
class DelayedAnswer:
    """``delay_answers`` rule: hold back the answer of the next ``times`` matching calls."""

    method: str | None
    chat_id: int | None
    seconds: float
    times: int
    effect: Literal["before", "after"]


@dataclass(frozen=True)
class Fault:
    """One fault ``inject_random_faults`` may give a call: an error answer (``error_code``,
    with Telegram's description unless one is given, and ``retry_after`` for a 429), or an
    answer ``late`` seconds late, with ``effect`` as in ``delay_answers``."""

    error_code: int | None = None
    description: str | None = None
    retry_after: int | None = None
    late: float = 0.0
    effect: Literal["before", "after"] = "before"

    @property
    def label(self) -> str:
        if self.error_code is not None:
            return str(self.error_code)
        return f"late {self.late:g}s {self.effect}"


@dataclass
class RandomFaults:
    """``inject_random_faults`` rule: each matching call gets a fault with probability
    ``rate`` (drawn from its own seeded generator): one of ``faults`` at random, or each
    in turn with ``in_turn``."""

    method: str | None
    chat_id: int | None
    rate: float
    faults: tuple[tuple[Fault, ApiError | None], ...]  # each with its error, built once
    rng: random.Random
    in_turn: bool = False
    given: int = 0


@dataclass(frozen=True)
class WebhookDelivery:
    """One attempt of the fake to deliver an update to the webhook."""

    update_id: int
    url: str
    status: int | None  # HTTP status the endpoint answered (None: no answer, see ``error``)
    error: str | None  # connection error / timeout, or None when the endpoint answered
    time: float  # time.time() when the attempt ended
    started: float  # time.monotonic() when the request was sent
    duration: float  # seconds from sending the request to the answer (or the error)
    attempt: int  # 1 for the first attempt of this update, 2 for the first retry, ...

    @property
    def ok(self) -> bool:
        """The endpoint answered 2xx: the update counts as delivered."""
        return self.status is not None and 200 <= self.status < 300


CallCountKey = tuple[str, int | None, bool]  # (method, chat id, ok)
Pending = tuple[Literal["message", "answer"], tuple[Any, ...]]


# --------------------------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------------------------


def image_size(data: bytes) -> tuple[int, int] | None:
    """Width/height of an image, or ``None`` if it is not an image Telegram would accept."""
    if _PILImage is not None:
        try:
            with _PILImage.open(io.BytesIO(data)) as img:
                return int(img.size[0]), int(img.size[1])
        except Exception:
            return None
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24:  # pragma: no cover
        w, h = struct.unpack(">II", data[16:24])
        return int(w), int(h)
    return (0, 0)  # pragma: no cover - cannot tell without Pillow


def format_text(
    text: str, parse_mode: str | None, entities: Any
) -> tuple[str, list[JSON], str | None]:
    """Return (plain text, entities, normalised parse mode) or raise a Bad Request."""
    if entities is not None and entities != []:
        if not isinstance(entities, list) or not all(isinstance(e, dict) for e in entities):
            raise bad_request("can't parse entities JSON object")
        return text, [dict(e) for e in entities], None
    if not parse_mode:
        return text, [], None
    mode = parse_mode.lower()
    if mode == "html":
        try:
            plain, ents = parse_html(text)
        except HtmlParseError as exc:
            raise bad_request(f"can't parse entities: {exc}") from None
        return plain, ents, "HTML"
    if mode in ("markdown", "markdownv2"):
        return text, [], parse_mode  # not parsed by the fake: stored verbatim
    raise bad_request(f"unsupported parse_mode {parse_mode!r}")


def _valid_button_url(url: str) -> bool:
    parts = urllib.parse.urlsplit(url if "://" in url or url.startswith("tg:") else "http://" + url)
    if parts.scheme in ("http", "https"):
        return bool(parts.hostname) and "." in (parts.hostname or "")
    return parts.scheme in ("tg", "ton")


def parse_reply_markup(raw: Any) -> tuple[JSON | None, JSON | None]:
    """Validate ``reply_markup``; return (inline keyboard or None, other markup or None)."""
    if raw is None:
        return None, None
    if not isinstance(raw, dict):
        raise bad_request("can't parse reply keyboard markup JSON object")
    if "inline_keyboard" in raw:
        keyboard = raw["inline_keyboard"]
        if not isinstance(keyboard, list) or not all(isinstance(r, list) for r in keyboard):
            raise bad_request("can't parse inline keyboard markup JSON object")
        rows: list[list[JSON]] = []
        total = 0
        for row in keyboard:
            new_row: list[JSON] = []
            for button in row:
                if not isinstance(button, dict) or not isinstance(button.get("text"), str):
                    raise bad_request("can't parse inline keyboard button: Text must be a String")
                if not any(key in button for key in _BUTTON_ACTIONS):
                    raise bad_request(
                        "can't parse inline keyboard button: "
                        "Text buttons are unallowed in the inline keyboard"
                    )
                if "callback_data" in button:
                    data = button["callback_data"]
                    if not isinstance(data, str) or not (
                        1 <= len(data.encode("utf-8")) <= CALLBACK_DATA_LIMIT
                    ):
                        raise bad_request("BUTTON_DATA_INVALID")
                if "url" in button and (
                    not isinstance(button["url"], str) or not _valid_button_url(button["url"])
                ):
                    raise bad_request("BUTTON_URL_INVALID")
                new_row.append(dict(button))
                total += 1
            if new_row:
                rows.append(new_row)
        if total > MAX_INLINE_BUTTONS:
            raise bad_request("reply markup is too long")
        return ({"inline_keyboard": rows} if rows else None), None
    if any(key in raw for key in ("keyboard", "remove_keyboard", "force_reply")):
        return None, dict(raw)
    raise bad_request("can't parse reply keyboard markup JSON object")


def canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def chat_instance(chat_id: int) -> str:
    return str((chat_id * 6364136223846793005 + 1442695040888963407) % (1 << 63))


# --------------------------------------------------------------------------------------------
# The state
# --------------------------------------------------------------------------------------------


class State:
    def __init__(
        self,
        token: str,
        bot_username: str,
        bot_first_name: str,
        *,
        privacy_mode: bool = False,
        callback_timeout: float | None = None,
        keep_files: bool = True,
        max_calls_kept: int | None = None,
    ) -> None:
        self.lock = threading.RLock()
        self.cond = threading.Condition(self.lock)
        self.token = token
        bot_id = int(token.split(":", 1)[0]) if token.split(":", 1)[0].isdigit() else 1
        self.bot = User(id=bot_id, first_name=bot_first_name, username=bot_username, is_bot=True)
        self.privacy_mode = privacy_mode
        self.callback_timeout = callback_timeout
        self.users: dict[int, User] = {}
        self.chats: dict[int, Chat] = {}
        self.files: dict[str, tuple[StoredFile, JSON]] = {}  # file_id -> (file, size json)
        self.files_by_path: dict[str, StoredFile] = {}
        self.updates: list[JSON] = []  # not yet confirmed
        # Everything ever enqueued (for debugging); bounded like the call log.
        self.all_updates: collections.deque[JSON] = collections.deque(maxlen=max_calls_kept)
        self.next_update_id = 1
        self.delivered_upto = 0  # highest update_id returned by getUpdates
        self.allowed_updates: frozenset[str] = DEFAULT_ALLOWED_UPDATES
        self.poll_generation = 0
        self.webhook_url = ""
        self.webhook_secret: str | None = None
        self.webhook_max_connections = 40
        self.webhook_generation = 0  # bumped by setWebhook / deleteWebhook
        # Webhook delivery: update_id -> chat key of the requests in flight; per update the
        # failed attempts so far and the monotonic time of its next attempt.
        self.webhook_in_flight: dict[int, Any] = {}
        self.webhook_failures: dict[int, int] = {}
        self.webhook_retry_at: dict[int, float] = {}
        self.webhook_log: collections.deque[WebhookDelivery] = collections.deque(
            maxlen=max_calls_kept
        )
        self.webhook_last_error: tuple[int, str] | None = None  # (unix time, message)
        self.queries: dict[str, CallbackQuery] = {}
        self.commands: dict[tuple[str, str], list[JSON]] = {}
        self.texts: dict[tuple[str, str], str] = {}  # (description|short_description|name, lang)
        self.keep_files = keep_files
        # The call log keeps the newest ``max_calls_kept`` calls; the counters below stay exact.
        self.calls: collections.deque[Call] = collections.deque(maxlen=max_calls_kept)
        self.call_counts: collections.Counter[CallCountKey] = collections.Counter()
        self.over_limit: collections.Counter[int | None] = collections.Counter()  # by chat id
        self.flood = FloodLimits()
        # Monotonic times of counted calls that took effect: per chat (last 60 s) and all
        # together (last 1 s); oldest first, so windows are counted from the right.
        self.flood_log: dict[int, list[float]] = {}  # arrival times, sorted
        self.flood_global: list[float] = []
        self.injected: list[InjectedError] = []
        self.delays: list[DelayedAnswer] = []
        self.random_faults: list[RandomFaults] = []
        self.faults_given: collections.Counter[str] = collections.Counter()  # by Fault.label
        # Hooks: listeners, and events collected under the lock to be fired after releasing it.
        self.message_listeners: list[Callable[[BotMessageEvent], None]] = []
        self.answer_listeners: list[Callable[[str, CallbackAnswer, float], None]] = []
        self.pending_events: list[Pending] = []
        self.closing = False
        self.last_activity = time.monotonic()
        self.last_bot_call = 0.0  # monotonic end time of the last call other than getUpdates
        self.last_delivery = 0.0  # monotonic time getUpdates last returned updates
        self._file_counter = itertools.count(1)
        self._user_counter = itertools.count(1)
        self._group_counter = itertools.count(1)
        self._call_counter = itertools.count(1)
        self.update_listeners: list[Callable[[], None]] = []

    # ---------------------------------------------------------------- notifications
    def changed(self) -> None:
        """Call with the lock held after any mutation: wakes ``wait_for`` and long polls."""
        self.last_activity = time.monotonic()
        self.cond.notify_all()
        for listener in list(self.update_listeners):
            listener()

    # ---------------------------------------------------------------- users & chats
    def new_user_id(self) -> int:
        return 1_000_000_000 + next(self._user_counter) * 7

    def new_group_id(self, supergroup: bool) -> int:
        n = next(self._group_counter)
        return -(1_002_000_000_000 + n) if supergroup else -(4_000_000_000 + n)

    def add_user(self, user: User) -> User:
        self.users[user.id] = user
        self.chats[user.id] = Chat(id=user.id, type="private", user_id=user.id)
        return user

    def chat_json(self, chat: Chat) -> JSON:
        data: JSON = {"id": chat.id, "type": chat.type}
        if chat.type == "private":
            user = self.users[chat.user_id or chat.id]
            data["first_name"] = user.first_name
            if user.last_name:
                data["last_name"] = user.last_name
            if user.username:
                data["username"] = user.username
        else:
            data["title"] = chat.title or ""
            if chat.username:
                data["username"] = chat.username
            if chat.is_forum:
                data["is_forum"] = True
        return data

    def parse_chat_id(self, raw: Any) -> int:
        if raw is None or raw == "":
            raise bad_request("chat_id is empty")
        if isinstance(raw, bool):
            raise bad_request("chat not found")
        if isinstance(raw, int):
            return raw
        text = str(raw).strip()
        if text.startswith("@"):
            for chat in self.chats.values():
                if chat.username and chat.username.lower() == text[1:].lower():
                    return chat.id
            raise bad_request("chat not found")
        try:
            return int(text)
        except ValueError:
            raise bad_request("chat not found") from None

    def resolve_chat(self, raw: Any, *, write: bool) -> Chat:
        """Look up the chat addressed by a Bot API call, applying Telegram's access errors."""
        chat = self.chats.get(self.parse_chat_id(raw))
        if chat is None:
            raise bad_request("chat not found")
        if chat.migrated_to is not None:
            raise ApiError(
                400,
                "Bad Request: group chat was upgraded to a supergroup chat",
                {"migrate_to_chat_id": chat.migrated_to},
            )
        if chat.type == "private":
            user = self.users[chat.user_id or chat.id]
            if not user.started:
                if write:
                    raise forbidden("bot can't initiate conversation with a user")
                raise bad_request("chat not found")
            if user.blocked and write:
                raise forbidden("bot was blocked by the user")
        elif chat.bot_status == "kicked":
            raise forbidden(f"bot was kicked from the {chat.type} chat")
        elif chat.bot_status == "left":
            raise forbidden(f"bot is not a member of the {chat.type} chat")
        return chat

    def resolve_thread(self, chat: Chat, thread_id: int | None) -> int | None:
        if thread_id is None or not chat.is_forum:
            return None
        if thread_id == 1:
            return None  # the "General" topic
        if thread_id not in chat.topics:
            raise bad_request("message thread not found")
        return thread_id

    def bot_is_admin(self, chat: Chat) -> bool:
        return chat.type == "private" or chat.bot_status == "administrator"

    # ---------------------------------------------------------------- messages
    def add_message(self, chat: Chat, **fields: Any) -> Message:
        msg = Message(
            chat_id=chat.id, message_id=chat.next_message_id, date=int(time.time()), **fields
        )
        chat.next_message_id += 1
        chat.messages[msg.message_id] = msg
        return msg

    def get_message(self, chat: Chat, message_id: int | None) -> Message | None:
        if message_id is None:
            return None
        msg = chat.messages.get(message_id)
        if msg is None or msg.deleted:
            return None
        return msg

    def message_json(self, msg: Message, *, with_reply: bool = True) -> JSON:
        chat = self.chats[msg.chat_id]
        data: JSON = {"message_id": msg.message_id}
        if msg.sender_id is not None:
            sender = self.bot if msg.sender_id == self.bot.id else self.users[msg.sender_id]
            data["from"] = sender.to_json()
        data["date"] = msg.date
        data["chat"] = self.chat_json(chat)
        if msg.thread_id is not None:
            data["message_thread_id"] = msg.thread_id
            data["is_topic_message"] = True
        if msg.edit_date is not None:
            data["edit_date"] = msg.edit_date
        if with_reply:
            reply_id = msg.reply_to
            if reply_id is None and msg.thread_id is not None and not msg.topic_root:
                reply_id = msg.thread_id
            replied = chat.messages.get(reply_id) if reply_id is not None else None
            if replied is not None and not replied.deleted:
                data["reply_to_message"] = self.message_json(replied, with_reply=False)
        if msg.text is not None:
            data["text"] = msg.text
            if msg.entities:
                data["entities"] = [dict(e) for e in msg.entities]
        if msg.media is not None:
            data.update(msg.media.to_message_fields())
            if msg.caption:
                data["caption"] = msg.caption
                if msg.caption_entities:
                    data["caption_entities"] = [dict(e) for e in msg.caption_entities]
        if msg.reply_markup is not None:
            data["reply_markup"] = json.loads(json.dumps(msg.reply_markup))
        data.update(json.loads(json.dumps(msg.service)))
        return data

    # ---------------------------------------------------------------- files
    def _new_file_ids(self, prefix: str) -> tuple[str, str]:
        n = next(self._file_counter)
        file_id = f"{prefix}{n:06d}{secrets.token_hex(12)}"
        unique = f"AQAD{n:06d}{secrets.token_hex(4)}"
        return file_id, unique

    def _content(self, data: bytes) -> JSON:
        """The content fields of a new StoredFile: the bytes only if ``keep_files``."""
        return {
            "data": data if self.keep_files else b"",
            "size": len(data),
            "sha256": hashlib.sha256(data).hexdigest(),
            "kept": self.keep_files,
        }

    def store_photo(self, data: bytes, filename: str | None) -> StoredFile:
        if not data:
            raise bad_request("file must be non-empty")
        if len(data) > 10 * 1024 * 1024:
            raise ApiError(413, "Request Entity Too Large")
        size = image_size(data)  # reads the header only
        if size is None:
            raise bad_request("IMAGE_PROCESS_FAILED")
        width, height = size
        if (
            width
            and height
            and (width + height > 10000 or max(width, height) > 20 * min(width, height))
        ):
            raise bad_request("PHOTO_INVALID_DIMENSIONS")
        n = next(self._file_counter)
        stored = StoredFile(
            kind="photo",
            file_unique_id=f"AQAD{n:06d}{secrets.token_hex(4)}",
            file_path=f"photos/file_{n}.jpg",
            filename=filename,
            mime_type="image/jpeg",
            width=width,
            height=height,
            **self._content(data),
        )
        longest = max(width, height)
        for target in (90, 320, 800):
            if longest > target * 1.25:
                scale = target / longest
                file_id, unique = self._new_file_ids("AgACAgIAAxkBAAI")
                size_json: JSON = {
                    "file_id": file_id,
                    "file_unique_id": unique,
                    "width": max(1, round(width * scale)),
                    "height": max(1, round(height * scale)),
                }
                stored.sizes.append(size_json)
        file_id, _ = self._new_file_ids("AgACAgIAAxkBAAI")
        stored.sizes.append(
            {
                "file_id": file_id,
                "file_unique_id": stored.file_unique_id,
                "file_size": len(data),
                "width": width,
                "height": height,
            }
        )
        for size_json in stored.sizes:
            self.files[size_json["file_id"]] = (stored, size_json)
        self.files_by_path[stored.file_path] = stored
        return stored

    def store_document(self, data: bytes, filename: str | None, mime: str | None) -> StoredFile:
        if not data:
            raise bad_request("file must be non-empty")
        n = next(self._file_counter)
        ext = (filename or "").rsplit(".", 1)[-1] if filename and "." in filename else "bin"
        file_id, unique = self._new_file_ids("BQACAgIAAxkBAAI")
        stored = StoredFile(
            kind="document",
            file_unique_id=unique,
            file_path=f"documents/file_{n}.{ext}",
            filename=filename,
            mime_type=mime,
            **self._content(data),
        )
        doc: JSON = {"file_id": file_id, "file_unique_id": unique, "file_size": len(data)}
        if filename:
            doc["file_name"] = filename
        if mime:
            doc["mime_type"] = mime
        stored.sizes.append(doc)
        self.files[file_id] = (stored, doc)
        self.files_by_path[stored.file_path] = stored
        return stored

    def lookup_file(self, file_id: str, kind: str) -> StoredFile:
        entry = self.files.get(file_id)
        if entry is None:
            raise bad_request("wrong file identifier/HTTP URL specified")
        stored = entry[0]
        if stored.kind != kind:
            raise bad_request(
                f"can't use file of type {stored.kind.capitalize()} as {kind.capitalize()}"
            )
        return stored

    # ---------------------------------------------------------------- updates
    def enqueue(self, kind: str, payload: JSON) -> JSON:
        update = {"update_id": self.next_update_id, kind: payload}
        self.next_update_id += 1
        self.updates.append(update)
        self.all_updates.append(update)
        self.changed()
        return update

    def confirm(self, offset: int | None) -> None:
        if offset is None or offset == 0:
            return
        if offset < 0:
            keep = -offset
            self.updates = self.updates[-keep:] if keep else []
            return
        self.updates = [u for u in self.updates if u["update_id"] >= offset]

    def all_delivered(self) -> bool:
        """Every update enqueued so far was handed to the bot: fetched by getUpdates, or (with
        a webhook set) delivered and answered 2xx."""
        if self.webhook_url:
            return not any(update_kind(u) in self.allowed_updates for u in self.updates)
        return not any(u["update_id"] > self.delivered_upto for u in self.updates)

    def reset_webhook_delivery(self) -> None:
        """setWebhook / deleteWebhook: stale deliveries stop, retries start afresh."""
        self.webhook_generation += 1
        self.webhook_failures.clear()
        self.webhook_retry_at.clear()
        self.webhook_last_error = None
        if self.updates:
            # Updates fetched but not confirmed by getUpdates are delivered again.
            first = self.updates[0]["update_id"]
            self.delivered_upto = min(self.delivered_upto, first - 1)

    def deliverable(self, limit: int) -> list[JSON]:
        result: list[JSON] = []
        kept: list[JSON] = []
        for update in self.updates:
            kind = next(k for k in update if k != "update_id")
            if kind not in self.allowed_updates:
                continue  # dropped: the bot did not ask for this kind of update
            kept.append(update)
            if len(result) < limit:
                result.append(update)
        self.updates = kept
        if result:
            self.delivered_upto = max(self.delivered_upto, result[-1]["update_id"])
            self.last_delivery = time.monotonic()
        return result

    def should_deliver_group_message(self, chat: Chat, msg: Message) -> bool:
        if chat.type == "private":
            return True
        if chat.bot_status not in ("member", "administrator"):
            return False
        if not self.privacy_mode or chat.bot_status == "administrator" or msg.service:
            return True
        text = msg.text or msg.caption or ""
        m = _COMMAND_RE.match(text)
        if m:
            cmd = m.group(0)
            return (
                "@" not in cmd or cmd.split("@", 1)[1].lower() == (self.bot.username or "").lower()
            )
        replied = chat.messages.get(msg.reply_to) if msg.reply_to else None
        return replied is not None and replied.sender_id == self.bot.id

    # ---------------------------------------------------------------- calls / flood
    def record_call(
        self,
        method: str,
        chat_id: int | None,
        started: float,
        params: JSON,
        result: Any = None,
        error: ApiError | None = None,
        *,
        notify: bool = True,
        ran: float | None = None,
        delay: float = 0.0,
        over_limit: bool = False,
    ) -> Call:
        call = Call(
            seq=next(self._call_counter),
            method=method,
            chat_id=chat_id,
            time=time.time(),
            monotonic=started,
            params=params,
            ok=error is None,
            error_code=error.error_code if error else None,
            description=error.description if error else None,
            result=result,
            ran=started if ran is None else ran,
            delay=delay,
            over_limit=over_limit,
        )
        self.calls.append(call)
        self.call_counts[(method, chat_id, error is None)] += 1
        if over_limit:
            self.over_limit[chat_id] += 1
        if method != "getUpdates":
            self.last_bot_call = time.monotonic()
        if notify:
            self.changed()
        return call

    @staticmethod
    def _check_window(log: list[float], limit: int, window: float, now: float) -> None:
        """429 if ``limit`` calls of ``log`` (sorted) fall into the ``window`` seconds up to
        ``now``: the call arriving at ``now`` would be one too many."""
        last = bisect.bisect_right(log, now)
        first = bisect.bisect_right(log, now - window)
        count = last - first
        if count >= limit:
            t = log[first + count - limit]  # the window frees up when this one leaves it
            retry = max(1, math.ceil(t + window - now))
            raise ApiError(429, f"Too Many Requests: retry after {retry}", {"retry_after": retry})

    def check_flood(self, chat: Chat | None, now: float) -> None:
        """Raise Telegram's 429 if one more counted call arriving at ``now`` would break a limit.

        Calls are counted by when they arrived (the fake may get round to them a little
        later, and not always in that order), as Telegram counts what it receives."""
        limits = self.flood
        if limits.global_per_second:
            self._check_window(self.flood_global, limits.global_per_second, 1.0, now)
        if chat is not None:
            log = self.flood_log.get(chat.id)
            if not log:
                return
            if limits.chat_per_second:
                self._check_window(log, limits.chat_per_second, 1.0, now)
            if limits.group_per_minute and chat.type != "private":
                self._check_window(log, limits.group_per_minute, 60.0, now)

    def note_flood(self, chat: Chat | None, now: float) -> None:
        """Count a call that took effect (arrived at ``now``); the logs keep what the windows
        need."""
        _count_in(self.flood_global, now, 1.0)
        if chat is not None:
            _count_in(self.flood_log.setdefault(chat.id, []), now, 60.0)

    def take_injected(self, method: str, chat_id: int | None) -> ApiError | None:
        item = _take_once(self.injected, method, chat_id)
        return None if item is None else item.error

    def roll_faults(self, method: str, chat_id: int | None) -> None:
        """The first ``random_faults`` rule matching this call may give it a fault: queued
        first, as a one-time error or delay, for this very call to take."""
        for rule in self.random_faults:
            if not _covers(rule, method, chat_id):
                continue
            if rule.rng.random() >= rule.rate:
                return
            if rule.in_turn:
                fault, error = rule.faults[rule.given % len(rule.faults)]
            else:
                fault, error = rule.rng.choice(rule.faults)
            rule.given += 1
            self.faults_given[fault.label] += 1
            if error is not None:
                self.injected.insert(0, InjectedError(method, chat_id, error, 1))
            else:
                self.delays.insert(0, DelayedAnswer(method, chat_id, fault.late, 1, fault.effect))
            return

    def take_delay(self, method: str, chat_id: int | None) -> DelayedAnswer | None:
        """The ``delay_answers`` rule for this call, if any (never for getUpdates)."""
        return _take_once(self.delays, method, chat_id)

    # ---------------------------------------------------------------- hooks
    def note_answer(self, query: CallbackQuery) -> None:
        """Queue the ``on_callback_answer`` callbacks for a query just answered."""
        if self.answer_listeners and query.answer is not None:
            self.pending_events.append(("answer", (query.id, query.answer, query.answered_at)))

    def take_pending(self) -> list[Pending]:
        events, self.pending_events = self.pending_events, []
        return events


def update_kind(update: JSON) -> str:
    """The kind of an update (``message``, ``callback_query``, ...)."""
    return next(k for k in update if k != "update_id")


def update_chat_key(update: JSON) -> Any:
    """What webhook delivery keeps in order: the chat of the update (else its user, else the
    update itself, which then goes in parallel with everything)."""
    payload = update[update_kind(update)]
    if isinstance(payload, dict):
        chat = payload.get("chat")
        if not isinstance(chat, dict):
            message = payload.get("message")
            chat = message.get("chat") if isinstance(message, dict) else None
        if isinstance(chat, dict) and "id" in chat:
            return ("chat", chat["id"])
        sender = payload.get("from") or payload.get("user")
        if isinstance(sender, dict) and "id" in sender:
            return ("user", sender["id"])
    return ("update", update["update_id"])


def user_text_entities(text: str) -> list[JSON]:
    """Entities Telegram attaches to a text typed by a user (only the leading bot command)."""
    m = _COMMAND_RE.match(text)
    if not m or (len(text) > m.end() and not text[m.end()].isspace()):
        return []
    return [{"type": "bot_command", "offset": 0, "length": utf16_len(m.group(0))}]


class _CallRule(Protocol):
    """A rule for the calls of one method and/or in one chat (``None``: any)."""

    @property
    def method(self) -> str | None: ...

    @property
    def chat_id(self) -> int | None: ...


def _covers(rule: _CallRule, method: str, chat_id: int | None) -> bool:
    return (rule.method is None or rule.method.lower() == method.lower()) and (
        rule.chat_id is None or rule.chat_id == chat_id
    )


_Counted = TypeVar("_Counted", InjectedError, DelayedAnswer)


def _take_once(rules: list[_Counted], method: str, chat_id: int | None) -> _Counted | None:
    """The first rule covering this call, used once (and dropped once used ``times`` times)."""
    for item in rules:
        if _covers(item, method, chat_id):
            item.times -= 1
            if item.times <= 0:
                rules.remove(item)
            return item
    return None


def _count_in(log: list[float], arrived: float, window: float) -> None:
    """Add an arrival time to a sorted log, forgetting what is older than any window needs."""
    bisect.insort(log, arrived)
    keep = bisect.bisect_right(log, log[-1] - window - 1.0)
    if keep:
        del log[:keep]
