"""What is stored in Redis, as pydantic models."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from engine import Game

Variant = Literal["fives", "muggins", "twolane"]
Status = Literal["lobby", "playing", "over", "cancelled"]
Level = Literal["easy", "strong"]


class Seat(BaseModel):
    """A place at the table: a human (by Telegram user id) or a computer player."""

    model_config = ConfigDict(extra="forbid")

    name: str
    user_id: int | None = None  # None: a computer player from the start
    level: Level = "strong"  # the computer's strength when it plays this seat
    lang: str = "ru"  # the language of this player's private messages
    computer: bool = False  # played by the computer (from the start, or after /leave etc.)
    missed: int = 0  # turns in a row the deadline played for him
    hand_message_id: int | None = None
    hand_shows: str = ""  # what the hand message shows (see bot.delivery.sync.hand_state)
    hand_resend: bool = False  # asked for his tiles: send them as a new message
    hand_claim_by: str = ""  # the process sending what hand_shows names ("" when sent)
    hand_claim_since: float = 0.0

    @property
    def human(self) -> bool:
        return self.user_id is not None and not self.computer


class Board(BaseModel):
    """The group's picture of one round, edited in place."""

    model_config = ConfigDict(extra="forbid")

    message_id: int | None = None
    round_number: int = 1
    shows_version: int = -1  # the game version the picture shows
    shows_actions: int = 0  # actions of the match it has reported, to list the new ones
    finished: bool = False  # shows the round's end (a later round gets a new board)


class ChatGame(BaseModel):
    """A chat's (or forum topic's) game, from lobby to the final table."""

    model_config = ConfigDict(extra="forbid")

    id: str
    chat_id: int
    thread_id: int | None = None
    status: Status = "lobby"
    variant: Variant = "fives"
    creator_id: int
    creator_name: str = ""
    seats: list[Seat] = Field(default_factory=list)
    target: int | None = None  # fives only; None: the rules' default
    turn_seconds: int = 90
    seed: int = 0
    rev: int = 0  # +1 on every stored change
    lobby_rev: int = 0  # +1 on every change the lobby message shows (its buttons carry it)
    chat_title: str = ""
    lobby_message_id: int | None = None
    lobby_shows: int = -1  # the lobby revision the lobby message shows
    lobby_closed: bool = False  # deleted, or edited to say the game started or was cancelled
    board: Board = Field(default_factory=Board)
    final_message_id: int | None = None
    group_calls: list[float] = Field(default_factory=list)  # our calls to the group, last minute
    group_busy: str = ""  # the group call under way (claimed, not yet recorded)
    group_busy_since: float = 0.0
    group_busy_by: str = ""  # the process making that call (see bot.delivery.liveness)
    notes: list[str] = Field(default_factory=list)  # events for the next board caption
    deadline: float | None = None  # when the seat to act is played for (computer or timeout)
    deadline_version: int = -1  # the game version the deadline belongs to
    stop_requested_by: int | None = None
    engine: dict[str, Any] | None = None  # engine.Game.to_json()

    def game(self) -> Game:
        if self.engine is None:
            raise ValueError("the game has not started")
        return Game.from_json(self.engine)

    def store_game(self, game: Game) -> None:
        self.engine = game.to_json()

    @property
    def version(self) -> int:
        """The engine version: moves' buttons carry it."""
        return -1 if self.engine is None else int(self.engine.get("version", -1))

    @property
    def active(self) -> bool:
        return self.status in ("lobby", "playing")

    def seat_of(self, user_id: int) -> int | None:
        for index, seat in enumerate(self.seats):
            if seat.user_id == user_id:
                return index
        return None


class StatLine(BaseModel):
    """One player's line of a chat's leaderboard."""

    name: str
    games: int = 0
    wins: int = 0
    points: int = 0
    best_record: int | None = None  # the best fives record (запись)


class UserPrefs(BaseModel):
    lang: str | None = None
    started: bool = False  # has opened the private chat with the bot
