"""Everything the bot keeps in Redis, by owner: each kind of state has one class that
alone writes its keys (bot.storage.keys names them all), and `Store` only builds them
from one client. Callers take the owner they need (the scheduler the due index, the
call budget its counts, ...).

The same code runs on one server, on the embedded store and on a Redis Cluster: a
script or a multi-key command only ever gets keys of one chat (one hash tag, so one
slot), or of one person, or of the call budget, or the one key of the due index. What
spans two chats (`Migration.move_chat`) is done key by key.
"""

from __future__ import annotations

from redis.asyncio import Redis

from bot.storage.answers import Answers
from bot.storage.budget_counts import BudgetStore
from bot.storage.delivery_records import DeliveryRecords
from bot.storage.due import DueIndex
from bot.storage.game_records import GameRecords
from bot.storage.heartbeats import Heartbeats
from bot.storage.hints_shown import Hints
from bot.storage.keys import Keys
from bot.storage.migration import Migration
from bot.storage.prefs import Prefs
from bot.storage.presence import Presence, PresenceTags
from bot.storage.scores import Scores
from bot.storage.subscriptions import Subscriptions
from bot.storage.tables import Tables
from bot.storage.updates import SeenUpdates
from bot.storage.user_games import UserGames


class Store:
    def __init__(self, redis: Redis, keys: Keys) -> None:
        """`redis`: a client of one server, of a Sentinel's master, of a Redis Cluster
        (`redis.asyncio.cluster.RedisCluster`, which has the same commands), or the
        embedded `FakeAsyncRedis`."""
        self.redis = redis
        self.keys = keys
        self.due = DueIndex(redis, keys)
        self.heartbeats = Heartbeats(redis, keys)
        self.prefs = Prefs(redis, keys)
        self.migration = Migration(redis, keys, self.due, self.prefs)
        presence_tags = PresenceTags()
        self.games = GameRecords(redis, keys, self.migration, self.due, presence_tags)
        self.deliveries = DeliveryRecords(self.games)
        self.budget = BudgetStore(redis, keys)
        self.scores = Scores(redis, keys)
        self.hints = Hints(redis, keys)
        self.answers = Answers(redis, keys)
        self.subscriptions = Subscriptions(redis, keys)
        self.user_games = UserGames(redis, keys)
        self.updates = SeenUpdates(redis, keys)
        self.tables = Tables(redis, keys)
        self.presence = Presence(redis, keys, presence_tags)

    @classmethod
    def under(cls, redis: Redis, prefix: str) -> Store:
        """The store whose every key starts with `prefix` (settings.key_prefix)."""
        return cls(redis, Keys(prefix))
