"""A small re-implementation of Telegram's ``parse_mode=HTML`` text parser.

It turns Bot-API HTML into the plain text plus the list of MessageEntity dicts (offsets and
lengths in UTF-16 code units), and raises :class:`HtmlParseError` with messages modelled on the
real server's ``Bad Request: can't parse entities: ...`` errors, so a bot that forgets to escape
``<`` or ``&`` in user-provided names fails in tests the way it would fail in production.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

__all__ = ["HtmlParseError", "parse_html", "utf16_len"]

_TAG_TYPES: dict[str, str] = {
    "b": "bold",
    "strong": "bold",
    "i": "italic",
    "em": "italic",
    "u": "underline",
    "ins": "underline",
    "s": "strikethrough",
    "strike": "strikethrough",
    "del": "strikethrough",
    "tg-spoiler": "spoiler",
    "span": "spoiler",
    "code": "code",
    "pre": "pre",
    "a": "text_link",
    "blockquote": "blockquote",
    "tg-emoji": "custom_emoji",
}
_NAMED_ENTITIES = {"lt": "<", "gt": ">", "amp": "&", "quot": '"'}
_ENTITY_RE = re.compile(r"&(#x[0-9a-fA-F]{1,6}|#[0-9]{1,7}|[a-zA-Z][a-zA-Z0-9]{0,30});")
_NAME_RE = re.compile(r"[a-zA-Z0-9-]*")
_ATTR_NAME_RE = re.compile(r"[a-zA-Z0-9_-]+")


class HtmlParseError(ValueError):
    """Raised for markup the real Bot API rejects; ``str(err)`` is the part after
    ``can't parse entities: ``."""


def utf16_len(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


@dataclass
class _Open:
    tag: str
    start: int
    attrs: dict[str, str] = field(default_factory=dict)


def _byte_offset(text: str, index: int) -> int:
    return len(text[:index].encode("utf-8"))


def _parse_attributes(text: str, pos: int, tag: str, begin: int) -> tuple[dict[str, str], int]:
    """Parse ``attr="v" attr2='w' attr3=x`` up to ``>``; return attrs and index after ``>``."""
    attrs: dict[str, str] = {}
    n = len(text)
    while True:
        while pos < n and text[pos].isspace():
            pos += 1
        if pos >= n:
            raise HtmlParseError(f"Unclosed start tag at byte offset {_byte_offset(text, begin)}")
        if text[pos] == ">":
            return attrs, pos + 1
        if text[pos] == "/" and pos + 1 < n and text[pos + 1] == ">":
            return attrs, pos + 2
        m = _ATTR_NAME_RE.match(text, pos)
        if not m:
            raise HtmlParseError(
                f'Expected equal sign in declaration of an attribute of the tag "{tag}" '
                f"at byte offset {_byte_offset(text, pos)}"
            )
        name = m.group(0).lower()
        pos = m.end()
        while pos < n and text[pos].isspace():
            pos += 1
        value = ""
        if pos < n and text[pos] == "=":
            pos += 1
            while pos < n and text[pos].isspace():
                pos += 1
            if pos < n and text[pos] in "\"'":
                quote = text[pos]
                end = text.find(quote, pos + 1)
                if end < 0:
                    raise HtmlParseError(
                        f"Unclosed start tag at byte offset {_byte_offset(text, begin)}"
                    )
                value = _unescape(text[pos + 1 : end])
                pos = end + 1
            else:
                start = pos
                while pos < n and not text[pos].isspace() and text[pos] != ">":
                    pos += 1
                value = _unescape(text[start:pos])
        attrs[name] = value


def _unescape(raw: str) -> str:
    out: list[str] = []
    i = 0
    while i < len(raw):
        if raw[i] == "&":
            decoded, nxt = _decode_entity(raw, i)
            if decoded is not None:
                out.append(decoded)
                i = nxt
                continue
        out.append(raw[i])
        i += 1
    return "".join(out)


def _decode_entity(text: str, pos: int) -> tuple[str | None, int]:
    m = _ENTITY_RE.match(text, pos)
    if not m:
        return None, pos
    body = m.group(1)
    if body.startswith("#x"):
        code = int(body[2:], 16)
    elif body.startswith("#"):
        code = int(body[1:])
    elif body in _NAMED_ENTITIES:
        return _NAMED_ENTITIES[body], m.end()
    else:
        return None, pos  # unknown named entity: kept literally, like Telegram does
    if code == 0 or code > 0x10FFFF or 0xD800 <= code <= 0xDFFF:
        return None, pos
    return chr(code), m.end()


def parse_html(text: str) -> tuple[str, list[dict[str, Any]]]:
    """Return ``(plain_text, entities)`` for Bot-API HTML ``text``."""
    out: list[str] = []
    offset = 0  # current length of ``out`` in UTF-16 units
    stack: list[_Open] = []
    entities: list[dict[str, Any]] = []
    i = 0
    n = len(text)
    while i < n:
        ch = text[i]
        if ch == "&":
            decoded, nxt = _decode_entity(text, i)
            if decoded is not None:
                out.append(decoded)
                offset += utf16_len(decoded)
                i = nxt
                continue
            out.append(ch)
            offset += 1
            i += 1
            continue
        if ch != "<":
            out.append(ch)
            offset += 2 if ord(ch) > 0xFFFF else 1
            i += 1
            continue
        begin = i
        if i + 1 < n and text[i + 1] == "/":
            m = _NAME_RE.match(text, i + 2)
            assert m is not None
            name = m.group(0).lower()
            pos = m.end()
            while pos < n and text[pos].isspace():
                pos += 1
            if pos >= n or text[pos] != ">":
                raise HtmlParseError(f"Unclosed end tag at byte offset {_byte_offset(text, begin)}")
            if not stack:
                raise HtmlParseError(
                    f"Unexpected end tag at byte offset {_byte_offset(text, begin)}"
                )
            top = stack[-1]
            if name != top.tag:
                raise HtmlParseError(
                    f"Unmatched end tag at byte offset {_byte_offset(text, begin)}, "
                    f'expected "</{top.tag}>", found "</{name}>"'
                )
            stack.pop()
            _close_entity(top, offset, stack, entities)
            i = pos + 1
            continue
        m = _NAME_RE.match(text, i + 1)
        assert m is not None
        name = m.group(0).lower()
        if name not in _TAG_TYPES:
            raise HtmlParseError(
                f'Unsupported start tag "{name}" at byte offset {_byte_offset(text, begin)}'
            )
        attrs, i = _parse_attributes(text, m.end(), name, begin)
        if name == "span" and attrs.get("class") != "tg-spoiler":
            raise HtmlParseError('Tag "span" must have class "tg-spoiler"')
        stack.append(_Open(name, offset, attrs))
    if stack:
        raise HtmlParseError(f'Can\'t find end tag corresponding to start tag "{stack[-1].tag}"')
    entities.sort(key=lambda e: (e["offset"], -e["length"]))
    return "".join(out), entities


def _close_entity(
    top: _Open, offset: int, stack: list[_Open], entities: list[dict[str, Any]]
) -> None:
    length = offset - top.start
    if length <= 0:
        return
    etype = _TAG_TYPES[top.tag]
    entity: dict[str, Any] = {"type": etype, "offset": top.start, "length": length}
    if etype == "text_link":
        url = top.attrs.get("href", "")
        if not url:
            return  # Telegram drops links without href
        entity["url"] = url
    elif etype == "custom_emoji":
        entity["custom_emoji_id"] = top.attrs.get("emoji-id", "")
    elif etype == "blockquote" and "expandable" in top.attrs:
        entity["type"] = "expandable_blockquote"
    elif etype == "code" and stack and stack[-1].tag == "pre":
        language = top.attrs.get("class", "")
        if language.startswith("language-"):
            stack[-1].attrs["language"] = language[len("language-") :]
            return  # merged into the enclosing pre entity
    elif etype == "pre" and top.attrs.get("language"):
        entity["language"] = top.attrs["language"]
    entities.append(entity)
