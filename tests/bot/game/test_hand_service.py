"""The game service's hand actions on real Redis, without Telegram: what any front-end
gets back for a move, a choice and a practice hint, and that choosing and hints write
nothing to the match."""

from __future__ import annotations

from collections.abc import Mapping

import pytest
from redis.asyncio import Redis

from bot.game.hand_actions import AskHint, EndChoice, PlayTile, ShowTiles, TileChoice
from bot.game.hints import Hint
from bot.game.options import LobbyAction
from bot.game.outcomes import Refusal
from bot.game.people import Person
from bot.game.service import GameService
from bot.render import EndName
from bot.settings import Settings
from bot.storage.keys import Keys
from bot.storage.store import Store
from bot.storage.stored import LOST
from engine import End, Game, Tile, pack
from tests.bot.conftest import ANDREY_TO_ACT

GROUP = -1001234567890
TOKEN = "123456:TEST-token-abcdefghijklmnopqrstuvwxyz123"
ANDREY, IRINA = Person(101, "Андрей", "ru"), Person(102, "Ирина", "en")


@pytest.fixture
def service(redis_client: Redis, key_prefix: str) -> GameService:
    settings = Settings(  # type: ignore[call-arg]
        _env_file=None, telegram_bot_token=TOKEN, key_prefix=key_prefix
    )
    return GameService(Store(redis_client, Keys(key_prefix)), settings)


async def raw(service: GameService, chat: int) -> bytes | None:
    value = await service.store.redis.get(service.store.keys.game(chat, None))
    return None if value is None else bytes(value)


async def playing(service: GameService, chat: int, game: Game) -> str:
    """A started match in `chat` (Андрей, then Ирина or the computer) set to `game`."""
    current, _ = await service.new_game(chat, None, ANDREY, "fives", "")
    game_id = current.match.id
    await service.join(chat, None, game_id, ANDREY)
    if chat < 0:
        await service.join(chat, None, game_id, IRINA)
    await service.lobby_action(chat, None, game_id, LobbyAction.START, "", ANDREY, False)
    stored = await service.store.games.read_match(chat, None)
    assert stored.value is not None
    match = stored.value.model_copy(update={"engine": pack(game)})
    written = await service.store.games.write(service.store.keys.game(chat, None), stored, match)
    assert written is not LOST
    return game_id


async def test_a_choice_writes_nothing_and_a_move_is_made_once(service: GameService) -> None:
    game_id = await playing(service, GROUP, ANDREY_TO_ACT.copy())
    v = ANDREY_TO_ACT.version
    before = await raw(service, GROUP)
    tapped = await service.hand_action(
        GROUP, None, PlayTile(game_id, v, ANDREY.user_id, Tile.parse("6:2"))
    )
    assert isinstance(tapped.choice, EndChoice)
    assert [name.end for name in tapped.choice.ends] == [End.W, End.E]
    assert (tapped.seat, tapped.entries, tapped.hint, tapped.lang) == (0, (), None, "ru")
    back = await service.hand_action(GROUP, None, ShowTiles(game_id, v, ANDREY.user_id))
    assert back.choice == TileChoice((Tile.parse("6:2"),))
    assert await raw(service, GROUP) == before

    # An engine move without its end, fitting two ends, is no move (the engine says so too).
    with pytest.raises(Refusal) as ambiguous:
        await service.play(GROUP, None, game_id, v, ANDREY, ANDREY_TO_ACT.parse_move("6:2"))
    assert ambiguous.value.code == "ambiguous_end"
    assert await raw(service, GROUP) == before

    on_w = PlayTile(game_id, v, ANDREY.user_id, Tile.parse("6:2"), End.W)
    played = await service.hand_action(GROUP, None, on_w)
    assert played.entries[0].text == "6:2@W" and played.choice is None
    assert played.current.game is not None and played.current.game.version > v
    assert played.before.version == v  # the ends as he saw them: for the answer's words
    with pytest.raises(Refusal) as again:
        await service.hand_action(GROUP, None, on_w)
    assert again.value.code == "stale_button"


async def test_a_hint_is_worked_out_once_a_version_and_changes_nothing(
    service: GameService,
) -> None:
    practice = ANDREY.user_id  # his private chat: a practice game
    game_id = await playing(service, practice, ANDREY_TO_ACT.copy())
    v = ANDREY_TO_ACT.version
    before = await raw(service, practice)
    said: list[tuple[Hint, dict[End, EndName], str]] = []

    def words(hint: Hint, names: Mapping[End, EndName], lang: str) -> str:
        said.append((hint, dict(names), lang))
        return f"hint {len(said)}: {hint.move}"

    ask = AskHint(game_id, v, ANDREY.user_id)
    first = await service.hand_action(practice, None, ask, words)
    second = await service.hand_action(practice, None, ask, words)
    assert first.hint is not None and first.hint.startswith("hint 1: 6:2")
    assert second.hint == first.hint and len(said) == 1  # thought out once
    hint, names, lang = said[0]
    assert hint.move in ANDREY_TO_ACT.legal_moves() and lang == "ru"
    assert [name.text for name in names.values()] == ["🔵⬅️", "🟠➡️"]
    assert await service.store.hints.hints_used(practice, None, game_id) == 1
    assert await raw(service, practice) == before
    group_id = await playing(service, GROUP, ANDREY_TO_ACT.copy())
    with pytest.raises(Refusal) as group_hint:
        await service.hand_action(GROUP, None, AskHint(group_id, v, ANDREY.user_id), words)
    assert group_hint.value.code == "practice_only"
