"""A real Redis Cluster for the tests: three masters on 127.0.0.1, started once a session.

Each node is `redis-server --cluster-enabled yes` in a folder of its own (started by
tests/support/redis_server.py); `redis-cli --cluster create` gives the three of them the
16384 slots. Without redis-server (or the redis-cli beside it) the tests fail, saying so.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
import uuid
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import redis
from redis.asyncio import Redis

from bot.settings import Settings
from bot.storage.connect import connect_redis
from tests.support.redis_server import (
    RedisServer,
    free_port,
    redis_binary,
    stop_process,
)
from tests.support.waiting import until

TOKEN = "123456:ABCdefGHIjklMNOpqrSTUvwxYZ0123456789"
BUS_OFFSET = 10_000  # a cluster node also listens on its port + 10000 (the cluster bus)


def redis_server() -> str:
    """The redis-server binary (the Sentinel test runs it as a sentinel)."""
    return redis_binary()


def start_server(folder: Path, port: int, *extra: str) -> subprocess.Popen[bytes]:
    """A redis-server on 127.0.0.1:`port` keeping nothing on disk; it answers on return."""
    process = RedisServer(folder, port, extra=extra).start().process
    assert process is not None
    return process


@dataclass(frozen=True)
class RunningCluster:
    ports: list[int]

    @property
    def url(self) -> str:
        """REDIS_URL naming the first node (the client finds the others)."""
        return f"redis+cluster://127.0.0.1:{self.ports[0]}"

    @property
    def url_all(self) -> str:
        return "redis+cluster://" + ",".join(f"127.0.0.1:{p}" for p in self.ports)

    def node(self, port: int) -> redis.Redis:
        return redis.Redis(port=port, socket_connect_timeout=2)


def cluster_info(port: int) -> dict[str, str]:
    client = redis.Redis(port=port, socket_connect_timeout=1)
    try:
        text = client.execute_command("CLUSTER INFO")
    finally:
        client.close()
    if isinstance(text, bytes):
        text = text.decode()
    if isinstance(text, dict):
        return {str(k): str(v) for k, v in text.items()}
    return dict(line.split(":", 1) for line in str(text).split() if ":" in line)


@pytest.fixture(scope="session")
def cluster() -> Iterator[RunningCluster]:
    """Three masters sharing the 16384 slots (no replicas), for the whole session."""
    redis_binary()
    cli = shutil.which("redis-cli")
    if cli is None:
        pytest.fail("redis-cli (installed with redis-server) is missing")
    folder = Path(tempfile.mkdtemp(prefix="domino-cluster-"))
    processes: list[subprocess.Popen[bytes]] = []
    try:
        ports = []
        for _ in range(3):
            port = free_port(bus=True)
            node = folder / str(port)
            processes.append(
                start_server(
                    node,
                    port,
                    "--cluster-enabled",
                    "yes",
                    "--cluster-config-file",
                    f"nodes-{port}.conf",
                    "--cluster-node-timeout",
                    "5000",
                )
            )
            ports.append(port)
        created = subprocess.run(
            [
                cli,
                "--cluster",
                "create",
                *(f"127.0.0.1:{p}" for p in ports),
                "--cluster-replicas",
                "0",
                "--cluster-yes",
            ],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert created.returncode == 0, created.stdout + created.stderr

        def ready() -> bool:
            for port in ports:
                info = cluster_info(port)
                if info.get("cluster_state") != "ok" or info.get("cluster_known_nodes") != "3":
                    return False
            return True

        until(ready, "cluster_state:ok on every node", timeout=30, every=0.05)
        yield RunningCluster(ports)
    finally:
        for process in processes:
            stop_process(process)
        shutil.rmtree(folder, ignore_errors=True)


def settings_for(url: str | None, **values: Any) -> Settings:
    return Settings(
        telegram_bot_token=TOKEN,  # type: ignore[arg-type]
        redis_url=url,  # type: ignore[arg-type]
        _env_file=None,  # type: ignore[call-arg]
        **values,
    )


@pytest.fixture
async def cluster_client(cluster: RunningCluster) -> AsyncIterator[Redis]:
    """The bot's own client of the cluster (as REDIS_URL=redis+cluster://... gives it)."""
    client, embedded = connect_redis(settings_for(cluster.url))
    assert not embedded
    try:
        yield client
    finally:
        await client.aclose()


@pytest.fixture
def cluster_prefix(cluster: RunningCluster) -> Iterator[str]:
    """A key prefix of this test's own; its keys are removed from every node afterwards."""
    prefix = f"test-{uuid.uuid4().hex[:12]}"
    yield prefix
    for port in cluster.ports:
        node = cluster.node(port)
        try:
            keys = list(node.scan_iter(match=f"{prefix}:*", count=500))
            for key in keys:  # one by one: a node refuses keys of several slots at once
                node.delete(key)
        finally:
            node.close()
