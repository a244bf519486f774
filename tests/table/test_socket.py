"""One table's WebSocket and the view API: who is let in, what each person is sent, and
what happens to what a client sends wrong (a refusal or a close with a reason, one log
line, nothing changed, no traceback)."""

from __future__ import annotations

import asyncio
import json
import logging
import time

import pytest
from aiohttp import ClientConnectionResetError, ClientError, WSMsgType, web
from aiohttp.test_utils import TestClient
from redis.asyncio import Redis

from bot.game.service import GameService
from bot.storage.keys import Keys
from bot.storage.store import Store
from bot.table import TableServer, session
from tests.support.redis_server import free_port
from tests.support.waiting import until_async
from tests.table.conftest import (
    ANDREI,
    BORIS,
    CHAT,
    IRINA,
    OTHER_BOT,
    Peer,
    connect,
    make_settings,
    open_lobby,
    opened,
    serve,
    signed,
    started,
    view_asked,
)

DAY = 24 * 3600.0


async def rev(service: GameService) -> int:
    current = await service.current(CHAT, None)
    assert current is not None
    return current.match.rev


def no_secrets_logged(caplog: pytest.LogCaptureFixture, *data: str) -> None:
    text = caplog.text
    assert "Traceback" not in text
    for raw in data:
        assert raw not in text


@pytest.mark.parametrize(
    "make",
    [
        lambda game: signed(ANDREI, game, token=OTHER_BOT),  # another bot's
        lambda game: signed(ANDREI, game, auth_date=time.time() - 2 * DAY),  # expired
        lambda game: signed(ANDREI, game)[:-4] + "0000",  # forged
        lambda game: "",  # missing
    ],
    ids=["other-bot", "expired", "forged", "missing"],
)
async def test_untrusted_init_data_closes_the_socket_and_changes_nothing(
    service: GameService, client: TestClient, caplog: pytest.LogCaptureFixture, make: object
) -> None:
    caplog.set_level(logging.INFO)
    game_id = await open_lobby(service)
    before = await rev(service)
    data = make(game_id)  # type: ignore[operator]
    assert await (await connect(client, data)).closed() == (4401, "unauthorized")
    answer = await view_asked(client, data)
    assert answer.status == 401
    assert (await answer.json())["error"] == "unauthorized"
    assert await rev(service) == before
    no_secrets_logged(caplog, data or "no data")


async def test_the_view_api_answers_who_signed_it(service: GameService, client: TestClient) -> None:
    game_id = await open_lobby(service)
    answer = await client.get("/table/api/view")
    assert answer.status == 401
    answer = await view_asked(client, signed(BORIS, game_id))
    assert answer.status == 200
    body = await answer.json()
    assert body["lang"] == "en" and body["words"]["join"] == "🙋 Join"
    view = body["view"]
    assert (view["game"], view["status"], view["seat"]) == (game_id, "lobby", None)
    assert [seat["name"] for seat in view["lobby"]["seats"]] == ["Ирина"]
    assert view["lobby"]["can"]["join"] and not view["lobby"]["can"]["start"]
    assert (await view_asked(client, signed(BORIS, "nosuchgame"))).status == 404


async def test_a_join_from_the_table_is_pushed_to_every_table_of_the_game(
    service: GameService, client: TestClient
) -> None:
    game_id = await open_lobby(service)
    creator = await connect(client, signed(IRINA, game_id))
    welcome = await creator.next_of("welcome")
    assert welcome["words"]["start"] == "▶️ Начать"
    first = (await creator.next_of("view"))["view"]
    assert first["creator"] and first["seat"] == 0
    watcher = await opened(client, BORIS, game_id)
    joiner = await opened(client, ANDREI, game_id)
    assert await joiner.act(game_id, "join") == {"type": "done", "id": 1}
    for socket, seat in ((creator, 0), (watcher, None), (joiner, 1)):
        view = await socket.view_where(lambda v: len(v["lobby"]["seats"]) == 2)
        assert view["seat"] == seat
        assert view["lobby"]["seats"][1]["name"] == "Андрей"
    # The seat is noted as the table's.
    assert await service.store.tables.seated(CHAT, None, game_id, ANDREI.user_id)


async def test_the_creator_sets_options_and_starts_from_the_table(
    service: GameService, client: TestClient
) -> None:
    game_id = await open_lobby(service)
    creator = await opened(client, IRINA, game_id)
    joiner = await opened(client, ANDREI, game_id)
    refused = await joiner.act(game_id, "variant", "muggins")
    assert (refused["type"], refused["code"]) == ("refused", "creator_only")
    assert refused["text"] == "Это может только создатель игры."
    assert (await creator.act(game_id, "variant", "muggins", ask=2))["type"] == "done"
    assert (await creator.act(game_id, "time", "60", ask=3))["type"] == "done"
    assert (await creator.act(game_id, "add_strong", ask=4))["type"] == "done"
    assert (await creator.act(game_id, "start", ask=5))["type"] == "done"
    view = await joiner.view_where(lambda v: v["status"] == "playing")
    assert view["table"]["hand"] is None  # Андрей watches: he never joined
    match = (await service.current(CHAT, None)).match  # type: ignore[union-attr]
    assert (match.variant, match.turn_seconds, len(match.seats)) == ("muggins", 60, 2)


async def test_each_seat_gets_its_own_hand_and_a_spectator_none(
    service: GameService, client: TestClient
) -> None:
    game_id = await started(service)
    current = await service.current(CHAT, None)
    assert current is not None and current.game is not None
    from engine import view_for

    for person, seat in ((IRINA, 0), (ANDREI, 1), (BORIS, None)):
        socket = await connect(client, signed(person, game_id))
        view = (await socket.next_of("view"))["view"]
        hand = view["table"]["hand"]
        if seat is None:
            assert hand is None
            assert "hand" not in json.dumps(view["table"]["players"])
        else:
            own = view_for(current.game, seat).hand
            assert [tile["tile"] for tile in hand["tiles"]] == [str(tile) for tile in own]
        await socket.close()


async def test_what_a_client_sends_wrong_is_refused_and_changes_nothing(
    service: GameService, client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    game_id = await open_lobby(service)
    socket = await opened(client, ANDREI, game_id)
    before = await rev(service)
    wrong = [
        ("not json", "bad_message"),
        ("[[[[[[[[1]]]]]]]]", "bad_message"),
        ('{"type": "action", "id": 9, "game": "' + game_id + '", "action": "kick"}', "bad_message"),
        ('{"type": "hello", "init_data": "x"}', "bad_message"),
    ]
    for text, code in wrong:
        await socket.send(text)
        answer = await socket.next_of("refused")
        assert answer["code"] == code and answer["text"]
    other = await socket.act("othergame", "join")
    assert (other["code"], other["text"]) == (
        "other_game",
        "Это было для другой игры: на этом столе идёт другая.",
    )
    assert await rev(service) == before
    assert caplog.text.count("refused: bad_message") == len(wrong)
    await socket.send("x" * 10_000)  # past the largest message
    code, _ = await socket.closed()
    assert code == 1009
    assert await rev(service) == before
    no_secrets_logged(caplog)


async def test_presses_faster_than_a_person_are_refused_then_closed(
    service: GameService, client: TestClient
) -> None:
    game_id = await open_lobby(service)
    socket = await opened(client, IRINA, game_id)
    press = {"type": "action", "game": game_id, "action": "variant", "value": "fives"}
    for ask in range(60):
        await socket.send(json.dumps({**press, "id": ask}))
    answers = []
    while True:
        message = await socket.socket.receive(timeout=10)
        if message.type != WSMsgType.TEXT:
            break
        data = json.loads(message.data)
        if data["type"] in ("done", "refused"):
            answers.append(data.get("code", "done"))
    assert socket.close_code == session.TOO_FAST
    assert answers[: session.BURST] == ["done"] * session.BURST
    assert answers.count("too_fast") > session.CLOSE_AFTER - 5


async def test_a_socket_without_a_hello_is_closed(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(session, "HELLO_WAIT", 0.2)
    socket = await client.ws_connect("/table/ws")
    message = await socket.receive(timeout=10)
    assert message.type == WSMsgType.CLOSE and socket.close_code == session.NO_HELLO


async def test_a_table_that_stops_answering_is_closed_by_the_heartbeat(
    service: GameService, table: TableServer, client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(session, "HEARTBEAT", 0.3)
    game_id = await open_lobby(service)
    # A client that answers no ping (and reads nothing): as a phone that lost its network.
    socket = await connect(client, signed(BORIS, game_id), autoping=False)
    await until_async(lambda: table.hub.count == 1, "the table open")
    await until_async(lambda: table.hub.count == 0, "the dead table closed", 10)
    await socket.close()


async def test_stopping_the_server_closes_its_tables(
    service: GameService, table: TableServer, client: TestClient
) -> None:
    game_id = await open_lobby(service)
    socket = await opened(client, BORIS, game_id)
    await client.server.app.shutdown()
    code, _ = await socket.closed()
    assert code == session.GOING_AWAY
    await asyncio.sleep(0)


async def test_redis_down_closes_the_socket_with_a_reason_and_no_traceback(
    key_prefix: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    down = Redis.from_url(f"redis://127.0.0.1:{free_port()}/0", socket_connect_timeout=0.5)
    settings = make_settings(key_prefix)
    table = TableServer(GameService(Store(down, Keys(key_prefix)), settings), settings)
    client = await serve(table)
    try:
        data = signed(BORIS, "abcd1234")
        assert await (await connect(client, data)).closed() == (1011, "storage unavailable")
        assert (await view_asked(client, data)).status == 503
    finally:
        await client.close()
        await down.aclose()
    no_secrets_logged(caplog, data)


async def test_a_game_replaced_by_its_rematch_is_gone_for_its_tables(
    service: GameService, client: TestClient
) -> None:
    game_id = await started(service)
    stored = await service.store.games.read_match(CHAT, None)
    assert stored.value is not None
    over = stored.value.model_copy(update={"status": "over"})
    assert await service.store.games.write(service.store.keys.game(CHAT, None), stored, over)
    watcher = await connect(client, signed(BORIS, game_id))
    assert (await watcher.next_of("view"))["view"]["status"] == "over"
    rematch = await service.rematch(CHAT, None, game_id, ANDREI)
    gone = await watcher.view_where(lambda v: v["status"] == "gone")
    assert gone["game"] == game_id
    assert gone["next"] == rematch.match.id  # the page opens it instead


async def over_game(service: GameService) -> str:
    """A match of Ирина and Андрей in CHAT, finished; its id."""
    game_id = await started(service)
    stored = await service.store.games.read_match(CHAT, None)
    assert stored.value is not None
    over = stored.value.model_copy(update={"status": "over"})
    assert await service.store.games.write(service.store.keys.game(CHAT, None), stored, over)
    return game_id


async def hello_naming(client: TestClient, data: str, game_id: str) -> Peer:
    """A table opened by a link signed for one game, its page naming `game_id`."""
    socket = await client.ws_connect("/table/ws")
    await socket.send_str(json.dumps({"type": "hello", "init_data": data, "game": game_id}))
    return Peer(socket)


async def test_a_player_s_rematch_at_the_final_table_opens_the_next_lobby_there(
    service: GameService, client: TestClient
) -> None:
    game_id = await over_game(service)
    andrei = await connect(client, signed(ANDREI, game_id))
    boris = await connect(client, signed(BORIS, game_id))
    assert (await andrei.next_of("view"))["view"]["table"]["rematch"] is True  # a player
    assert (await boris.next_of("view"))["view"]["table"]["rematch"] is False  # watching
    refused = await boris.act(game_id, "rematch")
    assert refused["code"] == "rematch_players_only"
    assert (await service.current(CHAT, None)).match.id == game_id  # type: ignore[union-attr]
    assert (await andrei.act(game_id, "rematch", ask=2))["type"] == "done"
    current = await service.current(CHAT, None)
    assert current is not None and current.match.status == "lobby"
    assert current.match.creator_id == ANDREI.user_id
    assert {seat.user_id for seat in current.match.seats} == {IRINA.user_id, ANDREI.user_id}
    for peer in (andrei, boris):
        gone = await peer.view_where(lambda v: v["status"] == "gone")
        assert gone["next"] == current.match.id
    # The page opens the next game with the link's data, signed for the finished one.
    follows = await hello_naming(client, signed(ANDREI, game_id), current.match.id)
    lobby = await follows.view_where(lambda v: v["status"] == "lobby")
    assert lobby["game"] == current.match.id and lobby["seat"] == 1


async def test_a_link_s_page_naming_a_game_of_another_chat_gets_the_link_s(
    service: GameService, client: TestClient
) -> None:
    game_id = await open_lobby(service)
    await service.store.prefs.mark_started(BORIS.user_id)
    elsewhere, _ = await service.new_game(CHAT - 1, None, BORIS, "fives", "Другая")
    peer = await hello_naming(client, signed(ANDREI, game_id), elsewhere.match.id)
    shown = await peer.view_where(lambda v: True)
    assert shown["game"] == game_id  # the link's game, not the other chat's


def sessions_ended(monkeypatch: pytest.MonkeyPatch) -> asyncio.Queue[BaseException | None]:
    """How each table's session ends from now on: None, or what it raised."""
    run = session.Session.run
    ended: asyncio.Queue[BaseException | None] = asyncio.Queue()

    async def watched(self: session.Session) -> web.StreamResponse:
        try:
            answer = await run(self)
        except BaseException as exc:
            await ended.put(exc)
            raise
        await ended.put(None)
        return answer

    monkeypatch.setattr(session.Session, "run", watched)
    return ended


async def test_a_table_closed_right_after_its_hello_ends_quietly(
    service: GameService, client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The phone closed the page between its hello and the welcome: the write fails as
    # aiohttp fails it on a closing transport.
    send = web.WebSocketResponse.send_str

    async def closing(
        socket: web.WebSocketResponse, data: str, compress: int | None = None
    ) -> None:
        if '"welcome"' in data:
            await socket.close()
            raise ClientConnectionResetError("Cannot write to closing transport")
        await send(socket, data, compress)

    monkeypatch.setattr(web.WebSocketResponse, "send_str", closing)
    ended = sessions_ended(monkeypatch)
    game_id = await open_lobby(service)
    peer = await connect(client, signed(BORIS, game_id))
    closed = asyncio.create_task(peer.socket.receive())  # answers the server's close
    assert await asyncio.wait_for(ended.get(), 10) is None
    assert (await closed).type == WSMsgType.CLOSE


async def test_a_table_gone_before_its_handshake_was_answered_ends_quietly(
    service: GameService,
    client: TestClient,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    # The page closed while the upgrade's answer was being written: aiohttp fails the
    # headers' write on a closing transport (seen in a browser test on a loaded machine),
    # and the server then finishes whatever the handler answered.
    async def closing(response: web.StreamResponse) -> None:
        raise ClientConnectionResetError("Cannot write to closing transport")

    game_id = await open_lobby(service)
    caplog.set_level(logging.INFO)
    monkeypatch.setattr(web.StreamResponse, "_write_headers", closing)
    ended = sessions_ended(monkeypatch)
    # The client sees no handshake, once the server has finished the handler's answer
    # (and closed the connection).
    with pytest.raises(ClientError):
        await connect(client, signed(BORIS, game_id))
    assert await asyncio.wait_for(ended.get(), 10) is None
    assert "aiohttp.server" not in caplog.text
    no_secrets_logged(caplog)
