"""A record as read from Redis, and how its bytes are read: the match (of this release,
of an earlier one, or of a newer one) and the delivery records."""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from enum import Enum
from typing import Generic, TypeVar

from pydantic import BaseModel, ValidationError

from bot.storage.common import as_bytes
from bot.storage.legacy import (
    SECOND_FORMAT,
    THIRD_FORMAT,
    ChatGame,
    first_release,
    named_computers,
    second_release,
)
from bot.storage.models import MATCH_FORMAT, Match
from bot.storage.store_errors import BrokenGameError, NewerGameError

log = logging.getLogger(__name__)

M = TypeVar("M", bound=BaseModel)


@dataclass(frozen=True)
class Stored(Generic[M]):
    """A record as read: its model (None if absent) and its exact bytes, for the compare-and-set."""

    value: M | None
    raw: bytes | None

    @property
    def exists(self) -> bool:
        return self.raw is not None


class Lost(Enum):
    """What `GameRecords.write` gives when the record no longer held what the writer read."""

    LOST = "lost"


LOST = Lost.LOST


class FirstRelease(Exception):
    """A first-release record (format 1): upgraded in place (bot.storage.migration),
    then read again."""

    def __init__(self, old: ChatGame, raw: bytes) -> None:
        self.old, self.raw = old, raw


def parse_match(raw: bytes | str | None) -> Match | None:
    """The stored match; BrokenGameError if it cannot be read, NewerGameError if it is a
    newer release's (never rewritten as ours), `FirstRelease` for a format 1 record. A
    format 2 or 3 record is read as this release's (bot.storage.legacy)."""
    if raw is None:
        return None
    try:
        match = Match.model_validate_json(raw)
    except ValidationError as exc:
        earlier = second_release(raw)
        if earlier is not None:
            return earlier
        newer = _newer_format(raw)
        if newer is not None:
            raise NewerGameError(f"stored game has format {newer}", as_bytes(raw)) from None
        old = first_release(raw)
        if old is not None:
            raise FirstRelease(old, as_bytes(raw) or b"") from None
        message = f"stored game is unreadable: {exc.error_count()} errors"
        raise BrokenGameError(message, as_bytes(raw)) from None
    if match.format > MATCH_FORMAT:
        raise NewerGameError(f"stored game has format {match.format}", as_bytes(raw))
    if match.format == THIRD_FORMAT or (match.format == SECOND_FORMAT and not match.notes):
        match.format = MATCH_FORMAT  # as ours but for its computers' names (and its format)
        return named_computers(match)
    if match.format != MATCH_FORMAT:
        message = f"stored game has format {match.format}; this release reads {MATCH_FORMAT}"
        raise BrokenGameError(message, as_bytes(raw))
    return match


def stored_match(raw: bytes | str | None) -> Stored[Match]:
    return Stored(parse_match(raw), as_bytes(raw))


def stored_delivery(model: type[M], raw: bytes | str | None) -> Stored[M]:
    """A delivery record; one that cannot be read starts afresh (at worst a message is resent)."""
    if raw is None:
        return Stored(None, None)
    try:
        return Stored(model.model_validate_json(raw), as_bytes(raw))
    except ValidationError:
        log.warning("unreadable %s record: starting it afresh", model.__name__)
        return Stored(None, as_bytes(raw))


def _newer_format(raw: bytes | str) -> int | None:
    """The format a record names, if it is a later one than this release's."""
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        return None
    found = data.get("format") if isinstance(data, dict) else None
    return found if isinstance(found, int) and found > MATCH_FORMAT else None
