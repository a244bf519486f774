"""The live table in a real browser, against the real bot process: a lobby joined and
started from the page, the board, turn and scores as the engine has them, a hand only for
its seat's user, reconnecting, and init data that cannot be trusted refused."""

from __future__ import annotations

import os
import random
import re
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect

from engine import Game, Play, unpack, view_for
from tests.browser.conftest import Site
from tests.support.players import Human
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
    group = api.add_group("Домино", members=[irina, andrei, boris], supergroup=True)
    greeted = api.start_bot(irina)  # she opened the private chat: her lobby seats her
    api.wait_message(irina.id, after=greeted)
    api.send_text(irina, group.id, "/newgame")
    game_id = site.lobby(group.id)["id"]

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
    hers = view_for(game, seats.index(irina.id))
    assert hand_shown(creator) == [str(tile) for tile in hers.hand]
    expect(spectator.locator("#hand")).to_be_hidden()
    expect(spectator.locator("#note")).to_have_text("You are watching this game.")
    assert spectator.evaluate("window.telegramCalls") == ["ready", "expand"]

    # Андрей never opened the private chat: his hand message was refused, and his seat
    # stays his (he plays it on the table).
    until(lambda: api.calls("sendPhoto", andrei.id, ok=False), "the hand refused in private")
    assert not site.match(group.id)["seats"][seats.index(andrei.id)]["computer"]


def test_moves_made_with_the_buttons_reach_a_spectator_s_table(site: Site) -> None:
    api = site.api
    irina = api.add_user("Ирина", language_code="ru")
    boris = api.add_user("Борис", language_code="ru")
    group = api.add_group("Домино", members=[irina, boris], supergroup=True)
    greeted = api.start_bot(irina)
    api.wait_message(irina.id, after=greeted)
    api.send_text(irina, group.id, "/newgame")
    game_id = site.lobby(group.id)["id"]
    creator = site.open(irina, game_id)
    creator.locator("button[data-action=add_strong]").click()
    expect(creator.locator("#seats li")).to_have_count(2)
    creator.locator("button[data-action=add_easy]").click()
    expect(creator.locator("#seats li")).to_have_count(3)
    creator.locator("button[data-action=start]").click()
    spectator = site.open(boris, game_id)
    expect(spectator.locator("#game")).to_be_visible()

    # Ирина plays with the buttons of her private hand until the table has a few tiles.
    irina_plays = Human(api, irina.id, random.Random(7))
    while True:
        _, game = settled(site, group.id, [spectator, creator])
        if len(game.round.table.placements()) >= 5 or game.over:
            break
        until(irina_plays.act, "Ирина's move made with the buttons", 20)
    check_table_against(spectator, game)
    check_table_against(creator, game)
    expect(spectator.locator("#hand")).to_be_hidden()
    expect(spectator.locator("#note")).to_have_text("Вы смотрите эту игру.")
    expect(spectator.locator("#moves li").first).to_be_visible()
    shot(spectator, "spectator")
