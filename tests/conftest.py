"""Fixtures shared by the whole suite: a real Redis server, with a key prefix per test;
and the tiers' markers, given by folder."""

from __future__ import annotations

import os
import sys
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
import redis
from redis.asyncio import Redis

from tests.support.redis_server import RedisMissing, RedisServer, answers

# With PYTHONDONTWRITEBYTECODE set, each xdist worker would compile (and assert-rewrite)
# bot/, engine/ and the tests anew on every run: some 20 s of CPU a worker, most of the fast
# tier's time on two cores. The caches go to __pycache__/ (ignored by git); the bot
# processes the e2e tests start read them too.
sys.dont_write_bytecode = False

MACHINE_REDIS_PORT = 6379  # on 127.0.0.1
TESTS = Path(__file__).resolve().parent
# Folder -> marker: `-m "not e2e and not cluster"` is the fast tier.
FOLDER_MARKERS = {"e2e": "e2e", "cluster": "cluster", "browser": "browser"}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        try:
            folder = item.path.resolve().relative_to(TESTS).parts[0]
        except ValueError:  # not under tests/
            continue
        marker = FOLDER_MARKERS.get(folder)
        if marker is not None:
            item.add_marker(marker)


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """The machine's Redis at 127.0.0.1:6379, or a server the suite starts for itself."""
    if os.environ.get("TEST_REDIS_URL"):
        yield os.environ["TEST_REDIS_URL"]
        return
    if answers(MACHINE_REDIS_PORT):
        yield "redis://127.0.0.1:6379/0"
        return
    try:
        server = RedisServer(start_timeout=10).start()
    except RedisMissing:
        pytest.fail("no Redis at 127.0.0.1:6379 and no redis-server to start one")
    yield server.url
    server.remove()


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
