"""Immutable snapshots of fake Bot API state handed to tests."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, Union

from .state import JSON, FakeBotApiError, Message

ButtonSelector = Union[str, "re.Pattern[str]", Callable[["Button"], bool]]


class _AnyThread:
    def __repr__(self) -> str:
        return "ANY"


ANY: Any = _AnyThread()
"""Sentinel for ``thread_id=ANY``: do not filter by forum topic."""


class Button(tuple[str, str | None]):
    """An inline keyboard button as the user sees it.

    It is the tuple ``(text, value)`` (``value`` = callback_data, or the url of url buttons),
    so ``for text, data in api.buttons(chat, mid)`` and ``== [("Join", "join:1")]`` work; the
    attributes ``text``, ``callback_data``, ``url``, ``row``, ``col`` and ``raw`` are there too.
    """

    text: str
    callback_data: str | None
    url: str | None
    row: int
    col: int
    raw: JSON

    def __new__(
        cls,
        text: str,
        callback_data: str | None,
        url: str | None,
        row: int = 0,
        col: int = 0,
        raw: JSON | None = None,
    ) -> Button:
        obj = super().__new__(cls, (text, callback_data if callback_data is not None else url))
        obj.text = text
        obj.callback_data = callback_data
        obj.url = url
        obj.row = row
        obj.col = col
        obj.raw = raw if raw is not None else {}
        return obj

    @property
    def value(self) -> str | None:
        """The callback data, or the url for url buttons."""
        return self[1]

    def __repr__(self) -> str:
        kind = "url" if self.callback_data is None else "callback_data"
        return f"Button({self.text!r}, {kind}={self.value!r})"

    def matches(self, which: ButtonSelector) -> bool:
        if isinstance(which, str):
            return self.text == which
        if isinstance(which, re.Pattern):
            return which.search(self.text) is not None
        return bool(which(self))


@dataclass(frozen=True)
class MessageView:
    """A message as it currently is (text/caption are the plain text users see).

    ``photo`` / ``document`` are the file bytes, or ``b""`` (still not None) when the fake runs
    with ``keep_files=False``; ``media_size`` / ``media_sha256`` describe the file either way."""

    chat_id: int
    message_id: int
    thread_id: int | None
    date: int
    from_bot: bool
    sender_id: int | None
    text: str | None
    raw_text: str | None
    caption: str | None
    raw_caption: str | None
    parse_mode: str | None
    entities: list[JSON]
    photo: bytes | None
    photo_file_id: str | None
    photo_size: tuple[int, int] | None
    document: bytes | None
    document_filename: str | None
    document_mime_type: str | None
    reply_markup: list[list[Button]]
    raw_reply_markup: JSON | None
    keyboard_markup: JSON | None
    reply_to: int | None
    edit_count: int
    edit_date: int | None
    deleted: bool
    service: JSON
    media_size: int | None = None
    media_sha256: str | None = None

    @property
    def id(self) -> int:
        return self.message_id

    @property
    def content(self) -> str:
        """Text or caption (plain), ``""`` if none."""
        return self.text if self.text is not None else (self.caption or "")

    @property
    def buttons(self) -> list[Button]:
        return [b for row in self.reply_markup for b in row]

    def button(self, which: ButtonSelector) -> Button:
        """The first button whose text equals ``which`` (or matches a regex / predicate)."""
        for button in self.buttons:
            if button.matches(which):
                return button
        raise FakeBotApiError(
            f"message {self.message_id} in chat {self.chat_id} has no button matching "
            f"{which!r}; it has: {self.describe_buttons()}"
        )

    def has_button(self, which: ButtonSelector) -> bool:
        return any(b.matches(which) for b in self.buttons)

    def describe_buttons(self) -> str:
        if not self.reply_markup:
            return "(no inline keyboard)"
        return " | ".join(
            ", ".join(f"[{b.text!r} -> {b.value!r}]" for b in row) for row in self.reply_markup
        )


def buttons_of(markup: JSON | None) -> list[list[Button]]:
    rows: list[list[Button]] = []
    for r, row in enumerate((markup or {}).get("inline_keyboard", [])):
        rows.append(
            [
                Button(
                    text=b.get("text", ""),
                    callback_data=b.get("callback_data"),
                    url=b.get("url"),
                    row=r,
                    col=c,
                    raw=dict(b),
                )
                for c, b in enumerate(row)
            ]
        )
    return rows


def message_view(msg: Message, bot_id: int) -> MessageView:
    media = msg.media
    photo = media if media is not None and media.kind == "photo" else None
    doc = media if media is not None and media.kind == "document" else None
    return MessageView(
        chat_id=msg.chat_id,
        message_id=msg.message_id,
        thread_id=msg.thread_id,
        date=msg.date,
        from_bot=msg.sender_id == bot_id,
        sender_id=msg.sender_id,
        text=msg.text,
        raw_text=msg.raw_text,
        caption=msg.caption,
        raw_caption=msg.raw_caption,
        parse_mode=msg.parse_mode,
        entities=[
            dict(e) for e in (msg.entities if msg.text is not None else msg.caption_entities)
        ],
        photo=photo.data if photo else None,
        photo_file_id=photo.file_id if photo else None,
        photo_size=(photo.width, photo.height) if photo else None,
        document=doc.data if doc else None,
        document_filename=doc.filename if doc else None,
        document_mime_type=doc.mime_type if doc else None,
        reply_markup=buttons_of(msg.reply_markup),
        raw_reply_markup=msg.reply_markup,
        keyboard_markup=msg.keyboard_markup,
        reply_to=msg.reply_to,
        edit_count=msg.edit_count,
        edit_date=msg.edit_date,
        deleted=msg.deleted,
        service=dict(msg.service),
        media_size=media.size if media is not None else None,
        media_sha256=media.sha256 if media is not None else None,
    )


@dataclass(frozen=True)
class BotMessageEvent:
    """Passed to ``on_bot_message`` callbacks: the bot sent, edited or deleted a message.

    ``time`` is ``time.monotonic()`` when the call took effect (the clock of
    ``answer_latencies``); ``view`` is the message right after the change (None if deleted)."""

    kind: Literal["sent", "edited", "deleted"]
    chat_id: int
    message_id: int
    time: float
    view: MessageView | None
