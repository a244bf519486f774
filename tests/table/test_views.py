"""What each person sees at the table: a seat's own hand only in its user's view, nothing
else of any hand anywhere, and the game told in the viewer's language."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from bot.game.match_records import Current
from bot.i18n import translator
from bot.settings import Settings
from bot.storage.models import Match, Seat
from bot.table.views import playable_tiles, table_view
from engine import VARIANTS, Game, pack, view_for
from tests.table.conftest import CHAT, TOKEN

SETTINGS = Settings(_env_file=None, telegram_bot_token=TOKEN)  # type: ignore[call-arg]
USERS = [201, 202, 203, 204]
SPECTATORS = [301, 302]


def played(variant: str, players: int, seed: int, moves: int) -> Game:
    """A game `moves` random legal moves in (or over before)."""
    game = Game.new(variant, [f"Игрок {i}" for i in range(players)], seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if game.over:
            break
        game.push(rng.choice(game.legal_moves()))
    return game


def current_of(game: Game, status: str = "playing") -> Current:
    seats = [Seat(name=name, user_id=USERS[i]) for i, name in enumerate(game.players)]
    match = Match(
        id="g1",
        chat_id=CHAT,
        variant=game.variant,
        creator_id=USERS[0],
        seats=seats,
        status=status,  # type: ignore[arg-type]
        engine=pack(game),
        rev=7,
    )
    return Current(match, game)


def without_own(view: dict[str, Any]) -> dict[str, Any]:
    """The view less what is the viewer's own: his seat, his hand, the "you" marks, and a
    player's Rematch."""
    rest = copy.deepcopy(view)
    rest["seat"], rest["creator"] = None, False
    table = rest["table"]
    table["hand"], table["rematch"] = None, False
    for player in table["players"]:
        player["you"] = False
    return rest


CASES = [
    (variant, players, seed, moves)
    for variant in VARIANTS
    for players, seed, moves in ((2, 1, 0), (3, 2, 9), (4, 3, 25), (2, 4, 400))
]


@pytest.mark.parametrize(("variant", "players", "seed", "moves"), CASES)
def test_a_hand_is_seen_by_its_seat_s_user_only(
    variant: str, players: int, seed: int, moves: int
) -> None:
    game = played(variant, players, seed, moves)
    status = "over" if game.over else "playing"
    current = current_of(game, status)
    tr = translator("ru")
    watched = [table_view(current, user, tr, SETTINGS) for user in SPECTATORS]
    assert watched[0] == watched[1]  # every spectator sees the same
    assert watched[0]["seat"] is None and watched[0]["table"]["hand"] is None
    for seat in range(players):
        view = table_view(current, USERS[seat], tr, SETTINGS)
        assert view["seat"] == seat
        # Nothing of any hand differs from what a spectator is sent, but the seat's own.
        assert without_own(view) == watched[0]
        hand = view["table"]["hand"]
        if status == "over":
            assert hand is None
            assert view["table"]["final"]
            assert view["table"]["rematch"] is True  # each player may open the next lobby
            continue
        assert view["table"]["rematch"] is False
        own = view_for(game, seat)
        assert [tile["tile"] for tile in hand["tiles"]] == [str(tile) for tile in own.hand]
        marked = {tile["tile"] for tile in hand["tiles"] if tile["playable"]}
        assert marked == {str(tile) for tile in playable_tiles(own)}
        assert bool(marked) <= own.my_turn


def test_the_board_has_every_tile_laid_and_each_open_end_named() -> None:
    game = played("fives", 3, 5, 14)
    view = table_view(current_of(game), SPECTATORS[0], translator("ru"), SETTINGS)
    board = view["table"]["board"]
    laid = sorted(tuple(sorted((p.tile.high, p.tile.low))) for p in game.round.table.placements())
    assert sorted(tuple(sorted((t["a"], t["b"]))) for t in board["tiles"]) == laid
    ends = {mark["end"] for mark in board["marks"]}
    assert ends == {end.name for end, _ in game.round.table.ends}
    for mark in board["marks"]:
        assert mark["name"] in view["table"]["ends"]  # «🔵⬅️ 5 · …», as the caption names them
    json.dumps(view)  # plain data


def test_the_words_are_in_the_viewer_s_language() -> None:
    game = played("muggins", 2, 6, 3)
    current = current_of(game)
    ru = table_view(current, SPECTATORS[0], translator("ru"), SETTINGS)["table"]
    en = table_view(current, SPECTATORS[0], translator("en"), SETTINGS)["table"]
    assert ru["heading"].startswith("Пятёрки") and en["heading"].startswith("Muggins")
    assert ru["boneyard_text"].startswith("Базар") and en["boneyard_text"].startswith("Boneyard")
    assert ru["state"].startswith("Ходит") and en["state"].startswith("Turn")


def test_a_cancelled_game_says_how_it_ended_and_nobody_is_to_act() -> None:
    game = played("fives", 2, 8, 5)
    current = current_of(game, "cancelled")
    current.match.ended, current.match.stopped_by = "stopped", "Ирина"
    view = table_view(current, USERS[0], translator("ru"), SETTINGS)
    assert view["ending"] == "Игра остановлена по команде /stop (Ирина)."
    assert view["table"]["turn"] is None and view["table"]["clock"] is None
    assert view["table"]["hand"] is None


NAMES = ["Ирина", "Андрей", "Борис", "Вера"]
JOIN = "Нажмите «Присоединиться», чтобы сесть за стол. Когда все соберутся, Ирина нажмёт «Начать»."
STARTS = "Когда все соберутся, Ирина нажмёт «Начать»."


def lobby_of(seated: int) -> Current:
    """A lobby that Ирина opened, with the first `seated` of USERS in it."""
    seats = [Seat(name=name, user_id=USERS[i]) for i, name in enumerate(NAMES[:seated])]
    match = Match(
        id="g1",
        chat_id=CHAT,
        creator_id=USERS[0],
        creator_name="Ирина",
        seats=seats,
        status="lobby",
        rev=3,
    )
    return Current(match, None)


def test_the_lobby_asks_to_join_only_who_can_and_tells_the_creator_nothing_twice() -> None:
    ru = translator("ru")

    def lobby(current: Current, user_id: int) -> dict[str, Any]:
        view = table_view(current, user_id, ru, SETTINGS)["lobby"]
        assert view is not None
        return view

    two = lobby_of(2)
    outsider = lobby(two, SPECTATORS[0])
    assert outsider["can"]["join"] and outsider["lines"][-1] == JOIN
    seated = lobby(two, USERS[1])
    assert not seated["can"]["join"] and seated["lines"][-1] == STARTS
    creator = lobby(two, USERS[0])
    assert creator["can"]["start"]
    assert not any("Ирина нажмёт" in line for line in creator["lines"])
    assert creator["lines"][0] == "Новая игра: занято мест — 2 из 4"
    full = lobby(lobby_of(4), SPECTATORS[0])
    assert not full["can"]["join"] and full["lines"][-1] == STARTS
