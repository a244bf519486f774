"""The game service on real Redis, without Telegram: races between people pressing at once."""

from __future__ import annotations

import asyncio

import pytest
from redis.asyncio import Redis

from bot.game import computer
from bot.game.service import MAX_SEATS, GameService, Person, Refusal
from bot.settings import Settings
from bot.storage.keys import Keys
from bot.storage.store import Store, Tx
from bot.telegram.callbacks import Callback
from tests.bot.conftest import position

CHAT = -1001234567890
TOKEN = "123456:TEST-token-abcdefghijklmnopqrstuvwxyz123"


@pytest.fixture
def service(redis_client: Redis, key_prefix: str) -> GameService:
    settings = Settings(  # type: ignore[call-arg]
        _env_file=None, telegram_bot_token=TOKEN, key_prefix=key_prefix
    )
    return GameService(Store(redis_client, Keys(key_prefix)), settings)


def people(count: int) -> list[Person]:
    return [Person(100 + i, f"Игрок {i}", "ru") for i in range(count)]


async def raw(service: GameService) -> bytes | None:
    value = await service.store.redis.get(service.store.keys.game(CHAT, None))
    return None if value is None else bytes(value)


async def test_one_new_game_when_two_ask_at_once(service: GameService) -> None:
    a, b = people(2)
    results = await asyncio.gather(
        service.new_game(CHAT, None, a, "fives"), service.new_game(CHAT, None, b, "twolane")
    )
    assert sorted(created for _, created in results) == [False, True]
    ids = {game.id for game, _ in results}
    assert len(ids) == 1


async def test_only_four_of_many_joining_at_once_get_a_seat(service: GameService) -> None:
    creator, *crowd = people(9)
    game, _ = await service.new_game(CHAT, None, creator, None)
    outcomes = await asyncio.gather(
        *(service.join(CHAT, None, game.id, p) for p in crowd), return_exceptions=True
    )
    refused = [o for o in outcomes if isinstance(o, Refusal)]
    assert len(refused) == len(crowd) - MAX_SEATS
    assert {r.code for r in refused} == {"lobby_full"}
    stored = await service.store.load(CHAT, None)
    assert stored is not None and len(stored.seats) == MAX_SEATS
    assert stored.lobby_rev == MAX_SEATS


async def test_a_double_tap_plays_once(service: GameService) -> None:
    a, b = people(2)
    game, _ = await service.new_game(CHAT, None, a, "fives")
    await service.join(CHAT, None, game.id, a)
    await service.join(CHAT, None, game.id, b)
    stored = await service.store.load(CHAT, None)
    assert stored is not None
    start = Callback("L", game.id, stored.lobby_rev, arg="st")
    await service.lobby_action(CHAT, None, start, a, False)

    chosen = position(
        "fives",
        ["Игрок 0", "Игрок 1"],
        ["6:5 6:2 1:0 4:3 1:1 0:0", "5:2 3:1 4:1 3:2 2:0 4:2"],
        moves=["6:5", "5:2@E"],
    )

    def put(tx: Tx) -> None:
        assert tx.game is not None
        tx.game.store_game(chosen)

    await service.store.change(CHAT, None, put)
    button = Callback("E", game.id, chosen.version, CHAT, None, "62W")
    play = chosen.parse_move("6:2@W")
    outcomes = await asyncio.gather(
        *(service.play(button, a, play) for _ in range(5)), return_exceptions=True
    )
    done = [o for o in outcomes if not isinstance(o, BaseException)]
    assert len(done) == 1
    assert {o.code for o in outcomes if isinstance(o, Refusal)} == {"stale_button"}
    stored = await service.store.load(CHAT, None)
    assert stored is not None and stored.version == chosen.version + 1


async def test_refusals_write_nothing(service: GameService) -> None:
    a, b = people(2)
    game, _ = await service.new_game(CHAT, None, a, "muggins")
    before = await raw(service)
    refusals = [
        service.lobby_action(CHAT, None, Callback("L", game.id, 0, arg="st"), b, False),
        service.lobby_action(CHAT, None, Callback("L", game.id, 0, arg="st"), a, False),
        service.lobby_action(CHAT, None, Callback("L", game.id, 0, arg="t"), a, False),
        service.lobby_action(CHAT, None, Callback("L", game.id, 5, arg="v"), a, False),
        service.lobby_action(CHAT, None, Callback("L", "other", 0, arg="v"), a, False),
        service.lobby_action(CHAT, None, Callback("L", game.id, 0, arg="cx"), b, False),
        service.lobby_action(CHAT, None, Callback("L", game.id, 0, arg="lv"), b, False),
        service.leave(CHAT, None, b),
        service.request_stop(CHAT, None, b, False),
        service.rematch(CHAT, None, game.id, a),
        service.resend_hand(CHAT, None, game.id, a),
    ]
    codes = []
    for attempt in refusals:
        with pytest.raises(Refusal) as caught:
            await attempt
        codes.append(caught.value.code)
    assert codes == [
        "creator_only",
        "need_players",
        "no_target_option",
        "stale_button",
        "game_gone",
        "creator_or_admin_only",
        "not_in_game",
        "not_in_game",
        "creator_or_admin_only",
        "game_running",
        "game_gone",
    ]
    assert await raw(service) == before


async def test_a_finished_game_counts_once_even_at_once(service: GameService) -> None:
    a, b = people(2)
    game, _ = await service.new_game(CHAT, None, a, "twolane")
    await service.join(CHAT, None, game.id, a)
    await service.join(CHAT, None, game.id, b)
    stored = await service.store.load(CHAT, None)
    assert stored is not None
    await service.lobby_action(
        CHAT, None, Callback("L", game.id, stored.lobby_rev, arg="st"), a, False
    )

    def finish(tx: Tx) -> None:
        assert tx.game is not None
        engine_game = tx.game.game()
        turn = 0
        while not engine_game.over:
            computer.turn_moves(engine_game, "easy", turn, 0.01)
            turn += 1
        tx.game.store_game(engine_game)
        tx.game.status = "over"

    over, _ = await service.store.change(CHAT, None, finish)
    assert over is not None
    await asyncio.gather(*(service._after_change(over) for _ in range(6)))
    stats = await service.store.stats(CHAT)
    assert {user: line.games for user, line in stats.items()} == {a.user_id: 1, b.user_id: 1}
