"""A table's actions, done through the game service as the lobby's buttons do them: a
join, the lobby's presses (leave, the creator's options, Start, Cancel).

A seat taken from the table is noted as the table's (bot.storage.tables): its person may
never have opened the bot's private chat, and keeps the seat all the same (docs/table.md).
Refusals are raised as the rules give them (bot.game.outcomes.Refusal).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.game.options import LobbyAction
from bot.game.outcomes import Refusal
from bot.game.people import Person
from bot.game.service import GameService
from bot.i18n import translator
from bot.table.initdata import Identity
from bot.table.messages import Action
from bot.telegram import texts

PRESSES = {
    "leave": LobbyAction.LEAVE,
    "start": LobbyAction.START,
    "cancel": LobbyAction.CANCEL,
    "add_easy": LobbyAction.ADD_EASY,
    "add_strong": LobbyAction.ADD_STRONG,
    "remove_computer": LobbyAction.REMOVE_COMPUTER,
    "variant": LobbyAction.VARIANT,
    "target": LobbyAction.TARGET,
    "time": LobbyAction.TIME,
}


@dataclass(frozen=True)
class Place:
    """The game a table was opened for, and where it is played."""

    chat_id: int
    thread_id: int | None
    game_id: str


async def perform(
    service: GameService, place: Place, identity: Identity, lang: str, action: Action
) -> None:
    """Do `action` for `identity` (his language `lang`); Refusal if the rules refuse it."""
    if action.game != place.game_id:
        raise Refusal("other_game")
    person = await _person(service, place, identity, lang)
    where = (place.chat_id, place.thread_id, place.game_id)
    if action.action == "join":
        await service.join(*where, person)
        # Noted after the seat is taken: a join refused leaves nothing behind.
        await service.store.tables.note_seated(*where, identity.user_id)
        return
    await service.lobby_action(*where, PRESSES[action.action], action.value, person, False)


async def _person(service: GameService, place: Place, identity: Identity, lang: str) -> Person:
    """The service's view of the user; one without a name that shows is called by his seat,
    as a Telegram join calls him («Игрок 3»)."""
    if identity.name:
        return Person(identity.user_id, identity.name, lang)
    current = await service.current(place.chat_id, place.thread_id)
    number = None
    chat_lang = lang
    if current is not None and current.match.id == place.game_id:
        match = current.match
        seat = match.seat_of(identity.user_id)
        if seat is not None:
            return Person(identity.user_id, match.seats[seat].name, lang)
        number, chat_lang = len(match.seats) + 1, match.lang
    return Person(identity.user_id, texts.unnamed_player(translator(chat_lang), number), lang)
