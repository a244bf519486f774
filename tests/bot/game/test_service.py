"""The game service on real Redis, without Telegram: a rule's refusal or "nothing to do"
writes nothing, and people pressing at once change the match once."""

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
from bot.storage.store import Store
from bot.storage.stored import LOST
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
    stored = await service.store.games.read_match(CHAT, None)
    assert stored.value is not None
    match = stored.value.model_copy(update={"engine": pack(game), **fields})
    assert await service.store.games.write(key, stored, match) is not LOST
    return match


async def start(service: GameService, creator: Person, game_id: str) -> None:
    await service.lobby_action(CHAT, None, game_id, LobbyAction.START, "", creator, False)


async def two_playing(service: GameService, variant: str) -> tuple[list[Person], str]:
    """A match of `variant` between two people (the first its creator), started; its id."""
    a, b = people(2)
    game = (await service.new_game(CHAT, None, a, variant, ""))[0].match
    await service.join(CHAT, None, game.id, a)
    await service.join(CHAT, None, game.id, b)
    await start(service, a, game.id)
    return [a, b], game.id


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
    stored = await service.store.games.load(CHAT, None)
    assert stored is not None and len(stored.seats) == MAX_SEATS
    assert stored.lobby_rev == MAX_SEATS


async def test_a_double_tap_plays_once(service: GameService) -> None:
    (a, _), game_id = await two_playing(service, "fives")

    chosen = position(
        "fives",
        ["Игрок 0", "Игрок 1"],
        ["6:5 6:2 1:0 4:3 1:1 0:0", "5:2 3:1 4:1 3:2 2:0 4:2"],
        moves=["6:5", "5:2@E"],
    )

    await put(service, chosen)
    play = chosen.parse_move("6:2@W")
    outcomes = await asyncio.gather(
        *(service.play(CHAT, None, game_id, chosen.version, a, play) for _ in range(5)),
        return_exceptions=True,
    )
    done = [o for o in outcomes if not isinstance(o, BaseException)]
    assert len(done) == 1
    assert {o.code for o in outcomes if isinstance(o, Refusal)} == {"stale_button"}
    stored = await service.store.games.load(CHAT, None)
    assert stored is not None and stored.engine is not None
    assert unpack(stored.engine).version == chosen.version + 1


async def test_a_refusal_is_raised_and_nothing_is_written(service: GameService) -> None:
    """One refusal of each kind of rule, through the service (every refusal of the rules
    is checked without Redis: test_lobby.py, test_play_rules.py)."""
    a, b = people(2)
    game = (await service.new_game(CHAT, None, a, "muggins", ""))[0].match
    before = await raw(service)
    told: list[object] = []
    service.on_change = lambda current, due: told.append(current)
    refusals = [
        service.lobby_action(CHAT, None, game.id, LobbyAction.START, "", b, False),
        service.join(CHAT, None, "another1", b),
        service.leave(CHAT, None, b),
        service.may_stop(CHAT, None, b, False),
        service.stop(CHAT, None, game.id, b, False),
        service.rematch(CHAT, None, game.id, a),
        service.note_hand_request(CHAT, None, game.id, a),
    ]
    codes = []
    for attempt in refusals:
        with pytest.raises(Refusal) as caught:
            await attempt
        codes.append(caught.value.code)
    assert codes == [
        "creator_only",
        "game_gone",
        "not_in_game",
        "creator_or_admin_only",
        "creator_or_admin_only",
        "game_running",
        "game_gone",
    ]
    assert await raw(service) == before and told == []


async def test_nothing_to_do_writes_nothing_and_tells_nobody(service: GameService) -> None:
    a, b = people(2)
    current, _ = await service.new_game(CHAT, None, a, "fives", "")
    game_id = current.match.id
    await service.join(CHAT, None, game_id, b)
    before = await raw(service)
    told: list[object] = []
    service.on_change = lambda current, due: told.append(current)
    again, joined = await service.join(CHAT, None, game_id, b)
    assert not joined and again.raw == before
    running, created = await service.new_game(CHAT, None, b, "muggins", "")
    assert not created and running.match.id == game_id
    pressed = await service.lobby_action(
        CHAT, None, game_id, LobbyAction.VARIANT, "fives", a, False
    )
    assert pressed.match.variant == "fives" and pressed.raw == before
    assert not await service.close_idle_lobby(CHAT, None, game_id)  # not idle yet
    assert await service.run_due(CHAT, None) is None
    assert await raw(service) == before and told == []
    # A change is written, and told.
    await service.lobby_action(CHAT, None, game_id, LobbyAction.VARIANT, "twolane", a, False)
    assert await raw(service) != before and len(told) == 1


async def test_a_finished_game_counts_once_even_at_once(service: GameService) -> None:
    (a, b), _ = await two_playing(service, "twolane")
    current = await service.current(CHAT, None)
    assert current is not None and current.game is not None
    engine_game = current.game
    turn = 0
    while not engine_game.over:
        computer.turn_moves(engine_game, "easy", turn, 0.01)
        turn += 1
    await put(service, engine_game, status="over", deadline=None)
    await asyncio.gather(*(service.run_due(CHAT, None) for _ in range(6)))
    stats = await service.store.scores.stats(CHAT)
    assert {user: line.games for user, line in stats.items()} == {a.user_id: 1, b.user_id: 1}
