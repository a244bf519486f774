"""Records of a chat's game written by earlier releases, read so that their games play on.

Format 3 differs from this release's only in its computer players, named in the
lobby's language («Компьютер 2») where this release keeps a number and names them
when they are shown: `named_computers` numbers them (a seat without a person is a
computer's, whatever its name), in the match and in its engine state.

Format 2 differs from this release's only in its notes, kept as sentences in the
chat's language of that moment: `second_release` reads them as "text" notes, shown
as they are (this release stores codes and chooses the words when it shows them).
The match is written in this release's format by the next change the service makes
to it; until then the record stays as it was.

Format 1, the first release's record:

The first release kept a chat's game and what its messages showed in one record,
`ChatGame`, with no `format` field, under the same key as this release's `Match`.
During a rolling deploy (and after it, for games nobody touched since) this
release meets such records: `split` turns one into a `Match` and the delivery
records, which the store writes back in its place (see `Migration.upgrading`). This
release never writes format 1; a first-release process that meets a record of
this release says the game is damaged and leaves it alone.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from bot.storage.models import (
    MATCH_FORMAT,
    BoardMessage,
    GroupDelivery,
    HandDelivery,
    Match,
    MatchStatus,
    Note,
    Seat,
    Variant,
)
from engine import Game, StateError, pack, unpack
from engine.players import computer_player


class _OldSeat(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str
    user_id: int | None = None
    level: Literal["easy", "strong"] = "strong"
    lang: str = "ru"
    computer: bool = False
    missed: int = 0
    hand_message_id: int | None = None
    hand_shows: str = ""
    hand_resend: bool = False
    hand_claim_by: str = ""
    hand_claim_since: float = 0.0


class _OldBoard(BaseModel):
    model_config = ConfigDict(extra="forbid")

    message_id: int | None = None
    round_number: int = 1
    shows_version: int = -1
    shows_actions: int = 0
    finished: bool = False


class ChatGame(BaseModel):
    """The first release's record, field for field (it forbade unknown fields too)."""

    model_config = ConfigDict(extra="forbid")

    id: str
    chat_id: int
    thread_id: int | None = None
    status: MatchStatus = "lobby"
    variant: Variant = "fives"
    creator_id: int
    creator_name: str = ""
    seats: list[_OldSeat] = Field(default_factory=list)
    target: int | None = None
    turn_seconds: int = 90
    seed: int = 0
    rev: int = 0
    lobby_rev: int = 0
    chat_title: str = ""
    lobby_message_id: int | None = None
    lobby_shows: int = -1
    lobby_closed: bool = False
    board: _OldBoard = Field(default_factory=_OldBoard)
    final_message_id: int | None = None
    group_calls: list[float] = Field(default_factory=list)
    group_busy: str = ""
    group_busy_since: float = 0.0
    group_busy_by: str = ""
    notes: list[str] = Field(default_factory=list)
    deadline: float | None = None
    deadline_version: int = -1
    stop_requested_by: int | None = None
    engine: dict[str, Any] | None = None  # engine.Game.to_json()


SECOND_FORMAT = 2
THIRD_FORMAT = 3
_NUMBER = re.compile(r"([0-9]{1,3})\s*$")  # «Компьютер 2», "Computer 2"


def named_computers(match: Match) -> Match:
    """`match` (format 3 or earlier, read as this release's) with its computer players
    numbered, as this release keeps them; the same match if it has none."""
    computers = [index for index, seat in enumerate(match.seats) if seat.user_id is None]
    if not computers:
        return match
    upgraded = match.model_copy(deep=True)
    for count, index in enumerate(computers, start=1):
        seat = upgraded.seats[index]
        found = _NUMBER.search(seat.name)
        seat.name, seat.number = "", count if found is None else int(found.group(1))
    if upgraded.engine is not None:
        try:
            game = unpack(upgraded.engine)
        except StateError:
            return upgraded  # its game cannot be read: the service reports it, as before
        for index in computers:
            if index < len(game.players):
                game.players[index] = computer_player(upgraded.seats[index].number)
        upgraded.engine = pack(game)
    return upgraded


def second_release(raw: bytes | str) -> Match | None:
    """A format 2 record as this release's match, or None if it is not one (or does not read)."""
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError, RecursionError):
        return None
    if not isinstance(data, dict) or data.get("format") != SECOND_FORMAT:
        return None
    notes = data.get("notes", [])
    if not isinstance(notes, list) or not all(isinstance(note, str) for note in notes):
        return None
    data["format"] = MATCH_FORMAT
    data["notes"] = [Note(code="text", text=note) for note in notes]
    try:
        return named_computers(Match.model_validate(data))
    except ValidationError:
        return None


class UnreadableLegacy(Exception):
    """A first-release record whose game cannot be read."""


@dataclass(frozen=True)
class Split:
    """A first-release record as this release keeps it: one writer per record."""

    match: Match
    group: GroupDelivery
    hands: list[HandDelivery | None]  # by seat; None where no hand message was sent


def first_release(raw: bytes | str) -> ChatGame | None:
    """The record as the first release wrote it, or None if it is not one."""
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        return None
    if not isinstance(data, dict) or "format" in data or "board" not in data:
        return None
    try:
        return ChatGame.model_validate(data)
    except ValidationError:
        return None


def split(old: ChatGame, lang: str) -> Split:
    """`old` as this release's records; `lang`: the group's language (format 1 kept none)."""
    engine = None
    if old.engine is not None:
        try:
            engine = pack(Game.from_json(old.engine))
        except Exception as exc:  # the engine's from_json raises on any shape it refuses
            raise UnreadableLegacy(f"first-release game state is unreadable: {exc}") from None
    match = Match(
        rev=old.rev,
        id=old.id,
        chat_id=old.chat_id,
        thread_id=old.thread_id,
        status=old.status,
        variant=old.variant,
        creator_id=old.creator_id,
        creator_name=old.creator_name,
        seats=[
            Seat(
                name=seat.name,
                user_id=seat.user_id,
                level=seat.level,
                lang=seat.lang,
                computer=seat.computer,
                missed=seat.missed,
            )
            for seat in old.seats
        ],
        target=old.target,
        turn_seconds=old.turn_seconds,
        seed=old.seed,
        lobby_rev=old.lobby_rev,
        chat_title=old.chat_title,
        lang=lang,
        # The first release cleared notes once shown: these are still due.
        notes=[Note(code="text", text=note) for note in old.notes],
        deadline=old.deadline,
        engine=engine,
    )
    group = GroupDelivery(
        game_id=old.id,
        lobby_message_id=old.lobby_message_id,
        lobby_shows=old.lobby_shows,
        lobby_closed=old.lobby_closed,
        # The picture is drawn again once (its action count meant something else then).
        board=BoardMessage(
            message_id=old.board.message_id,
            round_number=old.board.round_number,
            finished=old.board.finished,
        ),
        final_message_id=old.final_message_id,
        calls=old.group_calls,  # the group's last minute still counts
    )
    hands: list[HandDelivery | None] = [
        None
        if seat.hand_message_id is None
        # Shows nothing known: the converger edits it to what it must show now (its old
        # buttons may still be live).
        else HandDelivery(
            game_id=old.id,
            message_id=seat.hand_message_id,
            live=True,
            known_max=seat.hand_message_id,
        )
        for seat in old.seats
    ]
    return Split(named_computers(match), group, hands)
