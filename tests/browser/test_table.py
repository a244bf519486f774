"""The live table in a real browser, against the real bot process: a lobby joined and
started from the page, the board, turn and scores as the engine has them, a hand only for
its seat's user, reconnecting, and init data that cannot be trusted refused."""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import aiohttp
import pytest
import redis
from playwright.sync_api import Browser, Page, expect

from bot.table.initdata import sign
from engine import Game, Play, unpack, view_for
from tests.browser.conftest import Site
from tests.fakebotapi import Balancer, FakeBotApi
from tests.support.bot_process import TABLE_ON, BotProcess, bot_environment, running
from tests.support.http import health
from tests.support.players import Human
from tests.support.redis_server import free_port
from tests.support.table import init_data
from tests.support.waiting import until

# DOMINO_SCREENSHOTS=docs/pictures: the tests also take the pictures docs/table.md shows.
SCREENSHOTS = os.environ.get("DOMINO_SCREENSHOTS")
TURN = re.compile(r"\bturn\b")


def shot(page: Page, name: str) -> None:
    if SCREENSHOTS:
        page.screenshot(path=str(Path(SCREENSHOTS) / f"table-{name}.png"), full_page=False)


def version(page: Page) -> int:
    return int(page.evaluate("document.body.dataset.version || '-2'"))


def settled(site: Site, chat: int, pages: list[Page]) -> tuple[dict[str, Any], Game]:
    """The stored match once a person is to act (nothing moves until he does) and every
    page shows its latest version."""

    def ready() -> tuple[dict[str, Any], Game] | None:
        match = site.match(chat)
        if match["status"] != "playing" or match["engine"] is None:
            return None
        game = unpack(match["engine"])
        turn = game.turn
        if turn is None or match["seats"][turn]["computer"]:
            return None
        if any(version(page) != match["rev"] for page in pages):
            return None
        return match, game

    return until(ready, "a person to act, shown on every page", 30)


def hand_shown(page: Page) -> list[str]:
    return page.locator("#hand-tiles button.tile").evaluate_all(
        "nodes => nodes.map(n => n.dataset.tile)"
    )


def check_table_against(page: Page, game: Game) -> None:
    """The board's tiles, whose turn, the tiles in hand and the scores, as the engine has them."""
    public = view_for(game)
    rows = page.locator("#players tr[data-seat]")
    expect(rows).to_have_count(len(public.players))
    for seat in range(len(public.players)):
        row = page.locator(f"#players tr[data-seat='{seat}']")
        expect(row.locator("td.tiles")).to_have_text(str(public.hand_sizes[seat]))
        expect(row.locator("td.total")).to_have_text(str(public.totals[seat]))
        if seat == public.turn:
            expect(row).to_have_class(TURN)
        else:
            expect(row).not_to_have_class(TURN)
    laid = sorted(f"{p.tile.high}:{p.tile.low}" for p in public.table.placements())
    shown = page.locator("#board g[data-tile]").evaluate_all(
        "nodes => nodes.map(n => n.dataset.tile.split(':').map(Number)"
        ".sort((a, b) => b - a).join(':'))"
    )
    assert sorted(shown) == laid
    expect(page.locator("#board g[data-end]")).to_have_count(len(public.table.ends))


def test_a_person_joins_from_the_table_and_plays_beside_a_computer(site: Site) -> None:
    api = site.api
    irina = api.add_user("Ирина", language_code="ru")
    andrei = api.add_user("Андрей", language_code="ru")  # never opened the bot's private chat
    boris = api.add_user("Борис", language_code="en")
    group, game_id = site.new_lobby(irina, andrei, boris, private_chat=True)

    creator = site.open(irina, game_id)
    expect(creator.locator("#seats li")).to_have_count(1)
    expect(creator.locator("#seats li.you")).to_contain_text("Ирина")
    page = site.open(andrei, game_id)
    expect(page.locator("#seats li")).to_have_count(1)
    page.locator("button[data-action=join]").click()
    expect(page.locator("#seats li.you")).to_contain_text("Андрей")
    expect(creator.locator("#seats li")).to_have_count(2)  # pushed to the other table
    shot(creator, "lobby")

    creator.locator("button[data-action=add_strong]").click()
    expect(creator.locator("#seats li")).to_have_count(3)
    creator.locator("button[data-action=start]").click()
    expect(page.locator("#hand")).to_be_visible()
    spectator = site.open(boris, game_id)
    expect(spectator.locator("#game")).to_be_visible()

    match, game = settled(site, group.id, [page, creator, spectator])
    for shown in (page, creator, spectator):
        check_table_against(shown, game)
    seats = [seat["user_id"] for seat in match["seats"]]
    mine = view_for(game, seats.index(andrei.id))
    assert hand_shown(page) == [str(tile) for tile in mine.hand]
    if mine.my_turn:
        playable = {move.tile for move in mine.legal if isinstance(move, Play)}
        marked = page.locator("#hand-tiles button.playable").evaluate_all(
            "nodes => nodes.map(n => n.dataset.tile)"
        )
        assert set(marked) == {str(tile) for tile in playable}
    shot(page, "seat")
    hers = view_for(game, seats.index(irina.id))
    assert hand_shown(creator) == [str(tile) for tile in hers.hand]
    expect(spectator.locator("#hand")).to_be_hidden()
    expect(spectator.locator("#note")).to_have_text("You are watching this game.")
    assert spectator.evaluate("window.telegramCalls") == ["ready", "expand"]

    # Андрей never opened the private chat, and his table is open: his hand is the table's,
    # so nothing was sent (or refused) to his private chat, and his seat stays his.
    assert not api.calls("sendPhoto", andrei.id, ok=None)
    assert not site.match(group.id)["seats"][seats.index(andrei.id)]["computer"]


def test_moves_made_with_the_buttons_reach_a_spectator_s_table(site: Site) -> None:
    api = site.api
    irina, boris = site.people("Ирина", "Борис")
    group, game_id = site.new_lobby(irina, boris, private_chat=True)
    creator = site.open(irina, game_id)
    creator.locator("button[data-action=add_strong]").click()
    expect(creator.locator("#seats li")).to_have_count(2)
    creator.locator("button[data-action=add_easy]").click()
    expect(creator.locator("#seats li")).to_have_count(3)
    creator.locator("button[data-action=start]").click()
    spectator = site.open(boris, game_id)
    expect(spectator.locator("#game")).to_be_visible()

    # Ирина closes her table (while it was open her hand was the table's): her private hand
    # message catches up, and she plays with its buttons until the table has a few tiles.
    creator.close()
    until(lambda: api.calls("sendPhoto", irina.id), "Ирина's hand caught up in private")
    irina_plays = Human(api, irina.id, random.Random(7))
    while True:
        _, game = settled(site, group.id, [spectator])
        if len(game.round.table.placements()) >= 5 or game.over:
            break
        until(irina_plays.act, "Ирина's move made with the buttons", 20)
    check_table_against(spectator, game)
    creator = site.open(irina, game_id)
    check_table_against(creator, game)
    expect(spectator.locator("#hand")).to_be_hidden()
    expect(spectator.locator("#note")).to_have_text("Вы смотрите эту игру.")
    expect(spectator.locator("#moves li").first).to_be_visible()
    shot(spectator, "spectator")


def test_init_data_that_cannot_be_trusted_is_refused_and_changes_nothing(
    site: Site, bot: BotProcess
) -> None:
    api = site.api
    irina, andrei = site.people("Ирина", "Андрей")
    group, game_id = site.new_lobby(irina, andrei)
    before = site.match(group.id)["rev"]
    good = init_data(api.token, andrei.id, "Андрей", game_id)
    fields = dict(item.split("=", 1) for item in good.split("&"))
    forged = good.replace(fields["hash"], sign({"auth_date": "1"}, api.token))
    refused = {
        "forged": forged,
        "expired": init_data(
            api.token, andrei.id, "Андрей", game_id, auth_date=time.time() - 2 * 86400
        ),
        "other bot": init_data("999:" + "x" * 35, andrei.id, "Андрей", game_id),
    }
    for name, data in refused.items():
        page = site.open(andrei, game_id, raw=data)
        status = page.locator("#status")
        expect(status).to_have_text("Telegram не подтвердил, кто вы. Откройте стол из Telegram.")
        expect(page.locator("button[data-action=join]")).to_have_count(0)
        assert page.evaluate("document.body.dataset.state") == "stopped", name
    # The same data straight to the API and the socket: 401 and a close for "unauthorized".
    # (In a thread of its own: Playwright's sync API runs a loop in this one.)
    with ThreadPoolExecutor(1) as pool:
        pool.submit(
            asyncio.run, _refused_outside_the_page(site.base, list(refused.values()))
        ).result()
    assert site.match(group.id)["rev"] == before
    assert len(site.match(group.id)["seats"]) == 0
    log = bot.log()
    assert all(data not in log for data in refused.values())


async def _refused_outside_the_page(base: str, data: list[str]) -> None:
    async with aiohttp.ClientSession() as session:
        for raw in data:
            async with session.get(
                f"{base}/table/api/view", headers={"Authorization": f"tma {raw}"}
            ) as answer:
                assert answer.status == 401
            async with session.ws_connect(f"{base}/table/ws") as socket:
                await socket.send_str(json.dumps({"type": "hello", "init_data": raw}))
                message = await socket.receive(timeout=10)
                assert message.type == aiohttp.WSMsgType.CLOSE
                assert (socket.close_code, message.extra) == (4401, "unauthorized")


def test_the_table_reconnects_by_itself_after_the_connection_drops(
    site: Site, bot: BotProcess
) -> None:
    irina, andrei = site.people("Ирина", "Андрей")
    group, game_id = site.new_lobby(irina, andrei)
    page = site.open(andrei, game_id)
    expect(page.locator("body")).to_have_attribute("data-connected", "1")
    bot.stop(kill=True)  # the connection drops (the process is gone)
    expect(page.locator("body")).to_have_attribute("data-connected", "0")
    expect(page.locator("#status")).to_have_text("Нет связи. Подключаюсь снова…")
    bot.start()
    bot.wait_ready(30)
    expect(page.locator("body")).to_have_attribute("data-connected", "1", timeout=30_000)
    expect(page.locator("#status")).to_be_hidden()
    # Live again: a join made now is pushed.
    page.locator("button[data-action=join]").click()
    expect(page.locator("#seats li.you")).to_contain_text("Андрей")
    assert version(page) == site.match(group.id)["rev"]


# A WebSocket that opens only after a while, as on a slow mobile network: the page has its
# first view (over HTTP) and the person presses before the socket is open.
SLOW_SOCKET = """
(() => {
  const Real = window.WebSocket;
  class Slow {
    constructor(url) {
      this.readyState = Slow.CONNECTING;
      setTimeout(() => {
        const ws = new Real(url);
        this.ws = ws;
        ws.onopen = (e) => { this.readyState = Slow.OPEN; if (this.onopen) this.onopen(e); };
        ws.onmessage = (e) => { if (this.onmessage) this.onmessage(e); };
        ws.onclose = (e) => { this.readyState = Slow.CLOSED; if (this.onclose) this.onclose(e); };
      }, 2000);
    }
    send(data) {
      if (this.readyState !== Slow.OPEN) throw new Error("InvalidStateError: still connecting");
      this.ws.send(data);
    }
    close() { if (this.ws) this.ws.close(); }
  }
  Object.assign(Slow, { CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3 });
  window.WebSocket = Slow;
})();
"""


def test_a_press_before_the_connection_opens_goes_once_it_is_open(site: Site) -> None:
    irina, andrei = site.people("Ирина", "Андрей")
    group, game_id = site.new_lobby(irina, andrei)
    page = site.open(andrei, game_id)
    page.add_init_script(SLOW_SOCKET)
    page.reload()
    join = page.locator("button[data-action=join]")
    expect(join).to_be_visible()  # the first view came over HTTP
    assert page.evaluate("document.body.dataset.connected") != "1"
    join.click()  # while the socket is still opening
    expect(page.locator("#seats li.you")).to_contain_text("Андрей")
    expect(page.locator("#toast")).to_be_hidden()
    assert andrei.id in [seat["user_id"] for seat in site.match(group.id)["seats"]]


def test_a_table_hears_a_change_applied_by_another_bot_process(
    api: FakeBotApi, browser: Browser, redis_url: str, key_prefix: str, tmp_path: Path
) -> None:
    """Two processes in webhook mode behind the fake's balancer: each table is connected to
    one of them, and what is done at the other reaches it (through Redis)."""
    ports = [free_port(), free_port()]
    bases = [f"http://127.0.0.1:{port}" for port in ports]
    with Balancer(bases) as balancer:
        envs = [
            bot_environment(
                api,
                redis_url,
                key_prefix,
                WEBHOOK_URL=balancer.url,
                WEBHOOK_LISTEN="127.0.0.1",
                WEBHOOK_PORT=str(port),
                **TABLE_ON,
            )
            for port in ports
        ]
        with (
            running(envs[0], tmp_path / "a.log", timeout=30),
            running(envs[1], tmp_path / "b.log", timeout=30),
        ):
            store = redis.Redis.from_url(redis_url)
            site = Site(api, browser, bases[0], store, key_prefix)
            try:
                irina, andrei = site.people("Ирина", "Андрей")
                _, game_id = site.new_lobby(irina, andrei)
                on_a = site.open(irina, game_id, base=bases[0])
                on_b = site.open(andrei, game_id, base=bases[1])
                expect(on_a.locator("#lobby-actions button[data-action=join]")).to_be_visible()
                on_b.locator("button[data-action=join]").click()  # applied by process B
                expect(on_a.locator("#seats li")).to_have_count(1)  # heard by process A's table
                expect(on_a.locator("#seats li")).to_contain_text("Андрей")
                on_a.locator("button[data-action=add_easy]").click()  # applied by process A
                expect(on_b.locator("#seats li")).to_have_count(2)
                assert balancer.forwarded  # the updates came through the balancer
            finally:
                site.close()
                store.close()


def test_without_a_public_address_there_is_no_table(
    api: FakeBotApi, redis_url: str, key_prefix: str, tmp_path: Path
) -> None:
    port = free_port()
    env = bot_environment(api, redis_url, key_prefix, HEALTH_PORT=str(port))
    with running(env, tmp_path / "bot.log", timeout=30) as process:
        # "Ready" is said before the web server listens: its /healthz answers a moment later.
        health(f"http://127.0.0.1:{port}", 200)
        with pytest.raises(urllib.error.HTTPError) as missing:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/table/", timeout=10)
        assert missing.value.code == 404
        assert "/table/" not in process.log()
