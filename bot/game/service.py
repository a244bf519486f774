"""The game service: every change to a chat's game, as one optimistic transaction.

It knows the rules of the lobby and of turns (who may do what), talks to the
store and the engine, and returns plain results. It never talks to Telegram:
handlers and the sync module turn its results into messages.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from bot.game import computer
from bot.i18n import translator
from bot.settings import Settings
from bot.storage.models import ChatGame, Level, Seat, StatLine
from bot.storage.store import Store, Tx
from bot.telegram.callbacks import Callback
from engine import DominoError, Game, Move, MoveEntry, to_record, view_for
from engine.variants import ruleset

log = logging.getLogger(__name__)

T = TypeVar("T")

MAX_SEATS = 4
MIN_SEATS = 2
MISSES_BEFORE_COMPUTER = 3
# Every change is followed by a sync of the chat's messages (and, at the end, by
# counting the game). Noted as due beforehand, so that if this process dies right
# after the commit, a sweeper somewhere does the rest this many seconds later.
RETRY_AFTER_CRASH = 5.0
TURN_CHOICES = (30, 60, 90, 180, 300)
TARGET_CHOICES = {2: (25, 50, 100), 3: (25, 50, 100), 4: (20, 40, 100)}
VARIANT_ORDER = ("fives", "muggins", "twolane")


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


@dataclass
class Played:
    """What an accepted action (or a run of them) did."""

    game: ChatGame
    entries: list[MoveEntry] = field(default_factory=list)
    finished: bool = False


def new_game_id() -> str:
    return secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")[:8]


class GameService:
    def __init__(
        self, store: Store, settings: Settings, clock: Callable[[], float] = time.time
    ) -> None:
        self.store = store
        self.settings = settings
        self.clock = clock

    # -- lobby ----------------------------------------------------------------------

    async def new_game(
        self, chat_id: int, thread_id: int | None, creator: Person, variant: str | None
    ) -> tuple[ChatGame, bool]:
        """A new lobby, or (existing game, False) if one is already running here."""
        prefs = await self.store.user(creator.user_id)

        def apply(tx: Tx) -> bool:
            if tx.game is not None and tx.game.active:
                return False
            game = ChatGame(
                id=new_game_id(),
                chat_id=chat_id,
                thread_id=thread_id,
                variant=variant if variant in VARIANT_ORDER else "fives",  # type: ignore[arg-type]
                creator_id=creator.user_id,
                creator_name=creator.name,
                turn_seconds=self.settings.turn_seconds,
                seed=secrets.randbits(62),
            )
            if prefs.started:  # the bot can write to him: seat him at once
                game.seats.append(_human(creator, lang=prefs.lang or creator.lang))
            tx.game = game
            return True

        game, created = await self._change(chat_id, thread_id, apply)
        assert game is not None
        return game, created

    async def join(
        self, chat_id: int, thread_id: int | None, game_id: str, person: Person
    ) -> tuple[ChatGame, bool]:
        """Seat `person` in the lobby; (game, False) if he already sits there."""
        prefs = await self.store.user(person.user_id)

        def apply(tx: Tx) -> bool:
            game = _the_game(tx, game_id, "lobby")
            if game.seat_of(person.user_id) is not None:
                return False
            if len(game.seats) >= MAX_SEATS:
                raise Refusal("lobby_full")
            game.seats.append(_human(person, lang=prefs.lang or person.lang))
            game.lobby_rev += 1
            return True

        game, joined = await self._change(chat_id, thread_id, apply)
        assert game is not None
        return game, joined

    async def lobby_action(
        self,
        chat_id: int,
        thread_id: int | None,
        button: Callback,
        person: Person,
        is_admin: bool,
    ) -> ChatGame:
        lang = await self.chat_language(chat_id)
        tr = translator(lang)
        now = self.clock()

        def apply(tx: Tx) -> None:
            game = _the_game(tx, button.game_id, "lobby")
            if button.version != game.lobby_rev:
                raise Refusal("stale_button")
            game.lobby_rev += 1
            action = button.arg
            creator = person.user_id == game.creator_id
            if action == "lv":
                seat = game.seat_of(person.user_id)
                if seat is None:
                    raise Refusal("not_in_game")
                del game.seats[seat]
                return
            if action == "cx":
                if not (creator or is_admin):
                    raise Refusal("creator_or_admin_only")
                game.status = "cancelled"
                return
            if not creator:
                raise Refusal("creator_only")
            if action in ("ce", "cs"):
                if len(game.seats) >= MAX_SEATS:
                    raise Refusal("lobby_full")
                number = 1 + sum(1 for s in game.seats if s.user_id is None)
                level: Level = "easy" if action == "ce" else "strong"
                name = tr("Computer {number}").format(number=number)
                game.seats.append(Seat(name=name, level=level, lang=lang, computer=True))
            elif action == "v":
                game.variant = _next(VARIANT_ORDER, game.variant)
                game.target = None
            elif action == "t":
                if game.variant != "fives":
                    raise Refusal("no_target_option")
                players = max(len(game.seats), 2)
                default = ruleset("fives").default_target(players)
                choices = (default, *TARGET_CHOICES[min(players, 4)][1:])
                game.target = _next(choices, game.target or default)
                if game.target == default:
                    game.target = None
            elif action == "tm":
                game.turn_seconds = _next(TURN_CHOICES, game.turn_seconds)
            elif action == "st":
                self._start(game, now)

        game, _ = await self._change(chat_id, thread_id, apply)
        assert game is not None
        await self._after_change(game)
        return game

    def _start(self, game: ChatGame, now: float) -> None:
        if not MIN_SEATS <= len(game.seats) <= MAX_SEATS:
            raise Refusal("need_players")
        if not any(seat.human for seat in game.seats):
            raise Refusal("need_human")
        names = [seat.name for seat in game.seats]
        engine_game = Game.new(game.variant, names, seed=game.seed, target=game.target)
        game.status = "playing"
        game.store_game(engine_game)
        self._arm_deadline(game, engine_game, now)

    async def rematch(
        self, chat_id: int, thread_id: int | None, game_id: str, person: Person
    ) -> ChatGame:
        """A new lobby with the same seats and options as the finished game."""

        def apply(tx: Tx) -> None:
            old = tx.game
            if old is None or old.id != game_id:
                raise Refusal("game_gone")
            if old.active:
                raise Refusal("game_running")
            seats = [
                Seat(
                    name=s.name, user_id=s.user_id, level=s.level, lang=s.lang, computer=s.computer
                )
                if s.user_id is None
                else Seat(name=s.name, user_id=s.user_id, lang=s.lang)
                for s in old.seats
            ]
            tx.game = ChatGame(
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
            )

        game, _ = await self._change(chat_id, thread_id, apply)
        assert game is not None
        return game

    # -- playing --------------------------------------------------------------------

    async def play(self, button: Callback, person: Person, move: Move) -> Played:
        """A human's move from his hand keyboard."""
        now = self.clock()

        def apply(tx: Tx) -> list[MoveEntry]:
            game = _the_game(tx, button.game_id, "playing")
            seat_index = game.seat_of(person.user_id)
            if seat_index is None:
                raise Refusal("not_in_game")
            seat = game.seats[seat_index]
            if seat.computer:
                raise Refusal("seat_is_computer")
            if button.version != game.version:
                raise Refusal("stale_button")
            engine_game = game.game()
            if engine_game.turn != seat_index:
                raise Refusal("not_your_turn")
            try:
                entry = engine_game.push(move, seat=seat_index)
            except DominoError as exc:
                raise Refusal(exc.code, detail=exc.message) from None
            seat.missed = 0
            self._commit_moves(tx, game, engine_game, now)
            return [entry]

        game, entries = await self._change(button.chat_id, button.thread_id, apply)
        assert game is not None
        await self._after_change(game)
        return Played(game, entries, game.status == "over")

    async def leave(self, chat_id: int, thread_id: int | None, person: Person) -> ChatGame:
        """/leave: out of the lobby, or hand a running game's seat to the computer."""
        now = self.clock()
        lang = await self.chat_language(chat_id)
        tr = translator(lang)

        def apply(tx: Tx) -> None:
            game = tx.game
            if game is None or not game.active:
                raise Refusal("no_game")
            seat_index = game.seat_of(person.user_id)
            if seat_index is None:
                raise Refusal("not_in_game")
            if game.status == "lobby":
                del game.seats[seat_index]
                game.lobby_rev += 1
                return
            seat = game.seats[seat_index]
            if seat.computer:
                raise Refusal("seat_is_computer")
            seat.computer = True
            game.notes.append(
                tr("{name} left; the computer plays for them.").format(name=seat.name)
            )
            engine_game = game.game()
            if engine_game.turn == seat_index:
                self._arm_deadline(game, engine_game, now)

        game, _ = await self._change(chat_id, thread_id, apply)
        assert game is not None
        await self._after_change(game)
        return game

    async def request_stop(
        self, chat_id: int, thread_id: int | None, person: Person, is_admin: bool
    ) -> ChatGame:
        def apply(tx: Tx) -> None:
            game = tx.game
            if game is None or not game.active:
                raise Refusal("no_game")
            if person.user_id != game.creator_id and not is_admin:
                raise Refusal("creator_or_admin_only")
            game.stop_requested_by = person.user_id

        game, _ = await self._change(chat_id, thread_id, apply)
        assert game is not None
        return game

    async def confirm_stop(
        self, chat_id: int, thread_id: int | None, button: Callback, person: Person, is_admin: bool
    ) -> ChatGame:
        def apply(tx: Tx) -> None:
            game = tx.game
            if game is None or game.id != button.game_id or not game.active:
                raise Refusal("game_gone")
            if person.user_id != game.creator_id and not is_admin:
                raise Refusal("creator_or_admin_only")
            if button.arg == "n":
                game.stop_requested_by = None
                return
            game.status = "cancelled"
            game.deadline = None

        game, _ = await self._change(chat_id, thread_id, apply)
        assert game is not None
        await self._after_change(game)
        return game

    async def lobby_posted(
        self,
        chat_id: int,
        thread_id: int | None,
        game_id: str,
        message_id: int | None,
        chat_title: str,
    ) -> None:
        """Remember the lobby message just posted, and the group's title for hand captions."""

        def apply(tx: Tx) -> None:
            game = tx.game
            if game is None or game.id != game_id:
                return
            game.chat_title = chat_title
            if message_id is not None:
                game.lobby_message_id = message_id
                game.lobby_shows = game.lobby_rev

        await self._change(chat_id, thread_id, apply)

    async def resend_hand(
        self, chat_id: int, thread_id: int | None, game_id: str, person: Person
    ) -> None:
        """ "My tiles" on the board: the next sync sends the hand afresh, as a new message."""

        def apply(tx: Tx) -> None:
            game = _the_game(tx, game_id, "playing")
            seat_index = game.seat_of(person.user_id)
            if seat_index is None:
                raise Refusal("not_in_game")
            game.seats[seat_index].hand_shows = ""
            game.seats[seat_index].hand_resend = True

        await self._change(chat_id, thread_id, apply)

    async def move_chat(self, old_chat_id: int, new_chat_id: int) -> None:
        """A group became a supergroup: its games and stats follow the new chat id."""
        await self.store.move_chat(old_chat_id, new_chat_id)
        for thread_id in await self.store.game_threads(new_chat_id):

            def apply(tx: Tx) -> None:
                if tx.game is not None:
                    tx.game.chat_id = new_chat_id
                    tx.game.group_busy = ""  # a call to the old id is not coming back
                    for seat in tx.game.seats:  # hand buttons name the chat: send them anew
                        seat.hand_shows = ""

            await self._change(new_chat_id, thread_id, apply)

    async def abandon(self, chat_id: int, thread_id: int | None, game_id: str) -> None:
        """The bot can no longer write to the group: the game ends there, as cancelled."""

        def apply(tx: Tx) -> None:
            game = tx.game
            if game is not None and game.id == game_id and game.active:
                game.status = "cancelled"
                game.deadline = None
                game.lobby_closed = True
                game.board.finished = True
                game.group_busy = ""

        await self._change(chat_id, thread_id, apply)
        await self.store.reschedule(chat_id, thread_id, None)

    async def stop_broken(self, chat_id: int, thread_id: int | None) -> None:
        """End a game whose stored state cannot be read (the only way out of it)."""
        await self.store.drop(chat_id, thread_id)
        await self.store.reschedule(chat_id, thread_id, None)

    # -- deadlines and computer players -------------------------------------------------

    async def run_due(self, chat_id: int, thread_id: int | None) -> Played | None:
        """Play for the seat to act if its deadline has passed (exactly once)."""
        game = await self.store.load(chat_id, thread_id)
        now = self.clock()
        if game is not None and game.status == "over" and game.engine is not None:
            await self._count(game)  # a no-op, unless we died between the last move and it
        if game is None or game.status != "playing" or game.deadline is None:
            return None
        if game.deadline > now:
            return None
        engine_game = game.game()
        seat_index = engine_game.turn
        if seat_index is None:
            return None
        seat = game.seats[seat_index]
        version = game.version
        timed_out = not seat.computer and seat.user_id is not None
        level = "easy" if timed_out else seat.level
        cap = 0.05 if timed_out else 0.4
        moves = await asyncio.to_thread(
            computer.turn_moves, engine_game.copy(), level, game.seed + version, cap
        )
        lang = await self.chat_language(chat_id)
        tr = translator(lang)

        def apply(tx: Tx) -> list[MoveEntry]:
            current = tx.game
            if (
                current is None
                or current.id != game.id
                or current.status != "playing"
                or current.version != version
                or current.deadline is None
                or current.deadline > now
            ):
                raise Refusal("not_due")
            engine_now = current.game()
            entries = [engine_now.push(move, seat=seat_index) for move in moves]
            if timed_out:
                seated = current.seats[seat_index]
                seated.missed += 1
                note = tr("{name} ran out of time; the move was made for them.")
                current.notes.append(note.format(name=seated.name))
                if seated.missed >= MISSES_BEFORE_COMPUTER:
                    seated.computer = True
                    note = tr("{name} missed three turns; the computer plays for them now.")
                    current.notes.append(note.format(name=seated.name))
            self._commit_moves(tx, current, engine_now, now)
            return entries

        try:
            changed, entries = await self._change(chat_id, thread_id, apply)
        except Refusal:
            return None
        assert changed is not None
        await self._after_change(changed)
        return Played(changed, entries, changed.status == "over")

    def _commit_moves(self, tx: Tx, game: ChatGame, engine_game: Game, now: float) -> None:
        """Store the engine's new state; at the match end, the record and the status."""
        game.store_game(engine_game)
        if engine_game.over:
            game.status = "over"
            game.deadline = None
            tx.record = to_record(engine_game)
        else:
            self._arm_deadline(game, engine_game, now)

    def _arm_deadline(self, game: ChatGame, engine_game: Game, now: float) -> None:
        turn = engine_game.turn
        if turn is None:
            game.deadline = None
            return
        seat = game.seats[turn]
        human = seat.user_id is not None and not seat.computer
        delay = game.turn_seconds if human else self.settings.computer_delay_seconds
        game.deadline = now + delay
        game.deadline_version = engine_game.version

    async def _change(
        self, chat_id: int, thread_id: int | None, apply: Callable[[Tx], T]
    ) -> tuple[ChatGame | None, T]:
        """`Store.change`, with the chat noted as due in case we die right after it."""
        await self.store.schedule(chat_id, thread_id, self.clock() + RETRY_AFTER_CRASH)
        return await self.store.change(chat_id, thread_id, apply)

    async def _after_change(self, game: ChatGame) -> None:
        """Keep the due index up to date and count a finished game in the stats."""
        if game.deadline is not None and game.status == "playing":
            await self.store.schedule(game.chat_id, game.thread_id, game.deadline)
        if game.status == "over" and game.engine is not None:
            await self._count(game)

    async def _count(self, game: ChatGame) -> None:
        engine_game = game.game()
        view = view_for(engine_game)
        lines: dict[int, StatLine] = {}
        scored = not engine_game.rules.penalty_scoring
        for seat_index, seat in enumerate(game.seats):
            if seat.user_id is None:
                continue
            won = seat_index in view.standings.winners
            record = view.standings.record if won and game.variant == "fives" else None
            lines[seat.user_id] = StatLine(
                name=seat.name,
                games=1,
                wins=int(won),
                points=engine_game.totals[seat_index] if scored else 0,
                best_record=record,
            )
        await self.store.add_to_stats(game.chat_id, game.id, lines)

    # -- reading -------------------------------------------------------------------------

    async def chat_language(self, chat_id: int) -> str:
        return await self.store.chat_language(chat_id) or self.settings.default_language

    async def find(self, chat_id: int, thread_id: int | None, game_id: str) -> ChatGame:
        game = await self.store.load(chat_id, thread_id)
        if game is None or game.id != game_id:
            raise Refusal("game_gone")
        return game


def _the_game(tx: Tx, game_id: str, status: str) -> ChatGame:
    game = tx.game
    if game is None or game.id != game_id:
        raise Refusal("game_gone")
    if game.status != status:
        raise Refusal("game_started" if game.status == "playing" else "game_gone")
    return game


def _human(person: Person, lang: str | None = None) -> Seat:
    return Seat(name=person.name, user_id=person.user_id, lang=lang or person.lang)


def _next(choices: tuple[Any, ...], current: Any) -> Any:
    if current not in choices:
        return choices[0]
    return choices[(choices.index(current) + 1) % len(choices)]
