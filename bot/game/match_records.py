"""A chat's match as the game service reads and changes it: parsed, set aside when it
cannot be read, and changed only by compare-and-set.

`MatchRecords._change` is the one way a match changes: read it, apply a rule (a pure
function of the match and its game, see bot.game.outcomes), write what the rule
decided if the record still holds what was read, else read and apply it again.
After each committed change the delivery layer is told (`on_change`), and so is
every other listener (the live table's feed); a change that
ends the match is counted and rated first (`count_if_over`), so its final table finds
the ratings. A change that seats or unseats people, or ends the match, is noted in the
index of each person's games (`Store.user_games`).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

from bot import metrics
from bot.game.clock import Moment
from bot.game.outcomes import KEPT, Change, Outcome, Refusal, Unchanged
from bot.game.people import playing
from bot.storage.common import backoff
from bot.storage.engine_cache import EngineCache
from bot.storage.models import Match
from bot.storage.store import Store
from bot.storage.store_errors import BrokenGameError, ConflictError, GameLostError, NewerGameError
from bot.storage.stored import LOST, Stored
from engine import Game, NewerFormatError, StateError, pack

log = logging.getLogger(__name__)

MAX_ATTEMPTS = 25
# A change is noted as due this many seconds ahead before it is committed: if this
# process dies right after the commit, a sweeper somewhere brings the chat's
# messages in line then.
RETRY_AFTER_CRASH = 5.0
# The process that set a deadline plays it on time itself; the due index has it this
# much later, for another process to take over if this one died meanwhile.
DEADLINE_SLACK = 2.0


@dataclass(frozen=True)
class Current:
    """A match as stored, with its engine game parsed (None before the start).

    `raw` is the record exactly as stored: a change that starts from this state can
    write against it without reading it again. Nobody changes `match` or `game` (the
    rules work on copies).
    """

    match: Match
    game: Game | None
    raw: bytes | None = None


# A rule as the compare-and-set loop applies it: the match and game as stored, to what to do.
Rule = Callable[[Match | None, Game | None], Outcome]


ChangeListener = Callable[[Current, int], None]
# Told when a chat's unreadable game was set aside: (chat id, thread id).
LostListener = Callable[[int, int | None], None]


class MatchRecords:
    """Reading and changing the chats' matches (the game service's base)."""

    def __init__(
        self,
        store: Store,
        clock: Callable[[], float] = time.time,
        engines: EngineCache | None = None,
    ) -> None:
        self.store = store
        self.clock = clock
        self.engines = engines or EngineCache()
        # Seconds computer and turn deadlines are pushed back while delivery lags (set
        # by the delivery layer): under load every game slows down evenly, and nobody's
        # clock runs while his hand is still on its way.
        self.pace: Callable[[], float] = lambda: 0.0
        # Told of every committed change (and the due time it was noted with): the
        # delivery layer's `on_change`, then each of `change_listeners` (the live table).
        self.on_change: ChangeListener | None = None
        self.change_listeners: list[ChangeListener] = []
        self.on_lost: LostListener | None = None

    async def count_if_over(self, current: Current) -> None:
        """A finished match counts in its chat's tables (the service's; see `_change`)."""

    def _now(self) -> Moment:
        """The moment of a change made now (bot.game.clock)."""
        return Moment(self.clock(), self.pace())

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
            stored = await self.store.games.read_match(chat_id, thread_id)
            game = None if stored.value is None else self.engine_game(stored.value)
        except (NewerGameError, GameLostError):
            raise
        except BrokenGameError as exc:
            raw = exc.raw
            if raw is None:  # the record read, its game did not: set aside what was read
                raw = (await self.store.games.read_match(chat_id, thread_id)).raw
            if raw is not None and await self.store.games.set_aside(chat_id, thread_id, raw):
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

    def engine_game(self, match: Match) -> Game | None:
        """The engine game of `match` (None before the start); BrokenGameError if unreadable."""
        if match.engine is None:
            return None
        try:
            return self.engines.game(match.id, match.engine)
        except NewerFormatError as exc:
            raise NewerGameError(f"stored game state is a newer release's: {exc}") from None
        except StateError as exc:
            raise BrokenGameError(f"stored game state is unreadable: {exc}") from None

    async def _change(
        self,
        chat_id: int,
        thread_id: int | None,
        rule: Rule,
        first: Current | None = None,
    ) -> tuple[Current | None, Change | None]:
        """Apply `rule` to the stored match and write what it decides, until the write
        commits; the match as it is now (None: no match) and the change committed (None:
        the rule found nothing to do, and nothing was written).

        A refusal the rule returns is raised (nothing written). `rule` may run more than
        once (after a lost write). `first`: the state as the caller read it, tried first
        without reading again.
        """
        record = self.store.games.match_record(chat_id, thread_id)
        seen = -1  # the due time noted before the first write (see bot.delivery)
        for attempt in range(MAX_ATTEMPTS):
            if attempt == 0 and first is not None and first.raw is not None:
                stored: Stored[Match] = Stored(first.match, first.raw)
                game = first.game
            else:
                stored, game = await self._read(chat_id, thread_id)
            outcome = rule(stored.value, game)
            if isinstance(outcome, Refusal):
                raise outcome
            if isinstance(outcome, Unchanged):
                found = stored.value
                return (None if found is None else Current(found, game, stored.raw)), None
            match = outcome.match
            assert match is not stored.value, "a rule changes a copy, never what it was given"
            match.rev += 1
            if outcome.game is not KEPT:
                game = outcome.game
                match.engine = None if game is None else pack(game)
            if seen < 0:
                # Noted before the write: if we die right after it, a sweeper somewhere
                # brings the chat in line (at the deadline, if that comes sooner).
                soon = self.clock() + RETRY_AFTER_CRASH
                due = min(match.deadline + DEADLINE_SLACK if match.deadline else soon, soon)
                seen = await self.store.due.note_due(chat_id, thread_id, due)
            before = stored.value
            moved = before is None or (before.id, before.chat_id) != (match.id, match.chat_id)
            was = playing(before)
            now = playing(match)
            joining = now if moved else now - was
            if joining:  # before the write: if it is lost, the entry is dropped when read
                await self.store.user_games.note(joining, chat_id, thread_id, match.id)
            written = await record.write(stored, match)
            if written is LOST:
                await backoff(attempt)
                continue
            if game is not None and match.engine is not None:
                self.engines.keep(match.id, game, match.engine)
            current = Current(match, game, written)
            ended = stored.value is None or stored.value.status != "over"
            try:
                if match.status == "over" and ended:
                    # Before the delivery hears of it: its final table finds the ratings.
                    await self.count_if_over(current)
            finally:
                if self.on_change is not None:
                    self.on_change(current, seen)
                for listener in self.change_listeners:
                    listener(current, seen)
            leaving = was if moved else was - now
            if before is not None and leaving:
                await self.store.user_games.forget(
                    leaving, before.chat_id, before.thread_id, before.id
                )
            return current, outcome
        raise ConflictError(f"gave up changing {record} after {MAX_ATTEMPTS} attempts")
