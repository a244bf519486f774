"""A chat's standings: its stats (games, wins, points by person) and its ratings (by
variant), each finished game added once, and what each rated game changed, for its
final table."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

from pydantic import ValidationError
from redis.asyncio import Redis

from bot.storage import scripts
from bot.storage.common import MAX_ATTEMPTS, STATS_TTL, backoff
from bot.storage.keys import Keys
from bot.storage.models import RatingLine, StatLine
from bot.storage.store_errors import ConflictError

COUNTED_KEPT = 50  # ids of a chat's last games remembered as counted in the stats
RATED_KEPT = 200  # ids (and changes) of a chat's last rated games remembered
RATED_PEOPLE = 500  # people rated per chat and variant; the least recently rated go first

Compute = Callable[[dict[int, RatingLine | None]], tuple[dict[int, RatingLine], dict[int, int]]]


class Scores:
    def __init__(self, redis: Redis, keys: Keys) -> None:
        self.redis = redis
        self.keys = keys
        self._stats_add = redis.register_script(scripts.STATS_ADD)
        self._ratings_add = redis.register_script(scripts.RATINGS_ADD)

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
        self, chat_id: int, variant: str, game_id: str, people: list[int], compute: Compute
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

    async def rating_changes(self, chat_id: int, game_id: str) -> dict[int, int] | None:
        """What rating the game gave or took, by user id, as `add_ratings` stored it; None
        if it was not rated (yet, or so long ago that its changes were dropped)."""
        raw = await self.redis.hget(self.keys.rating_changes(chat_id), game_id)
        return None if raw is None else _parse_changes(raw)

    async def ratings(self, chat_id: int, variant: str) -> dict[int, RatingLine]:
        raw = await self.redis.hgetall(self.keys.ratings(chat_id, variant))
        lines = {}
        for user_id, value in raw.items():
            line = _parse_rating(value)
            if line is not None:
                lines[int(user_id)] = line
        return lines


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
        penalties=total.penalties + line.penalties,
        penalty_games=total.penalty_games + line.penalty_games,
    )
