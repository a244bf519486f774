"""What the table keeps beside the match: where each game is played (written when a lobby
or a rematch opens, followed when the chat moves), and the seats taken at the table,
which stay their person's when his private chat refuses the bot."""

from __future__ import annotations

import pytest

from bot.game.service import GameService
from bot.storage.stored import LOST
from bot.table import TableServer
from tests.support.table import init_data
from tests.table.conftest import ANDREI, BORIS, CHAT, IRINA, TOKEN, open_lobby, started

NEW_CHAT = -1009876543210


async def test_a_new_lobby_is_found_by_its_id(service: GameService) -> None:
    game_id = await open_lobby(service)
    assert await service.store.tables.find_game(game_id) == (CHAT, None)
    assert await service.store.tables.find_game("unknown1") is None


async def test_a_rematch_is_found_by_its_id(service: GameService) -> None:
    game_id = await started(service)
    stored = await service.store.games.read_match(CHAT, None)
    assert stored.value is not None
    over = stored.value.model_copy(update={"status": "over"})
    key = service.store.keys.game(CHAT, None)
    assert await service.store.games.write(key, stored, over) is not LOST
    await service.store.tables.note_seated(CHAT, None, game_id, ANDREI.user_id)
    rematch = await service.rematch(CHAT, None, game_id, ANDREI)
    assert rematch.match.id != game_id
    tables = service.store.tables
    assert await tables.find_game(rematch.match.id) == (CHAT, None)
    # His seat was the table's: in the rematch too (he may never have opened the private
    # chat); hers was not.
    assert await tables.seated(CHAT, None, rematch.match.id, ANDREI.user_id)
    assert not await tables.seated(CHAT, None, rematch.match.id, IRINA.user_id)


async def test_a_game_is_followed_to_its_chat_s_new_id(service: GameService) -> None:
    game_id = await open_lobby(service)
    await service.move_chat(CHAT, NEW_CHAT)
    assert await service.store.tables.find_game(game_id) == (NEW_CHAT, None)


@pytest.mark.parametrize("at_table", [True, False])
async def test_a_seat_taken_at_the_table_stays_its_person_s_when_his_chat_refuses_the_bot(
    service: GameService, at_table: bool
) -> None:
    game_id = await started(service)
    if at_table:
        await service.store.tables.note_seated(CHAT, None, game_id, ANDREI.user_id)
    await service.player_blocked(CHAT, None, game_id, 1)
    current = await service.current(CHAT, None)
    assert current is not None
    # At the table he plays on there; otherwise the computer takes his seat, as before.
    assert current.match.seats[1].computer is not at_table
    assert any(note.code == "blocked_bot" for note in current.match.notes) is not at_table


async def test_opening_the_table_at_one_s_seat_notes_it_as_the_table_s(
    service: GameService, table: TableServer
) -> None:
    game_id = await started(service)
    tables = service.store.tables
    for person in (IRINA, BORIS):
        data = init_data(TOKEN, person.user_id, person.name, game_id)
        place = await table.place(table.identify(data))
        assert place is not None and (place.chat_id, place.game_id) == (CHAT, game_id)
    assert await tables.seated(CHAT, None, game_id, IRINA.user_id)
    assert not await tables.seated(CHAT, None, game_id, BORIS.user_id)  # a spectator has none
