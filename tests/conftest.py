"""Fixtures shared by the whole suite: a real Redis server, with a key prefix per test."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import time
import uuid
from collections.abc import AsyncIterator, Iterator

import pytest
import redis
from redis.asyncio import Redis

MACHINE_REDIS = ("127.0.0.1", 6379)


def _answers(host: str, port: int) -> bool:
    try:
        client = redis.Redis(host=host, port=port, socket_connect_timeout=0.5)
        return bool(client.ping())
    except redis.RedisError:
        return False


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """The machine's Redis at 127.0.0.1:6379, or a server the suite starts for itself."""
    if os.environ.get("TEST_REDIS_URL"):
        yield os.environ["TEST_REDIS_URL"]
        return
    if _answers(*MACHINE_REDIS):
        yield "redis://127.0.0.1:6379/0"
        return
    server = shutil.which("redis-server")
    if server is None:
        pytest.fail("no Redis at 127.0.0.1:6379 and no redis-server to start one")
    port = _free_port()
    folder = tempfile.mkdtemp(prefix="domino-redis-")
    process = subprocess.Popen(
        [server, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--dir", folder],
        stdout=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 10
    while not _answers("127.0.0.1", port):
        if time.monotonic() > deadline:
            process.kill()
            pytest.fail("the test Redis server did not start")
        time.sleep(0.05)
    yield f"redis://127.0.0.1:{port}/0"
    process.terminate()
    process.wait(timeout=10)
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def key_prefix(redis_url: str) -> Iterator[str]:
    """A key prefix of this test's own; its keys (and only they) are removed afterwards."""
    prefix = f"test-{uuid.uuid4().hex[:12]}"
    yield prefix
    client = redis.Redis.from_url(redis_url)
    keys = list(client.scan_iter(match=f"{prefix}:*", count=500))
    if keys:
        client.delete(*keys)
    client.close()


@pytest.fixture
async def redis_client(redis_url: str) -> AsyncIterator[Redis]:
    client = Redis.from_url(redis_url)
    yield client
    await client.aclose()
