"""When each chat's messages are brought in line: at once after a change, and by the sweep.

Work on a chat is split into targets that go on independently: the turn (a
deadline to play for), the group's messages, and each player's private chat. A
board waiting for its group's minute or a 429 never holds up a hand. A change
made here kicks its chat at once; the due index in Redis covers the rest (a
deadline, a call the pace held back, a call to retry, a change whose process
died): every process sweeps it, and a taken game carries a short lease, so each
is worked on by one process at a time, and by another if that one dies.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from redis.exceptions import RedisError
from telegram import Bot

from bot.delivery.group import GroupConverger
from bot.delivery.hands import HandConverger
from bot.delivery.liveness import Liveness
from bot.game.service import Current, GameService
from bot.settings import Settings
from bot.storage.store import BrokenGameError, Store

log = logging.getLogger(__name__)

LEASE = 10.0  # seconds a taken game waits for its taker before another process takes it
SWEEP_BATCH = 200  # games taken from the due index at once
RETRY_STORAGE = 5.0  # seconds before trying again when Redis failed
RETRY_ERROR = 10.0  # seconds before trying again after an unexpected error
STOP_WAIT = 5.0  # seconds a stop waits for the work under way

Chat = tuple[int, int | None]


@dataclass
class _ChatWork:
    """A chat being worked on in this process: its targets and what each needs next."""

    seen: int | None = None  # the due time to settle against (ms), if known
    current: Current | None = None  # the match as last stored by a change made here
    tasks: dict[str, asyncio.Task[None]] = field(default_factory=dict)
    dirty: set[str] = field(default_factory=set)
    next: dict[str, float | None] = field(default_factory=dict)


class Delivery:
    """Brings Telegram in line with every stored match this process hears of."""

    def __init__(
        self,
        bot: Bot,
        service: GameService,
        settings: Settings,
        liveness: Liveness,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.service = service
        self.store: Store = service.store
        self.settings = settings
        self.liveness = liveness
        self.group = GroupConverger(bot, service, settings, liveness, clock)
        self.hands = HandConverger(bot, service, liveness, clock)
        self._clock = clock
        self._work: dict[Chat, _ChatWork] = {}
        self._sweeper: asyncio.Task[None] | None = None
        self._stopping = False
        self._quiet = asyncio.Event()
        self._quiet.set()
        service.on_change = self._changed
        self.group.on_moved = self._moved

    @property
    def clock(self) -> Callable[[], float]:
        return self._clock

    @clock.setter
    def clock(self, clock: Callable[[], float]) -> None:
        """Tests share one clock between the service and delivery."""
        self._clock = self.group.clock = self.hands.clock = clock

    # -- kicking ----------------------------------------------------------------------

    def kick(
        self, chat_id: int, thread_id: int | None, seen: int = -1, current: Current | None = None
    ) -> None:
        """Work on this chat now (`current`: its match as just stored, if the caller has it)."""
        if self._stopping:
            return
        chat = (chat_id, thread_id)
        work = self._work_on(chat)
        if seen >= 0:
            work.seen = seen
        if current is None:
            self._start(chat, work, "load", lambda: self._load(chat))
            return
        work.current = current  # the turn target goes on from the latest one
        self._start(chat, work, "turn", lambda: self._turn(chat, work))
        self._start(chat, work, "group", lambda: self.group.run(chat_id, thread_id))
        for index, seat in enumerate(current.match.seats):
            if seat.user_id is not None:
                self._start(chat, work, f"hand:{index}", self._hand(chat, index))

    async def stray_hand(
        self, chat_id: int, thread_id: int | None, seat: int, game_id: str, message_id: int
    ) -> None:
        """An old hand message was pressed: if it still has buttons, they go."""
        if await self.hands.stray(chat_id, thread_id, seat, game_id, message_id):
            chat = (chat_id, thread_id)
            self._start(chat, self._work_on(chat), f"hand:{seat}", self._hand(chat, seat))

    def _work_on(self, chat: Chat) -> _ChatWork:
        work = self._work.get(chat)
        if work is None:
            work = self._work[chat] = _ChatWork()
            self._quiet.clear()
        return work

    def _hand(self, chat: Chat, seat: int) -> Callable[[], Awaitable[float | None]]:
        return lambda: self.hands.run(chat[0], chat[1], seat)

    def _changed(self, current: Current, seen: int) -> None:
        self.kick(current.match.chat_id, current.match.thread_id, seen, current)

    def _moved(self, chat_id: int, threads: list[int | None]) -> None:
        for thread_id in threads:
            self.kick(chat_id, thread_id)

    def _start(
        self,
        chat: Chat,
        work: _ChatWork,
        name: str,
        step: Callable[[], Awaitable[float | None]],
    ) -> None:
        if name in work.tasks:
            work.dirty.add(name)  # running: it goes round once more when done
            return
        work.tasks[name] = asyncio.get_running_loop().create_task(
            self._run(chat, work, name, step), name=f"delivery {chat[0]} {name}"
        )

    async def _run(
        self,
        chat: Chat,
        work: _ChatWork,
        name: str,
        step: Callable[[], Awaitable[float | None]],
    ) -> None:
        try:
            while not self._stopping:
                work.dirty.discard(name)
                work.next[name] = await self._guarded(chat, name, step)
                if name not in work.dirty:
                    break
        finally:
            del work.tasks[name]
            if not work.tasks and self._work.get(chat) is work:
                del self._work[chat]
                if not self._work:
                    self._quiet.set()
                if not self._stopping:
                    await self._settle(chat, work)

    async def _guarded(
        self, chat: Chat, name: str, step: Callable[[], Awaitable[float | None]]
    ) -> float | None:
        try:
            return await step()
        except BrokenGameError as exc:
            log.warning("chat %s: stored game unreadable (%s); it waits for /stop", chat[0], exc)
            return None
        except RedisError as exc:
            log.warning("chat %s %s: storage unavailable (%s)", chat[0], name, exc)
            return self.clock() + RETRY_STORAGE
        except Exception:
            log.exception("chat %s %s: delivery failed", chat[0], name)
            return self.clock() + RETRY_ERROR

    async def _settle(self, chat: Chat, work: _ChatWork) -> None:
        times = [t for t in work.next.values() if t is not None]
        try:
            await self.store.settle_due(chat[0], chat[1], work.seen, min(times) if times else None)
        except RedisError as exc:  # the lease (or the note) brings the chat back later
            log.warning("chat %s: could not note what is due next (%s)", chat[0], exc)

    # -- the targets ----------------------------------------------------------------------

    async def _load(self, chat: Chat) -> float | None:
        current = await self.service.current(*chat)
        if current is None:
            return None
        self.kick(chat[0], chat[1], current=current)
        return None

    async def _turn(self, chat: Chat, work: _ChatWork) -> float | None:
        """Play for the seat to act once its deadline has passed; the deadline otherwise."""
        current = work.current
        assert current is not None
        match = current.match
        if match.status == "over":
            await self.service.run_due(*chat, found=current)  # counts it, if nobody did
            return None
        if match.status != "playing" or match.deadline is None:
            return None
        if match.deadline > self.clock():
            return match.deadline
        played = await self.service.run_due(*chat, found=current)
        if played is None:  # someone else played it: that change kicked us again
            return None
        return played.current.match.deadline

    # -- the sweep ---------------------------------------------------------------------------

    def start(self) -> None:
        self._stopping = False
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep(), name="domino-sweeper")

    async def stop(self) -> None:
        # The flag as well as the cancel: redis-py can swallow a cancellation that lands
        # in the middle of a command, and the loop would then run (and stop() wait) forever.
        self._stopping = True
        tasks = [t for w in self._work.values() for t in w.tasks.values()]
        if self._sweeper is not None:
            tasks.append(self._sweeper)
        for task in tasks:
            task.cancel()
        if tasks:
            # A task whose cancellation redis-py swallowed ends at its next step; none is
            # waited for longer than this.
            await asyncio.wait(tasks, timeout=STOP_WAIT)
        self._sweeper = None
        self._work.clear()
        self._quiet.set()

    async def idle(self, timeout: float = 10.0) -> None:
        """Until this process has no work under way (for tests)."""
        await asyncio.wait_for(self._quiet.wait(), timeout)

    async def sweep_once(self) -> float | None:
        """Take the games that are due now and start on them; the earliest due time left."""
        due = await self.store.take_due(self.clock(), LEASE, SWEEP_BATCH)
        for chat_id, thread_id in due.games:
            self.kick(chat_id, thread_id, seen=due.lease)
        return None if due.earliest is None else due.earliest / 1000

    async def _sweep(self) -> None:
        interval = self.settings.sweep_interval_seconds
        while not self._stopping:
            pause = interval
            try:
                earliest = await self.sweep_once()
                if earliest is not None:
                    # Wake for the next due time if it comes sooner (other processes' notes
                    # are found within `interval`).
                    pause = min(interval, max(0.01, earliest - self.clock()))
            except RedisError as exc:
                log.warning("sweep: storage unavailable (%s)", exc)
            except Exception:
                log.exception("sweep failed")
            await asyncio.sleep(pause)
