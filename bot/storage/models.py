"""What is stored in Redis, as pydantic models.

A chat's game is kept as two kinds of record with one writer each: the `Match`
(lobby options, seats, the engine state, the deadline), written only by the game
service, and the delivery records (`GroupDelivery`, one `HandDelivery` per seat:
which messages show what), written only by the delivery layer. Each side reads
the other's record but never writes it.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    model_serializer,
)

from engine.players import computer_player
from engine.variants import VARIANTS


def known_game(variant: str) -> str:
    if variant not in VARIANTS:
        raise ValueError(f"unknown game {variant!r}")
    return variant


# A game's name: stored as a plain string, read only if engine.VARIANTS has it.
Variant = Annotated[str, AfterValidator(known_game)]
MatchStatus = Literal["lobby", "playing", "over", "cancelled"]
Level = Literal["easy", "strong"]
SeatKind = Literal["person", "computer"]
# How a cancelled match ended (a finished one is "over"): what every message of it says.
Ending = Literal["stopped", "bot_removed", "everyone_left", "idle", "silence"]

# 1: the single `ChatGame` record of the first release; 2: notes kept as sentences;
# 3: computer players kept by their name in the lobby's language («Компьютер 2»).
MATCH_FORMAT = 4
NOTES_KEPT = 20  # events kept for board captions; older ones are dropped
# What a note tells (bot.telegram.note_texts has the words): "text" is a note kept as a
# sentence before notes were codes (format 2), shown as it is.
NoteCode = Literal["timed_out", "missed_turns", "left", "blocked_bot", "text"]


def practice_chat(chat_id: int) -> bool:
    """Whether a chat's games are practice: a private chat's id is its user's, above 0
    (groups' ids are below 0)."""
    return chat_id > 0


class Seat(BaseModel):
    """A place at the table: a person's (by Telegram user id) or a computer player's."""

    model_config = ConfigDict(extra="forbid")

    name: str  # a person's own name ("" for a computer player: see `player`)
    user_id: int | None = None  # None: a computer player from the start
    number: int = 0  # a computer player's number in its lobby (from 1)
    level: Level = "strong"  # the computer's strength when it plays this seat
    lang: str = "ru"  # the language of this player's private messages
    computer: bool = False  # played by the computer (from the start, or after /leave etc.)
    left: bool = False  # its person gave it up with /leave (no win is credited to him)
    missed: int = 0  # turns in a row the deadline played for him
    hand_requests: int = 0  # "My tiles" presses: each one asks for the hand as a new message

    @property
    def human(self) -> bool:
        return self.user_id is not None and not self.computer

    @property
    def kind(self) -> SeatKind:
        return "computer" if self.user_id is None else "person"

    @property
    def player(self) -> str:
        """The seat's name in the engine's game: its person's, or a computer's mark that
        its words name where it is shown (in the language of that moment)."""
        return computer_player(self.number) if self.user_id is None else self.name


class Note(BaseModel):
    """An event for the board caption: what happened to whom. Its words are chosen when
    it is shown, in the chat's language then."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    code: NoteCode
    name: str = ""  # the player it is about
    text: str = ""  # a "text" note's sentence


class Match(BaseModel):
    """A chat's (or forum topic's) game, from lobby to the final table (the service's record)."""

    model_config = ConfigDict(extra="forbid")

    format: int = MATCH_FORMAT
    rev: int = 0  # +1 on every stored change
    id: str
    chat_id: int
    thread_id: int | None = None
    status: MatchStatus = "lobby"
    # The default is the stored format's, not the registry's first game: it must not
    # move when games are added.
    variant: Variant = "fives"
    creator_id: int
    creator_name: str = ""
    seats: list[Seat] = Field(default_factory=list)
    target: int | None = None  # fives only; None: the rules' default
    turn_seconds: int = 90  # 0: no clock (bot.game.options.NO_CLOCK)
    seed: int = 0
    lobby_rev: int = 0  # +1 on every change the lobby message shows
    chat_title: str = ""
    lang: str = "ru"  # the group's language when the lobby opened (/lang changes it too)
    notes: list[Note] = Field(default_factory=list)  # events for the board caption, oldest first
    notes_dropped: int = 0  # notes removed from the front: notes[i] is event number dropped + i
    deadline: float | None = None  # when the seat to act is played for (computer or timeout)
    engine: str | None = None  # engine.pack() of the game once it started
    ended: Ending | None = None  # why a cancelled match ended
    stopped_by: str = ""  # who confirmed /stop (named in the messages that say so)
    topic: str = ""  # the forum topic's name, for private messages of a topic's game
    lobby_touched: float | None = None  # the last change to the lobby (idle lobbies close)

    @property
    def active(self) -> bool:
        return self.status in ("lobby", "playing")

    @property
    def practice(self) -> bool:
        """Played alone against the computer in the bot's private chat with its person."""
        return practice_chat(self.chat_id)

    @property
    def notes_total(self) -> int:
        """Events noted so far (dropped ones included): the number a caption has shown up to."""
        return self.notes_dropped + len(self.notes)

    def add_note(self, note: Note) -> None:
        self.notes.append(note)
        if len(self.notes) > NOTES_KEPT:
            del self.notes[0]
            self.notes_dropped += 1

    def notes_since(self, shown: int) -> list[Note]:
        return self.notes[max(0, shown - self.notes_dropped) :]

    def seat_of(self, user_id: int) -> int | None:
        for index, seat in enumerate(self.seats):
            if seat.user_id == user_id:
                return index
        return None


class Claim(BaseModel):
    """A call to Telegram under way: made by process `by` since `since` (see liveness)."""

    model_config = ConfigDict(extra="forbid")

    key: str
    by: str
    since: float


class BoardMessage(BaseModel):
    """The group's picture of one round, edited in place."""

    model_config = ConfigDict(extra="forbid")

    message_id: int | None = None
    round_number: int = 1
    shows_version: int = -1  # the engine version the picture shows
    shows_actions: int = 0  # actions of its round it has reported, to list the new ones
    finished: bool = False  # shows the round's end (a later round gets a new board)


class GroupDelivery(BaseModel):
    """What the group's messages of one match show: the delivery layer's record."""

    model_config = ConfigDict(extra="forbid")

    rev: int = 0
    game_id: str = ""
    lobby_message_id: int | None = None
    lobby_shows: int = -1  # the lobby revision the lobby message shows
    lobby_closed: bool = False  # deleted, or edited to say the game started or was cancelled
    board: BoardMessage = Field(default_factory=BoardMessage)
    notes_shown: int = 0  # the match's events captions have shown (see Match.notes_total)
    final_message_id: int | None = None
    # The final table of the chat's match before this one, while its Rematch button is
    # still to be taken off (a rematch of it, or any new game, opened meanwhile).
    old_final: int | None = None
    calls: list[float] = Field(default_factory=list)  # our calls to the group, last minute
    paced: list[float] = Field(default_factory=list)  # the board calls among them
    claim: Claim | None = None
    failures: int = 0  # failed calls in a row (for the backoff)
    # The bot was removed from the group and has been let back in: the messages it left
    # there may be brought in line (until then nothing is sent there).
    returned: bool = False

    @model_serializer(mode="wrap")
    def _stored(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        """As stored: `old_final` only while a button waits to be taken off, so that the
        records of a release before it, which forbid fields they do not know, still read
        ours during a rolling deploy (all but for those few seconds)."""
        data: dict[str, Any] = handler(self)
        if data.get("old_final") is None:
            data.pop("old_final", None)
        return data


class HandDelivery(BaseModel):
    """What one seat's private hand message shows: the delivery layer's record."""

    model_config = ConfigDict(extra="forbid")

    rev: int = 0
    game_id: str = ""
    message_id: int | None = None
    shows: str = ""  # what the message shows (see bot.delivery.hand.plan.hand_want)
    live: bool = False  # it carries buttons
    requests_seen: int = 0  # the seat's "My tiles" requests answered
    reminded: str = ""  # the turn (HandWant.turn) whose one reminder was sent
    # Ids that may be copies of an unanswered send: their buttons are taken off (a copy of
    # ours loses them; a message of the user's own refuses the edit, and is left alone).
    stale: list[int] = Field(default_factory=list)
    old: list[int] = Field(default_factory=list)  # earlier hand messages of ours, to delete
    reminder_id: int | None = None  # the turn's reminder, deleted once that turn is over
    uncertain_after: int | None = None  # a send timed out: later ids may be copies of it
    known_max: int = 0  # the highest message id seen in this private chat
    claim: Claim | None = None
    failures: int = 0
    closed: bool = False  # the user blocked the bot: nothing more goes to him


class StatLine(BaseModel):
    """One player's line of a chat's leaderboard."""

    name: str
    games: int = 0
    wins: int = 0
    points: int = 0  # scored in games that count points (fives, muggins)
    best_record: int | None = None  # the best fives record (запись)
    penalties: int = 0  # taken in games that count penalties (twolane)
    penalty_games: int = 0  # how many of `games` counted penalties, not points


class RatingLine(BaseModel):
    """One person's skill rating in a chat, for one variant (see bot.game.ratings)."""

    name: str
    mu: float
    sigma: float
    games: int = 0  # rated games
    wins: int = 0
    last: float = 0.0  # when his last rated game ended


class UserPrefs(BaseModel):
    """A person's preferences as read. Stored as a hash, a field a setting (see
    bot.storage.prefs); earlier releases stored this model as one JSON text."""

    lang: str | None = None
    started: bool = False  # has opened the private chat with the bot
