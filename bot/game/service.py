"""The game service: every change to a chat's match, as one compare-and-set on its record.

The rules are pure functions elsewhere (`lobby`, `turns`, `chats`, `scores`): given
the match as stored they decide a change, nothing to do, or a refusal. This façade
reads the match, applies a rule, writes what it decided if nobody wrote in between
(else reads and applies it again), and raises a refusal for the handlers. Around
that it asks the store what a rule needs, lets the computer think (outside the
loop), counts finished matches and logs events. It never talks to Telegram: after
each change it tells the delivery layer (`on_change`), which brings the chat's
messages in line.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from bot import metrics
from bot.game import chats, computer, events, hand_rule, hints, lobby, play_rules
from bot.game.clock import Moment
from bot.game.hand_actions import (
    AnyHandAction,
    Choice,
    DoublesChoice,
    EndChoice,
    HandResult,
    HintWords,
    TileChoice,
    action_for,
)
from bot.game.hand_rule import HintWanted
from bot.game.match_records import Current, MatchRecords
from bot.game.options import LobbyAction
from bot.game.outcomes import UNCHANGED, Change, Outcome, Refusal
from bot.game.people import Person
from bot.game.tally import Tally
from bot.logs import event
from bot.render import end_names
from bot.settings import Settings
from bot.storage.engine_cache import EngineCache
from bot.storage.models import Match
from bot.storage.store import Store
from bot.storage.store_errors import BrokenGameError, GameLostError
from engine import Game, Move, MoveEntry

log = logging.getLogger(__name__)

HINT_SECONDS = 0.4  # the strong computer's thinking time for a hint: the answer is prompt


@dataclass
class Played:
    """What an accepted action (or a run of them) did."""

    current: Current
    entries: list[MoveEntry] = field(default_factory=list)

    @property
    def finished(self) -> bool:
        return self.current.match.status == "over"


def new_game_id() -> str:
    return secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")[:8]


class GameService(MatchRecords):
    """Every use of a chat's match: a rule applied by compare-and-set (see the module)."""

    def __init__(
        self,
        store: Store,
        settings: Settings,
        clock: Callable[[], float] = time.time,
        engines: EngineCache | None = None,
    ) -> None:
        super().__init__(store, clock, engines)
        self.settings = settings
        self.tally = Tally(store.scores)

    async def chat_language(self, chat_id: int) -> str:
        return await self.store.prefs.chat_language(chat_id) or self.settings.default_language

    async def _speaking(self, person: Person) -> tuple[Person, bool]:
        """`person` in the language he chose in private (else his Telegram one), and
        whether the bot can write to him (he opened its private chat)."""
        prefs = await self.store.prefs.user(person.user_id)
        return dataclasses.replace(person, lang=prefs.lang or person.lang), prefs.started

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
        creator, reachable = await self._speaking(creator)
        ask = lobby.NewLobby(
            chat_id=chat_id,
            thread_id=thread_id,
            creator=creator,
            reachable=reachable,
            variant=variant,
            title=title,
            topic=topic,
            lang=await self.chat_language(chat_id),
            game_id=game_id or new_game_id(),
            seed=secrets.randbits(62),
        )
        now = self._now()

        def rule(match: Match | None, game: Game | None) -> Outcome:
            return lobby.open_lobby(match, ask, now, self.settings)

        try:
            current, change = await self._change(chat_id, thread_id, rule)
        except GameLostError:  # set aside just now: the chat is free for a new game
            current, change = await self._change(chat_id, thread_id, rule)
        assert current is not None
        if change is not None:  # the live table finds the lobby by its id
            await self.store.tables.note_game(current.match.id, chat_id, thread_id)
        return current, change is not None

    async def close_idle_lobby(self, chat_id: int, thread_id: int | None, game_id: str) -> bool:
        """Close the lobby if nobody touched it for `lobby_idle_seconds` (True if closed)."""
        now = self._now()

        _, change = await self._change(
            chat_id, thread_id, lambda m, _: lobby.close_idle(m, game_id, now)
        )
        if change is None:
            return False
        event(log, "lobby_closed", chat=chat_id, game=game_id)
        return True

    async def join(
        self, chat_id: int, thread_id: int | None, game_id: str, person: Person
    ) -> tuple[Current, bool]:
        """Seat `person` in the lobby; (current, False) if he already sits there."""
        person, _ = await self._speaking(person)
        now = self._now()

        current, change = await self._change(
            chat_id, thread_id, lambda m, _: lobby.join(m, game_id, person, now, self.settings)
        )
        assert current is not None
        return current, change is not None

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
        """A lobby button (see `lobby.press`)."""
        ask = lobby.LobbyPress(game_id, action, value, person, is_admin)
        now = self._now()

        current, change = await self._change(
            chat_id, thread_id, lambda m, _: lobby.press(m, ask, now, self.settings)
        )
        assert current is not None
        if action is LobbyAction.START and change is not None:
            events.started(current)
        return current

    async def rematch(
        self, chat_id: int, thread_id: int | None, game_id: str, person: Person
    ) -> Current:
        """A new lobby with the same seats and options as the finished game (`lobby.rematch`)."""
        ask = lobby.Rematch(game_id, person, new_game_id(), secrets.randbits(62))
        now = self._now()

        current, change = await self._change(
            chat_id, thread_id, lambda m, _: lobby.rematch(m, ask, now, self.settings)
        )
        assert current is not None
        if change is not None:  # the live table finds the new lobby by its id
            tables = self.store.tables
            await tables.note_game(current.match.id, chat_id, thread_id)
            # A seat the finished game's table held stays the table's: its person may
            # never have opened the private chat, and plays the rematch at the table too.
            for seat in current.match.seats:
                user_id = seat.user_id
                if user_id is not None and await tables.seated(
                    chat_id, thread_id, game_id, user_id
                ):
                    await tables.note_seated(chat_id, thread_id, current.match.id, user_id)
        return current

    # -- playing --------------------------------------------------------------------

    async def hand_action(
        self,
        chat_id: int,
        thread_id: int | None,
        action: AnyHandAction,
        words: HintWords | None = None,
    ) -> HandResult:
        """A player's action on his hand (bot.game.hand_actions), as the hand rule decides
        it: a move made by compare-and-set, a choice he still has to make, or a practice
        game's hint (`words`: how the caller words it). Raises the rule's refusal.

        Every front-end calls this, with the same actions, refusals and choices.
        """
        now = self._now()
        answer: Change | Choice | HintWanted | Refusal | None = None
        before: Game | None = None

        def rule(match: Match | None, game: Game | None) -> Outcome:
            nonlocal answer, before
            answer, before = hand_rule.act(match, game, action, now, self.settings), game
            return answer if isinstance(answer, Change | Refusal) else UNCHANGED

        current, change = await self._change(chat_id, thread_id, rule)
        assert current is not None and before is not None
        seat = current.match.seat_of(action.user_id)
        assert seat is not None
        if change is not None:
            events.moved(current, list(change.entries), "human")
            return HandResult(current, seat, before, entries=change.entries)
        if isinstance(answer, HintWanted):
            if words is None:
                raise ValueError("a hint needs the words its caller shows it in")
            return HandResult(current, seat, before, hint=await self._hint(current, seat, words))
        assert isinstance(answer, EndChoice | DoublesChoice | TileChoice)
        return HandResult(current, seat, before, choice=answer)

    async def _hint(self, current: Current, seat: int, words: HintWords) -> str:
        """What the strong computer would play now for `seat`, and why: worked out once a
        game version (asking again costs nothing, and the final table counts it once)."""
        match, game = current.match, current.game
        assert game is not None
        where = (match.chat_id, match.thread_id, match.id, game.version)
        line = await self.store.hints.shown_hint(*where)
        if line is None:
            hint = await asyncio.to_thread(
                hints.hint_for, game.copy(), seat, match.seed + game.version, HINT_SECONDS
            )
            # The ends as the seat's buttons name them.
            names = end_names(game.round.table, game.variant)
            line = await self.store.hints.note_hint(
                *where, words(hint, names, match.seats[seat].lang)
            )
        return line

    async def play(
        self,
        chat_id: int,
        thread_id: int | None,
        game_id: str,
        version: int,
        person: Person,
        move: Move,
    ) -> Played:
        """A person's engine move made for game `version`, for callers that think in moves
        (tools, tests): `hand_action` with the action that makes it."""
        action = action_for(game_id, version, person.user_id, move)
        result = await self.hand_action(chat_id, thread_id, action)
        if result.choice is not None:  # a play that fits two ends names one
            raise Refusal("ambiguous_end")
        return Played(result.current, list(result.entries))

    async def leave(self, chat_id: int, thread_id: int | None, person: Person) -> Current:
        """/leave: out of the lobby, or hand a running game's seat to the computer."""
        now = self._now()

        current, _ = await self._change(
            chat_id, thread_id, lambda m, g: play_rules.leave(m, g, person, now, self.settings)
        )
        assert current is not None
        if current.match.ended == "everyone_left":
            metrics.game_abandoned(current.match.variant, True)
        return current

    async def may_stop(
        self, chat_id: int, thread_id: int | None, person: Person, is_admin: bool
    ) -> Current:
        """/stop asks first: may this person end the running game?"""
        current = await self.current(chat_id, thread_id)
        refusal = play_rules.may_stop(None if current is None else current.match, person, is_admin)
        if refusal is not None:
            raise refusal
        assert current is not None
        return current

    async def stop(
        self, chat_id: int, thread_id: int | None, game_id: str, person: Person, is_admin: bool
    ) -> Current:
        """The /stop confirmation: the game ends for everyone, as cancelled."""

        current, _ = await self._change(
            chat_id, thread_id, lambda m, _: play_rules.stop(m, game_id, person, is_admin)
        )
        assert current is not None
        metrics.game_abandoned(current.match.variant, current.match.engine is not None)
        return current

    async def note_hand_request(
        self, chat_id: int, thread_id: int | None, game_id: str, person: Person
    ) -> None:
        """«My tiles» on the board: the request is noted; the delivery answers it with the
        hand as a new message."""

        await self._change(
            chat_id, thread_id, lambda m, _: play_rules.note_hand_request(m, game_id, person)
        )

    # -- what the delivery layer reports ----------------------------------------------

    async def player_blocked(
        self, chat_id: int, thread_id: int | None, game_id: str, seat_index: int
    ) -> None:
        """A player's private chat refuses the bot. The bot takes him for one it may not
        write to until he opens that chat again (a `/start` in private): his next /newgame
        does not seat him at once. The computer plays his seat, unless he took it (or sat
        at it) on the live table, where he plays without the private chat (docs/table.md,
        "Seats taken at the table")."""
        match = await self.store.games.load(chat_id, thread_id)
        seat = match.seats[seat_index] if match is not None and match.id == game_id else None
        user_id = None if seat is None else seat.user_id
        if user_id is None:
            return
        await self.store.prefs.mark_unreachable(user_id)
        if await self.store.tables.seated(chat_id, thread_id, game_id, user_id):
            return
        now = self._now()

        await self._change(
            chat_id,
            thread_id,
            lambda m, g: play_rules.seat_blocked(m, g, game_id, seat_index, now, self.settings),
        )

    async def abandon(
        self, chat_id: int, thread_id: int | None, game_id: str | None = None
    ) -> Current | None:
        """The bot can no longer write to the group: the game ends there, as cancelled.

        `game_id` None: whatever game is under way there. The abandoned match, if any.
        """

        current, change = await self._change(
            chat_id, thread_id, lambda m, _: chats.abandon(m, game_id)
        )
        if current is None or change is None:
            return None
        metrics.game_abandoned(current.match.variant, current.match.engine is not None)
        return current

    async def bot_removed(self, chat_id: int) -> list[Current]:
        """The bot was removed from the group (or may not write there): every game of it
        ends at once; the matches abandoned."""
        abandoned = []
        for thread_id in await self.store.games.game_threads(chat_id):
            with contextlib.suppress(BrokenGameError):
                current = await self.abandon(chat_id, thread_id)
                if current is not None:
                    abandoned.append(current)
        return abandoned

    async def name_topic(self, chat_id: int, thread_id: int, name: str) -> None:
        """A forum topic was created or renamed: its game's private messages name it (and
        those of games opened there later)."""
        await self.store.prefs.set_topic_name(chat_id, thread_id, name)

        with contextlib.suppress(BrokenGameError):
            await self._change(chat_id, thread_id, lambda m, _: chats.name_topic(m, name))

    async def topic_name(self, chat_id: int, thread_id: int) -> str | None:
        """A forum topic's name, as its last forum_topic_created / _edited said."""
        return await self.store.prefs.topic_name(chat_id, thread_id)

    async def last_record(self, chat_id: int, thread_id: int | None) -> str | None:
        """The last finished game there (engine.pack() text), for /export."""
        return await self.store.games.last_record(chat_id, thread_id)

    async def shown_at(self, match: Match) -> int | None:
        """The message showing `match` in its chat (its board, else its lobby), if any."""
        group, _ = await self.store.games.read_delivery(match.chat_id, match.thread_id, 0)
        shown = group.value
        if shown is None or shown.game_id != match.id:
            return None
        return shown.board.message_id or shown.lobby_message_id

    async def move_chat(self, old_chat_id: int, new_chat_id: int) -> list[int | None]:
        """A group became a supergroup: its games and stats follow the new chat id.

        Returns the topics whose games moved (their messages are then brought in line).
        """
        await self.store.migration.move_chat(old_chat_id, new_chat_id)
        threads = await self.store.games.game_threads(new_chat_id)

        for thread_id in threads:
            moved, _ = await self._change(
                new_chat_id, thread_id, lambda m, _: chats.move_to(m, new_chat_id)
            )
            if moved is not None:  # the live table finds it under the new id
                await self.store.tables.note_game(moved.match.id, new_chat_id, thread_id)
        return threads

    async def set_language(self, chat_id: int, lang: str) -> None:
        """/lang in a group: its games speak `lang` from now on, the running ones too."""
        await self.store.prefs.set_chat_language(chat_id, lang)

        for thread_id in await self.store.games.game_threads(chat_id):
            with contextlib.suppress(BrokenGameError):
                await self._change(chat_id, thread_id, lambda m, _: chats.speak(m, lang))

    async def stop_broken(self, chat_id: int, thread_id: int | None) -> None:
        """End a game whose stored state cannot be read (the only way out of it)."""
        await self.store.games.drop(chat_id, thread_id)
        await self.store.due.settle_due(chat_id, thread_id, None, None)

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
        now = self._now()
        if found is None:
            return None
        if found.match.status == "over":
            # A no-op, unless a process died between the end and its counting.
            await self.count_if_over(found)
            return None
        turn = play_rules.due(found.match, found.game, now)
        if turn is None:
            return None
        if turn.by == "silence":
            return await self._end_for_silence(chat_id, thread_id, found, turn, now)
        assert found.game is not None
        moves = await asyncio.to_thread(
            computer.turn_moves,
            found.game.copy(),
            turn.level,
            found.match.seed + turn.version,
            turn.thinking,
        )

        changed, change = await self._change(
            chat_id,
            thread_id,
            lambda m, g: play_rules.play_due(m, g, turn, moves, now, self.settings),
            found,
        )
        if change is None:
            return None
        assert changed is not None
        entries = list(change.entries)
        events.moved(changed, entries, turn.by)
        return Played(changed, entries)

    async def _end_for_silence(
        self,
        chat_id: int,
        thread_id: int | None,
        found: Current,
        turn: play_rules.DueTurn,
        now: Moment,
    ) -> Played | None:
        changed, change = await self._change(
            chat_id, thread_id, lambda m, g: play_rules.end_for_silence(m, g, turn, now), found
        )
        if change is None:
            return None
        assert changed is not None
        event(log, "silence_end", chat=chat_id, game=turn.game_id, v=turn.version)
        metrics.game_abandoned(changed.match.variant, True)
        return Played(changed)

    # -- a finished match's tables ------------------------------------------------------

    async def count_if_over(self, current: Current) -> None:
        """A finished match counts in its chat's stats and ratings (once, whoever calls)."""
        await self.tally.count(current)
