"""Implementations of the Bot API methods (everything except the long-polling ``getUpdates``,
which needs to wait and lives in ``server.py``, like the webhook delivery ``setWebhook``
switches on).

Each method is ``fn(state, params) -> result`` and runs with ``state.lock`` held; it raises
:class:`~.state.ApiError` for error answers. :func:`dispatch` adds fault injection, flood
control and call recording around it.
"""

from __future__ import annotations

import json
import re
import time
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from .htmltext import utf16_len
from .state import (
    CAPTION_LIMIT,
    DEFAULT_ALLOWED_UPDATES,
    JSON,
    NOT_MODIFIED,
    QUERY_TOO_OLD,
    TEXT_LIMIT,
    ApiError,
    CallbackAnswer,
    Chat,
    Message,
    State,
    StoredFile,
    User,
    bad_request,
    canonical,
    format_text,
    parse_reply_markup,
)
from .views import BotMessageEvent, message_view

# --------------------------------------------------------------------------------------------
# Parameters
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Upload:
    """A file part of a multipart request."""

    field: str
    filename: str | None
    content_type: str | None
    data: bytes

    def describe(self) -> str:
        return f"<upload {self.filename or self.field!s} {len(self.data)} bytes>"


_INT_KEYS = frozenset(
    {"chat_id", "message_id", "message_thread_id", "user_id", "offset", "limit", "timeout"}
)


class Params:
    """Request parameters as sent by python-telegram-bot (form, multipart or JSON body)."""

    def __init__(self, values: dict[str, Any], uploads: dict[str, Upload] | None = None) -> None:
        self.values = values
        self.uploads = uploads or {}

    def raw(self, key: str) -> Any:
        return self.values.get(key)

    def string(self, key: str) -> str | None:
        value = self.values.get(key)
        if value is None:
            return None
        if isinstance(value, str):
            return value
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, int | float):
            return str(value)
        return json.dumps(value, ensure_ascii=False)

    def integer(self, key: str) -> int | None:
        value = self.values.get(key)
        if value is None or value == "":
            return None
        if isinstance(value, bool):
            raise bad_request(f"invalid {key} specified")
        if isinstance(value, int):
            return value
        try:
            return int(str(value).strip())
        except ValueError:
            raise bad_request(f"invalid {key} specified") from None

    def number(self, key: str) -> float | None:
        value = self.values.get(key)
        if value is None or value == "":
            return None
        try:
            return float(value)
        except (TypeError, ValueError):
            raise bad_request(f"invalid {key} specified") from None

    def flag(self, key: str) -> bool:
        value = self.values.get(key)
        if isinstance(value, str):
            return value.strip().lower() in ("true", "1")
        return bool(value)

    def decoded(self, key: str) -> Any:
        value = self.values.get(key)
        if value is None or value == "":
            return None
        if isinstance(value, str):
            try:
                return json.loads(value)
            except ValueError:
                raise bad_request(f"can't parse {key} JSON object") from None
        return value

    def upload(self, name: str) -> Upload | None:
        return self.uploads.get(name)

    def normalized(self) -> JSON:
        """Decoded copy for the call log: JSON fields parsed, ids as ints, files described."""
        out: JSON = {}
        for key, value in self.values.items():
            if isinstance(value, str):
                stripped = value.strip()
                if key in _INT_KEYS and re.fullmatch(r"-?\d+", stripped):
                    out[key] = int(stripped)
                    continue
                if stripped[:1] in ("{", "["):
                    try:
                        out[key] = json.loads(stripped)
                        continue
                    except ValueError:
                        pass
            out[key] = value
        for key, upload in self.uploads.items():
            out[key] = upload.describe()
        return out


# --------------------------------------------------------------------------------------------
# Shared helpers
# --------------------------------------------------------------------------------------------


def _reply_to(st: State, chat: Chat, p: Params) -> int | None:
    params = p.decoded("reply_parameters")
    if isinstance(params, dict):
        target = params.get("message_id")
        allow = bool(params.get("allow_sending_without_reply"))
        if (
            params.get("chat_id") not in (None, "")
            and st.parse_chat_id(params["chat_id"]) != chat.id
        ):
            raise bad_request("replies to messages of other chats are not supported by the fake")
    else:
        target = p.integer("reply_to_message_id")
        allow = p.flag("allow_sending_without_reply")
    if target is None:
        return None
    try:
        target_id = int(target)
    except (TypeError, ValueError):
        raise bad_request("invalid reply_parameters specified") from None
    if st.get_message(chat, target_id) is None:
        if allow:
            return None
        raise bad_request("message to be replied not found")
    return target_id


def _prepare_send(st: State, p: Params) -> tuple[Chat, JSON]:
    chat = st.resolve_chat(p.raw("chat_id"), write=True)
    thread_id = st.resolve_thread(chat, p.integer("message_thread_id"))
    reply_to = _reply_to(st, chat, p)
    inline, other = parse_reply_markup(p.decoded("reply_markup"))
    fields: JSON = {
        "sender_id": st.bot.id,
        "thread_id": thread_id,
        "reply_to": reply_to,
        "reply_markup": inline,
        "keyboard_markup": other,
    }
    return chat, fields


def _text(p: Params) -> tuple[str, str, list[JSON], str | None]:
    text = p.string("text")
    if text is None or not text.strip():
        raise bad_request("message text is empty")
    plain, entities, mode = format_text(text, p.string("parse_mode"), p.decoded("entities"))
    if not plain.strip():
        raise bad_request("message text is empty")
    if utf16_len(plain) > TEXT_LIMIT:
        raise bad_request("message is too long")
    return text, plain, entities, mode


# A parsed caption: as sent, as plain text, its entities, its parse mode.
Caption = tuple[str | None, str | None, list[JSON], str | None]


def _caption(caption: str | None, parse_mode: str | None, entities: Any) -> Caption:
    if caption is None or caption == "":
        return None, None, [], None
    plain, ents, mode = format_text(caption, parse_mode, entities)
    if utf16_len(plain) > CAPTION_LIMIT:
        raise bad_request("message caption is too long")
    return caption, plain, ents, mode


def _same_caption(msg: Message, caption: Caption, markup: JSON | None) -> bool:
    """Whether an edit would leave the message's caption and keyboard as they are."""
    _raw, plain, entities, _mode = caption
    return (
        (plain or None) == (msg.caption or None)
        and _same(entities, msg.caption_entities)
        and _same(markup, msg.reply_markup)
    )


def _recaption(st: State, msg: Message, caption: Caption, markup: JSON | None) -> JSON:
    """Give the message a new caption and keyboard (an edit): the edited message's JSON."""
    raw, plain, entities, mode = caption
    msg.caption, msg.raw_caption, msg.caption_entities = plain, raw, entities
    msg.parse_mode = mode
    msg.reply_markup = markup
    _touch(st, msg)
    return st.message_json(msg)


def _store_upload(st: State, upload: Upload, kind: str) -> StoredFile:
    if kind == "photo":
        return st.store_photo(upload.data, upload.filename)
    return st.store_document(upload.data, upload.filename, upload.content_type)


def _resolve_media(st: State, p: Params, ref: Any, kind: str, field: str) -> StoredFile:
    if isinstance(ref, str) and ref.startswith("attach://"):
        upload = p.upload(ref[len("attach://") :])
        if upload is None:
            raise bad_request("wrong file identifier/HTTP URL specified")
        return _store_upload(st, upload, kind)
    if ref is None or ref == "":
        raise bad_request(f"there is no {field} in the request")
    if not isinstance(ref, str):
        raise bad_request("wrong file identifier/HTTP URL specified")
    if ref.startswith(("http://", "https://")):
        raise bad_request("failed to get HTTP URL content (the fake Bot API has no internet)")
    return st.lookup_file(ref, kind)


def _input_file(st: State, p: Params, field: str, kind: str) -> StoredFile:
    upload = p.upload(field)
    if upload is not None:
        return _store_upload(st, upload, kind)
    return _resolve_media(st, p, p.raw(field), kind, field)


def _find_editable(st: State, p: Params) -> tuple[Chat, Message]:
    if p.raw("inline_message_id"):
        raise bad_request("inline messages are not supported by the fake Bot API")
    chat = st.resolve_chat(p.raw("chat_id"), write=True)
    message_id = p.integer("message_id")
    if message_id is None:
        raise bad_request("message identifier is not specified")
    msg = st.get_message(chat, message_id)
    if msg is None:
        raise bad_request("message to edit not found")
    if msg.sender_id != st.bot.id:
        raise bad_request("message can't be edited")
    return chat, msg


def _edit_markup(p: Params) -> JSON | None:
    inline, other = parse_reply_markup(p.decoded("reply_markup"))
    if other is not None:
        raise bad_request("inline keyboard expected")
    return inline


def _touch(st: State, msg: Message) -> None:
    msg.edit_count += 1
    msg.edit_date = int(time.time())
    _event(st, "edited", msg)


def _event(st: State, kind: Literal["sent", "edited", "deleted"], msg: Message) -> None:
    """Queue an ``on_bot_message`` event (a snapshot of the message as of now)."""
    if st.message_listeners:
        view = None if kind == "deleted" else message_view(msg, st.bot.id)
        event = BotMessageEvent(kind, msg.chat_id, msg.message_id, time.monotonic(), view)
        st.pending_events.append(("message", (event,)))


def _same(a: Any, b: Any) -> bool:
    return canonical(a) == canonical(b)


# --------------------------------------------------------------------------------------------
# Methods
# --------------------------------------------------------------------------------------------


def get_me(st: State, p: Params) -> JSON:
    data = st.bot.to_json()
    data.update(
        {
            "can_join_groups": True,
            "can_read_all_group_messages": not st.privacy_mode,
            "supports_inline_queries": False,
            "can_connect_to_business": False,
            "has_main_web_app": False,
        }
    )
    return data


def log_out(st: State, p: Params) -> bool:
    return True


_SECRET_TOKEN_RE = re.compile(r"[A-Za-z0-9_-]{1,256}")


def _webhook_url(raw: str) -> str:
    """Validate a webhook url like Telegram (which wants https on public ports; the fake
    takes http and any port, e.g. ``http://127.0.0.1:8443/hook`` for tests)."""
    try:
        parts = urllib.parse.urlsplit(raw.strip())
        _ = parts.port  # raises ValueError for a bad port
    except ValueError:
        raise bad_request("bad webhook: invalid webhook URL specified") from None
    if parts.scheme.lower() not in ("http", "https"):
        raise bad_request("bad webhook: An HTTPS URL must be provided for webhook")
    if not parts.hostname:
        raise bad_request("bad webhook: Failed to resolve host: Name or service not known")
    return raw.strip()


def _drop_pending(st: State) -> None:
    st.updates.clear()
    st.webhook_failures.clear()
    st.webhook_retry_at.clear()


def set_webhook(st: State, p: Params) -> bool:
    url = p.string("url") or ""
    if not url:  # Telegram: an empty url removes the webhook
        return delete_webhook(st, p)
    url = _webhook_url(url)
    secret = p.string("secret_token") or None
    if secret is not None and not _SECRET_TOKEN_RE.fullmatch(secret):
        raise bad_request("secret token contains unallowed characters")
    max_connections = p.integer("max_connections")
    allowed = p.decoded("allowed_updates")
    if allowed is not None and not isinstance(allowed, list):
        raise bad_request("can't parse allowed_updates JSON object")
    st.webhook_url = url
    st.webhook_secret = secret
    st.webhook_max_connections = max(1, min(max_connections or 40, 100))
    if allowed is not None:
        st.allowed_updates = (
            frozenset(str(a) for a in allowed) if allowed else DEFAULT_ALLOWED_UPDATES
        )
    if p.flag("drop_pending_updates"):
        _drop_pending(st)
    st.reset_webhook_delivery()  # a long poll still waiting ends with 409 (webhook is active)
    return True


def delete_webhook(st: State, p: Params) -> bool:
    was_set = bool(st.webhook_url)
    st.webhook_url = ""
    st.webhook_secret = None
    if p.flag("drop_pending_updates"):
        _drop_pending(st)
    if was_set:
        st.reset_webhook_delivery()
    return True


def get_webhook_info(st: State, p: Params) -> JSON:
    info: JSON = {
        "url": st.webhook_url,
        "has_custom_certificate": False,
        "pending_update_count": len(st.updates),
    }
    if st.webhook_url:
        info["max_connections"] = st.webhook_max_connections
        info["ip_address"] = "127.0.0.1"
        if st.allowed_updates != DEFAULT_ALLOWED_UPDATES:
            info["allowed_updates"] = sorted(st.allowed_updates)
        if st.webhook_last_error is not None:
            info["last_error_date"], info["last_error_message"] = st.webhook_last_error
    return info


def send_message(st: State, p: Params) -> JSON:
    chat, fields = _prepare_send(st, p)
    raw, plain, entities, mode = _text(p)
    msg = st.add_message(
        chat, text=plain, raw_text=raw, entities=entities, parse_mode=mode, **fields
    )
    _event(st, "sent", msg)
    return st.message_json(msg)


def _send_media(st: State, p: Params, field: str, kind: str) -> JSON:
    chat, fields = _prepare_send(st, p)
    raw, plain, entities, mode = _caption(
        p.string("caption"), p.string("parse_mode"), p.decoded("caption_entities")
    )
    stored = _input_file(st, p, field, kind)
    msg = st.add_message(
        chat,
        media=stored,
        caption=plain,
        raw_caption=raw,
        caption_entities=entities,
        parse_mode=mode,
        **fields,
    )
    _event(st, "sent", msg)
    return st.message_json(msg)


def send_photo(st: State, p: Params) -> JSON:
    return _send_media(st, p, "photo", "photo")


def send_document(st: State, p: Params) -> JSON:
    return _send_media(st, p, "document", "document")


def edit_message_text(st: State, p: Params) -> JSON:
    _chat, msg = _find_editable(st, p)
    raw, plain, entities, mode = _text(p)
    markup = _edit_markup(p)
    if msg.text is None:
        raise bad_request("there is no text in the message to edit")
    if plain == msg.text and _same(entities, msg.entities) and _same(markup, msg.reply_markup):
        raise bad_request(NOT_MODIFIED)
    msg.text, msg.raw_text, msg.entities, msg.parse_mode = plain, raw, entities, mode
    msg.reply_markup = markup
    _touch(st, msg)
    return st.message_json(msg)


def edit_message_caption(st: State, p: Params) -> JSON:
    _chat, msg = _find_editable(st, p)
    caption = _caption(p.string("caption"), p.string("parse_mode"), p.decoded("caption_entities"))
    markup = _edit_markup(p)
    if msg.media is None:
        raise bad_request("there is no caption in the message to edit")
    if _same_caption(msg, caption, markup):
        raise bad_request(NOT_MODIFIED)
    return _recaption(st, msg, caption, markup)


def edit_message_media(st: State, p: Params) -> JSON:
    _chat, msg = _find_editable(st, p)
    media = p.decoded("media")
    if not isinstance(media, dict):
        raise bad_request("can't parse InputMedia JSON object")
    kind = media.get("type")
    if kind not in ("photo", "document"):
        raise bad_request(f"media type {kind!r} is not supported by the fake Bot API")
    markup = _edit_markup(p)
    if msg.media is None:
        raise bad_request("there is no media in the message to edit")
    caption = _caption(media.get("caption"), media.get("parse_mode"), media.get("caption_entities"))
    stored = _resolve_media(st, p, media.get("media"), str(kind), "media")
    if (
        stored.kind == msg.media.kind
        and (stored.size, stored.sha256) == (msg.media.size, msg.media.sha256)
        and _same_caption(msg, caption, markup)
    ):
        raise bad_request(NOT_MODIFIED)
    msg.media = stored
    return _recaption(st, msg, caption, markup)


def edit_message_reply_markup(st: State, p: Params) -> JSON:
    _chat, msg = _find_editable(st, p)
    markup = _edit_markup(p)
    if _same(markup, msg.reply_markup):
        raise bad_request(NOT_MODIFIED)
    msg.reply_markup = markup
    _touch(st, msg)
    return st.message_json(msg)


def _delete_one(st: State, chat: Chat, message_id: int | None) -> None:
    msg = st.get_message(chat, message_id)
    if msg is None:
        raise bad_request("message to delete not found")
    if msg.sender_id != st.bot.id and not st.bot_is_admin(chat):
        raise bad_request("message can't be deleted")
    msg.deleted = True
    if msg.message_id in chat.pinned:
        chat.pinned.remove(msg.message_id)
    _event(st, "deleted", msg)


def delete_message(st: State, p: Params) -> bool:
    chat = st.resolve_chat(p.raw("chat_id"), write=False)
    message_id = p.integer("message_id")
    if message_id is None:
        raise bad_request("message identifier is not specified")
    _delete_one(st, chat, message_id)
    return True


def delete_messages(st: State, p: Params) -> bool:
    chat = st.resolve_chat(p.raw("chat_id"), write=False)
    ids = p.decoded("message_ids")
    if not isinstance(ids, list) or not ids or len(ids) > 100:
        raise bad_request("message_ids must be a list of 1-100 identifiers")
    deleted = 0
    for message_id in ids:
        try:
            _delete_one(st, chat, int(message_id))
            deleted += 1
        except ApiError:
            pass
    if not deleted:
        raise bad_request("message to delete not found")
    return True


def answer_callback_query(st: State, p: Params) -> bool:
    query = st.queries.get(p.string("callback_query_id") or "")
    if query is None or query.answer is not None:
        raise bad_request(QUERY_TOO_OLD)
    if st.callback_timeout is not None and time.monotonic() - query.created > st.callback_timeout:
        raise bad_request(QUERY_TOO_OLD)
    text = p.string("text")
    if text is not None and len(text) > 200:
        raise bad_request("MESSAGE_TOO_LONG")
    query.answer = CallbackAnswer(text or None, p.flag("show_alert"))
    query.url = p.string("url")
    query.cache_time = p.integer("cache_time") or 0
    query.answered_at = time.monotonic()
    st.note_answer(query)
    return True


_SCOPE_TYPES = frozenset(
    {
        "default",
        "all_private_chats",
        "all_group_chats",
        "all_chat_administrators",
        "chat",
        "chat_administrators",
        "chat_member",
    }
)


def scope_key(st: State, raw: Any) -> str:
    scope = {"type": "default"} if raw is None else raw
    if not isinstance(scope, dict):
        raise bad_request("can't parse BotCommandScope JSON object")
    scope_type = scope.get("type")
    if scope_type not in _SCOPE_TYPES:
        raise bad_request("wrong bot command scope type specified")
    key: JSON = {"type": scope_type}
    if scope_type in ("chat", "chat_administrators", "chat_member"):
        chat = st.resolve_chat(scope.get("chat_id"), write=False)
        key["chat_id"] = chat.id
        if scope_type == "chat_member":
            try:
                user_id = int(scope["user_id"])
            except (KeyError, TypeError, ValueError):
                raise bad_request("user not found") from None
            if user_id not in st.users:
                raise bad_request("user not found")
            key["user_id"] = user_id
    return canonical(key)


def _language(p: Params) -> str:
    lang = p.string("language_code") or ""
    if lang and not re.fullmatch(r"[a-z]{2}", lang):
        raise bad_request("invalid language code specified")
    return lang


def set_my_commands(st: State, p: Params) -> bool:
    commands = p.decoded("commands")
    if not isinstance(commands, list):
        raise bad_request("can't parse commands JSON object")
    if len(commands) > 100:
        raise bad_request("BOT_COMMANDS_TOO_MUCH")
    clean: list[JSON] = []
    for item in commands:
        if not isinstance(item, dict):
            raise bad_request("can't parse BotCommand JSON object")
        command = item.get("command")
        description = item.get("description")
        if not isinstance(command, str) or not re.fullmatch(r"[a-z0-9_]{1,32}", command):
            raise bad_request("BOT_COMMAND_INVALID")
        if not isinstance(description, str) or not 1 <= len(description) <= 256:
            raise bad_request("BOT_COMMAND_DESCRIPTION_INVALID")
        clean.append({"command": command, "description": description})
    key = (scope_key(st, p.decoded("scope")), _language(p))
    if clean:
        st.commands[key] = clean
    else:
        st.commands.pop(key, None)
    return True


def get_my_commands(st: State, p: Params) -> list[JSON]:
    key = (scope_key(st, p.decoded("scope")), _language(p))
    return [dict(c) for c in st.commands.get(key, [])]


def delete_my_commands(st: State, p: Params) -> bool:
    st.commands.pop((scope_key(st, p.decoded("scope")), _language(p)), None)
    return True


def _text_setter(kind: str, param: str, limit: int) -> Callable[[State, Params], bool]:
    def setter(st: State, p: Params) -> bool:
        value = p.string(param) or ""
        if len(value) > limit:
            raise bad_request(f"{param} is too long")
        key = (kind, _language(p))
        if value:
            st.texts[key] = value
        else:
            st.texts.pop(key, None)
        return True

    return setter


def _text_getter(kind: str, param: str) -> Callable[[State, Params], JSON]:
    def getter(st: State, p: Params) -> JSON:
        lang = _language(p)
        value = st.texts.get((kind, lang), st.texts.get((kind, ""), ""))
        if kind == "name" and not value:
            value = st.bot.first_name
        return {param: value}

    return getter


def get_chat(st: State, p: Params) -> JSON:
    chat = st.resolve_chat(p.raw("chat_id"), write=False)
    data = st.chat_json(chat)
    data.update(
        {
            "accent_color_id": 0,
            "max_reaction_count": 11,
            "accepted_gift_types": {
                "unlimited_gifts": False,
                "limited_gifts": False,
                "unique_gifts": False,
                "premium_subscription": False,
                "gifts_from_channels": False,
            },
        }
    )
    if chat.pinned:
        pinned = st.get_message(chat, chat.pinned[-1])
        if pinned is not None:
            data["pinned_message"] = st.message_json(pinned, with_reply=False)
    return data


def member_json(st: State, chat: Chat, user: User, status: str) -> JSON:
    data: JSON = {"status": status, "user": user.to_json(with_language=False)}
    if status == "creator":
        data["is_anonymous"] = False
    elif status == "administrator":
        data.update(
            {
                "can_be_edited": False,
                "is_anonymous": False,
                "can_manage_chat": True,
                "can_delete_messages": True,
                "can_manage_video_chats": True,
                "can_restrict_members": True,
                "can_promote_members": False,
                "can_change_info": True,
                "can_invite_users": True,
                "can_post_stories": False,
                "can_edit_stories": False,
                "can_delete_stories": False,
                "can_pin_messages": True,
            }
        )
        if chat.type == "supergroup":
            data["can_manage_topics"] = True
    elif status == "kicked":
        data["until_date"] = 0
    return data


def _member_status(st: State, chat: Chat, user_id: int) -> str:
    if user_id == st.bot.id:
        return "member" if chat.type == "private" else chat.bot_status
    if chat.type == "private":
        if user_id != chat.user_id:
            raise bad_request("user not found")
        return "member"
    if user_id not in st.users:
        raise bad_request("user not found")
    return chat.members.get(user_id, "left")


def get_chat_member(st: State, p: Params) -> JSON:
    chat = st.resolve_chat(p.raw("chat_id"), write=False)
    user_id = p.integer("user_id")
    if user_id is None:
        raise bad_request("user not found")
    status = _member_status(st, chat, user_id)
    user = st.bot if user_id == st.bot.id else st.users[user_id]
    return member_json(st, chat, user, status)


def get_chat_administrators(st: State, p: Params) -> list[JSON]:
    chat = st.resolve_chat(p.raw("chat_id"), write=False)
    if chat.type == "private":
        raise bad_request("there are no administrators in the private chat")
    admins = [
        member_json(st, chat, st.users[uid], status)
        for uid, status in chat.members.items()
        if status in ("creator", "administrator")
    ]
    admins.sort(key=lambda m: m["status"] != "creator")
    if chat.bot_status == "administrator":
        admins.append(member_json(st, chat, st.bot, "administrator"))
    return admins


def get_chat_member_count(st: State, p: Params) -> int:
    chat = st.resolve_chat(p.raw("chat_id"), write=False)
    if chat.type == "private":
        return 2
    humans = sum(1 for s in chat.members.values() if s in ("creator", "administrator", "member"))
    return humans + (1 if chat.bot_status in ("member", "administrator") else 0)


_ACTIONS = frozenset(
    {
        "typing",
        "upload_photo",
        "record_video",
        "upload_video",
        "record_voice",
        "upload_voice",
        "upload_document",
        "choose_sticker",
        "find_location",
        "record_video_note",
        "upload_video_note",
    }
)


def send_chat_action(st: State, p: Params) -> bool:
    chat = st.resolve_chat(p.raw("chat_id"), write=True)
    st.resolve_thread(chat, p.integer("message_thread_id"))
    if p.string("action") not in _ACTIONS:
        raise bad_request("wrong parameter action in request")
    return True


def _pin_rights(st: State, chat: Chat) -> None:
    if not st.bot_is_admin(chat):
        raise bad_request("not enough rights to manage pinned messages in the chat")


def pin_chat_message(st: State, p: Params) -> bool:
    chat = st.resolve_chat(p.raw("chat_id"), write=True)
    _pin_rights(st, chat)
    message_id = p.integer("message_id")
    if st.get_message(chat, message_id) is None:
        raise bad_request("message to pin not found")
    assert message_id is not None
    if message_id in chat.pinned:
        chat.pinned.remove(message_id)
    chat.pinned.append(message_id)
    return True


def unpin_chat_message(st: State, p: Params) -> bool:
    chat = st.resolve_chat(p.raw("chat_id"), write=True)
    _pin_rights(st, chat)
    message_id = p.integer("message_id")
    if message_id is None:
        if chat.pinned:
            chat.pinned.pop()
        return True
    if message_id not in chat.pinned:
        raise bad_request("message to unpin not found")
    chat.pinned.remove(message_id)
    return True


def unpin_all_chat_messages(st: State, p: Params) -> bool:
    chat = st.resolve_chat(p.raw("chat_id"), write=True)
    _pin_rights(st, chat)
    chat.pinned.clear()
    return True


def create_topic(st: State, chat: Chat, name: str, sender_id: int | None) -> Message:
    """Create a forum topic: its thread id is the id of the service message opening it."""
    if not chat.is_forum:
        raise bad_request("the chat is not a forum")
    if not 1 <= len(name) <= 128:
        raise bad_request("topic name must be 1-128 characters long")
    icon_color = 7322096
    msg = st.add_message(
        chat,
        sender_id=sender_id,
        service={"forum_topic_created": {"name": name, "icon_color": icon_color}},
        topic_root=True,
    )
    msg.thread_id = msg.message_id
    chat.topics[msg.message_id] = name
    return msg


def create_forum_topic(st: State, p: Params) -> JSON:
    chat = st.resolve_chat(p.raw("chat_id"), write=True)
    if not st.bot_is_admin(chat):
        raise bad_request("not enough rights to create a topic")
    msg = create_topic(st, chat, p.string("name") or "", st.bot.id)
    return {
        "message_thread_id": msg.message_id,
        "name": chat.topics[msg.message_id],
        "icon_color": 7322096,
    }


def set_chat_menu_button(st: State, p: Params) -> bool:
    if p.raw("chat_id") not in (None, ""):
        st.resolve_chat(p.raw("chat_id"), write=False)
    st.texts[("menu_button", "")] = canonical(p.decoded("menu_button") or {"type": "default"})
    return True


def get_chat_menu_button(st: State, p: Params) -> JSON:
    stored = st.texts.get(("menu_button", ""))
    return dict(json.loads(stored)) if stored else {"type": "commands"}


def leave_chat(st: State, p: Params) -> bool:
    chat = st.resolve_chat(p.raw("chat_id"), write=False)
    if chat.type == "private":
        raise bad_request("chat member status can't be changed in private chats")
    chat.bot_status = "left"
    return True


def get_file(st: State, p: Params) -> JSON:
    entry = st.files.get(p.string("file_id") or "")
    if entry is None:
        raise bad_request("wrong file_id or the file is temporarily unavailable")
    stored, size = entry
    return {
        "file_id": size["file_id"],
        "file_unique_id": size["file_unique_id"],
        "file_size": stored.size,
        "file_path": stored.file_path,
    }


METHODS: dict[str, Callable[[State, Params], Any]] = {
    "getMe": get_me,
    "logOut": log_out,
    "close": log_out,
    "setWebhook": set_webhook,
    "deleteWebhook": delete_webhook,
    "getWebhookInfo": get_webhook_info,
    "sendMessage": send_message,
    "sendPhoto": send_photo,
    "sendDocument": send_document,
    "editMessageText": edit_message_text,
    "editMessageCaption": edit_message_caption,
    "editMessageMedia": edit_message_media,
    "editMessageReplyMarkup": edit_message_reply_markup,
    "deleteMessage": delete_message,
    "deleteMessages": delete_messages,
    "answerCallbackQuery": answer_callback_query,
    "setMyCommands": set_my_commands,
    "getMyCommands": get_my_commands,
    "deleteMyCommands": delete_my_commands,
    "setMyDescription": _text_setter("description", "description", 512),
    "getMyDescription": _text_getter("description", "description"),
    "setMyShortDescription": _text_setter("short_description", "short_description", 120),
    "getMyShortDescription": _text_getter("short_description", "short_description"),
    "setMyName": _text_setter("name", "name", 64),
    "getMyName": _text_getter("name", "name"),
    "getChat": get_chat,
    "getChatMember": get_chat_member,
    "getChatAdministrators": get_chat_administrators,
    "getChatMemberCount": get_chat_member_count,
    "sendChatAction": send_chat_action,
    "pinChatMessage": pin_chat_message,
    "unpinChatMessage": unpin_chat_message,
    "unpinAllChatMessages": unpin_all_chat_messages,
    "createForumTopic": create_forum_topic,
    "setChatMenuButton": set_chat_menu_button,
    "getChatMenuButton": get_chat_menu_button,
    "leaveChat": leave_chat,
    "getFile": get_file,
}
GET_UPDATES = "getUpdates"
CANONICAL: dict[str, str] = {name.lower(): name for name in [*METHODS, GET_UPDATES]}
# The methods that change messages in a chat: Telegram counts them towards its limits (and so
# does the fake's flood control); answerCallbackQuery, getUpdates and the get*/set* configuration
# methods are not counted. Only methods the fake implements are listed.
FLOOD_METHODS = frozenset(
    {
        "sendMessage",
        "sendPhoto",
        "sendDocument",
        "sendChatAction",
        "editMessageText",
        "editMessageCaption",
        "editMessageMedia",
        "editMessageReplyMarkup",
        "deleteMessage",
        "deleteMessages",
        "pinChatMessage",
        "unpinChatMessage",
        "unpinAllChatMessages",
    }
)
assert METHODS.keys() >= FLOOD_METHODS, FLOOD_METHODS - METHODS.keys()


def call_chat_id(st: State, method: str, p: Params) -> int | None:
    """Best-effort chat id of a call, for the call log (never raises)."""
    if method == "answerCallbackQuery":
        query = st.queries.get(p.string("callback_query_id") or "")
        return query.chat_id if query else None
    try:
        raw = p.raw("chat_id")
        return None if raw is None or raw == "" else st.parse_chat_id(raw)
    except ApiError:
        return None


def dispatch(
    st: State, method: str, p: Params, started: float, *, delay: float = 0.0
) -> tuple[int, JSON]:
    """Run a (non-getUpdates) method with the lock held; returns (HTTP status, JSON body).

    Order: injected errors, then the flood limits (a refused call is not counted, so it does
    not extend the window), then the method; only calls that took effect are counted."""
    name = CANONICAL.get(method.lower(), method)
    chat_id = call_chat_id(st, name, p)
    error: ApiError | None = None
    result: Any = None
    over_limit = False
    now = time.monotonic()
    try:
        injected = st.take_injected(name, chat_id)
        if injected is not None:
            raise injected
        fn = METHODS.get(name)
        if fn is None:
            raise ApiError(404, "Not Found: method not found")
        counted = name in FLOOD_METHODS
        chat = st.chats.get(chat_id) if counted and chat_id is not None else None
        if counted:  # by when the call arrived (`started`), as Telegram counts
            try:
                st.check_flood(chat, started)
            except ApiError:
                over_limit = True
                raise
        result = fn(st, p)
        if counted:
            st.note_flood(chat, started)
    except ApiError as exc:
        error = exc
    st.record_call(
        name,
        chat_id,
        started,
        p.normalized(),
        result,
        error,
        ran=now,
        delay=delay,
        over_limit=over_limit,
    )
    if error is not None:
        return error.error_code, error.to_json()
    return 200, {"ok": True, "result": result}
