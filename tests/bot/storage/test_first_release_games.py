"""Games stored by the first release (format 1) play on after the upgrade; a game that
cannot be read is set aside once, said once, and leaves the chat free for a new one.

`tests/data/stored/v1/` holds the exact bytes the first release's own service and
delivery code stored (a lobby, a game under way with its messages sent, the
finished game; each variant), written by that release's code, never by this one.
"""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path

import pytest

from bot.game.options import LobbyAction
from bot.game.people import Person
from bot.game.service import GameService
from bot.storage.legacy import first_release
from bot.storage.models import MATCH_FORMAT, GroupDelivery, HandDelivery, Match
from bot.storage.store_errors import GameLostError, NewerGameError
from bot.storage.stored import parse_match
from engine import Game, pack
from engine.players import computer_player
from tests.bot.storage import test_stored_games
from tests.bot.storage.test_stored_games import (  # the same fixtures and the same playing on
    Clock,
    check_engine,
    creator,
    play_to_the_end,
    stored_raw,
)

# The same service (on the real Redis) and clock: fixtures, found by pytest under these names.
clock = test_stored_games.clock
service = test_stored_games.service


V1 = Path(__file__).resolve().parents[2] / "data" / "stored" / "v1"
NAMES = sorted(path.name for path in V1.glob("*.json"))


def old_record(name: str) -> dict:  # type: ignore[type-arg]
    data: dict = json.loads((V1 / name).read_bytes())  # type: ignore[type-arg]
    return data


def test_there_is_each_moment_of_each_variant() -> None:
    variants, moments = ("fives", "muggins", "twolane"), ("lobby", "playing", "over")
    assert set(NAMES) == {f"{v}-{m}.json" for v in variants for m in moments}


@pytest.mark.parametrize("name", NAMES)
def test_a_first_release_record_is_recognised_and_not_read_as_ours(name: str) -> None:
    raw = (V1 / name).read_bytes()
    assert "format" not in json.loads(raw)
    assert first_release(raw) is not None
    with pytest.raises(Exception) as caught:
        parse_match(raw)
    assert not isinstance(caught.value, GameLostError)  # the store upgrades it, never drops it


@pytest.mark.parametrize("name", NAMES)
async def test_a_first_release_game_is_upgraded_and_plays_on(
    name: str, service: GameService, clock: Clock
) -> None:
    old = old_record(name)
    raw = (V1 / name).read_bytes()
    chat, keys, redis = old["chat_id"], service.store.keys, service.store.redis
    await redis.set(keys.chat_language(chat), "ru")
    await redis.set(keys.game(chat, None), raw)

    current = await service.current(chat, None)
    assert current is not None
    match = current.match
    # The same game: id, people, options and moves, now in this release's record.
    assert (match.format, match.id, match.status, match.variant) == (
        MATCH_FORMAT,
        old["id"],
        old["status"],
        old["variant"],
    )
    # Its computer players are numbered (named where shown), its people keep their names.
    numbered = {"Компьютер 1": computer_player(1), "Компьютер 2": computer_player(2)}
    assert [(s.player, s.user_id, s.computer) for s in match.seats] == [
        (numbered[s["name"]] if s["user_id"] is None else s["name"], s["user_id"], s["computer"])
        for s in old["seats"]
    ]
    assert match.rev == old["rev"] and match.deadline == old["deadline"]
    if old["engine"] is None:
        assert current.game is None
    else:
        assert current.game is not None
        expected = Game.from_json(old["engine"])
        expected.players = [seat.player for seat in match.seats]
        assert pack(current.game) == pack(expected)
        check_engine(current.game)
    stored = await stored_raw(service, match)
    assert stored is not None and Match.model_validate_json(stored) == match

    # Its messages are the delivery layer's now: the same lobby, board and hands.
    group_raw = await redis.get(keys.group(chat, None))
    group = GroupDelivery.model_validate_json(group_raw)
    assert group.game_id == old["id"]
    assert group.lobby_message_id == old["lobby_message_id"]
    assert group.board.message_id == old["board"]["message_id"]
    assert group.final_message_id == old["final_message_id"]
    for seat, place in enumerate(old["seats"]):
        hand_raw = await redis.get(keys.hand(chat, None, seat))
        if place["hand_message_id"] is None:
            assert hand_raw is None
        else:
            hand = HandDelivery.model_validate_json(hand_raw)
            assert (hand.message_id, hand.live, hand.shows) == (place["hand_message_id"], True, "")

    # Read again: nothing more is written (the upgrade happens once).
    again = await service.current(chat, None)
    assert again is not None and again.raw == stored

    if match.status == "lobby":
        # The first release's lobby starts now (with this release's defaults).
        current = await service.lobby_action(
            chat, None, match.id, LobbyAction.START, "", creator(match), False
        )
        assert current.match.status == "playing"
    elif match.status == "over":
        lobby = await service.rematch(chat, None, match.id, creator(match))
        assert lobby.match.status == "lobby" and lobby.match.format == MATCH_FORMAT
        return
    clock.now = max(clock.now, (current.match.deadline or clock.now) - 1)
    final, actions = await play_to_the_end(service, clock, current, random.Random(name))
    assert actions >= 1 and final.game is not None and final.game.over
    assert await service.store.games.last_record(chat, None) == pack(final.game)


async def test_a_first_release_game_read_by_many_at_once_is_upgraded_once(
    service: GameService,
) -> None:
    raw = (V1 / "fives-playing.json").read_bytes()
    chat = old_record("fives-playing.json")["chat_id"]
    await service.store.redis.set(service.store.keys.game(chat, None), raw)
    found = await asyncio.gather(*(service.current(chat, None) for _ in range(8)))
    assert all(f is not None for f in found)
    assert len({f.raw for f in found if f is not None}) == 1
    assert len({f.match.rev for f in found if f is not None}) == 1


# -- what cannot be read ------------------------------------------------------------------


async def test_an_unreadable_game_is_set_aside_once_and_the_chat_starts_anew(
    service: GameService,
) -> None:
    chat = -1001000000077
    keys, redis = service.store.keys, service.store.redis
    raw = b'{"id": "oops", "seats": ['
    await redis.set(keys.game(chat, None), raw)
    await redis.set(keys.group(chat, None), b'{"rev": 1}')
    await service.store.due.note_due(chat, None, 1.0)
    told: list[tuple[int, int | None]] = []
    service.on_lost = lambda chat_id, thread_id: told.append((chat_id, thread_id))

    results = await asyncio.gather(
        *(service.current(chat, None) for _ in range(6)), return_exceptions=True
    )
    # Whoever found it first set it aside; the others found it gone or found it lost.
    assert all(isinstance(r, GameLostError) or r is None for r in results)
    assert any(isinstance(r, GameLostError) for r in results)
    assert told == [(chat, None)]  # said once, by the one process that moved it
    assert await redis.get(keys.broken(chat, None)) == raw  # kept for a look by hand
    assert 0 < await redis.ttl(keys.broken(chat, None)) <= 30 * 24 * 3600
    assert await redis.get(keys.game(chat, None)) is None
    assert await redis.get(keys.group(chat, None)) is None
    assert await service.store.due.due_time(chat, None) is None

    assert await service.current(chat, None) is None
    assert told == [(chat, None)]
    person = _person()
    lobby, created = await service.new_game(chat, None, person, "fives", "Домино")
    assert created and lobby.match.status == "lobby"


async def test_new_game_on_an_unreadable_game_starts_at_once(service: GameService) -> None:
    chat = -1001000000078
    await service.store.redis.set(service.store.keys.game(chat, None), b"\x00garbage")
    lobby, created = await service.new_game(chat, None, _person(), "muggins", "Домино")
    assert created and lobby.match.variant == "muggins"


async def test_a_newer_release_game_is_left_as_it_is(service: GameService) -> None:
    chat = -1001000000079
    key = service.store.keys.game(chat, None)
    raw = json.dumps({"format": MATCH_FORMAT + 1, "id": "x", "new": {"shape": 1}}).encode()
    await service.store.redis.set(key, raw)
    told: list[tuple[int, int | None]] = []
    service.on_lost = lambda chat_id, thread_id: told.append((chat_id, thread_id))
    for _ in range(3):
        with pytest.raises(NewerGameError):
            await service.current(chat, None)
    with pytest.raises(NewerGameError):
        await service.new_game(chat, None, _person(), "fives", "Домино")
    assert await service.store.redis.get(key) == raw and told == []


def _person() -> Person:
    return Person(7001, "Андрей", "ru")
