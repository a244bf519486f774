"""The game service on real Redis, without Telegram: races between people pressing at once."""

from __future__ import annotations

import asyncio

import pytest
from redis.asyncio import Redis

from bot.game import computer
from bot.game.options import MAX_SEATS, LobbyAction
from bot.game.outcomes import Refusal
from bot.game.people import Person
from bot.game.service import GameService
from bot.settings import Settings
from bot.storage.keys import Keys
from bot.storage.models import Match
from bot.storage.store import LOST, Store
from engine import Game, pack, unpack
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


async def put(service: GameService, game: Game, **fields: object) -> Match:
    """Store `game` as the running match's engine state (a chosen position)."""
    key = service.store.keys.game(CHAT, None)
    stored = await service.store.read_match(CHAT, None)
    assert stored.value is not None
    match = stored.value.model_copy(update={"engine": pack(game), **fields})
    assert await service.store.write(key, stored, match) is not LOST
    return match


async def start(service: GameService, creator: Person, game_id: str) -> None:
    await service.lobby_action(CHAT, None, game_id, LobbyAction.START, "", creator, False)


async def test_one_new_game_when_two_ask_at_once(service: GameService) -> None:
    a, b = people(2)
    results = await asyncio.gather(
        service.new_game(CHAT, None, a, "fives", "Домино"),
        service.new_game(CHAT, None, b, "twolane", "Домино"),
    )
    assert sorted(created for _, created in results) == [False, True]
    ids = {current.match.id for current, _ in results}
    assert len(ids) == 1


async def test_only_four_of_many_joining_at_once_get_a_seat(service: GameService) -> None:
    creator, *crowd = people(9)
    current, _ = await service.new_game(CHAT, None, creator, None, "")
    game = current.match
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
    game = (await service.new_game(CHAT, None, a, "fives", ""))[0].match
    await service.join(CHAT, None, game.id, a)
    await service.join(CHAT, None, game.id, b)
    await start(service, a, game.id)

    chosen = position(
        "fives",
        ["Игрок 0", "Игрок 1"],
        ["6:5 6:2 1:0 4:3 1:1 0:0", "5:2 3:1 4:1 3:2 2:0 4:2"],
        moves=["6:5", "5:2@E"],
    )

    await put(service, chosen)
    play = chosen.parse_move("6:2@W")
    outcomes = await asyncio.gather(
        *(service.play(CHAT, None, game.id, chosen.version, a, play) for _ in range(5)),
        return_exceptions=True,
    )
    done = [o for o in outcomes if not isinstance(o, BaseException)]
    assert len(done) == 1
    assert {o.code for o in outcomes if isinstance(o, Refusal)} == {"stale_button"}
    stored = await service.store.load(CHAT, None)
    assert stored is not None and stored.engine is not None
    assert unpack(stored.engine).version == chosen.version + 1


async def test_refusals_write_nothing(service: GameService) -> None:
    a, b = people(2)
    game = (await service.new_game(CHAT, None, a, "muggins", ""))[0].match
    before = await raw(service)

    def lobby(action: LobbyAction, who: Person, value: str = "", game_id: str = game.id) -> object:
        return service.lobby_action(CHAT, None, game_id, action, value, who, False)

    refusals = [
        lobby(LobbyAction.START, b),
        lobby(LobbyAction.START, a),
        lobby(LobbyAction.TARGET, a, "50"),
        lobby(LobbyAction.VARIANT, a, "chess"),
        lobby(LobbyAction.TIME, a, "45"),
        lobby(LobbyAction.VARIANT, a, "fives", game_id="other"),
        lobby(LobbyAction.CANCEL, b),
        lobby(LobbyAction.LEAVE, b),
        service.leave(CHAT, None, b),
        service.may_stop(CHAT, None, b, False),
        service.rematch(CHAT, None, game.id, a),
        service.note_hand_request(CHAT, None, game.id, a),
    ]
    codes = []
    for attempt in refusals:
        with pytest.raises(Refusal) as caught:
            await attempt  # type: ignore[misc]
        codes.append(caught.value.code)
    assert codes == [
        "creator_only",
        "need_players",
        "no_target_option",
        "stale_button",
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
    game = (await service.new_game(CHAT, None, a, "twolane", ""))[0].match
    await service.join(CHAT, None, game.id, a)
    await service.join(CHAT, None, game.id, b)
    await start(service, a, game.id)
    current = await service.current(CHAT, None)
    assert current is not None and current.game is not None
    engine_game = current.game
    turn = 0
    while not engine_game.over:
        computer.turn_moves(engine_game, "easy", turn, 0.01)
        turn += 1
    await put(service, engine_game, status="over", deadline=None)
    await asyncio.gather(*(service.run_due(CHAT, None) for _ in range(6)))
    stats = await service.store.stats(CHAT)
    assert {user: line.games for user, line in stats.items()} == {a.user_id: 1, b.user_id: 1}
