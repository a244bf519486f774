"""The update loop as /healthz sees it: updates queued, taken up and finished, and (with long
polling) the library asking Telegram for more.

An update *waits* from the moment it is queued (by our webhook's server, or by
python-telegram-bot's poller) until the application starts handling it. The loop has
*stalled* when an update has waited longer than `STALL_SECONDS` and no update finished
in that time: the application's task that takes updates off the queue died, or every
update it may handle at once (CONCURRENT_UPDATES) is stuck. An idle bot (nothing waiting)
never stalls, and neither does one with a long-running handler while other updates are
taken up and finish, or while nothing else waits.

With long polling the library asks for updates again as soon as an answer comes (a long
poll of 10 s); after a failure it pauses 1 s, then 1.5 times longer each time, up to
30 s. The poller is *gone* (its task died, or a request hangs) when no getUpdates has been
under way for longer than that pause plus `POLL_SLACK`, or one has been for `POLL_LONGEST`.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from typing import Any

STALL_SECONDS = 20.0
POLL_SLACK = 10.0  # seconds beyond the library's own pause before the next getUpdates
LONGEST_PAUSE = 30.0  # the library's longest pause after failed getUpdates
FIRST_PAUSE = 1.0  # ... and its first, growing 1.5 times a failure
POLL_LONGEST = 60.0  # one getUpdates (a 10 s long poll and its timeouts) never takes this long


class Intake:
    def __init__(
        self, clock: Callable[[], float] = time.monotonic, stall: float = STALL_SECONDS
    ) -> None:
        self.clock = clock
        self.stall = stall
        self._waiting: deque[float] = deque()  # when each waiting update was queued
        self._last_finished: float | None = None
        self._polls = 0  # getUpdates under way
        self._poll_at: float | None = None  # when the last one began or ended (None: no polling)
        self._poll_failures = 0  # in a row

    # -- what happens ---------------------------------------------------------------------

    def queued(self) -> None:
        self._waiting.append(self.clock())

    def started(self) -> None:
        """The application took an update up (the oldest waiting, as its queue is in order)."""
        if self._waiting:
            self._waiting.popleft()

    def finished(self) -> None:
        self._last_finished = self.clock()

    def poll_began(self) -> None:
        self._polls += 1
        self._poll_at = self.clock()

    def poll_ended(self, answered: bool) -> None:
        """A getUpdates came back: `answered` with updates (or none), else failed."""
        self._polls = max(0, self._polls - 1)
        self._poll_at = self.clock()
        self._poll_failures = 0 if answered else self._poll_failures + 1

    # -- what /healthz says -------------------------------------------------------------------

    def check(self) -> tuple[bool, dict[str, Any]]:
        """(the loop takes updates, what /healthz shows of it)."""
        now = self.clock()
        if self._waiting and now - self._waiting[0] > self.stall:
            finished = None if self._last_finished is None else now - self._last_finished
            if finished is None or finished > self.stall:
                return False, {
                    "updates": "stalled",
                    "updates_waiting": len(self._waiting),
                    "oldest_waiting_seconds": round(now - self._waiting[0], 1),
                    "last_handled_seconds": None if finished is None else round(finished, 1),
                }
        if self._poll_at is not None:
            since = now - self._poll_at
            longest = POLL_LONGEST if self._polls else self._pause() + POLL_SLACK
            if since > longest:
                return False, {"updates": "not fetched", "last_poll_seconds": round(since, 1)}
        return True, {"updates": "ok"}

    def _pause(self) -> float:
        """How long the library waits before its next getUpdates, after the last one."""
        if not self._poll_failures:
            return 0.0
        return min(LONGEST_PAUSE, FIRST_PAUSE * 1.5 ** min(self._poll_failures - 1, 10))
