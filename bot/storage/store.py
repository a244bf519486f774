"""Games and everything around them in Redis.

Records are changed by compare-and-set: read a record, compute its new value with
a plain function, and write it only if Redis still holds exactly what was read
(one Lua script); if someone wrote in between, read again and retry. The due
index, the call budget and the heartbeats live here too, so that this module is
the only one that knows Redis commands.

The same code runs on one server, on the embedded store and on a Redis Cluster: a
script or a multi-key command only ever gets keys of one chat (one hash tag, so one
slot), or of the call budget, or the one key of the due index. What spans two chats
(`move_chat`) is done key by key.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from enum import Enum
from typing import Any, Generic, TypeVar

from pydantic import BaseModel, ValidationError
from redis.asyncio import Redis

from bot import metrics
from bot.storage import scripts
from bot.storage.keys import Keys
from bot.storage.legacy import (
    SECOND_FORMAT,
    ChatGame,
    UnreadableLegacy,
    first_release,
    second_release,
    split,
)
from bot.storage.models import (
    MATCH_FORMAT,
    GroupDelivery,
    HandDelivery,
    Match,
    RatingLine,
    StatLine,
    UserPrefs,
)

log = logging.getLogger(__name__)

M = TypeVar("M", bound=BaseModel)
T = TypeVar("T")

DAY = 24 * 3600
GAME_TTL = 7 * DAY  # a game nobody touched for a week is gone
RECORD_TTL = 90 * DAY
STATS_TTL = 365 * DAY
USER_TTL = 365 * DAY
MAX_ATTEMPTS = 25
BROKEN_TTL = 30 * DAY  # a game set aside as unreadable, kept for a look by hand
UPGRADE_ATTEMPTS = 3
COUNTED_KEPT = 50  # ids of a chat's last games remembered as counted in the stats
RATED_KEPT = 200  # ids (and changes) of a chat's last rated games remembered
RATED_PEOPLE = 500  # people rated per chat and variant; the least recently rated go first


class StoreError(Exception):
    """Storage failed; nothing was changed."""


class BrokenGameError(StoreError):
    """The stored game cannot be read (corrupted or from an incompatible version).

    `raw`: the bytes that could not be read (None if not known), so that exactly
    those can be set aside. `code`: what the people in the chat are told.
    """

    code = "broken_game"

    def __init__(self, message: str, raw: bytes | None = None) -> None:
        super().__init__(message)
        self.raw = raw


class NewerGameError(BrokenGameError):
    """The stored game is of a newer release (a rolling deploy): left for its processes."""

    code = "newer_game"


class GameLostError(BrokenGameError):
    """The stored game could not be read and was set aside: the chat may start a new one."""

    code = "game_lost"


class _FirstRelease(Exception):
    """A first-release record (format 1): upgraded in place, then read again."""

    def __init__(self, old: ChatGame, raw: bytes) -> None:
        self.old, self.raw = old, raw


class ConflictError(StoreError):
    """Too many concurrent writers: the change was given up."""


class Lost(Enum):
    """What `Store.write` gives when the record no longer held what the writer read."""

    LOST = "lost"


LOST = Lost.LOST


@dataclass(frozen=True)
class Stored(Generic[M]):
    """A record as read: its model (None if absent) and its exact bytes, for the compare-and-set."""

    value: M | None
    raw: bytes | None

    @property
    def exists(self) -> bool:
        return self.raw is not None


@dataclass(frozen=True)
class Due:
    """Games taken from the due index, and when to look at it again."""

    games: list[tuple[int, int | None]]
    lease: int  # ms: the due time the taken games have now (see DUE_SETTLE)
    earliest: int | None  # ms: the earliest due time in the index


class Store:
    def __init__(self, redis: Redis, keys: Keys) -> None:
        """`redis`: a client of one server, of a Sentinel's master, of a Redis Cluster
        (`redis.asyncio.cluster.RedisCluster`, which has the same commands), or the
        embedded `FakeAsyncRedis`."""
        self.redis = redis
        self.keys = keys
        self._compare_and_set = redis.register_script(scripts.COMPARE_AND_SET)
        self._due_take = redis.register_script(scripts.DUE_TAKE)
        self._due_settle = redis.register_script(scripts.DUE_SETTLE)
        self._budget_take = redis.register_script(scripts.BUDGET_TAKE)
        self._budget_restamp = redis.register_script(scripts.BUDGET_RESTAMP)
        self._board_turn = redis.register_script(scripts.BOARD_TURN)
        self._stats_add = redis.register_script(scripts.STATS_ADD)
        self._ratings_add = redis.register_script(scripts.RATINGS_ADD)
        self._delete_if_same = redis.register_script(scripts.DELETE_IF_SAME)
        self._upgrade = redis.register_script(scripts.UPGRADE)
        self._set_aside = redis.register_script(scripts.SET_ASIDE)

    # -- records -----------------------------------------------------------------

    async def read_match(self, chat_id: int, thread_id: int | None) -> Stored[Match]:
        async def read() -> Stored[Match]:
            raw = await self.redis.get(self.keys.game(chat_id, thread_id))
            return Stored(parse_match(raw), _bytes(raw))

        return await self._upgrading(chat_id, thread_id, read)

    async def load(self, chat_id: int, thread_id: int | None) -> Match | None:
        return (await self.read_match(chat_id, thread_id)).value

    async def read_group(
        self, chat_id: int, thread_id: int | None
    ) -> tuple[Stored[Match], Stored[GroupDelivery]]:
        """The match and what its group messages show, in one round trip."""

        async def read() -> tuple[Stored[Match], Stored[GroupDelivery]]:
            match, group = await self.redis.mget(
                self.keys.game(chat_id, thread_id), self.keys.group(chat_id, thread_id)
            )
            return Stored(parse_match(match), _bytes(match)), _delivery(GroupDelivery, group)

        return await self._upgrading(chat_id, thread_id, read)

    async def read_hand(
        self, chat_id: int, thread_id: int | None, seat: int
    ) -> tuple[Stored[Match], Stored[HandDelivery]]:
        async def read() -> tuple[Stored[Match], Stored[HandDelivery]]:
            match, hand = await self.redis.mget(
                self.keys.game(chat_id, thread_id), self.keys.hand(chat_id, thread_id, seat)
            )
            return Stored(parse_match(match), _bytes(match)), _delivery(HandDelivery, hand)

        return await self._upgrading(chat_id, thread_id, read)

    async def _upgrading(
        self, chat_id: int, thread_id: int | None, read: Callable[[], Awaitable[T]]
    ) -> T:
        """`read()`, after writing a first-release record it meets as this release's."""
        for _ in range(UPGRADE_ATTEMPTS):
            try:
                return await read()
            except _FirstRelease as found:
                await self._upgrade_first_release(chat_id, thread_id, found)
        raise ConflictError(f"chat {chat_id}: the first-release record kept changing")

    async def _upgrade_first_release(
        self, chat_id: int, thread_id: int | None, found: _FirstRelease
    ) -> None:
        lang = await self.chat_language(chat_id) or "ru"
        try:
            records = split(found.old, lang)
        except UnreadableLegacy as exc:
            raise BrokenGameError(str(exc), found.raw) from None
        keys = [self.keys.game(chat_id, thread_id), self.keys.group(chat_id, thread_id)]
        keys += [self.keys.hand(chat_id, thread_id, seat) for seat in range(len(records.hands))]
        args: list[Any] = [found.raw, records.match.model_dump_json(), GAME_TTL]
        args.append(records.group.model_dump_json())
        args += ["" if hand is None else hand.model_dump_json() for hand in records.hands]
        if await self._upgrade(keys=keys, args=args, client=self.redis):
            log.info("chat %s: a first-release game %s upgraded", chat_id, found.old.id)

    async def set_aside(self, chat_id: int, thread_id: int | None, raw: bytes) -> bool:
        """Move an unreadable game (still exactly `raw`) out of the chat's way, with its
        delivery records; False if it changed meanwhile (someone else moved it)."""
        keys = [self.keys.game(chat_id, thread_id), self.keys.broken(chat_id, thread_id)]
        keys += [self.keys.group(chat_id, thread_id)]
        keys += [self.keys.hand(chat_id, thread_id, seat) for seat in range(4)]
        moved = await self._set_aside(keys=keys, args=[raw, BROKEN_TTL], client=self.redis)
        if moved:
            await self.redis.zrem(self.keys.due(), self.keys.game(chat_id, thread_id))
        return bool(moved)

    async def read_delivery(
        self, chat_id: int, thread_id: int | None, seats: int
    ) -> tuple[Stored[GroupDelivery], list[Stored[HandDelivery]]]:
        """Every delivery record of a chat's match (for reading, e.g. by tests and /healthz)."""
        keys = [self.keys.group(chat_id, thread_id)]
        keys += [self.keys.hand(chat_id, thread_id, seat) for seat in range(seats)]
        raws = await self.redis.mget(*keys)
        return _delivery(GroupDelivery, raws[0]), [_delivery(HandDelivery, r) for r in raws[1:]]

    async def write(
        self,
        key: str,
        before: Stored[Any],
        after: BaseModel | None,
        ttl: int = GAME_TTL,
        also: tuple[str, str, int] | None = None,
    ) -> bytes | Lost | None:
        """Write `after` (None: delete) if `key` still holds `before`; False if it does not.

        Returns the bytes written (None when deleted). `also` is (key, value, ttl), set
        together with it.
        """
        value = b"" if after is None else after.model_dump_json().encode()
        keys = [key] if also is None else [key, also[0]]
        args: list[Any] = ["1" if before.exists else "0", before.raw or b"", value, ttl]
        if also is not None:
            args += [also[1], also[2]]
        if not await self._compare_and_set(keys=keys, args=args, client=self.redis):
            return LOST
        return None if after is None else value

    async def change(
        self,
        key: str,
        model: type[M],
        apply: Callable[[M | None], M | None],
        ttl: int = GAME_TTL,
    ) -> M | None:
        """Read-apply-write a delivery record until it commits (`apply` may run more than once)."""
        for attempt in range(MAX_ATTEMPTS):
            before = _delivery(model, await self.redis.get(key))
            after = apply(before.value)
            if await self.write(key, before, after, ttl) is not LOST:
                return after
            await backoff(attempt)
        raise ConflictError(f"gave up changing {key} after {MAX_ATTEMPTS} attempts")

    async def drop(self, chat_id: int, thread_id: int | None) -> None:
        """Remove a match and its delivery records whatever state they are in (even unreadable)."""
        keys = [self.keys.game(chat_id, thread_id), self.keys.group(chat_id, thread_id)]
        keys += [self.keys.hand(chat_id, thread_id, seat) for seat in range(4)]
        await self.redis.delete(*keys)

    # -- the due index -------------------------------------------------------------

    async def note_due(self, chat_id: int, thread_id: int | None, when: float) -> int:
        """Note that the game must be looked at by `when` (replacing what was noted); in ms.

        Written just before a change of the game is: the process making the change
        brings the chat in line itself, earlier if need be, and settles the index after.
        """
        score = _ms(when)
        await self.redis.zadd(self.keys.due(), {self.keys.game(chat_id, thread_id): score})
        return score

    async def take_due(self, now: float, lease: float, limit: int) -> Due:
        found, until, first = await self._due_take(
            keys=[self.keys.due()], args=[_ms(now), int(lease * 1000), limit], client=self.redis
        )
        games = []
        for member in found:
            key = member.decode() if isinstance(member, bytes) else str(member)
            try:
                games.append(self.keys.parse_game(key))
            except ValueError:
                await self.redis.zrem(self.keys.due(), member)
        earliest = int(float(first)) if first not in (b"", "", None) else None
        return Due(games, int(until), earliest)

    async def settle_due(
        self, chat_id: int, thread_id: int | None, seen: int | None, when: float | None
    ) -> None:
        """Set the game's due time to `when` (None: nothing due) if it is still `seen`.

        If someone noted an earlier time since (another change, another process), the
        earlier of that and `when` stays, so nothing noted is lost.
        """
        member = self.keys.game(chat_id, thread_id)
        args = [member, "" if seen is None else seen, "" if when is None else _ms(when)]
        await self._due_settle(keys=[self.keys.due()], args=args, client=self.redis)

    async def due_time(self, chat_id: int, thread_id: int | None) -> float | None:
        score = await self.redis.zscore(self.keys.due(), self.keys.game(chat_id, thread_id))
        return None if score is None else float(score) / 1000

    # -- the call budget -----------------------------------------------------------

    async def take_budget(
        self,
        chat_id: int | None,
        now: float,
        limit: int,
        window: float,
        chat_limit: int,
        chat_window: float,
        name: str,
    ) -> tuple[int, int]:
        """(0, 0) if a call may go now (and it is counted), else (ms to wait, why)."""
        chat = chat_id if chat_id is not None else 0
        keys = [
            self.keys.budget_calls(),
            self.keys.budget_chat_calls(chat),
            self.keys.budget_chat_pause(chat),
            self.keys.budget_pause(),
        ]
        args: list[int | str] = [
            _ms(now),
            limit,
            int(window * 1000),
            chat_limit,
            int(chat_window * 1000),
            name,
        ]
        wait, why = await self._budget_take(keys=keys, args=args, client=self.redis)
        return int(wait), int(why)

    async def restamp_budget(self, chat_id: int | None, name: str, now: float) -> None:
        """Count the call `name` from `now` (in the token's window, and the group's)."""
        keys = [self.keys.budget_calls()]
        if chat_id is not None:
            keys.append(self.keys.budget_chat_calls(chat_id))
        await self._budget_restamp(keys=keys, args=[_ms(now), name], client=self.redis)

    async def group_calls(self, chat_id: int, now: float, window: float) -> list[tuple[float, str]]:
        """The group's calls of the last `window` seconds, oldest first: when each was
        counted, and its entry's name (see `take_budget`). Every process's, to every topic
        of the chat, answers too: what the budget counts against the group's limit."""
        found: list[tuple[bytes | str, float]] = await self.redis.zrange(  # type: ignore[assignment]
            self.keys.budget_chat_calls(chat_id),
            f"({_ms(now - window)}",  # as the budget's script drops them: older or as old
            "+inf",
            byscore=True,
            withscores=True,
        )
        return [(float(score) / 1000, _text(name)) for name, score in found]

    async def take_board_turn(self, chat_id: int, now: float, interval: float, size: int) -> float:
        """A token of the chat's bucket of board calls (one more each `interval` seconds,
        at most `size`): 0.0 once taken, else the seconds until one is there."""
        wait = await self._board_turn(
            keys=[self.keys.board_turn(chat_id)],
            args=[_ms(now), _ms(interval), size],
            client=self.redis,
        )
        return int(wait) / 1000

    async def pause_budget(self, chat_id: int | None, seconds: float) -> None:
        """Telegram asked to wait: no call to this chat (None: to anyone) for `seconds`."""
        key = self.keys.budget_pause() if chat_id is None else self.keys.budget_chat_pause(chat_id)
        await self.redis.set(key, "1", px=max(1, int(seconds * 1000)))

    # -- running processes ----------------------------------------------------------

    async def heartbeat(self, process_id: str, ttl: float) -> None:
        await self.redis.set(self.keys.process(process_id), "1", px=int(ttl * 1000))

    async def alive(self, process_id: str) -> bool:
        return bool(await self.redis.exists(self.keys.process(process_id)))

    # -- records, stats, languages --------------------------------------------------

    async def last_record(self, chat_id: int, thread_id: int | None) -> str | None:
        """The last finished game of a chat (engine.pack() text), for /export."""
        raw = await self.redis.get(self.keys.last_record(chat_id, thread_id))
        return None if raw is None else _bytes(raw).decode()  # type: ignore[union-attr]

    async def add_to_stats(self, chat_id: int, game_id: str, lines: dict[int, StatLine]) -> bool:
        """Add a finished game's results once (False if it was already counted).

        The mark and every player's line are written by one script, and only if the
        lines are still what was read: a crash half-way cannot count a game without its
        lines, nor count it twice. (The last games' ids are enough: a game is counted
        again only by a process that died just after its end, minutes later at most.)
        """
        counted = self.keys.counted(chat_id)
        key = self.keys.stats(chat_id)
        fields = [str(user_id) for user_id in lines]
        for attempt in range(MAX_ATTEMPTS):
            raws = await self.redis.hmget(key, fields) if fields else []
            args: list[Any] = [game_id, time.time(), COUNTED_KEPT, STATS_TTL]
            for field, raw, line in zip(fields, raws, lines.values(), strict=True):
                total = _merge(_parse_stat(raw), line)
                args += [field, raw or b"", total.model_dump_json()]
            done = await self._stats_add(keys=[counted, key], args=args, client=self.redis)
            if int(done) != 0:
                return int(done) == 1
            await backoff(attempt)
        raise ConflictError(f"gave up adding game {game_id} to {key} after {MAX_ATTEMPTS} attempts")

    async def stats(self, chat_id: int) -> dict[int, StatLine]:
        raw = await self.redis.hgetall(self.keys.stats(chat_id))
        lines = {}
        for user_id, value in raw.items():
            line = _parse_stat(value)
            if line is not None:
                lines[int(user_id)] = line
        return lines

    async def add_ratings(
        self,
        chat_id: int,
        variant: str,
        game_id: str,
        people: list[int],
        compute: Callable[
            [dict[int, RatingLine | None]], tuple[dict[int, RatingLine], dict[int, int]]
        ],
    ) -> dict[int, int]:
        """Rate a finished game once: `compute` turns the people's lines as read into
        their new lines and shown changes. The changes, by user id: this call's, or the
        ones stored by whoever rated the game first.

        As with the stats, one script writes the mark, the changes and the lines, and only
        if the lines are still what was read.
        """
        keys = [
            self.keys.rated(chat_id),
            self.keys.rating_changes(chat_id),
            self.keys.ratings(chat_id, variant),
            self.keys.rating_seen(chat_id, variant),
        ]
        fields = [str(user_id) for user_id in people]
        for attempt in range(MAX_ATTEMPTS):
            raws = await self.redis.hmget(keys[2], fields) if fields else []
            before = {int(f): _parse_rating(raw) for f, raw in zip(fields, raws, strict=True)}
            lines, changes = compute(before)
            args: list[Any] = [game_id, time.time(), RATED_KEPT, RATED_PEOPLE]
            args.append(json.dumps({str(user): change for user, change in changes.items()}))
            for field, raw in zip(fields, raws, strict=True):
                args += [field, raw or b"", lines[int(field)].model_dump_json()]
            done, stored = await self._ratings_add(keys=keys, args=args, client=self.redis)
            if int(done) == 1:
                return changes
            if int(done) == -1:
                return _parse_changes(stored)
            await backoff(attempt)
        raise ConflictError(f"gave up rating game {game_id} in {keys[2]} after {MAX_ATTEMPTS}")

    async def ratings(self, chat_id: int, variant: str) -> dict[int, RatingLine]:
        raw = await self.redis.hgetall(self.keys.ratings(chat_id, variant))
        lines = {}
        for user_id, value in raw.items():
            line = _parse_rating(value)
            if line is not None:
                lines[int(user_id)] = line
        return lines

    async def chat_language(self, chat_id: int) -> str | None:
        raw = await self.redis.get(self.keys.chat_language(chat_id))
        return None if raw is None else (raw.decode() if isinstance(raw, bytes) else str(raw))

    async def set_chat_language(self, chat_id: int, lang: str) -> None:
        await self.redis.set(self.keys.chat_language(chat_id), lang, ex=STATS_TTL)

    async def topic_name(self, chat_id: int, thread_id: int) -> str | None:
        raw = await self.redis.get(self.keys.topic(chat_id, thread_id))
        return None if raw is None else (raw.decode() if isinstance(raw, bytes) else str(raw))

    async def set_topic_name(self, chat_id: int, thread_id: int, name: str) -> None:
        await self.redis.set(self.keys.topic(chat_id, thread_id), name, ex=STATS_TTL)

    async def shown_hint(
        self, chat_id: int, thread_id: int | None, game_id: str, version: int
    ) -> str | None:
        """The hint already shown for the move at `version` of a practice game, if any."""
        raw = await self.redis.hget(self.keys.hints(chat_id, thread_id, game_id), str(version))
        return None if raw is None else _text(raw)

    async def note_hint(
        self, chat_id: int, thread_id: int | None, game_id: str, version: int, line: str
    ) -> str:
        """Keep the hint shown for the move at `version`; the one kept (the first, if two
        processes worked one out at once: a move has one hint, whoever asks again)."""
        key = self.keys.hints(chat_id, thread_id, game_id)
        await self.redis.hsetnx(key, str(version), line)
        await self.redis.expire(key, RECORD_TTL)
        kept = await self.redis.hget(key, str(version))
        return line if kept is None else _text(kept)

    async def hints_used(self, chat_id: int, thread_id: int | None, game_id: str) -> int:
        """How many moves of a practice game had a hint shown."""
        return int(await self.redis.hlen(self.keys.hints(chat_id, thread_id, game_id)))

    async def user(self, user_id: int) -> UserPrefs:
        raw = await self.redis.get(self.keys.user(user_id))
        if raw is None:
            return UserPrefs()
        try:
            return UserPrefs.model_validate_json(raw)
        except ValidationError:
            return UserPrefs()

    async def save_user(self, user_id: int, prefs: UserPrefs) -> None:
        await self.redis.set(self.keys.user(user_id), prefs.model_dump_json(), ex=USER_TTL)

    async def game_threads(self, chat_id: int) -> list[int | None]:
        """The topics of a chat that have a match stored."""
        threads: list[int | None] = []
        # On a cluster redis-py scans every primary (a chat's keys are on one of them,
        # or on two while its slot migrates).
        async for raw_key in self.redis.scan_iter(match=self.keys.game_pattern(chat_id), count=100):
            key = raw_key.decode() if isinstance(raw_key, bytes) else str(raw_key)
            threads.append(self.keys.parse_game(key)[1])
        return threads

    async def move_chat(self, old_chat_id: int, new_chat_id: int) -> int:
        """A group became a supergroup: carry its keys over to the new id; how many moved.

        The two chats' keys are in two slots (in a cluster perhaps on two nodes), so no
        script or transaction can hold both: each key is copied (DUMP, then RESTORE with
        its TTL, replacing what the new chat has under that name), its game noted due
        under the new name, and only then the old key deleted, by a script that deletes
        it only if it still holds what was copied (else it is copied again). A move cut
        short leaves every key in the old chat, the new one or both, never in neither:
        moving again finishes it (what is already copied is copied again, unchanged).
        """
        moved = 0
        due = self.keys.due()
        async for raw_key in self.redis.scan_iter(
            match=self.keys.chat_pattern(old_chat_id), count=100
        ):
            key = raw_key.decode() if isinstance(raw_key, bytes) else str(raw_key)
            new_key = self.keys.moved(key, old_chat_id, new_chat_id)
            game = ":game:" in key
            for attempt in range(MAX_ATTEMPTS):
                dumped = await self.redis.dump(key)
                ttl = await self.redis.pttl(key)
                if dumped is None or ttl == -2:
                    break  # gone meanwhile (expired, or dropped)
                await self.redis.restore(new_key, max(ttl, 0), dumped, replace=True)
                if game:  # a sweeper brings it in line under its new name
                    await self.redis.zadd(due, {new_key: 0})
                if await self._delete_if_same(keys=[key], args=[dumped], client=self.redis):
                    moved += 1
                    if game:
                        await self.redis.zrem(due, key)
                    break
                await backoff(attempt)  # changed since the copy: copy it again
            else:
                raise ConflictError(f"gave up moving {key} after {MAX_ATTEMPTS} attempts")
        return moved

    # -- answers to repeated commands (bot.handlers.repeats) ---------------------------

    async def claim_answer(
        self, chat_id: int, thread_id: int | None, command: str, window: float
    ) -> bool:
        """True for the first of a command in `window` seconds: it answers anew."""
        key = self.keys.answer(chat_id, thread_id, command)
        if not await self.redis.set(key, "{}", px=max(1, _ms(window)), nx=True):
            return False
        await self.redis.delete(self.keys.answer_extra(chat_id, thread_id, command))
        return True

    async def note_answer(
        self, chat_id: int, thread_id: int | None, command: str, message_id: int, digest: str
    ) -> None:
        """The claimed answer was sent as `message_id` and shows `digest` (its window stays)."""
        key = self.keys.answer(chat_id, thread_id, command)
        value = json.dumps({"m": message_id, "h": digest})
        await self.redis.set(key, value, xx=True, keepttl=True)

    async def shown_answer(
        self, chat_id: int, thread_id: int | None, command: str
    ) -> tuple[int, str] | None:
        """(message id, digest) of the window's answer; None if there is none (yet)."""
        raw = await self.redis.get(self.keys.answer(chat_id, thread_id, command))
        try:
            found = json.loads(raw) if raw is not None else {}
            return int(found["m"]), str(found["h"])
        except (ValueError, KeyError, TypeError):
            return None

    async def take_answer_extra(
        self, chat_id: int, thread_id: int | None, command: str, window: float
    ) -> bool:
        """True once a window: a repeat may spend one call (an edit or a note)."""
        key = self.keys.answer_extra(chat_id, thread_id, command)
        return bool(await self.redis.set(key, "1", px=max(1, _ms(window)), nx=True))

    async def forget_answer(self, chat_id: int, thread_id: int | None, command: str) -> None:
        """The next one of the command answers anew (the answer was not sent, or is gone)."""
        await self.redis.delete(
            self.keys.answer(chat_id, thread_id, command),
            self.keys.answer_extra(chat_id, thread_id, command),
        )


async def commit(
    store: Store,
    key: str,
    claimed: Stored[M],
    model: type[M],
    apply: Callable[[M | None], M | None],
) -> M | None:
    """Write `apply(claimed)` if the record still holds what we claimed (one round trip);
    if someone wrote in between, apply the same change to what is there now."""
    current = claimed.value.model_copy(deep=True) if claimed.value is not None else None
    after = apply(current)
    if await store.write(key, claimed, after) is not LOST:
        return after
    return await store.change(key, model, apply)


async def backoff(attempt: int) -> None:
    """A short random pause before trying a lost compare-and-set again."""
    metrics.REDIS_RETRIES.inc()
    await asyncio.sleep(random.uniform(0, 0.005 * (attempt + 1)))


def parse_match(raw: bytes | str | None) -> Match | None:
    """The stored match; BrokenGameError if it cannot be read, NewerGameError if it is a
    newer release's (never rewritten as ours), `_FirstRelease` for a format 1 record. A
    format 2 record is read as this release's (bot.storage.legacy)."""
    if raw is None:
        return None
    try:
        match = Match.model_validate_json(raw)
    except ValidationError as exc:
        earlier = second_release(raw)
        if earlier is not None:
            return earlier
        newer = _newer_format(raw)
        if newer is not None:
            raise NewerGameError(f"stored game has format {newer}", _bytes(raw)) from None
        old = first_release(raw)
        if old is not None:
            raise _FirstRelease(old, _bytes(raw) or b"") from None
        message = f"stored game is unreadable: {exc.error_count()} errors"
        raise BrokenGameError(message, _bytes(raw)) from None
    if match.format > MATCH_FORMAT:
        raise NewerGameError(f"stored game has format {match.format}", _bytes(raw))
    if match.format == SECOND_FORMAT and not match.notes:  # as ours but for its format
        match.format = MATCH_FORMAT
        return match
    if match.format != MATCH_FORMAT:
        message = f"stored game has format {match.format}; this release reads {MATCH_FORMAT}"
        raise BrokenGameError(message, _bytes(raw))
    return match


def _newer_format(raw: bytes | str) -> int | None:
    """The format a record names, if it is a later one than this release's."""
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        return None
    found = data.get("format") if isinstance(data, dict) else None
    return found if isinstance(found, int) and found > MATCH_FORMAT else None


def _delivery(model: type[M], raw: bytes | str | None) -> Stored[M]:
    """A delivery record; one that cannot be read starts afresh (at worst a message is resent)."""
    if raw is None:
        return Stored(None, None)
    try:
        return Stored(model.model_validate_json(raw), _bytes(raw))
    except ValidationError:
        log.warning("unreadable %s record: starting it afresh", model.__name__)
        return Stored(None, _bytes(raw))


def _bytes(raw: bytes | str | None) -> bytes | None:
    return raw.encode() if isinstance(raw, str) else raw


def _text(raw: bytes | str) -> str:
    return raw if isinstance(raw, str) else raw.decode()


def _ms(when: float) -> int:
    return int(when * 1000)


def _parse_stat(raw: bytes | str | None) -> StatLine | None:
    if raw is None:
        return None
    try:
        return StatLine.model_validate_json(raw)
    except ValidationError:
        return None


def _parse_rating(raw: bytes | str | None) -> RatingLine | None:
    if raw is None:
        return None
    try:
        return RatingLine.model_validate_json(raw)
    except ValidationError:
        return None


def _parse_changes(raw: bytes | str | None) -> dict[int, int]:
    """A rated game's stored changes (none if they were dropped or cannot be read)."""
    try:
        found = json.loads(raw) if raw else {}
        return {int(user): int(change) for user, change in found.items()}
    except (ValueError, TypeError, AttributeError):
        return {}


def _merge(total: StatLine | None, line: StatLine) -> StatLine:
    if total is None:
        return line
    records = [r for r in (total.best_record, line.best_record) if r is not None]
    return StatLine(
        name=line.name,
        games=total.games + line.games,
        wins=total.wins + line.wins,
        points=total.points + line.points,
        best_record=max(records) if records else None,
    )
