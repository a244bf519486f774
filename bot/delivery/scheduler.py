"""When each chat's messages are brought in line: at once after a change, on time after that.

Work on a chat is split into targets that go on independently: the turn (a deadline
to play for), the group's messages, and each player's private chat. A board waiting
for its group's minute or a 429 never holds up a hand.

A change made in this process kicks its chat at once, and what its targets need
later (a deadline, a call the pace held back, a call to retry) is timed here, to
the moment. The due index in Redis holds the same times a little later
(`SLACK`): it is the safety net. Every process sweeps it, and a game it takes
carries a short lease, so when a process dies its chats are taken over within
seconds, and when two find the same work, one of them does it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from redis.exceptions import RedisError

from bot import metrics
from bot.delivery.at_table import AtTable
from bot.delivery.group.converger import GroupConverger
from bot.delivery.hand.converger import HandConverger
from bot.delivery.hand.plan import hand_want
from bot.delivery.liveness import Liveness
from bot.delivery.lost_notice import tell_lost
from bot.delivery.turns import TurnTarget
from bot.game.match_records import DEADLINE_SLACK, Current
from bot.game.service import GameService
from bot.settings import Settings
from bot.storage.due import DueIndex
from bot.storage.store_errors import BrokenGameError, NewerGameError
from bot.telegram import api

log = logging.getLogger(__name__)

LEASE = 10.0  # seconds a taken game waits for its taker before another process takes it
SLACK = DEADLINE_SLACK  # the due index has each time this much later than our own timer
HORIZON = 600.0  # times further off are left to the sweep
SWEEP_BATCH = 200  # games taken from the due index at once
RETRY_STORAGE = 5.0  # seconds before trying again when Redis failed
RETRY_ERROR = 10.0  # seconds before trying again after an unexpected error
RETRY_NEWER = 60.0  # seconds before looking again at a newer release's game
STOP_WAIT = 5.0  # seconds a stop waits for the work under way

Chat = tuple[int, int | None]
# A target's pass: given the event that says its call waiting for the budget is no longer
# worth making (it is then given up and planned afresh), when it needs to run again.
Step = Callable[[asyncio.Event], Awaitable[float | None]]


@dataclass
class _ChatWork:
    """A chat being worked on in this process: its running targets."""

    seen: int | None = None  # the due time to settle against (ms), if known
    tasks: dict[str, asyncio.Task[None]] = field(default_factory=dict)
    dirty: set[str] = field(default_factory=set)
    changed: dict[str, asyncio.Event] = field(default_factory=dict)  # per running pass
    lost: int = 0  # times its game was set aside as unreadable (see Delivery._forget)


class Delivery:
    """Brings Telegram in line with every stored match this process hears of."""

    def __init__(
        self,
        bot: api.Bot,
        service: GameService,
        settings: Settings,
        liveness: Liveness,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.service = service
        self.due: DueIndex = service.store.due
        self.settings = settings
        self.liveness = liveness
        # Who has the live table open: read only where a table is served.
        self.at_table = AtTable(service.store.presence if settings.webapp_url else None)
        self.group = GroupConverger(bot, service, liveness, clock, self.at_table)
        self.hands = HandConverger(bot, service, liveness, clock, self.at_table)
        self._clock = clock
        self._work: dict[Chat, _ChatWork] = {}
        self.turns = TurnTarget(service, clock)
        self._next: dict[Chat, dict[str, float]] = {}  # what each target needs next, when
        self._timers: dict[tuple[Chat, str], asyncio.TimerHandle] = {}
        self._sweeper: asyncio.Task[None] | None = None
        self._stopping = False
        self._quiet = asyncio.Event()
        self._quiet.set()
        service.on_change = self._changed
        service.on_lost = self._lost
        self._bot = bot
        self._notices: set[asyncio.Task[None]] = set()
        self.group.on_moved = self._moved
        self.group.on_posted = lambda chat_id, thread_id: self.kick(chat_id, thread_id)

    @property
    def clock(self) -> Callable[[], float]:
        return self._clock

    @clock.setter
    def clock(self, clock: Callable[[], float]) -> None:
        """Tests share one clock between the service and delivery."""
        self._clock = self.group.clock = self.hands.clock = self.turns.clock = clock

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
            self._start(chat, work, "load", lambda _: self._load(chat))
            return
        self.turns.note(chat, current)
        for name in self._targets(current):
            self._start(chat, work, name, self._step(chat, name))
        self._give_up_stale_hands(chat, work, current)

    async def bot_returned(self, chat_id: int) -> None:
        """The bot was let back into a group: the boards it left there are told how their
        games ended (edited when Telegram still allows it)."""
        for thread_id in await self.group.bot_returned(chat_id):
            self.kick(chat_id, thread_id)

    async def shows_hand(
        self, chat_id: int, thread_id: int | None, seat: int, game_id: str, message_id: int
    ) -> bool:
        """Whether the message is the seat's hand message of this game."""
        return await self.hands.shows(chat_id, thread_id, seat, game_id, message_id)

    async def stray_hand(
        self, chat_id: int, thread_id: int | None, seat: int, game_id: str, message_id: int
    ) -> None:
        """An old hand message was pressed: if it still has buttons, they go."""
        if await self.hands.stray(chat_id, thread_id, seat, game_id, message_id):
            chat = (chat_id, thread_id)
            name = f"hand:{seat}"
            self._start(chat, self._work_on(chat), name, self._step(chat, name))

    def table_closed(self, chat_id: int, thread_id: int | None) -> None:
        """A person's last live table closed: his hand message catches up at once, and the
        board's pace is the usual one again (docs/table.md, "Fewer Bot API calls")."""
        self.kick(chat_id, thread_id)

    async def buttons_pressed(
        self, chat_id: int, thread_id: int | None, game_id: str, user_id: int
    ) -> None:
        """He pressed a hand button in his private chat: if his table is open, he plays
        with the buttons now, and his hand message is brought up to date."""
        if not self.at_table.served:
            return
        now = self.clock()
        if await self.at_table.buttons_pressed(chat_id, thread_id, game_id, user_id, now):
            self.kick(chat_id, thread_id)

    def _give_up_stale_hands(self, chat: Chat, work: _ChatWork, current: Current) -> None:
        """A hand call still waiting for the budget that no longer shows what the seat
        should see (the edit of his last turn, when his next one has begun) is given up;
        its pass then makes the call that is due now, in the place the old one had."""
        for index in range(len(current.match.seats)):
            name = f"hand:{index}"
            changed = work.changed.get(name)
            waiting = self.hands.waiting(chat[0], chat[1], index)
            if changed is None or waiting is None:
                continue
            want = hand_want(current.match, current.game, index)
            if want is None or want.shows != waiting:
                changed.set()

    @staticmethod
    def _targets(current: Current) -> list[str]:
        hands = [f"hand:{i}" for i, seat in enumerate(current.match.seats) if seat.user_id]
        return ["turn", "group", *hands]

    def _step(self, chat: Chat, name: str) -> Step:
        if name == "turn":
            return lambda _: self.turns.run(chat)
        if name == "group":
            return lambda _: self.group.run(*chat)
        seat = int(name.removeprefix("hand:"))
        return lambda changed: self.hands.run(chat[0], chat[1], seat, changed)

    def _changed(self, current: Current, seen: int) -> None:
        metrics.LAG.changed(current.match.id, current.match.rev)
        self.kick(current.match.chat_id, current.match.thread_id, seen, current)

    def _lost(self, chat_id: int, thread_id: int | None) -> None:
        """The chat's unreadable game was set aside by this process: say so in the chat
        (in the background: the press or command that found it is answered meanwhile)."""
        self._forget((chat_id, thread_id))
        task = asyncio.get_running_loop().create_task(
            tell_lost(self._bot, self.service, chat_id, thread_id)
        )
        self._notices.add(task)
        task.add_done_callback(self._notices.discard)

    def _moved(self, chat_id: int, threads: list[int | None]) -> None:
        for thread_id in threads:
            self.kick(chat_id, thread_id)

    def _work_on(self, chat: Chat) -> _ChatWork:
        work = self._work.get(chat)
        if work is None:
            work = self._work[chat] = _ChatWork()
            self._quiet.clear()
        return work

    def _start(self, chat: Chat, work: _ChatWork, name: str, step: Step) -> None:
        timer = self._timers.pop((chat, name), None)
        if timer is not None:
            timer.cancel()
        if name in work.tasks:
            work.dirty.add(name)  # running: it goes round once more when done
            return
        work.tasks[name] = asyncio.get_running_loop().create_task(
            self._run(chat, work, name, step), name=f"delivery {chat[0]} {name}"
        )

    async def _run(self, chat: Chat, work: _ChatWork, name: str, step: Step) -> None:
        try:
            while not self._stopping:
                work.dirty.discard(name)
                changed = work.changed[name] = asyncio.Event()
                lost = work.lost
                later = await self._guarded(chat, name, step, changed)
                if work.lost != lost:
                    later = None  # its game was set aside meanwhile: nothing it saw is due
                if later is None:
                    self._next.get(chat, {}).pop(name, None)
                else:
                    self._next.setdefault(chat, {})[name] = later
                if name not in work.dirty:
                    if later is not None and not self._stopping:
                        self._arm(chat, name, later)  # now: not once the chat's other work is done
                    break
        finally:
            del work.tasks[name]
            work.changed.pop(name, None)
            if not work.tasks and self._work.get(chat) is work:
                del self._work[chat]
                if not self._work:
                    self._quiet.set()
                if not self._stopping:
                    await self._settle(chat, work)

    async def _guarded(
        self, chat: Chat, name: str, step: Step, changed: asyncio.Event
    ) -> float | None:
        try:
            return await step(changed)
        except NewerGameError:
            # A rolling deploy: a newer process serves this game. Look again later, in
            # case this process is the one left serving the chat.
            return self.clock() + RETRY_NEWER
        except BrokenGameError:
            # Unreadable: reading it through the service sets it aside and tells the chat.
            with contextlib.suppress(BrokenGameError, RedisError):
                await self.service.current(*chat)
            self._forget(chat)
            return None
        except RedisError as exc:
            metrics.ERRORS.labels("delivery_storage").inc()
            log.warning("chat %s %s: storage unavailable (%s)", chat[0], name, exc)
            return self.clock() + RETRY_STORAGE
        except Exception:
            metrics.ERRORS.labels("delivery").inc()
            log.exception("chat %s %s: delivery failed", chat[0], name)
            return self.clock() + RETRY_ERROR

    async def _settle(self, chat: Chat, work: _ChatWork) -> None:
        """Time what the chat's targets need next here, and note it in the due index."""
        pending = self._next.get(chat, {})
        due = min(pending.values()) + SLACK if pending else None
        if not pending:
            self._next.pop(chat, None)
            self.turns.forget(chat)
        if due is not None and work.seen is not None and int(due * 1000) == work.seen:
            return  # the index has it already (as noted before the change was written)
        try:
            await self.due.settle_due(chat[0], chat[1], work.seen, due)
        except RedisError as exc:  # the lease (or the note) brings the chat back later
            log.warning("chat %s: could not note what is due next (%s)", chat[0], exc)

    def _forget(self, chat: Chat) -> None:
        """Nothing more is due for this chat (its game cannot be read), not even what a
        pass under way finds: noted after the set-aside, it would bring the game back
        to the due index."""
        work = self._work.get(chat)
        if work is not None:
            work.lost += 1
        self._next.pop(chat, None)
        self.turns.forget(chat)
        for key in [key for key in self._timers if key[0] == chat]:
            self._timers.pop(key).cancel()

    def _arm(self, chat: Chat, name: str, when: float) -> None:
        delay = when - self.clock()
        if delay > HORIZON or (chat, name) in self._timers:
            return
        loop = asyncio.get_running_loop()
        self._timers[(chat, name)] = loop.call_later(max(0.0, delay), self._wake, chat, name)

    def _wake(self, chat: Chat, name: str) -> None:
        self._timers.pop((chat, name), None)
        if not self._stopping:
            self._start(chat, self._work_on(chat), name, self._step(chat, name))

    # -- the targets ----------------------------------------------------------------------

    async def _load(self, chat: Chat) -> float | None:
        current = await self.service.current(*chat)
        if current is not None:
            self.kick(chat[0], chat[1], current=current)
        return None

    # -- the sweep ---------------------------------------------------------------------------

    def start(self) -> None:
        self._stopping = False
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep(), name="domino-sweeper")

    async def stop(self) -> None:
        # The flag as well as the cancel: redis-py can swallow a cancellation that lands
        # in the middle of a command, and the loop would then run (and stop() wait) forever.
        self._stopping = True
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()
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
        due = await self.due.take_due(self.clock(), LEASE, SWEEP_BATCH)
        for chat_id, thread_id in due.games:
            # Also when under way here: the due time may be another process's note of a
            # change ours has not read, so the chat is read again before it is settled.
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
