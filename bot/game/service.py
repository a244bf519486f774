"""The game service: every change to a chat's match, as one compare-and-set on its record.

It knows the rules of the lobby and of turns (who may do what), talks to the
store and the engine, and returns plain results. It never talks to Telegram:
after each change it tells the delivery layer (`on_change`), which brings the
chat's messages in line.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from bot import metrics
from bot.game import computer, forfeits, ratings
from bot.game.clock import human_delay
from bot.game.options import (
    MAX_SEATS,
    MIN_SEATS,
    NO_CLOCK,
    TURN_CHOICES,
    LobbyAction,
    has_clock,
    target_choices,
)
from bot.i18n import translator
from bot.logs import event
from bot.settings import Settings
from bot.storage.games import EngineCache
from bot.storage.models import Level, Match, Seat, StatLine
from bot.storage.store import (
    LOST,
    RECORD_TTL,
    BrokenGameError,
    ConflictError,
    GameLostError,
    NewerGameError,
    Store,
    Stored,
    backoff,
)
from bot.variants import first_variant
from engine import DominoError, Game, Move, MoveEntry, StateError, pack, view_for
from engine.compact import FORMAT as ENGINE_FORMAT
from engine.variants import VARIANTS

log = logging.getLogger(__name__)

T = TypeVar("T")

MISSES_BEFORE_COMPUTER = 3
MAX_ATTEMPTS = 25
# A change is noted as due this many seconds ahead before it is committed: if this
# process dies right after the commit, a sweeper somewhere brings the chat's
# messages in line then.
RETRY_AFTER_CRASH = 5.0
# The process that set a deadline plays it on time itself; the due index has it this
# much later, for another process to take over if this one died meanwhile.
DEADLINE_SLACK = 2.0


class Refusal(Exception):
    """A user's request the rules of the bot or the game do not allow; nothing changed.

    `code` is a key of `bot.telegram.texts.REFUSALS` (and of engine error codes).
    """

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params


@dataclass(frozen=True)
class Person:
    """A Telegram user as the service needs him."""

    user_id: int
    name: str
    lang: str


@dataclass(frozen=True)
class Current:
    """A match as stored, with its engine game parsed (None before the start).

    `raw` is the record exactly as stored: a change that starts from this state can
    write against it without reading it again. Callers must not change `match` or
    `game` (a change works on copies).
    """

    match: Match
    game: Game | None
    raw: bytes | None = None


@dataclass
class Played:
    """What an accepted action (or a run of them) did."""

    current: Current
    entries: list[MoveEntry] = field(default_factory=list)

    @property
    def finished(self) -> bool:
        return self.current.match.status == "over"


@dataclass
class Tx:
    """What a change function sees and may change: the match and its engine game."""

    match: Match | None
    game: Game | None


def _newer_engine(text: str) -> bool:
    """Whether a packed game names a later format than this release's engine writes."""
    try:
        header = json.loads(text.split("\n", 1)[0])
    except (ValueError, RecursionError):
        return False
    return (
        isinstance(header, list)
        and bool(header)
        and isinstance(header[0], int)
        and header[0] > ENGINE_FORMAT
    )


def new_game_id() -> str:
    return secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")[:8]


ChangeListener = Callable[[Current, int], None]
# Told when a chat's unreadable game was set aside: (chat id, thread id).
LostListener = Callable[[int, int | None], None]


class GameService:
    def __init__(
        self,
        store: Store,
        settings: Settings,
        clock: Callable[[], float] = time.time,
        engines: EngineCache | None = None,
    ) -> None:
        self.store = store
        self.settings = settings
        self.clock = clock
        self.engines = engines or EngineCache()
        # Seconds computer and turn deadlines are pushed back while delivery lags (set
        # by the delivery layer): under load every game slows down evenly, and nobody's
        # clock runs while his hand is still on its way.
        self.pace: Callable[[], float] = lambda: 0.0
        # Told of every committed change (and the due time it was noted with).
        self.on_change: ChangeListener | None = None
        self.on_lost: LostListener | None = None

    # -- reading ---------------------------------------------------------------------

    async def current(self, chat_id: int, thread_id: int | None) -> Current | None:
        """The stored match and its game; BrokenGameError if it cannot be read."""
        stored, game = await self._read(chat_id, thread_id)
        match = stored.value
        return None if match is None else Current(match, game, stored.raw)

    async def _read(self, chat_id: int, thread_id: int | None) -> tuple[Stored[Match], Game | None]:
        """The stored match and its game. One that cannot be read is set aside and
        GameLostError raised: the chat is told once and can start a new game (no
        unreadable record stands in its way for a week). A newer release's game is left
        as it is (NewerGameError): during a rolling deploy its processes serve it."""
        try:
            stored = await self.store.read_match(chat_id, thread_id)
            game = None if stored.value is None else self.engine_game(stored.value)
        except (NewerGameError, GameLostError):
            raise
        except BrokenGameError as exc:
            raw = exc.raw
            if raw is None:  # the record read, its game did not: set aside what was read
                raw = (await self.store.read_match(chat_id, thread_id)).raw
            if raw is not None and await self.store.set_aside(chat_id, thread_id, raw):
                # Only the process that moved it says so: logged and told once.
                metrics.ERRORS.labels("broken_game").inc()
                log.error("chat %s: stored game unreadable (%s); set aside", chat_id, exc)
                if self.on_lost is not None:
                    self.on_lost(chat_id, thread_id)
            raise GameLostError(str(exc)) from None
        return stored, game

    async def find(self, chat_id: int, thread_id: int | None, game_id: str) -> Current:
        found = await self.current(chat_id, thread_id)
        if found is None or found.match.id != game_id:
            raise Refusal("game_gone")
        return found

    async def chat_language(self, chat_id: int) -> str:
        return await self.store.chat_language(chat_id) or self.settings.default_language

    def engine_game(self, match: Match) -> Game | None:
        """The engine game of `match` (None before the start); BrokenGameError if unreadable."""
        if match.engine is None:
            return None
        try:
            return self.engines.game(match.id, match.engine)
        except StateError as exc:
            if _newer_engine(match.engine):
                raise NewerGameError(f"stored game state is a newer release's: {exc}") from None
            raise BrokenGameError(f"stored game state is unreadable: {exc}") from None

    # -- lobby ----------------------------------------------------------------------

    async def new_game(
        self,
        chat_id: int,
        thread_id: int | None,
        creator: Person,
        variant: str | None,
        title: str,
        topic: str = "",
        game_id: str | None = None,
    ) -> tuple[Current, bool]:
        """A new lobby, or (the game running here, False). `game_id`: the new lobby's id,
        for a caller that notes something under it before its lobby is posted (/notify).

        A lobby nobody pressed for `lobby_takeover_seconds` is taken over instead: its
        creator is now `creator` (the same lobby message shows it), and True is returned.
        """
        prefs = await self.store.user(creator.user_id)
        lang = await self.chat_language(chat_id)
        now = self.clock()

        def apply(tx: Tx) -> bool:
            if tx.match is not None and self.stale_lobby(tx.match, now):
                seat_lang = (prefs.lang or creator.lang) if prefs.started else None
                self._take_over(tx.match, creator, seat_lang, now)
                return True
            if tx.match is not None and tx.match.active:
                return False
            match = Match(
                id=game_id or new_game_id(),
                chat_id=chat_id,
                thread_id=thread_id,
                variant=variant if variant in VARIANTS else first_variant(),
                creator_id=creator.user_id,
                creator_name=creator.name,
                turn_seconds=self.settings.turn_seconds,
                seed=secrets.randbits(62),
                chat_title=title,
                lang=lang,
                topic=topic,
            )
            if match.practice:
                _open_practice(match, creator, prefs.lang or creator.lang)
            elif prefs.started:  # the bot can write to him: seat him at once
                match.seats.append(_human(creator, lang=prefs.lang or creator.lang))
            self._touch(match, now)
            tx.match, tx.game = match, None
            return True

        try:
            current, created = await self._change(chat_id, thread_id, apply)
        except GameLostError:  # set aside just now: the chat is free for a new game
            current, created = await self._change(chat_id, thread_id, apply)
        assert current is not None
        return current, created

    def stale_lobby(self, match: Match, now: float) -> bool:
        """A lobby nobody pressed for a while: /newgame takes it over (and a taken-over
        lobby, unlike a new one, has a revision above 0)."""
        if match.status != "lobby":
            return False
        touched = match.lobby_touched
        # A lobby stored before lobbies kept their time is older than this release.
        return touched is None or now - touched >= self.settings.lobby_takeover_seconds

    def _take_over(self, match: Match, creator: Person, lang: str | None, now: float) -> None:
        """`creator` runs the lobby now (seated, if the bot can write to him: `lang`)."""
        match.creator_id, match.creator_name = creator.user_id, creator.name
        seated = match.seat_of(creator.user_id) is not None
        if lang is not None and not seated and len(match.seats) < MAX_SEATS:
            match.seats.append(_human(creator, lang=lang))
        match.lobby_rev += 1
        self._touch(match, now)

    def _touch(self, match: Match, now: float) -> None:
        """The lobby changed: it closes after `lobby_idle_seconds` more without a change."""
        match.lobby_touched = now
        match.deadline = now + self.settings.lobby_idle_seconds

    async def close_idle_lobby(self, chat_id: int, thread_id: int | None, game_id: str) -> bool:
        """Close the lobby if nobody touched it for `lobby_idle_seconds` (True if closed)."""
        now = self.clock()

        def apply(tx: Tx) -> None:
            match = tx.match
            if (
                match is None
                or match.id != game_id
                or match.status != "lobby"
                or match.deadline is None
                or match.deadline > now
            ):
                raise Refusal("not_due")
            match.status, match.ended, match.deadline = "cancelled", "idle", None

        try:
            await self._change(chat_id, thread_id, apply)
        except Refusal:
            return False
        event(log, "lobby_closed", chat=chat_id, game=game_id)
        return True

    async def join(
        self, chat_id: int, thread_id: int | None, game_id: str, person: Person
    ) -> tuple[Current, bool]:
        """Seat `person` in the lobby; (current, False) if he already sits there."""
        prefs = await self.store.user(person.user_id)
        now = self.clock()

        def apply(tx: Tx) -> bool:
            if tx.match is not None and tx.match.id == game_id and tx.match.ended is not None:
                raise Refusal(_ENDING_REFUSALS.get(tx.match.ended, "game_gone"))
            match = _the_match(tx, game_id, "lobby")
            if match.seat_of(person.user_id) is not None:
                return False
            if match.practice:
                raise Refusal("practice_alone")  # a practice game is one person's
            if len(match.seats) >= MAX_SEATS:
                raise Refusal("lobby_full")
            match.seats.append(_human(person, lang=prefs.lang or person.lang))
            match.lobby_rev += 1
            self._touch(match, now)
            return True

        current, joined = await self._change(chat_id, thread_id, apply)
        assert current is not None
        return current, joined

    async def lobby_action(
        self,
        chat_id: int,
        thread_id: int | None,
        game_id: str,
        action: LobbyAction,
        value: str,
        person: Person,
        is_admin: bool,
    ) -> Current:
        """A lobby button. Any press whose action still makes sense works, whatever
        revision of the lobby it was made on; a press that no longer does is refused."""
        now = self.clock()

        def apply(tx: Tx) -> None:
            match = _the_match(tx, game_id, "lobby")
            tr = translator(match.lang)
            creator = person.user_id == match.creator_id
            if action is LobbyAction.LEAVE:
                seat = match.seat_of(person.user_id)
                if seat is None:
                    raise Refusal("not_in_game")
                del match.seats[seat]
            elif action is LobbyAction.CANCEL:
                if not (creator or is_admin):
                    raise Refusal("creator_or_admin_only")
                match.status, match.ended = "cancelled", "stopped"
                match.stopped_by = person.name
            elif not creator:
                raise Refusal("creator_only")
            elif action is LobbyAction.REMOVE_COMPUTER:
                computers = [i for i, seat in enumerate(match.seats) if seat.user_id is None]
                if not computers:
                    raise Refusal("no_computer")
                del match.seats[computers[-1]]
            elif action in (LobbyAction.ADD_EASY, LobbyAction.ADD_STRONG):
                if len(match.seats) >= MAX_SEATS:
                    raise Refusal("lobby_full")
                number = 1 + sum(1 for s in match.seats if s.user_id is None)
                level: Level = "easy" if action is LobbyAction.ADD_EASY else "strong"
                name = tr("Computer {number}").format(number=number)
                match.seats.append(Seat(name=name, level=level, lang=tr.lang, computer=True))
            elif action is LobbyAction.VARIANT:
                if value not in VARIANTS:
                    raise Refusal("stale_button")
                if value == match.variant:
                    return  # pressed twice: it is set already
                match.variant = value
                match.target = None
            elif action is LobbyAction.TARGET:
                choices = target_choices(match.variant, len(match.seats))
                if not choices:
                    raise Refusal("no_target_option")
                chosen = int(value) if value.isdigit() else -1
                if chosen not in choices:
                    raise Refusal("stale_button")
                target = None if chosen == choices[0] else chosen
                if target == match.target:
                    return
                match.target = target
            elif action is LobbyAction.TIME:
                seconds = int(value) if value.isdigit() else -1
                if seconds not in TURN_CHOICES:
                    raise Refusal("stale_button")
                if seconds == match.turn_seconds:
                    return
                match.turn_seconds = seconds
            elif action is LobbyAction.START:
                tx.game = self._start(match, now)
            match.lobby_rev += 1
            if match.status == "lobby":
                self._touch(match, now)
            elif match.status == "cancelled":
                match.deadline = None

        current, _ = await self._change(chat_id, thread_id, apply)
        assert current is not None
        if action is LobbyAction.START:
            match = current.match
            event(
                log,
                "start",
                chat=chat_id,
                game=match.id,
                variant=match.variant,
                seats=len(match.seats),
                humans=sum(1 for s in match.seats if s.human),
                v=current.game.version if current.game is not None else 0,
            )
            metrics.game_started(match.variant)
        return current

    def _start(self, match: Match, now: float) -> Game:
        if not MIN_SEATS <= len(match.seats) <= MAX_SEATS:
            raise Refusal("need_players")
        if not any(seat.human for seat in match.seats):
            raise Refusal("need_human")
        names = [seat.name for seat in match.seats]
        game = Game.new(match.variant, names, seed=match.seed, target=match.target)
        match.status = "playing"
        self._arm_deadline(match, game, now)
        return game

    async def rematch(
        self, chat_id: int, thread_id: int | None, game_id: str, person: Person
    ) -> Current:
        """A new lobby with the same seats and options as the finished game.

        Only its players may start it, the first to press being its creator; a player who
        left the game is not seated again (he may join like anyone).
        """
        now = self.clock()

        def apply(tx: Tx) -> None:
            old = tx.match
            if old is None or old.id != game_id:
                seated = old is not None and old.seat_of(person.user_id) is not None
                if old is not None and old.status == "lobby" and seated:
                    raise Refusal("rematch_open")  # another player pressed first: he sits there
                raise Refusal("game_gone")
            if old.active:
                raise Refusal("game_running")
            played = old.seat_of(person.user_id)
            if played is None:
                raise Refusal("rematch_players_only")
            if old.seats[played].left:
                raise Refusal("rematch_left")
            seats = [
                Seat(name=s.name, level=s.level, lang=s.lang, computer=True)
                if s.user_id is None
                else Seat(name=s.name, user_id=s.user_id, lang=s.lang)
                for s in old.seats
                if not s.left
            ]
            tx.match = Match(
                id=new_game_id(),
                chat_id=chat_id,
                thread_id=thread_id,
                variant=old.variant,
                creator_id=person.user_id,
                creator_name=person.name,
                seats=seats,
                target=old.target,
                turn_seconds=old.turn_seconds,
                seed=secrets.randbits(62),
                chat_title=old.chat_title,
                lang=old.lang,
                topic=old.topic,
            )
            self._touch(tx.match, now)
            tx.game = None

        current, _ = await self._change(chat_id, thread_id, apply)
        assert current is not None
        return current

    # -- playing --------------------------------------------------------------------

    async def play(
        self,
        chat_id: int,
        thread_id: int | None,
        game_id: str,
        version: int,
        person: Person,
        move: Move,
        found: Current | None = None,
    ) -> Played:
        """A human's move from his hand keyboard (made for game `version`).

        `found`: the match as the caller just read it (the change starts from it).
        """
        now = self.clock()

        def apply(tx: Tx) -> list[MoveEntry]:
            match = _the_match(tx, game_id, "playing")
            seat_index = match.seat_of(person.user_id)
            if seat_index is None:
                raise Refusal("not_in_game")
            seat = match.seats[seat_index]
            if seat.computer:
                raise Refusal("seat_is_computer")
            game = tx.game
            assert game is not None
            if version != game.version:
                raise Refusal("stale_button")
            if game.turn != seat_index:
                raise Refusal("not_your_turn")
            try:
                entry = game.push(move, seat=seat_index)
            except DominoError as exc:
                raise Refusal(exc.code, detail=exc.message) from None
            seat.missed = 0
            self._after_moves(match, game, now)
            return [entry]

        current, entries = await self._change(chat_id, thread_id, apply, found)
        assert current is not None
        _moved(current, entries, "human")
        await self._count_and_rate_if_over(current)
        return Played(current, entries)

    async def leave(self, chat_id: int, thread_id: int | None, person: Person) -> Current:
        """/leave: out of the lobby, or hand a running game's seat to the computer."""
        now = self.clock()

        def apply(tx: Tx) -> None:
            match = tx.match
            if match is None or not match.active:
                raise Refusal("no_game")
            tr = translator(match.lang)
            seat_index = match.seat_of(person.user_id)
            if seat_index is None:
                raise Refusal("not_in_game")
            if match.status == "lobby":
                del match.seats[seat_index]
                match.lobby_rev += 1
                self._touch(match, now)
                return
            seat = match.seats[seat_index]
            if seat.left:
                raise Refusal("already_left")
            if seat.computer:
                raise Refusal("seat_is_computer")
            seat.computer = seat.left = True
            match.add_note(tr("{name} left; the computer plays for them.").format(name=seat.name))
            assert tx.game is not None
            if not _end_if_nobody_plays(match) and tx.game.turn == seat_index:
                self._arm_deadline(match, tx.game, now)

        current, _ = await self._change(chat_id, thread_id, apply)
        assert current is not None
        if current.match.ended == "everyone_left":
            metrics.game_abandoned(current.match.variant, True)
        return current

    async def may_stop(
        self, chat_id: int, thread_id: int | None, person: Person, is_admin: bool
    ) -> Current:
        """/stop asks first: may this person end the running game?"""
        current = await self.current(chat_id, thread_id)
        if current is None or not current.match.active:
            raise Refusal("no_game")
        if person.user_id != current.match.creator_id and not is_admin:
            raise Refusal("creator_or_admin_only")
        return current

    async def stop(
        self, chat_id: int, thread_id: int | None, game_id: str, person: Person, is_admin: bool
    ) -> Current:
        """The /stop confirmation: the game ends for everyone, as cancelled."""

        def apply(tx: Tx) -> None:
            match = tx.match
            if match is None or match.id != game_id or not match.active:
                raise Refusal("game_gone")
            if person.user_id != match.creator_id and not is_admin:
                raise Refusal("creator_or_admin_only")
            match.status, match.ended, match.stopped_by = "cancelled", "stopped", person.name
            match.deadline = None

        current, _ = await self._change(chat_id, thread_id, apply)
        assert current is not None
        metrics.game_abandoned(current.match.variant, current.match.engine is not None)
        return current

    async def resend_hand(
        self, chat_id: int, thread_id: int | None, game_id: str, person: Person
    ) -> None:
        """ "My tiles" on the board: the hand comes again, as a new message."""

        def apply(tx: Tx) -> None:
            match = _the_match(tx, game_id, "playing")
            seat_index = match.seat_of(person.user_id)
            if seat_index is None:
                raise Refusal("not_in_game")
            if match.seats[seat_index].computer:
                raise Refusal("seat_taken_over")
            match.seats[seat_index].hand_requests += 1

        await self._change(chat_id, thread_id, apply)

    # -- what the delivery layer reports ----------------------------------------------

    async def player_blocked(
        self, chat_id: int, thread_id: int | None, game_id: str, seat_index: int
    ) -> None:
        """A player's private chat refuses the bot: the computer plays his seat."""
        now = self.clock()

        def apply(tx: Tx) -> None:
            match = tx.match
            if match is None or match.id != game_id or not match.active:
                raise Refusal("game_gone")
            tr = translator(match.lang)
            seat = match.seats[seat_index]
            if seat.computer or seat.user_id is None:
                raise Refusal("seat_is_computer")
            seat.computer = True
            note = tr("{name} blocked the bot; the computer plays for them.")
            match.add_note(note.format(name=seat.name))
            if _end_if_nobody_plays(match):
                return
            if match.status == "playing" and tx.game is not None and tx.game.turn == seat_index:
                self._arm_deadline(match, tx.game, now)

        with contextlib.suppress(Refusal):
            await self._change(chat_id, thread_id, apply)

    async def abandon(
        self, chat_id: int, thread_id: int | None, game_id: str | None = None
    ) -> Current | None:
        """The bot can no longer write to the group: the game ends there, as cancelled.

        `game_id` None: whatever game is under way there. The abandoned match, if any.
        """

        def apply(tx: Tx) -> None:
            match = tx.match
            if match is None or game_id not in (None, match.id) or not match.active:
                raise Refusal("game_gone")
            match.status, match.ended = "cancelled", "bot_removed"
            match.deadline = None

        try:
            current, _ = await self._change(chat_id, thread_id, apply)
        except Refusal:
            return None
        if current is not None:
            metrics.game_abandoned(current.match.variant, current.match.engine is not None)
        return current

    async def bot_removed(self, chat_id: int) -> list[Current]:
        """The bot was removed from the group (or may not write there): every game of it
        ends at once; the matches abandoned."""
        abandoned = []
        for thread_id in await self.store.game_threads(chat_id):
            with contextlib.suppress(BrokenGameError):
                current = await self.abandon(chat_id, thread_id)
                if current is not None:
                    abandoned.append(current)
        return abandoned

    async def name_topic(self, chat_id: int, thread_id: int, name: str) -> None:
        """A forum topic was created or renamed: its game's private messages name it (and
        those of games opened there later)."""
        await self.store.set_topic_name(chat_id, thread_id, name)

        def apply(tx: Tx) -> None:
            match = tx.match
            if match is None or not match.active or match.topic == name:
                raise Refusal("no_game")
            match.topic = name
            match.lobby_rev += 1

        with contextlib.suppress(Refusal, BrokenGameError):
            await self._change(chat_id, thread_id, apply)

    async def move_chat(self, old_chat_id: int, new_chat_id: int) -> list[int | None]:
        """A group became a supergroup: its games and stats follow the new chat id.

        Returns the topics whose games moved (their messages are then brought in line).
        """
        await self.store.move_chat(old_chat_id, new_chat_id)
        threads = await self.store.game_threads(new_chat_id)
        for thread_id in threads:

            def apply(tx: Tx) -> None:
                if tx.match is None:
                    raise Refusal("no_game")
                tx.match.chat_id = new_chat_id

            with contextlib.suppress(Refusal):
                await self._change(new_chat_id, thread_id, apply)
        return threads

    async def set_language(self, chat_id: int, lang: str) -> None:
        """/lang in a group: its games speak `lang` from now on, the running ones too."""
        await self.store.set_chat_language(chat_id, lang)
        for thread_id in await self.store.game_threads(chat_id):

            def apply(tx: Tx) -> None:
                if tx.match is None or not tx.match.active or tx.match.lang == lang:
                    raise Refusal("no_game")
                tx.match.lang = lang
                tx.match.lobby_rev += 1

            with contextlib.suppress(Refusal, BrokenGameError):
                await self._change(chat_id, thread_id, apply)

    async def stop_broken(self, chat_id: int, thread_id: int | None) -> None:
        """End a game whose stored state cannot be read (the only way out of it)."""
        await self.store.drop(chat_id, thread_id)
        await self.store.settle_due(chat_id, thread_id, None, None)

    # -- deadlines and computer players -------------------------------------------------

    async def run_due(
        self, chat_id: int, thread_id: int | None, found: Current | None = None
    ) -> Played | None:
        """Play for the seat to act if its deadline has passed (exactly once); a game
        without a clock ends instead, when its person to act let the day go by.

        `found`: the match as the caller just read it (else it is read here).
        """
        if found is None:
            found = await self.current(chat_id, thread_id)
        now = self.clock()
        if found is None:
            return None
        match, game = found.match, found.game
        if match.status == "over":
            await self._count_and_rate_if_over(
                found
            )  # a no-op, unless we died between the end and it
            return None
        if match.status != "playing" or match.deadline is None or match.deadline > now:
            return None
        assert game is not None
        seat_index = game.turn
        if seat_index is None:
            return None
        seat = match.seats[seat_index]
        version = game.version
        timed_out = seat.human
        if timed_out and not has_clock(match.turn_seconds):
            return await self._end_for_silence(chat_id, thread_id, found, now)
        level = "easy" if timed_out else seat.level
        cap = 0.05 if timed_out else 0.4
        moves = await asyncio.to_thread(
            computer.turn_moves, game.copy(), level, match.seed + version, cap
        )
        tr = translator(match.lang)

        def apply(tx: Tx) -> list[MoveEntry]:
            current, engine_game = tx.match, tx.game
            if (
                current is None
                or current.id != match.id
                or current.status != "playing"
                or engine_game is None
                or engine_game.version != version
                or current.deadline is None
                or current.deadline > now
            ):
                raise Refusal("not_due")
            entries = [engine_game.push(move, seat=seat_index) for move in moves]
            if timed_out:
                seated = current.seats[seat_index]
                seated.missed += 1
                note = tr("{name} ran out of time; the move was made for them.")
                current.add_note(note.format(name=seated.name))
                if seated.missed >= MISSES_BEFORE_COMPUTER:
                    seated.computer = True
                    note = tr("{name} missed three turns; the computer plays for them now.")
                    current.add_note(note.format(name=seated.name))
            self._after_moves(current, engine_game, now)
            return entries

        try:
            changed, entries = await self._change(chat_id, thread_id, apply, found)
        except Refusal:
            return None
        assert changed is not None
        _moved(changed, entries, "timeout" if timed_out else "computer")
        await self._count_and_rate_if_over(changed)
        return Played(changed, entries)

    async def _end_for_silence(
        self, chat_id: int, thread_id: int | None, found: Current, now: float
    ) -> Played | None:
        """A game without a clock that saw no move for `no_clock_end_hours` ends (once)."""
        assert found.game is not None
        game_id, version = found.match.id, found.game.version

        def apply(tx: Tx) -> None:
            match = tx.match
            if (
                match is None
                or match.id != game_id
                or match.status != "playing"
                or tx.game is None
                or tx.game.version != version
                or match.deadline is None
                or match.deadline > now
            ):
                raise Refusal("not_due")
            match.status, match.ended, match.deadline = "cancelled", "silence", None

        try:
            changed, _ = await self._change(chat_id, thread_id, apply, found)
        except Refusal:
            return None
        assert changed is not None
        event(log, "silence_end", chat=chat_id, game=game_id, v=version)
        metrics.game_abandoned(changed.match.variant, True)
        return Played(changed)

    def _after_moves(self, match: Match, game: Game, now: float) -> None:
        if game.over:
            match.status = "over"
            match.deadline = None
        else:
            self._arm_deadline(match, game, now)

    def _arm_deadline(self, match: Match, game: Game, now: float) -> None:
        turn = game.turn
        if turn is None:
            match.deadline = None
            return
        seat = match.seats[turn]
        if seat.human:
            delay = human_delay(match.turn_seconds, self.settings)
        else:
            delay = self.settings.computer_delay_seconds
        match.deadline = now + delay + self.pace()

    # -- the one way a match changes ----------------------------------------------------

    async def _change(
        self,
        chat_id: int,
        thread_id: int | None,
        apply: Callable[[Tx], T],
        first: Current | None = None,
    ) -> tuple[Current | None, T]:
        """Run `apply` on the stored match until the write commits; the new state and its result.

        `apply` raises to give up without writing (anything it raises passes through);
        it may run more than once, so it must not do I/O. `first`: the state as the
        caller read it, tried first without reading again.
        """
        key = self.store.keys.game(chat_id, thread_id)
        seen = -1  # the due time noted before the first write (see bot.delivery)
        for attempt in range(MAX_ATTEMPTS):
            if attempt == 0 and first is not None and first.raw is not None:
                stored: Stored[Match] = Stored(first.match.model_copy(deep=True), first.raw)
                game = None if first.game is None else first.game.copy()
            else:
                stored, game = await self._read(chat_id, thread_id)
            tx = Tx(stored.value, game)
            result = apply(tx)
            match = tx.match
            record = None
            if match is not None:
                match.rev += 1
                match.engine = None if tx.game is None else pack(tx.game)
                if match.status == "over" and match.engine is not None:
                    record = (self.store.keys.last_record(chat_id, thread_id), match.engine)
            if match is not None and seen < 0:
                # Noted before the write: if we die right after it, a sweeper somewhere
                # brings the chat in line (at the deadline, if that comes sooner).
                soon = self.clock() + RETRY_AFTER_CRASH
                due = min(match.deadline + DEADLINE_SLACK if match.deadline else soon, soon)
                seen = await self.store.note_due(chat_id, thread_id, due)
            also = None if record is None else (record[0], record[1], RECORD_TTL)
            written = await self.store.write(key, stored, match, also=also)
            if written is LOST:
                await backoff(attempt)
                continue
            if match is None:
                return None, result
            if tx.game is not None:
                self.engines.keep(match.id, tx.game)
            current = Current(match, tx.game, written)
            if self.on_change is not None:
                self.on_change(current, seen)
            return current, result
        raise ConflictError(f"gave up changing {key} after {MAX_ATTEMPTS} attempts")

    async def _count_and_rate_if_over(self, current: Current) -> None:
        match, game = current.match, current.game
        if match.status != "over" or game is None or match.practice:
            return  # practice games count toward no table (docs/rules.md, "Practice")
        # A player who gave his seat up with /leave forfeited: no win, whatever the
        # computer made of it, and the win goes to the best of the others (docs/rules.md).
        standings = forfeits.match_view(view_for(game), match).standings
        lines: dict[int, StatLine] = {}
        scored = not game.rules.penalty_scoring
        for seat_index, seat in enumerate(match.seats):
            if seat.user_id is None:
                continue
            won = seat_index in standings.winners
            # Only fives keeps records, and only a margin above zero counts as one.
            record = standings.record if won and (standings.record or 0) > 0 else None
            lines[seat.user_id] = StatLine(
                name=seat.name,
                games=1,
                wins=int(won),
                points=game.totals[seat_index] if scored and not seat.left else 0,
                best_record=record,
            )
        await self.store.add_to_stats(match.chat_id, match.id, lines)
        await ratings.rate_once(self.store, match, game)


def _moved(current: Current, entries: list[MoveEntry], by: str) -> None:
    """The event of a committed move: what bench/load.py and an operator's logs follow."""
    match, game = current.match, current.game
    assert game is not None
    event(
        log,
        "move",
        chat=match.chat_id,
        game=match.id,
        v=game.version,
        seat=entries[-1].seat if entries else None,
        by=by,
        actions=len(entries),
        turn=game.turn,
        over=game.over,
    )
    metrics.game_moved(match.variant, len(entries), game.over)
    if game.over:
        event(log, "finish", chat=match.chat_id, game=match.id, v=game.version, totals=game.totals)


def _the_match(tx: Tx, game_id: str, status: str) -> Match:
    match = tx.match
    if match is None or match.id != game_id:
        raise Refusal("game_gone")
    if match.status != status:
        raise Refusal("game_started" if match.status == "playing" else "game_gone")
    return match


# What a join says when the lobby ended meanwhile, by how it ended.
_ENDING_REFUSALS = {"bot_removed": "bot_removed", "idle": "lobby_closed"}


def _end_if_nobody_plays(match: Match) -> bool:
    """A running game whose last person left ends: computers play for nobody."""
    if match.status != "playing" or any(seat.human for seat in match.seats):
        return False
    match.status, match.ended, match.deadline = "cancelled", "everyone_left", None
    return True


def _open_practice(match: Match, person: Person, lang: str) -> None:
    """A practice lobby: its person, one strong computer, no clock (he may change them)."""
    tr = translator(lang)
    match.lang = lang  # a private chat speaks its person's language
    match.turn_seconds = NO_CLOCK
    match.seats.append(_human(person, lang=lang))
    name = tr("Computer {number}").format(number=1)
    match.seats.append(Seat(name=name, level="strong", lang=lang, computer=True))


def _human(person: Person, lang: str | None = None) -> Seat:
    return Seat(name=person.name, user_id=person.user_id, lang=lang or person.lang)
