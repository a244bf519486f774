"""The bot's Prometheus metrics (served at /metrics, see bot.web), in a registry of their own.

The registry is not prometheus-client's global one: importing this module twice or
building several applications in one process (as tests do) never registers a metric
twice, and /metrics shows only the bot's figures. Counters count what happened in this
process; sum them over the processes. `domino_active_games` is read from Redis at each
scrape and is the same in every process: take its max, not its sum.

- `domino_updates_total{kind}`: updates handled (message, command, callback,
  my_chat_member, edited_message, other);
- `domino_moves_total{variant}`: game actions committed (plays, draws, passes; a run of
  a computer's actions counts each);
- `domino_games_started_total{variant}`, `domino_games_finished_total{variant}`,
  `domino_games_abandoned_total{variant}` (a started game ended by /stop or because the
  bot can no longer write to its group);
- `domino_active_games`: games in Redis's due index at scrape time: every game in play
  (its turn deadline is always noted there) and, for a few seconds, games whose
  messages are still being brought in line;
- `domino_errors_total{kind}`: errors that escaped a handler (by the code the user is
  told), delivery passes that failed, getUpdates failures;
- `domino_telegram_calls_total{method,outcome}`: every HTTP request to the Bot API, by
  its answer: ok (2xx), 429, 4xx, 5xx, timeout, network (no answer at all);
- `domino_telegram_retries_total`: calls made again after a failure (a patient
  caller's second try, a delivery call planned again after a 429, a timeout or a
  refusal);
- `domino_rate_limit_wait_seconds`: how long a counted call waited in the call budget;
- `domino_update_seconds`: how long handling one update took;
- `domino_delivery_lag_seconds{target}`: from a change of a match stored by this
  process to Telegram confirming the group message (board) or the hand message (hand)
  that shows it;
- `domino_redis_retries_total`: compare-and-set writes tried again because another
  writer came first.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest

from engine.variants import VARIANTS

REGISTRY = CollectorRegistry(auto_describe=True)

UPDATE_KINDS = ("message", "command", "callback", "my_chat_member", "edited_message", "other")
OUTCOMES = ("ok", "429", "4xx", "5xx", "timeout", "network")
TARGETS = ("board", "hand")

UPDATES = Counter(
    "domino_updates", "Telegram updates handled, by kind", ["kind"], registry=REGISTRY
)
MOVES = Counter(
    "domino_moves", "Game actions committed (plays, draws, passes)", ["variant"], registry=REGISTRY
)
GAMES_STARTED = Counter("domino_games_started", "Games started", ["variant"], registry=REGISTRY)
GAMES_FINISHED = Counter(
    "domino_games_finished", "Games played to the end", ["variant"], registry=REGISTRY
)
GAMES_ABANDONED = Counter(
    "domino_games_abandoned",
    "Started games ended before their end (/stop, or the group refuses the bot)",
    ["variant"],
    registry=REGISTRY,
)
ACTIVE_GAMES = Gauge(
    "domino_active_games",
    "Games with something due in Redis's due index (all processes: take the max)",
    registry=REGISTRY,
)
ERRORS = Counter("domino_errors", "Errors, by kind", ["kind"], registry=REGISTRY)
TELEGRAM_CALLS = Counter(
    "domino_telegram_calls",
    "Bot API requests, by method and answer",
    ["method", "outcome"],
    registry=REGISTRY,
)
TELEGRAM_RETRIES = Counter(
    "domino_telegram_retries", "Bot API calls made again after a failure", registry=REGISTRY
)
RATE_LIMIT_WAIT = Histogram(
    "domino_rate_limit_wait_seconds",
    "Seconds a counted Bot API call waited for the call budget",
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60),
    registry=REGISTRY,
)
UPDATE_SECONDS = Histogram(
    "domino_update_seconds",
    "Seconds handling one update took",
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30),
    registry=REGISTRY,
)
DELIVERY_LAG = Histogram(
    "domino_delivery_lag_seconds",
    "Seconds from a stored change to Telegram confirming the message that shows it",
    ["target"],
    buckets=(0.05, 0.1, 0.25, 0.5, 1, 2, 3, 5, 10, 20, 30, 60, 120),
    registry=REGISTRY,
)
REDIS_RETRIES = Counter(
    "domino_redis_retries", "Compare-and-set writes tried again in Redis", registry=REGISTRY
)

for _variant in VARIANTS:  # every series shows from the start, at 0
    for _family in (MOVES, GAMES_STARTED, GAMES_FINISHED, GAMES_ABANDONED):
        _family.labels(_variant)
for _kind in UPDATE_KINDS:
    UPDATES.labels(_kind)
for _target in TARGETS:
    DELIVERY_LAG.labels(_target)


def text() -> bytes:
    """The exposition text of every metric (what /metrics answers)."""
    return generate_latest(REGISTRY)


# -- games -------------------------------------------------------------------------------


def game_started(variant: str) -> None:
    GAMES_STARTED.labels(variant).inc()


def game_moved(variant: str, actions: int, over: bool) -> None:
    """A committed run of `actions` actions (exactly once across processes), maybe the last."""
    MOVES.labels(variant).inc(actions)
    if over:
        GAMES_FINISHED.labels(variant).inc()


def game_abandoned(variant: str, started: bool) -> None:
    """A game ended as cancelled: counted if it had started (a lobby is no game)."""
    if started:
        GAMES_ABANDONED.labels(variant).inc()


# -- the Bot API -------------------------------------------------------------------------


def outcome(status: int) -> str:
    if 200 <= status < 300:
        return "ok"
    if status == 429:
        return "429"
    return "4xx" if status < 500 else "5xx"


class Contact:
    """When the Bot API last answered us, and last failed to (for /healthz).

    An answer is any HTTP answer but a 5xx, a 401 or a 404 (a token Telegram does not
    know): a 400 or a 429 shows that Telegram is there. A failure is no answer in time,
    no connection, a 5xx or a 401/404.
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.last_ok: float | None = None
        self.last_failure: float | None = None

    def record(self, answered: bool) -> None:
        if answered:
            self.last_ok = self.clock()
        else:
            self.last_failure = self.clock()

    def healthy(self, recent: float) -> tuple[bool, float | None]:
        """(Telegram is fine, seconds since its last answer): fine while nothing failed
        since its last answer, or while that answer is less than `recent` seconds old."""
        if self.last_ok is None:
            return False, None
        since = self.clock() - self.last_ok
        failed_since = self.last_failure is not None and self.last_failure > self.last_ok
        return (not failed_since or since < recent), since


TELEGRAM = Contact()


def telegram_answered(method: str, status: int) -> None:
    TELEGRAM_CALLS.labels(method, outcome(status)).inc()
    TELEGRAM.record(status < 500 and status not in (401, 404))


def telegram_unanswered(method: str, timed_out: bool) -> None:
    TELEGRAM_CALLS.labels(method, "timeout" if timed_out else "network").inc()
    TELEGRAM.record(False)


# -- delivery ------------------------------------------------------------------------------


def note_retry(outcome_value: str) -> None:
    """A delivery call that will be made again (a 429, no answer, a refusal)."""
    if outcome_value in ("retry", "uncertain", "failed"):
        TELEGRAM_RETRIES.inc()


class DeliveryLag:
    """When this process stored each recent change of a match, to time its delivery.

    Only changes made here are known (the process that makes a change delivers it, unless
    it dies); a message showing a change made elsewhere is not timed. Kept by match, not
    by chat: a chat's next match counts its revisions from the start again.
    """

    KEPT_PER_MATCH = 32
    MATCHES = 10_000

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._changes: OrderedDict[str, dict[int, float]] = OrderedDict()

    def changed(self, game_id: str, rev: int) -> None:
        revs = self._changes.pop(game_id, None) or {}
        revs.setdefault(rev, self.clock())
        while len(revs) > self.KEPT_PER_MATCH:
            del revs[min(revs)]
        self._changes[game_id] = revs
        while len(self._changes) > self.MATCHES:
            self._changes.popitem(last=False)

    def shown(self, target: str, game_id: str, rev: int) -> None:
        """Telegram confirmed a `target` message showing the match at revision `rev`."""
        at = self._changes.get(game_id, {}).get(rev)
        if at is not None:
            DELIVERY_LAG.labels(target).observe(max(0.0, self.clock() - at))


LAG = DeliveryLag()


def value(name: str, **labels: str) -> float:
    """The value of one series in this process (0 if absent): for tests."""
    value = REGISTRY.get_sample_value(name, labels or None)
    return 0.0 if value is None else value
