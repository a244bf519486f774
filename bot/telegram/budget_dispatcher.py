"""The bot token's call budget, shared by every process through Redis, and the dispatcher
that hands it out in each process by priority.

Telegram allows a bot token about 30 calls a second, and each group 20 a minute,
whatever the kind of call and whichever process makes it. In Redis one short
script counts both windows at once (the token's last second, the group's last
minute) and either counts the call or says how long to wait. A library such as
`limits` keeps one window per call and would spend a call of the token's second on
a call that the group's minute then refuses; nor can it give one class of call a
smaller share of the same window (`bot.telegram.call_priority`).

In each process one dispatcher hands the budget out: answers to a press first,
then, in turns weighted 4:2:1, the players' hands, the group boards, and the
rest; within a class, the call that has waited longest first (so every group
gets its turn however many play), after any the caller sent ahead (a stopped game's
board before the routine ones). A group whose minute is used up (for that
class), or which Telegram told to wait (429), waits alone; only a wait Telegram
names for the whole bot stops everyone. (The weights order the calls of one
process; the processes on one token share its second first come, first served.)
"""

from __future__ import annotations

import asyncio
import bisect
import contextlib
import itertools
import logging
import time
import uuid
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from telegram.error import TelegramError

from bot import background, metrics
from bot.logs import event
from bot.storage.budget_counts import BudgetStore
from bot.telegram.call_priority import (
    GROUP_WINDOW,
    Priority,
    Ticket,
    call_name,
    group_limit,
)

log = logging.getLogger(__name__)


class Superseded(TelegramError):
    """The call was given up before it went: what it would show has changed."""

    def __init__(self) -> None:
        super().__init__("superseded before it was made")


WEIGHTS = {Priority.HAND: 4, Priority.BOARD: 2, Priority.OTHER: 1}
# Of the token's calls a second, the share a process may use. Not all of it: a call let
# go a few milliseconds late can reach Telegram just after one let go later, and both
# then count in Telegram's second. Which class gets the next call is the weighted turns'
# choice; a share per class would let the top class starve the others whenever it has
# enough to send.
TOKEN_SHARE = 0.94
TOKEN_WINDOW = 1.0
SPREAD = 0.9  # of the time a call takes from the token's second: the least gap between two
RESTAMP_AFTER = 0.02  # seconds a call may take before it is counted from its end
PAUSE_ALL_CHATS = 3  # 429s for this many chats within a second: the whole bot waits
BACKLOG_DECAY = 0.2  # weight of the newest wait in the backlog's moving average
REPORT_EVERY = 30.0  # seconds between the budget's lines in the log


@dataclass
class _Waiter:
    chat_id: int | None
    priority: Priority
    since: float
    future: asyncio.Future[None] = field(repr=False)
    queued: float = 0.0  # when it joined the line (`since` may be older: see Ticket)
    name: str = ""  # the call's entry in the windows, once granted
    granted: float = 0.0
    ahead: bool = False  # before the others of its class (see Ticket)


class BudgetDispatcher:
    """Hands out the shared budget in Redis to this process's calls, one at a time."""

    def __init__(
        self,
        per_second: int = 30,
        group_per_minute: int = 20,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.per_second = per_second
        self.group_per_minute = group_per_minute
        self.clock = clock
        self.store: BudgetStore | None = None  # set once Redis is connected (until then: no limit)
        # Each class's waiters, the one waiting longest first.
        self._queues: dict[Priority, list[_Waiter]] = {p: [] for p in Priority}
        self._passes: dict[Priority, float] = {p: 0.0 for p in Priority}
        # Chats whose calls of a class wait for their window (each class, and the calls sent
        # ahead in it, has its own share of it) or for a 429.
        self._chat_ready: dict[tuple[int, Priority, bool], float] = {}
        self._token_ready = 0.0  # while the token's second is full
        self._recent_429: deque[tuple[float, int | None]] = deque()
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._names = itertools.count()
        self._prefix = uuid.uuid4().hex[:8]
        self._backlog = 0.0
        self.granted = 0
        self.waits_for_window = 0
        self._granted_by: dict[Priority, int] = {p: 0 for p in Priority}
        self._reported = 0.0

    async def stop(self) -> None:
        """The dispatcher stops; every call still waiting is cancelled."""
        await background.cancel(self._task)
        self._task = None
        for queue in self._queues.values():
            for waiter in queue:
                if not waiter.future.done():
                    waiter.future.cancel()
            queue.clear()

    # -- the budget -------------------------------------------------------------------

    async def acquire(self, chat_id: int | None, ticket: Ticket) -> _Waiter:
        """Until this process may make one call to `chat_id` (it is then counted).

        Raises `Superseded` if `ticket.abandon` is set first.
        """
        loop = asyncio.get_running_loop()
        priority = ticket.priority
        queue = self._queues[priority]
        if not queue and priority in WEIGHTS:
            # A class that had nothing to do does not get the turns it missed.
            busy = [self._passes[p] for p in WEIGHTS if self._queues[p]]
            if busy:
                self._passes[priority] = max(self._passes[priority], min(busy))
        since = self.clock() if ticket.since is None else ticket.since
        waiter = _Waiter(
            chat_id, priority, since, loop.create_future(), self.clock(), ahead=ticket.ahead
        )
        bisect.insort(queue, waiter, key=_place)
        self._ensure_dispatcher()
        self._wake.set()
        abandoned: asyncio.Task[bool] | None = None
        if ticket.abandon is not None:
            abandoned = loop.create_task(ticket.abandon.wait())
        try:
            if abandoned is None:
                await waiter.future
            else:
                await asyncio.wait((waiter.future, abandoned), return_when=asyncio.FIRST_COMPLETED)
                if not waiter.future.done():
                    waiter.future.cancel()
                    self._drop(waiter)
                    raise Superseded()
        except asyncio.CancelledError:
            if not waiter.future.done():
                waiter.future.cancel()
            self._drop(waiter)
            raise
        finally:
            if abandoned is not None:
                abandoned.cancel()
        return waiter

    def _drop(self, waiter: _Waiter) -> None:
        with contextlib.suppress(ValueError):
            self._queues[waiter.priority].remove(waiter)

    async def _restamp(self, chat_id: int | None, grant: _Waiter) -> None:
        """A call is counted from when it was let go; one that took a while to reach
        Telegram is counted from when it came back instead, so that it stays in the
        windows as long as Telegram counts it."""
        if self.store is None or not grant.name:
            return
        now = self.clock()
        if now - grant.granted < RESTAMP_AFTER:
            return
        group = chat_id is not None and chat_id < 0
        with contextlib.suppress(Exception):  # a lost restamp only makes the window shorter
            await self.store.restamp_budget(chat_id if group else None, grant.name, now)

    async def told_to_wait(self, chat_id: int | None, seconds: float) -> None:
        """Telegram answered 429: that chat waits (the whole bot, if many chats got one)."""
        if self.store is None:
            return
        now = self.clock()
        self._recent_429.append((now, chat_id))
        while self._recent_429 and now - self._recent_429[0][0] > 1.0:
            self._recent_429.popleft()
        chats = {chat for _, chat in self._recent_429}
        everyone = chat_id is None or len(chats) >= PAUSE_ALL_CHATS
        log.warning(
            "flood control: %s waits %.1f s", "the bot" if everyone else f"chat {chat_id}", seconds
        )
        await self.store.pause_budget(None if everyone else chat_id, seconds)
        if chat_id is not None:
            for priority in Priority:
                for ahead in (False, True):
                    self._chat_ready[(chat_id, priority, ahead)] = now + seconds

    def backlog(self) -> float:
        """Seconds a hand has lately waited for the budget (0 while it is not used up)."""
        return self._backlog if self._backlog > 0.05 else 0.0

    def queued(self) -> int:
        return sum(len(q) for q in self._queues.values())

    # -- the dispatcher -----------------------------------------------------------------

    def _ensure_dispatcher(self) -> None:
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(
                self._dispatch(), name="domino-call-budget"
            )

    def _report(self) -> None:
        """Every so often, one line of how the budget is spent (while it is)."""
        now = self.clock()
        if now - self._reported < REPORT_EVERY:
            return
        self._reported = now
        event(
            log,
            "budget",
            granted={p.name.lower(): n for p, n in self._granted_by.items()},
            queued={p.name.lower(): len(q) for p, q in self._queues.items()},
            backlog=round(self._backlog, 2),
        )

    async def _dispatch(self) -> None:
        while True:
            self._report()
            waiter = self._next()
            if waiter is None:
                self._wake.clear()
                await self._sleep_until_ready()
                continue
            try:
                await self._grant(waiter)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # Redis failing: let the call go rather than hang it
                log.warning("call budget unavailable (%r): the call goes unmetered", exc)
                self._release(waiter)
                await asyncio.sleep(0.1)

    async def _grant(self, waiter: _Waiter) -> None:
        """Count `waiter`'s call and let it go, or put it back to wait for what it needs."""
        assert self.store is not None
        if waiter.future.done():
            return
        now = self.clock()
        group = waiter.chat_id is not None and waiter.chat_id < 0
        limit = max(1, int(self.per_second * TOKEN_SHARE))
        chat_limit = (
            group_limit(waiter.priority, self.group_per_minute, waiter.ahead) if group else 0
        )
        name = call_name(self._prefix, next(self._names), waiter.priority)
        wait_ms, why = await self.store.take_budget(
            waiter.chat_id, now, limit, TOKEN_WINDOW, chat_limit, GROUP_WINDOW, name
        )
        if wait_ms == 0:
            waiter.name, waiter.granted = name, now
            self._release(waiter)
            # Spread out: calls let go in a bunch can reach Telegram in another order, and
            # a bunch that leaves the window together would come back as another bunch.
            self._token_ready = max(self._token_ready, now + SPREAD * TOKEN_WINDOW / limit)
            return
        if waiter.future.done():
            return  # given up meanwhile
        ready = now + wait_ms / 1000
        bisect.insort(self._queues[waiter.priority], waiter, key=_place)  # its place kept
        if why == 2 and waiter.chat_id is not None:
            self.waits_for_window += 1
            self._chat_ready[_share(waiter)] = ready  # only this chat waits
        else:
            # The token's second is full (or Telegram asked the whole bot to wait): every
            # call waits; the turns then pick who goes first.
            self._token_ready = ready

    def _release(self, waiter: _Waiter) -> None:
        if waiter.future.done():
            return
        waited = self.clock() - waiter.queued
        metrics.RATE_LIMIT_WAIT.observe(max(0.0, waited))
        if waiter.priority is Priority.HAND:
            self._backlog += BACKLOG_DECAY * (waited - self._backlog)
        self.granted += 1
        self._granted_by[waiter.priority] += 1
        waiter.future.set_result(None)

    def _next(self) -> _Waiter | None:
        """The next call to serve: answers first, then the weighted turns of the others."""
        now = self.clock()
        if self._token_ready > now:
            return None
        waiter = self._first_ready(Priority.ANSWER, now)
        if waiter is not None:
            return waiter
        for priority in sorted(WEIGHTS, key=lambda p: (self._passes[p], p)):
            waiter = self._first_ready(priority, now)
            if waiter is not None:
                self._passes[priority] += 1 / WEIGHTS[priority]
                return waiter
        return None

    def _first_ready(self, priority: Priority, now: float) -> _Waiter | None:
        queue = self._queues[priority]
        while queue and queue[0].future.done():
            queue.pop(0)  # given up
        for index, waiter in enumerate(queue):
            if waiter.future.done():
                continue
            key = _share(waiter)
            ready = self._chat_ready.get(key)
            if ready is not None and ready > now:
                continue
            del queue[index]
            if ready is not None:
                del self._chat_ready[key]
            return waiter
        return None

    async def _sleep_until_ready(self) -> None:
        """Until a new call is queued, or the first waiting chat or class may go on."""
        now = self.clock()
        readies = [
            max(self._chat_ready.get(_share(w), now), self._token_ready)
            for queue in self._queues.values()
            for w in queue
            if not w.future.done()
        ]
        timeout = max(0.005, min(readies) - now) if readies else None
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._wake.wait(), timeout)


def _share(waiter: _Waiter) -> tuple[int, Priority, bool]:
    """Which share of its chat's minute a waiter's call takes (see `group_limit`)."""
    return waiter.chat_id or 0, waiter.priority, waiter.ahead


def _place(waiter: _Waiter) -> tuple[bool, float]:
    """A waiter's place in its class's line: those sent ahead first, then the one waiting
    longest."""
    return not waiter.ahead, waiter.since
