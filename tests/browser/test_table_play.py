"""A whole fives match played on the live table, in a real browser against the real bot
process: Андрей taps his tiles (and an end when a tile fits two) in the page, Ирина presses
the buttons of her private hand; after every move the page shows the tiles, the ends,
the scores and whose turn as the engine has them; a reload mid-game reconnects and the
match goes on to its final table."""

from __future__ import annotations

import json
import random
import re
import time
from typing import Any

from playwright.sync_api import Page, expect

from bot.i18n import translator
from bot.table.session import PER_SECOND
from bot.telegram.texts import REFUSALS
from engine import Game, Play, pack, unpack, view_for
from tests.bot.conftest import position
from tests.browser.conftest import Site
from tests.browser.test_table import check_table_against, hand_shown, shot, version
from tests.fakebotapi import UserRef
from tests.support.players import Human
from tests.support.waiting import until

YOUR_TURN = re.compile(r"\bturn\b")
NOT_YOUR_TURN = translator("ru")(REFUSALS["not_your_turn"])
PACE = 2 / PER_SECOND  # seconds between a person's taps, well within the table's limit


def toast(page: Page) -> str:
    """What the page last said to the player (a refusal, in words)."""
    return str(page.locator("#toast").text_content())


def stored(site: Site, chat: int, page: Page) -> tuple[dict[str, Any], Game] | None:
    """The match once it waits for a person (or is over) and the page shows its latest
    version; None while a computer's or a forced move is still on its way."""
    match = site.match(chat)
    if match["engine"] is None or version(page) != match["rev"]:
        return None
    game = unpack(match["engine"])
    if match["status"] == "over":
        return match, game
    if match["status"] != "playing" or game.turn is None:
        return None
    return (match, game) if not match["seats"][game.turn]["computer"] else None


def person_s_pace(tapped: float) -> None:
    """Until a person could tap again after tapping at `tapped` (time.monotonic)."""
    until(lambda: time.monotonic() >= tapped + PACE, "a person's pace", PACE + 1)


def move_stored(site: Site, chat: int, before: int, page: Page, presser: Human | None) -> None:
    """Until the move is stored: the page's tap, or `presser`'s buttons (pressed as a
    person does, again if the keyboard he pressed was stale)."""

    def moved() -> bool:
        if presser is not None:
            presser.act()
        return bool(site.match(chat)["rev"] > before)

    until(moved, "the move stored", 30, context=lambda: f"the page says: {toast(page)}")


def started_from_the_table(
    site: Site, creator: UserRef, joiner: UserRef, game_id: str, option: str, value: str
) -> tuple[Page, Page]:
    """`joiner` joins `creator`'s lobby from his table, she sets `option` to `value` and
    starts the match from hers; her page and his, his hand shown."""
    hers = site.open(creator, game_id)
    his = site.open(joiner, game_id)
    his.locator("button[data-action=join]").click()
    expect(hers.locator("#seats li")).to_have_count(2)
    chosen = hers.locator(f"button[data-action={option}][data-value='{value}']")
    chosen.click()
    expect(chosen).to_have_attribute("aria-pressed", "true")
    hers.locator("button[data-action=start]").click()
    expect(his.locator("#hand")).to_be_visible()
    return hers, his


def tap_a_move(page: Page, game: Game, seat: int, rng: random.Random, shots: set[str]) -> None:
    """Андрей's move by tapping: a tile; fitting two ends, one of the ends it is offered."""
    mine = view_for(game, seat)
    plays = [m for m in mine.legal if isinstance(m, Play)]
    assert plays, f"the server leaves a person only the moves he chooses: {mine.legal}"
    tile = rng.choice(plays).tile
    ends = [m.end for m in plays if m.tile == tile and m.end is not None]
    page.locator(f"#hand-tiles button.tile[data-tile='{tile}']").click()
    if len(ends) <= 1:
        return
    # Which end: those it fits are ringed on the board and offered under the hand.
    targets = page.locator("#board .pick.target")
    expect(targets).to_have_count(len(ends))
    offered = page.locator("#hand-actions button.end")
    expect(offered).to_have_count(len(ends))
    assert sorted(offered.evaluate_all("ns => ns.map(n => n.dataset.end)")) == sorted(
        end.name for end in ends
    )
    names = dict(view_for(game).table.ends)
    for end in ends:
        button = page.locator(f"#hand-actions button.end[data-end='{end.name}']")
        expect(button).to_contain_text(str(names[end]))
    if "choice" not in shots:
        shots.add("choice")
        shot(page, "choice")
    end = rng.choice(ends)
    value = f"{tile}@{end.name}"
    if rng.random() < 0.5:  # on the board's ring, or with the picker's button
        page.locator(f"#board .pick.target[data-play='{value}']").click()
    else:
        page.locator(f"#hand-actions button.end[data-end='{end.name}']").click()


def test_a_whole_match_is_played_on_the_table_beside_the_buttons(site: Site) -> None:
    api = site.api
    irina = api.add_user("Ирина", language_code="ru")  # the buttons of her private chat
    andrei = api.add_user("Андрей", language_code="ru")  # the table only
    group, game_id = site.new_lobby(irina, andrei, private_chat=True)

    creator, page = started_from_the_table(site, irina, andrei, game_id, "target", "25")
    creator.close()  # from here Ирина plays with her buttons only

    irina_plays = Human(api, irina.id, random.Random(5))
    rng = random.Random(11)
    shots: set[str] = set()
    moves = 0
    rounds_seen = 1
    reloaded = False
    tapped = 0.0
    refused_once = False
    while True:
        match, game = until(lambda: stored(site, group.id, page), "the page up to date", 60)
        check_table_against(page, game)
        if match["status"] == "over":
            break
        seats = [seat["user_id"] for seat in match["seats"]]
        seat = seats.index(andrei.id)
        assert hand_shown(page) == [str(tile) for tile in view_for(game, seat).hand]
        if game.round.number > rounds_seen:  # a round ended: its points under the new board
            rounds_seen = game.round.number
            expect(page.locator("#round-end p").first).to_be_visible()
            shot(page, "round-end")
        if moves >= 6 and not reloaded:  # the page reloaded mid-game reconnects, goes on
            reloaded = True
            page.reload()
            expect(page.locator("body")).to_have_attribute("data-connected", "1")
            continue
        mine = game.turn == seat
        row = page.locator(f"#players tr[data-seat='{seat}']")
        if mine:
            expect(page.locator("#hand")).to_have_class(YOUR_TURN)
            expect(row).to_have_class(YOUR_TURN)
            assert "notification:warning" in page.evaluate("window.hapticCalls")  # his turn
            # No faster than a person taps: the table refuses a machine's pace (too_fast).
            person_s_pace(tapped)
            tap_a_move(page, game, seat, rng, shots)
            tapped = time.monotonic()
        else:
            expect(page.locator("#hand")).not_to_have_class(YOUR_TURN)
            expect(page.locator("#hand-actions button")).to_have_count(0)
            if not refused_once:  # a tile tapped out of turn: the server's words, a buzz
                refused_once = True
                person_s_pace(tapped)
                page.locator("#hand-tiles button.tile").first.click()
                tapped = time.monotonic()
                expect(page.locator("#toast")).to_have_text(NOT_YOUR_TURN)
                assert "notification:error" in page.evaluate("window.hapticCalls")
                assert site.match(group.id)["rev"] == match["rev"]
        move_stored(site, group.id, match["rev"], page, None if mine else irina_plays)
        moves += 1
        assert moves < 400, "a fives match to 25 takes far fewer moves"

    final = page.locator("#final")
    expect(final).to_be_visible()
    expect(final.locator("p").first).not_to_be_empty()
    expect(page.locator("#hand")).to_be_hidden()
    public = view_for(game)
    assert max(public.totals) >= 25
    winner = public.totals.index(max(public.totals))
    expect(page.locator(f"#players tr[data-seat='{winner}'] td.name")).to_contain_text("1.")
    assert reloaded and refused_once and irina_plays.moves > 0
    assert not irina_plays.refusals, irina_plays.refusals

    # Rematch from the final table: the next lobby opens there, both seated again.
    rematch = page.locator("#final-actions button[data-action='rematch']")
    expect(rematch).to_have_text("🔁 Реванш")
    shot(page, "final")
    person_s_pace(tapped)
    rematch.click()
    expect(page.locator("body")).to_have_attribute("data-status", "lobby")
    lobby = site.match(group.id)
    assert lobby["id"] != game_id and lobby["status"] == "lobby"
    assert lobby["creator_id"] == andrei.id
    assert {seat["user_id"] for seat in lobby["seats"]} >= {irina.id, andrei.id}
    expect(page.locator("#seats li.you")).to_have_count(1)
    expect(page.locator("#lobby-actions button[data-action='start']")).to_be_visible()
    assert f"game={lobby['id']}" in page.url  # a reload opens the new lobby
    shot(page, "rematch")


def test_muggins_doubles_are_picked_and_laid_from_the_table(site: Site) -> None:
    """A muggins seat holding two doubles for the two ends: the page offers the sets of
    doubles by the ends' names, and one tap lays them together."""
    irina, andrei = site.people("Ирина", "Андрей")
    group, game_id = site.new_lobby(irina, andrei, private_chat=True)
    _, page = started_from_the_table(site, irina, andrei, game_id, "variant", "muggins")

    # Ирина opened 3:2; Андрей holds 3:3 and 2:2 (the stored game set to that position).
    stored = until(lambda: stored_playing(site, group.id), "the game stored", 20)
    names = [seat["name"] for seat in stored["seats"]]
    assert [seat["user_id"] for seat in stored["seats"]] == [irina.id, andrei.id]
    game = position(
        "muggins",
        names,
        ["3:2 6:6 6:5 6:4 5:5 5:4 4:4", "3:3 2:2 1:0 0:0 6:0 1:1 4:0"],
        moves=["3:2"],
    )
    stored.update(engine=pack(game), rev=stored["rev"] + 1)
    site.store.set(f"{site.prefix}:{{c{group.id}}}:game:0", json.dumps(stored))
    page.reload()
    expect(page.locator("body")).to_have_attribute("data-version", str(stored["rev"]))

    page.locator("#hand-actions button[data-action=choose-doubles]").click()
    expect(page.locator("#hand-prompt")).to_have_text("Выберите от 2 до 4 дублей и их концы.")
    offered = page.locator("#hand-actions button[data-action=doubles]")
    expect(offered).to_have_count(1)
    expect(offered).to_have_text("3:3 🔵⬅️ 3 + 2:2 🟠➡️ 2")
    offered.click()
    laid = until(
        lambda: len(unpack(site.match(group.id)["engine"]).round.moves) > 1, "the doubles laid"
    )
    assert laid
    assert unpack(site.match(group.id)["engine"]).round.moves[1].text == "3:3@W+2:2@E"
    expect(page.locator("#board g[data-tile]")).to_have_count(3)


def stored_playing(site: Site, chat: int) -> dict[str, Any] | None:
    match = site.match(chat)
    return match if match["status"] == "playing" and match["engine"] else None


def test_a_practice_game_opens_from_the_private_chat_and_gives_hints(site: Site) -> None:
    """The private chat's `web_app` button opens the page naming its game (Telegram signs
    no start parameter for it); the practice game is started and hinted from the page."""
    api = site.api
    andrei = api.add_user("Андрей", language_code="ru")
    api.start_bot(andrei)
    sent = api.send_text(andrei, andrei.id, "/practice fives")
    lobby = api.wait_message(andrei.id, after=sent, where=lambda m: bool(m.buttons))
    (opener,) = [b for b in lobby.buttons if "web_app" in b.raw]
    assert opener.text == "🎲 Открыть стол"
    address = str(opener.raw["web_app"]["url"])
    game_id = site.match(andrei.id)["id"]
    assert address == f"https://table.invalid/table/?game={game_id}"

    page = site.open(andrei, "")  # init data without a start parameter
    page.goto(site.base + "/table/?game=" + game_id)
    page.locator("button[data-action=start]").click()
    expect(page.locator("#hand")).to_have_class(YOUR_TURN)
    hint = page.locator("#hand-actions button[data-action=hint]")
    expect(hint).to_have_text("💡 Подсказка")
    before = site.match(andrei.id)["rev"]
    hint.click()
    expect(page.locator("#toast")).not_to_be_empty()
    said = toast(page)
    assert said not in {translator("ru")(text) for text in REFUSALS.values()}, said
    assert "notification:success" in page.evaluate("window.hapticCalls")
    assert site.match(andrei.id)["rev"] == before  # a hint changes nothing
