"""A real Redis Cluster for the tests: three masters on 127.0.0.1, started once a session.

Each node is `redis-server --cluster-enabled yes` in a folder of its own; `redis-cli
--cluster create` gives the three of them the 16384 slots. The tests are skipped only
if redis-server (or the redis-cli beside it) is not installed.
"""

from __future__ import annotations

import random
import shutil
import socket
import subprocess
import tempfile
import time
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

TOKEN = "123456:ABCdefGHIjklMNOpqrSTUvwxYZ0123456789"
BUS_OFFSET = 10_000  # a cluster node also listens on its port + 10000 (the cluster bus)


def free_port(bus: bool = False) -> int:
    """A port nothing listens on (and, for a cluster node, its bus port too)."""
    for _ in range(200):
        port = random.randint(20_000, 50_000)
        ports = (port, port + BUS_OFFSET) if bus else (port,)
        try:
            for each in ports:
                with socket.socket() as sock:
                    sock.bind(("127.0.0.1", each))
        except OSError:
            continue
        return port
    raise RuntimeError("no free port")


def answers(port: int, password: str | None = None) -> bool:
    try:
        client = redis.Redis(port=port, password=password, socket_connect_timeout=0.5)
        try:
            return bool(client.ping())
        finally:
            client.close()
    except redis.RedisError:
        return False


def wait_until(check: Any, what: str, timeout: float = 15) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise RuntimeError(f"{what}: not within {timeout} s")
        time.sleep(0.05)


def redis_server() -> str:
    found = shutil.which("redis-server")
    if found is None:
        pytest.skip("redis-server is not installed")
    return found


def start_server(folder: Path, port: int, *extra: str) -> subprocess.Popen[bytes]:
    """A redis-server on 127.0.0.1:`port` keeping nothing on disk; it answers on return."""
    folder.mkdir(parents=True, exist_ok=True)
    args = [redis_server(), "--port", str(port), "--bind", "127.0.0.1", "--dir", str(folder)]
    args += ["--save", "", "--appendonly", "no", "--daemonize", "no", *extra]
    log = (folder / f"redis-{port}.log").open("ab")
    process = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT, cwd=folder)
    password = extra[extra.index("--requirepass") + 1] if "--requirepass" in extra else None
    try:
        wait_until(lambda: answers(port, password) or process.poll() is not None, "redis up")
    except RuntimeError:
        stop(process)
        raise
    if process.poll() is not None:
        raise RuntimeError(f"redis-server on {port} exited: see {folder}/redis-{port}.log")
    return process


def stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


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
    redis_server()
    cli = shutil.which("redis-cli")
    if cli is None:
        pytest.skip("redis-cli (installed with redis-server) is missing")
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

        wait_until(ready, "cluster_state:ok on every node", timeout=30)
        yield RunningCluster(ports)
    finally:
        for process in processes:
            stop(process)
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
