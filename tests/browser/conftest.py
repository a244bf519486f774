"""Browser fixtures: Debian's headless Chromium driven by Playwright (never a browser of
Playwright's own: `playwright install` is never run), the real bot process against the
fake Bot API serving the table, and pages opened as Telegram would open them: the page
from the bot's server, Telegram's script stood in for (tests/support/table.py), nothing
else reached."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import redis
from playwright.sync_api import Browser, BrowserContext, Page, Route, expect, sync_playwright

from tests.fakebotapi import ChatRef, FakeBotApi, UserRef
from tests.support.bot_process import BotProcess, running, serving_table_environment
from tests.support.redis_server import free_port
from tests.support.table import TELEGRAM_SCRIPT, init_data, stand_in_script
from tests.support.waiting import until

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE = {"width": 390, "height": 844}  # a portrait phone
WAIT_MS = 15_000  # what the page shows may take a while on a loaded machine

expect.set_options(timeout=WAIT_MS)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """One Chromium for the module (a fresh profile of its own, as Playwright launches it)."""
    if shutil.which(CHROMIUM) is None:
        pytest.fail(f"no {CHROMIUM}: .ci/run installs Debian's chromium package")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True
        )
        yield launched
        launched.close()


@dataclass
class Site:
    """The bot's table as a browser reaches it, and what the tests read beside it."""

    api: FakeBotApi
    browser: Browser
    base: str  # http://127.0.0.1:<port> of the bot's web server
    store: redis.Redis
    prefix: str
    contexts: list[BrowserContext] = field(default_factory=list)

    def open(
        self,
        user: UserRef,
        game_id: str,
        *,
        base: str | None = None,
        token: str | None = None,
        auth_date: float | None = None,
        language_code: str | None = None,
        raw: str | None = None,
    ) -> Page:
        """The table as `user` opens it from a `startapp=<game_id>` link, on a phone."""
        data = raw
        if data is None:
            data = init_data(
                token or self.api.token,
                user.id,
                user.first_name,
                game_id,
                language_code=language_code or user.language_code,
                auth_date=auth_date,
            )
        context = self.browser.new_context(viewport=PHONE, device_scale_factor=2)
        self.contexts.append(context)
        script = stand_in_script(data)

        def route(target: Route) -> None:
            url = target.request.url
            if url == TELEGRAM_SCRIPT:
                target.fulfill(status=200, content_type="application/javascript", body=script)
            elif url.startswith(("http://127.0.0.1", "ws://127.0.0.1")):
                target.continue_()
            else:  # nothing of the internet
                target.abort()

        context.route("**/*", route)
        page = context.new_page()
        page.goto((base or self.base) + "/table/")
        return page

    def people(self, *names: str, lang: str = "ru") -> list[UserRef]:
        """Telegram users of these first names, speaking `lang`."""
        return [self.api.add_user(name, language_code=lang) for name in names]

    def new_lobby(
        self, creator: UserRef, *others: UserRef, private_chat: bool = False
    ) -> tuple[ChatRef, str]:
        """A supergroup «Домино» of `creator` and `others` in which `creator` sent /newgame
        (after opening the bot's private chat, if `private_chat`: her lobby then seats her);
        the group and the lobby's game id."""
        group = self.api.add_group("Домино", members=[creator, *others], supergroup=True)
        if private_chat:
            greeted = self.api.start_bot(creator)
            self.api.wait_message(creator.id, after=greeted)
        self.api.send_text(creator, group.id, "/newgame")
        return group, self.lobby(group.id)["id"]

    def match(self, chat: int, thread: int | None = None) -> dict[str, Any]:
        raw = self.store.get(f"{self.prefix}:{{c{chat}}}:game:{thread or 0}")
        assert raw is not None, "no game stored"
        return dict(json.loads(raw))

    def lobby(self, chat: int) -> dict[str, Any]:
        """The chat's lobby, once stored."""
        return dict(until(lambda: self._stored(chat), "the lobby stored", 20))

    def _stored(self, chat: int) -> dict[str, Any] | None:
        raw = self.store.get(f"{self.prefix}:{{c{chat}}}:game:0")
        return None if raw is None else dict(json.loads(raw))

    def close(self) -> None:
        for context in self.contexts:
            context.close()


@pytest.fixture
def api() -> Iterator[FakeBotApi]:
    with FakeBotApi() as server:
        yield server


@pytest.fixture
def port() -> int:
    return free_port()


@pytest.fixture
def bot(
    api: FakeBotApi, redis_url: str, key_prefix: str, port: int, tmp_path: Path
) -> Iterator[BotProcess]:
    env = serving_table_environment(api, redis_url, key_prefix, port)
    with running(env, tmp_path / "bot.log", timeout=30) as process:
        yield process


@pytest.fixture
def site(
    api: FakeBotApi, bot: BotProcess, browser: Browser, redis_url: str, key_prefix: str, port: int
) -> Iterator[Site]:
    store = redis.Redis.from_url(redis_url)
    found = Site(api, browser, f"http://127.0.0.1:{port}", store, key_prefix)
    yield found
    found.close()
    store.close()
