"""A person's preferences: each change writes only its own field, atomically, so changes
at the same moment all stay; earlier releases' records are read and carried over.

Issue 27, point 14: a `/lang` and a `/start` at the same moment overwrote each other
(both read the whole record, changed their field, and wrote the whole record back).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from redis.asyncio import Redis

from bot.storage.keys import Keys
from bot.storage.models import UserPrefs
from bot.storage.prefs import Prefs
from bot.storage.store import Store
from tests.bot.conftest import Harness

STORED = Path(__file__).resolve().parents[2] / "data" / "stored" / "prefs"
EARLIER = sorted(STORED.glob("*.json"))


@pytest.fixture
def store(redis_client: Redis, key_prefix: str) -> Store:
    return Store(redis_client, Keys(key_prefix))


def changes(prefs: Prefs, user: int) -> list[Callable[[], Awaitable[None]]]:
    """One change of each field (each from its default)."""
    return [lambda: prefs.set_language(user, "en"), lambda: prefs.mark_started(user)]


async def test_two_changes_of_different_fields_at_once_both_stay(store: Store) -> None:
    users = range(1001, 1041)
    await asyncio.gather(*(change() for user in users for change in changes(store.prefs, user)))
    found = await asyncio.gather(*(store.prefs.user(user) for user in users))
    assert found == [UserPrefs(lang="en", started=True)] * len(users)


async def test_changes_at_once_on_an_earlier_releases_record_all_stay(store: Store) -> None:
    """The first changes to meet an earlier release's record carry it over (once, whoever is
    first) and then write their own field: nothing of it, or of them, is lost."""
    users = range(2001, 2031)
    earlier = UserPrefs(lang="ru", started=False).model_dump_json()
    for user in users:
        await store.redis.set(store.keys.user(user), earlier)
    await asyncio.gather(
        *(store.prefs.mark_started(user) for user in users),
        *(store.prefs.set_language(user, "en") for user in users[::2]),
        *(store.prefs.user(user) for user in users),
    )
    for user in users:
        expected = UserPrefs(lang="en" if (user - 2001) % 2 == 0 else "ru", started=True)
        assert await store.prefs.user(user) == expected, user
        assert await store.redis.get(store.keys.user(user)) is None


async def earlier_record(store: Store, path: Path) -> UserPrefs:
    """User 7's record as an earlier release wrote it (the file at `path`); what it holds."""
    raw = path.read_bytes()
    await store.redis.set(store.keys.user(7), raw)
    return UserPrefs.model_validate(json.loads(raw))


@pytest.mark.parametrize("path", EARLIER, ids=lambda p: p.stem)
async def test_an_earlier_releases_record_is_read_and_carried_over(
    store: Store, path: Path
) -> None:
    written = await earlier_record(store, path)
    assert await store.prefs.user(7) == written  # read as it was...
    assert await store.redis.get(store.keys.user(7)) is None  # ...and carried over
    assert await store.prefs.user(7) == written
    await store.prefs.set_language(7, "en")
    assert await store.prefs.user(7) == written.model_copy(update={"lang": "en"})


@pytest.mark.parametrize("path", EARLIER, ids=lambda p: p.stem)
async def test_an_earlier_releases_record_is_carried_over_by_a_change(
    store: Store, path: Path
) -> None:
    written = await earlier_record(store, path)
    await store.prefs.mark_unreachable(7)
    assert await store.prefs.user(7) == written.model_copy(update={"started": False})
    assert await store.redis.get(store.keys.user(7)) is None


async def test_an_unreadable_record_reads_as_the_defaults_and_goes(store: Store) -> None:
    await store.redis.set(store.keys.user(7), b"{not json")
    assert await store.prefs.user(7) == UserPrefs()
    await store.prefs.mark_started(7)
    assert await store.prefs.user(7) == UserPrefs(started=True)
    assert await store.redis.get(store.keys.user(7)) is None


async def test_a_change_touches_only_its_own_field(store: Store) -> None:
    await store.prefs.set_language(7, "en")
    await store.prefs.mark_started(7)
    fields = await store.redis.hgetall(store.keys.user_prefs(7))
    assert fields == {b"lang": b"en", b"started": b"1"}
    await store.prefs.mark_unreachable(7)
    assert await store.prefs.user(7) == UserPrefs(lang="en", started=False)
    assert await store.redis.ttl(store.keys.user_prefs(7)) > 0


# -- the same race through the bot: /start and /lang at the same moment -----------------


async def test_start_and_lang_at_the_same_moment_both_stay(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each update reads the person's preferences; the first read waits (a few seconds at
    most) for the second, so that both handlers are under way at once. A handler that read
    the whole record and wrote it back whole then loses the other's change."""
    (user,) = h.people("Андрей")
    reads: list[int] = []
    both = asyncio.Event()
    real = Prefs.user

    async def read(self: Prefs, user_id: int) -> UserPrefs:
        found = await real(self, user_id)
        if user_id == user and not both.is_set():
            reads.append(user_id)
            if len(reads) >= 2:
                both.set()
            else:
                # The other handler reads too, or writes without reading.
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(both.wait(), 3)
        return found

    monkeypatch.setattr(Prefs, "user", read)
    started = h.api.send_text(user, user, "/start")
    chosen = h.api.send_text(user, user, "/lang en")
    for sent in (started, chosen):
        await h.api.wait_message_async(user, after=sent, where=lambda m, s=sent: m.reply_to == s)
    assert await h.store.prefs.user(user) == UserPrefs(lang="en", started=True)
