"""Telegram's init data, checked: who opened the table, and for which game.

The Bot API's «Validating data received via the Mini App»: the secret is
HMAC-SHA256(key="WebAppData", msg=bot token); the hash Telegram sent must equal
HMAC-SHA256(key=secret, msg=data-check string), the data-check string being every other
field as `key=value`, sorted by key, joined by newlines. Written here rather than taken
from a package: it is twenty lines of the standard library's `hmac`, and a package
would add a dependency (and its own idea of what to trust) for that.

Only the signed fields are read: the user (id, names, language), `auth_date` and
`start_param`. Data signed with another bot's token fails the hash, as forged data does.
The raw string is a credential for as long as it is fresh: it is never logged, and no
error here repeats it.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from dataclasses import dataclass
from urllib.parse import parse_qsl

from bot.game.people import visible_name

MAX_LENGTH = 4096  # characters of init data (Telegram's are well under 1 KB)
FUTURE_SLACK = 60.0  # seconds an auth_date may lie ahead (clocks differ a little)
HASH_LENGTH = 64  # hex digits of a SHA-256


class Unauthorized(Exception):
    """The init data cannot be trusted; `reason` says why in a word, for one log line."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Identity:
    """Who opened the table, as Telegram signed it."""

    user_id: int
    name: str  # his first and last names, else his username ("" if none shows)
    language_code: str | None
    start_param: str  # the game the table was opened for ("" if none)
    auth_date: int


def secret_key(bot_token: str) -> bytes:
    return hmac.new(b"WebAppData", bot_token.encode(), hashlib.sha256).digest()


def sign(fields: dict[str, str], bot_token: str) -> str:
    """The hash Telegram gives these fields (the tests sign their init data with it)."""
    check = "\n".join(f"{key}={fields[key]}" for key in sorted(fields))
    return hmac.new(secret_key(bot_token), check.encode(), hashlib.sha256).hexdigest()


def check_init_data(raw: object, bot_token: str, max_age: float, now: float) -> Identity:
    """The identity `raw` signs; Unauthorized if it is missing, malformed, forged (or
    another bot's), older than `max_age` seconds or dated in the future."""
    if not isinstance(raw, str) or not raw:
        raise Unauthorized("missing")
    if len(raw) > MAX_LENGTH:
        raise Unauthorized("too long")
    try:
        pairs = parse_qsl(raw, keep_blank_values=True, strict_parsing=True)
    except ValueError:
        raise Unauthorized("malformed") from None
    fields = dict(pairs)
    if len(fields) != len(pairs):
        raise Unauthorized("a field given twice")
    given = fields.pop("hash", "")
    if len(given) != HASH_LENGTH:
        raise Unauthorized("no hash")
    if not hmac.compare_digest(sign(fields, bot_token).encode(), given.encode()):
        raise Unauthorized("bad signature")
    try:
        auth_date = int(fields.get("auth_date", ""))
    except ValueError:
        raise Unauthorized("no auth_date") from None
    if auth_date < now - max_age:
        raise Unauthorized("expired")
    if auth_date > now + FUTURE_SLACK:
        raise Unauthorized("dated in the future")
    user_id, name, language_code = _user(fields.get("user", ""))
    return Identity(user_id, name, language_code, fields.get("start_param", ""), auth_date)


def _user(raw: str) -> tuple[int, str, str | None]:
    """(id, name, language code) of the signed `user` field."""
    try:
        user = json.loads(raw)
    except (ValueError, RecursionError):
        raise Unauthorized("no user") from None
    if not isinstance(user, dict):
        raise Unauthorized("no user")
    user_id = user.get("id")
    if not isinstance(user_id, int) or isinstance(user_id, bool) or user_id <= 0:
        raise Unauthorized("no user")
    language = user.get("language_code")
    name = visible_name(user.get("first_name"), user.get("last_name"), user.get("username"))
    return user_id, name, language if isinstance(language, str) else None
