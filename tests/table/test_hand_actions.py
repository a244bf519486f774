"""A hand played from the table: each seat's view lists its moves ready to send, the page
sends one, and the one hand rule decides it as it decides a button (stale, out of turn,
another game, a tile that fits two ends); what cannot be read changes nothing. No view
ever carries another seat's hand."""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest
from aiohttp.test_utils import TestClient

from bot.game.options import LobbyAction
from bot.game.people import Person
from bot.game.service import GameService
from bot.i18n import translator
from bot.storage.stored import LOST
from bot.telegram.texts import REFUSALS
from engine import Game, pack, view_for
from tests.bot.conftest import position
from tests.table.conftest import (
    ANDREI,
    BORIS,
    CHAT,
    IRINA,
    Peer,
    connect,
    open_lobby,
    signed,
    view_asked,
)

NAMES = [IRINA.name, ANDREI.name]
# fives: Ирина to act, only 6:2 fits, on W or on E; Андрей holds 3:1 4:1 3:2 2:0 4:2.
IRINA_TO_ACT = position(
    "fives",
    NAMES,
    ["6:5 6:2 1:0 4:3 1:1 0:0", "5:2 3:1 4:1 3:2 2:0 4:2"],
    moves=["6:5", "5:2@E"],
)
# muggins: Ирина opened 3:2; Андрей holds 3:3 and 2:2 and may lay both at once.
DOUBLES_FOR_ANDREI = position(
    "muggins", NAMES, ["3:2 6:6 6:5 6:4 5:5 5:4 4:4", "3:3 2:2 1:0 0:0 6:0 1:1 4:0"], moves=["3:2"]
)
# fives: after Ирина's 4:0 on E (ends 5 and 0), nothing of Андрей's fits: he must draw.
ANDREI_MUST_DRAW = position(
    "fives",
    NAMES,
    ["6:4 4:0 1:0 1:1 2:1 3:1", "6:5 3:3 2:2 3:2 6:3 6:2"],
    moves=["6:4", "6:5@W"],
)


async def playing(service: GameService, game: Game, chat: int = CHAT) -> str:
    """A match in `chat` (Ирина, then Андрей unless a practice game) set to `game`."""
    game_id = await open_lobby(service) if chat == CHAT else await _practice(service, chat)
    if chat == CHAT:
        await service.join(CHAT, None, game_id, ANDREI)
    await service.lobby_action(chat, None, game_id, LobbyAction.START, "", IRINA, False)
    stored = await service.store.games.read_match(chat, None)
    assert stored.value is not None
    match = stored.value.model_copy(update={"engine": pack(game), "rev": stored.value.rev + 1})
    written = await service.store.games.write(service.store.keys.game(chat, None), stored, match)
    assert written is not LOST
    return game_id


async def _practice(service: GameService, chat: int) -> str:
    await service.store.prefs.mark_started(IRINA.user_id)
    current, _ = await service.new_game(chat, None, IRINA, "fives", "")
    return current.match.id


async def stored_game(service: GameService, chat: int = CHAT) -> Game:
    current = await service.current(chat, None)
    assert current is not None and current.game is not None
    return current.game


async def rev(service: GameService, chat: int = CHAT) -> int:
    current = await service.current(chat, None)
    assert current is not None
    return current.match.rev


async def at_the_table(
    service: GameService, client: TestClient, game: Game, *people: Person, chat: int = CHAT
) -> list[tuple[Peer, dict[str, Any]]]:
    """A match in `chat` set to a copy of `game`, and each of `people` at its table: his
    socket and the first view of the match in play."""
    game_id = await playing(service, game.copy(), chat)
    return [await seated(client, person, game_id) for person in people]


async def seated(client: TestClient, person: Person, game_id: str) -> tuple[Peer, dict[str, Any]]:
    peer = await connect(client, signed(person, game_id))
    view = await peer.view_where(lambda v: v["status"] == "playing")
    return peer, view


async def hand_act(
    peer: Peer, view: dict[str, Any], action: str, value: str = "", ask: int = 1, **more: Any
) -> dict[str, Any]:
    """Send a hand action made on `view`; its answer."""
    message = {
        "type": "action",
        "id": ask,
        "game": view["game"],
        "action": action,
        "value": value,
        "version": view["version"],
    }
    message.update(more)
    await peer.send(json.dumps(message))
    return await peer.next_of("answer", lambda data: data.get("id") == ask)


def ru(code: str) -> str:
    return translator("ru")(REFUSALS[code])


async def test_only_the_seat_to_act_gets_moves_and_a_spectator_no_hand(
    service: GameService, client: TestClient
) -> None:
    (irina, irina_view), (andrei, andrei_view), (boris, boris_view) = await at_the_table(
        service, client, IRINA_TO_ACT, IRINA, ANDREI, BORIS
    )
    assert irina_view["table"]["hand"]["moves"] == [
        {"action": "play", "value": "6:2@W"},
        {"action": "play", "value": "6:2@E"},
    ]
    assert andrei_view["table"]["hand"]["moves"] == []
    assert boris_view["table"]["hand"] is None
    assert [m["end"] for m in irina_view["table"]["board"]["marks"]] == ["W", "E"]
    for peer in (irina, andrei, boris):
        await peer.close()


async def test_a_tile_that_fits_two_ends_is_played_on_the_end_named(
    service: GameService, client: TestClient
) -> None:
    (irina, view), (andrei, _) = await at_the_table(service, client, IRINA_TO_ACT, IRINA, ANDREI)
    before = await rev(service)
    no_end = await hand_act(irina, view, "play", "6:2")
    assert (no_end["code"], no_end["text"]) == ("ambiguous_end", ru("ambiguous_end"))
    assert await rev(service) == before
    done = await hand_act(irina, view, "play", "6:2@W", ask=2)
    assert done["type"] == "done"
    game = await stored_game(service)
    assert game.round.moves[-1].text == "6:2@W"
    # Both tables get the move; now Андрей has his moves and Ирина none.
    after = await andrei.view_where(lambda v: v["version"] > view["version"])
    moves = after["table"]["hand"]["moves"]
    assert moves and {m["action"] for m in moves} == {"play"}
    assert {m["value"] for m in moves} == {str(m) for m in view_for(game, 1).legal}
    mine = await irina.view_where(lambda v: v["version"] > view["version"])
    assert mine["table"]["hand"]["moves"] == [] and not mine["table"]["hand"]["your_turn"]
    # The move made, the view it was made on is stale: the same press again is refused.
    again = await hand_act(irina, view, "play", "6:2@E", ask=3)
    assert (again["code"], again["text"]) == ("stale_button", ru("stale_button"))


async def test_a_stale_view_out_of_turn_and_another_game_are_refused(
    service: GameService, client: TestClient
) -> None:
    (irina, view), (andrei, andrei_view) = await at_the_table(
        service, client, IRINA_TO_ACT, IRINA, ANDREI
    )
    before = await rev(service)
    stale = await hand_act(irina, view, "play", "6:2@W", version=view["version"] - 1)
    assert (stale["code"], stale["text"]) == ("stale_button", ru("stale_button"))
    not_his = await hand_act(andrei, andrei_view, "play", "3:1@W", ask=2)
    assert (not_his["code"], not_his["text"]) == ("not_your_turn", ru("not_your_turn"))
    other = await hand_act(irina, view, "play", "6:2@W", ask=3, game="othergame")
    assert other["code"] == "other_game"
    cannot_draw = await hand_act(irina, view, "draw", ask=4)
    assert cannot_draw["code"] == "can_play"
    lacks = await hand_act(irina, view, "play", "3:1@W", ask=5)
    assert lacks["code"] == "not_in_hand"
    no_hint = await hand_act(irina, view, "hint", ask=6)
    assert no_hint["code"] == "practice_only"
    assert await rev(service) == before


@pytest.mark.parametrize(
    "change",
    [
        {"value": "6:7@W"},
        {"value": "6:4@X"},
        {"value": "6:4@W@E"},
        {"value": " 6:4@W"},
        {"value": "6:2@W" + "," * 40},
        {"value": 62},
        {"value": ["6:2@W"]},
        {"action": "doubles", "value": "6:6@W"},
        {"action": "doubles", "value": "6:6@W,5:5"},
        {"action": "draw", "value": "6:2"},
        {"action": "pass", "value": "x"},
        {"version": None},
        {"version": "3"},
        {"action": "shuffle"},
    ],
)
async def test_a_hand_action_that_cannot_be_read_changes_nothing(
    service: GameService,
    client: TestClient,
    caplog: pytest.LogCaptureFixture,
    change: dict[str, Any],
) -> None:
    caplog.set_level(logging.INFO)
    [(irina, view)] = await at_the_table(service, client, IRINA_TO_ACT, IRINA)
    before = await rev(service)
    message = {"type": "action", "id": 1, "game": view["game"], "action": "play", "value": "6:2@W"}
    message["version"] = view["version"]
    message.update(change)
    await irina.send(json.dumps(message))
    answer = await irina.next_of("answer")
    assert (answer["type"], answer["code"]) == ("refused", "bad_message")
    assert answer["text"]
    assert await rev(service) == before
    assert caplog.text.count("refused: bad_message") == 1
    assert "Traceback" not in caplog.text


async def test_muggins_doubles_are_laid_together(service: GameService, client: TestClient) -> None:
    [(andrei, view)] = await at_the_table(service, client, DOUBLES_FOR_ANDREI, ANDREI)
    moves = view["table"]["hand"]["moves"]
    doubles = [m["value"] for m in moves if m["action"] == "doubles"]
    assert doubles == ["3:3@W,2:2@E"]
    assert {"action": "play", "value": "3:3@W"} in moves
    cannot_pass = await hand_act(andrei, view, "pass", ask=7)
    assert (cannot_pass["code"], cannot_pass["text"]) == ("can_play", ru("can_play"))
    assert (await hand_act(andrei, view, "doubles", "2:2@E,3:3@W"))["type"] == "done"
    assert (await stored_game(service)).round.moves[1].text == "3:3@W+2:2@E"


async def test_draws_a_person_cannot_avoid_are_made_for_him(
    service: GameService, client: TestClient
) -> None:
    (irina, view), (andrei, _) = await at_the_table(
        service, client, ANDREI_MUST_DRAW, IRINA, ANDREI
    )
    assert (await hand_act(irina, view, "play", "4:0@E"))["type"] == "done"
    game = await stored_game(service)
    made = [entry.text for entry in game.round.moves[3:]]
    assert made and made[0] == "draw"  # the server drew for him: the table never asks
    theirs = await andrei.view_where(lambda v: v["version"] > view["version"])
    hand = theirs["table"]["hand"]
    assert len(hand["tiles"]) == len(view_for(game, 1).hand)
    expected = [] if game.turn != 1 else hand["moves"]
    assert hand["moves"] == expected and {"action": "draw", "value": ""} not in hand["moves"]


async def test_a_practice_hint_comes_back_in_words(
    service: GameService, client: TestClient
) -> None:
    chat = IRINA.user_id
    [(irina, view)] = await at_the_table(service, client, IRINA_TO_ACT, IRINA, chat=chat)
    moves = view["table"]["hand"]["moves"]
    assert moves[-1] == {"action": "hint", "value": ""}
    before = await rev(service, chat)
    answer = await hand_act(irina, view, "hint")
    assert answer["type"] == "done" and "6:2" in answer["text"]
    assert await rev(service, chat) == before


async def test_no_view_ever_carries_another_seat_s_hand(
    service: GameService, client: TestClient
) -> None:
    (irina, view), (andrei, _), (boris, _) = await at_the_table(
        service, client, IRINA_TO_ACT, IRINA, ANDREI, BORIS
    )
    assert (await hand_act(irina, view, "play", "6:2@W"))["type"] == "done"
    game = await stored_game(service)
    for peer, seat in ((irina, 0), (andrei, 1), (boris, None)):
        seen = await peer.view_where(lambda v: v["version"] > view["version"])
        hand = seen["table"]["hand"]
        if seat is None:
            assert hand is None
            continue
        own = [str(tile) for tile in view_for(game, seat).hand]
        assert [tile["tile"] for tile in hand["tiles"]] == own
        other = {str(tile) for tile in view_for(game, 1 - seat).hand}
        assert not other & {m["value"].split("@")[0] for m in hand["moves"]}


async def test_a_private_web_app_button_s_page_names_its_game(
    service: GameService, client: TestClient
) -> None:
    """A `web_app` button signs no start parameter: the page names the game (hello and
    view API); the seat is still the signed user's, and a signed game wins."""
    game_id = await playing(service, IRINA_TO_ACT.copy())
    unnamed = signed(IRINA, "")
    peer = await connect(client, unnamed)  # a hello without the game: no such game
    assert await peer.closed() == (4404, "no such game")
    socket = await client.ws_connect("/table/ws")
    await socket.send_str(json.dumps({"type": "hello", "init_data": unnamed, "game": game_id}))
    named = Peer(socket)
    view = await named.view_where(lambda v: v["status"] == "playing")
    assert (view["game"], view["seat"]) == (game_id, 0)
    assert (await hand_act(named, view, "play", "6:2@W"))["type"] == "done"
    answer = await view_asked(client, unnamed, f"?game={game_id}")
    assert answer.status == 200 and (await answer.json())["view"]["seat"] == 0
    assert (await view_asked(client, unnamed)).status == 404
    other = await view_asked(client, signed(ANDREI, game_id), "?game=nosuchgame")
    assert other.status == 200 and (await other.json())["view"]["game"] == game_id
