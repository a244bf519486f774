"""Connecting to Redis: one server, a Redis Cluster, a master found through Sentinel, or
the embedded in-memory store.

REDIS_URL says both where and what:

- `redis://[[user]:password@]host[:port][/db]`: one server (`rediss://` with TLS,
  `unix:///path` on a socket), as redis-py reads such URLs;
- `redis+cluster://[[user]:password@]host:port[,host:port...]`: a Redis Cluster, found
  through any of the nodes named (`rediss+cluster://` with TLS);
- `redis+sentinel://[[user]:password@]host:port[,host:port...]/service[/db]`: the master
  the Sentinels name `service` (the password is the master's; add
  `?sentinel_password=...` if the Sentinels want one; `rediss+sentinel://` with TLS);
- unset: the embedded in-memory store (games do not survive a restart).

Whatever the kind, the client is used through the same commands: every key of a chat
carries its chat's hash tag, so a cluster serves each of the store's scripts and
multi-key reads from one slot.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass, field
from typing import Any, cast
from urllib.parse import parse_qs, unquote, urlsplit

from redis.asyncio import BlockingConnectionPool, Redis
from redis.asyncio.cluster import ClusterNode, RedisCluster
from redis.asyncio.connection import AbstractConnection
from redis.asyncio.retry import Retry
from redis.asyncio.sentinel import Sentinel, SentinelConnectionPool
from redis.backoff import ExponentialBackoff
from redis.exceptions import (
    ClusterDownError,
    RedisClusterException,
    RedisError,
    SlotNotCoveredError,
)
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from bot.settings import Settings

log = logging.getLogger(__name__)

REDIS_POOL_WAIT = 20.0  # seconds a command waits for a free connection before failing
RECONNECT_TRIES = 2  # a command on a broken connection is sent again on a new one
CLUSTER_SCHEMES = {"redis+cluster": False, "rediss+cluster": True}  # scheme: TLS
SENTINEL_SCHEMES = {"redis+sentinel": False, "rediss+sentinel": True}
FIRST_PAUSE = 0.2  # seconds between pings while Redis does not answer, doubling...
LAST_PAUSE = 2.0  # ...up to this
# Seconds the first ping may take, however little time is left: redis-py retries a
# refused connection within one command for a few seconds (with jitter).
PING_LONGEST = 10.0


@dataclass(frozen=True)
class Place:
    """A `redis+cluster://` or `redis+sentinel://` URL, read."""

    tls: bool
    nodes: list[tuple[str, int]]
    username: str | None
    password: str | None = field(repr=False)
    service: str = ""  # Sentinel: the master's name
    db: int = 0
    sentinel_password: str | None = field(default=None, repr=False)

    def __str__(self) -> str:
        """Where, without any password."""
        where = ",".join(f"{host}:{port}" for host, port in self.nodes)
        return f"{self.service} via sentinel {where}" if self.service else where


def connect_redis(settings: Settings) -> tuple[Redis, bool]:
    """The Redis client REDIS_URL names, and whether it is the embedded in-memory store.

    One server's pool blocks when all its connections are busy (rather than failing),
    and is sized with the updates handled at once and the delivery work beside them: a
    burst of presses queues for a connection instead of being lost; a Sentinel's master
    gets the same pool. A cluster client keeps up to that many connections to each node.

    Raises ValueError for a URL it cannot read (the message never shows a password).
    A cluster client is typed as `Redis`: it answers every command the bot uses under
    the same name, with the same arguments.
    """
    if settings.redis_url is None:
        from fakeredis import FakeAsyncRedis

        return FakeAsyncRedis(), True
    url = settings.redis_url.get_secret_value()
    scheme = url.partition("://")[0].lower()
    if scheme in CLUSTER_SCHEMES:
        return cast(Redis, _cluster(parse_place(url), settings.redis_max_connections)), False
    if scheme in SENTINEL_SCHEMES:
        return _sentinel(parse_place(url), settings.redis_max_connections), False
    pool = ReadyPool.from_url(
        url,
        max_connections=settings.redis_max_connections,
        timeout=REDIS_POOL_WAIT,
        # After a Redis restart every pooled connection is dead: the first command on one
        # reconnects and tries again instead of failing the press it serves. Writes are
        # compare-and-set scripts, so one that did land and is sent again changes nothing.
        retry=Retry(ExponentialBackoff(cap=0.5, base=0.05), RECONNECT_TRIES),
        retry_on_error=[RedisConnectionError],
    )
    return Redis(connection_pool=pool), False


def parse_place(url: str) -> Place:
    """Read a `redis+cluster://` or `redis+sentinel://` URL (see the module's doc)."""
    scheme = url.partition("://")[0].lower()
    sentinel = scheme in SENTINEL_SCHEMES
    if not sentinel and scheme not in CLUSTER_SCHEMES:
        raise ValueError(f"REDIS_URL: {scheme!r} is neither a cluster nor a sentinel URL")
    parts = urlsplit(url)
    userinfo, _, hosts = parts.netloc.rpartition("@")
    user, _, password = userinfo.partition(":")
    nodes = [_node(item, 26379 if sentinel else 6379) for item in hosts.split(",")]
    options = parse_qs(parts.query)
    unknown = set(options) - ({"sentinel_password"} if sentinel else set())
    if unknown:
        raise ValueError(f"REDIS_URL: unknown options {', '.join(sorted(unknown))}")
    path = [unquote(p) for p in parts.path.split("/") if p]
    place = Place(
        tls=(SENTINEL_SCHEMES if sentinel else CLUSTER_SCHEMES)[scheme],
        nodes=nodes,
        username=unquote(user) or None,
        password=unquote(password) or None,
    )
    if not sentinel:
        if path not in ([], ["0"]):
            raise ValueError("REDIS_URL: a Redis Cluster has only database 0")
        return place
    if not path or len(path) > 2:
        raise ValueError("REDIS_URL: a sentinel URL ends with /<service name>[/<db>]")
    if len(path) == 2 and not path[1].isdigit():
        raise ValueError("REDIS_URL: the database after the service name is a number")
    given = options.get("sentinel_password", [""])[0]
    return Place(
        tls=place.tls,
        nodes=nodes,
        username=place.username,
        password=place.password,
        service=path[0],
        db=int(path[1]) if len(path) == 2 else 0,
        sentinel_password=given or None,
    )


def redis_place(url: str) -> str:
    """host:port (or each host:port) of a REDIS_URL, never its password."""
    scheme = url.partition("://")[0].lower()
    try:
        if scheme in CLUSTER_SCHEMES or scheme in SENTINEL_SCHEMES:
            return str(parse_place(url))
        parts = urlsplit(url)
        if scheme == "unix":
            return parts.path
        return f"{parts.hostname}:{parts.port or 6379}"
    except ValueError:
        return "an unreadable REDIS_URL"


def describe(client: Any) -> str:
    """Where a client connects, for a log line (never a password)."""
    if isinstance(client, RedisCluster):
        return ",".join(client.nodes_manager.startup_nodes)
    pool = getattr(client, "connection_pool", None)
    if isinstance(pool, SentinelConnectionPool):
        sentinels = [describe(s) for s in pool.sentinel_manager.sentinels]
        return f"{pool.service_name} via sentinel {','.join(sentinels)}"
    kwargs = getattr(pool, "connection_kwargs", {})
    if "path" in kwargs:
        return str(kwargs["path"])
    if "host" in kwargs:
        return f"{kwargs['host']}:{kwargs.get('port', 6379)}"
    return "the embedded store"


async def wait_for_redis(client: Redis, seconds: float) -> None:
    """Ping until Redis answers, for about `seconds` (a bot started alongside its Redis).

    Pauses 0.2 s between tries, doubling up to 2 s, and says once that it is waiting.
    When the time is up, raises the last RedisError. (redis-py itself retries a failed
    connection for a few seconds within one ping: a ping still under way then is cut
    short, unless it is the first, which may take PING_LONGEST so that the error said
    is what went wrong rather than that time ran out.)
    """
    deadline = time.monotonic() + seconds
    pause = FIRST_PAUSE
    error: RedisError | None = None
    warned = False

    def warn() -> None:
        nonlocal warned
        if not warned and seconds > 0:
            where = describe(client)
            log.warning("Redis at %s not answering yet; retrying for %g s", where, seconds)
            warned = True

    while True:
        started = time.monotonic()
        limit = max(deadline, started + (0 if error is not None else PING_LONGEST))
        ping = asyncio.ensure_future(client.ping())
        try:
            if not warned:
                done, _ = await asyncio.wait({ping}, timeout=min(FIRST_PAUSE, limit - started))
                if not done:
                    warn()
            await asyncio.wait_for(ping, timeout=max(limit - time.monotonic(), 0))
            if warned:
                log.info("Redis at %s answers", describe(client))
            return
        except RedisError as exc:
            error = exc
        except RedisClusterException as exc:
            error = RedisConnectionError(f"Redis Cluster: {exc}")
        except TimeoutError:  # the ping under way when the time was up
            raise error or RedisTimeoutError(f"no answer within {limit - started:.3g} s") from None
        finally:
            ping.cancel()
        if time.monotonic() >= deadline:
            raise error
        warn()
        await asyncio.sleep(min(pause, deadline - time.monotonic()))
        pause = min(pause * 2, LAST_PAUSE)
        if time.monotonic() >= deadline:
            raise error


class Cluster(RedisCluster):
    """redis-py's cluster client, as the bot needs it.

    - A command waits (up to `wait` seconds) while `max_connections` commands are under
      way, as on one server's blocking pool: redis-py's own cluster client fails at
      once (MaxConnectionsError) when a node's connections are all busy, and a burst
      of presses would fail rather than queue. (Pipelines are not bounded; the store
      uses none.)
    - It fails with RedisError (what the bot handles) when the cluster cannot be
      reached or a slot has no node, not with RedisClusterException.
    """

    def __init__(self, *args: Any, wait: float = REDIS_POOL_WAIT, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._under_way = asyncio.Semaphore(kwargs.get("max_connections", 100))
        self._wait = wait

    async def initialize(self, *args: Any, **kwargs: Any) -> RedisCluster:
        try:  # (its arguments differ between redis-py versions)
            return await super().initialize(*args, **kwargs)
        except RedisClusterException as exc:
            raise RedisConnectionError(f"Redis Cluster: {exc}") from exc

    async def execute_command(self, *args: Any, **kwargs: Any) -> Any:
        try:
            async with asyncio.timeout(self._wait):
                await self._under_way.acquire()
        except TimeoutError:
            raise RedisConnectionError("No connection available.") from None
        try:
            return await super().execute_command(*args, **kwargs)
        except SlotNotCoveredError as exc:
            raise ClusterDownError(str(exc)) from exc
        finally:
            self._under_way.release()


class ReadyPool(BlockingConnectionPool):
    """redis-py's blocking pool, with a quick way to an idle connection.

    By hand, since the library offers no such option: its pool takes a condition, a
    timeout scope and a lock on every command, and calls its metrics hooks (unused
    here), a fifth of a command's CPU in the client (`bench/redis_client.py`); at
    the table that is most of what a move costs the bot beyond the game itself. An
    idle connection is handed out at once, checked as the library checks it; with none
    idle the library's way is taken (a new connection, or a wait for one). Nothing
    awaits between the look and the taking, so no two commands take one connection.
    """

    async def get_connection(self, *args: Any, **kwargs: Any) -> AbstractConnection:
        if not self._available_connections or getattr(self, "_in_maintenance", False):
            return cast(AbstractConnection, await super().get_connection())  # type: ignore[no-untyped-call]
        connection = self._available_connections.pop()
        self._in_use_connections.add(connection)
        try:
            await self.ensure_connection(connection)
        except BaseException:
            await self.release(connection)
            raise
        return connection


class BlockingSentinelPool(SentinelConnectionPool, BlockingConnectionPool):
    """The master's pool: Sentinel finds the master, and a command waits for a free
    connection (up to `timeout`) like on one server."""


class SentinelRedis(Redis):
    """The master's client; closing it also closes the connections to the Sentinels."""

    async def aclose(self, close_connection_pool: bool | None = None) -> None:
        await super().aclose(close_connection_pool)
        pool = self.connection_pool
        if isinstance(pool, SentinelConnectionPool):
            for sentinel in pool.sentinel_manager.sentinels:
                await sentinel.aclose()


def _cluster(place: Place, max_connections: int) -> Cluster:
    return Cluster(
        startup_nodes=[ClusterNode(host, port) for host, port in place.nodes],
        username=place.username,
        password=place.password,
        ssl=place.tls,
        max_connections=max_connections,
    )


def _sentinel(place: Place, max_connections: int) -> Redis:
    sentinel_kwargs: dict[str, Any] = {"ssl": place.tls} if place.tls else {}
    if place.sentinel_password is not None:
        sentinel_kwargs["password"] = place.sentinel_password
    # redis-py types Sentinel's constructor from 8.2 on; earlier 8.x releases do not.
    sentinels = Sentinel(place.nodes, sentinel_kwargs=sentinel_kwargs)  # type: ignore[no-untyped-call, unused-ignore]
    master = sentinels.master_for(
        place.service,
        redis_class=SentinelRedis,
        connection_pool_class=BlockingSentinelPool,
        db=place.db,
        username=place.username,
        password=place.password,
        ssl=place.tls,
        max_connections=max_connections,
        timeout=REDIS_POOL_WAIT,
    )
    return cast(Redis, master)


def _node(text: str, default_port: int) -> tuple[str, int]:
    """("host", port) from "host[:port]" or "[v6 address][:port]"."""
    text = text.strip()
    if text.startswith("["):
        host, _, rest = text[1:].partition("]")
        port = rest.removeprefix(":")
    elif ":" in text:
        host, _, port = text.rpartition(":")
    else:
        host, port = text, ""
    if not host:
        raise ValueError("REDIS_URL: a node without a host name")
    if port and not (port.isdigit() and 0 < int(port) < 65536):
        raise ValueError(f"REDIS_URL: {port!r} is not a port")
    return host, int(port) if port else default_port
