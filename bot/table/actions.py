"""A table's actions, done through the game service as the buttons do them: a join, the
lobby's presses (leave, the creator's options, Start, Cancel), and the hand's actions
(play, doubles, draw, pass, hint), decoded to bot.game.hand_actions and decided by the
one hand rule (bot.game.hand_rule), as a hand button is.

The final table's Rematch opens the next lobby as the group's button does.

A seat taken from the table is noted as the table's (bot.storage.tables): its person may
never have opened the bot's private chat, and keeps the seat all the same (docs/table.md).
Refusals are raised as the rules give them (bot.game.outcomes.Refusal).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from bot.game.hand_actions import (
    AnyHandAction,
    AskHint,
    DrawTile,
    EndChoice,
    HandResult,
    LayDoubles,
    PassTurn,
    PlayTile,
)
from bot.game.hints import Hint
from bot.game.options import LobbyAction
from bot.game.outcomes import Refusal
from bot.game.people import Person
from bot.game.service import GameService
from bot.i18n import translator
from bot.render import EndName
from bot.table.initdata import Identity
from bot.table.messages import HAND_ACTIONS, Action, read_doubles, read_play
from bot.telegram import texts
from bot.telegram.hint_texts import hint_line
from engine import End

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
) -> str | None:
    """Do `action` for `identity` (his language `lang`); Refusal if the rules refuse it.
    What it answers: a practice hint's line, else None."""
    if action.game != place.game_id:
        raise Refusal("other_game")
    if action.action in HAND_ACTIONS:
        return await _hand(service, place, identity, action)
    person = await _person(service, place, identity, lang)
    where = (place.chat_id, place.thread_id, place.game_id)
    if action.action == "join":
        await service.join(*where, person)
        # Noted after the seat is taken: a join refused leaves nothing behind.
        await service.store.tables.note_seated(*where, identity.user_id)
        return None
    if action.action == "rematch":
        # The finished game's tables then follow the new lobby (bot.table.views.gone_view).
        await service.rematch(*where, person)
        return None
    await service.lobby_action(*where, PRESSES[action.action], action.value, person, False)
    return None


async def _hand(
    service: GameService, place: Place, identity: Identity, action: Action
) -> str | None:
    """A hand action, decided by the hand rule as a button's is. The page names the view
    version it acted on (the match's, which moves with every stored change); the rule
    checks the engine's, so a view that is not the latest is sent on as stale."""
    current = await service.current(place.chat_id, place.thread_id)
    version = -1  # stale: no game version matches it
    if current is not None and current.game is not None and current.match.rev == action.version:
        version = current.game.version
    decoded = hand_action(action, place.game_id, version, identity.user_id)
    result = await service.hand_action(place.chat_id, place.thread_id, decoded, _hint_words)
    return _answer(result)


def hand_action(action: Action, game_id: str, version: int, user_id: int) -> AnyHandAction:
    """The domain action of a hand message read by bot.table.messages (its value reads)."""
    who = (game_id, version, user_id)
    if action.action == "play":
        play = read_play(action.value)
        assert play is not None  # read_message let only readable values through
        return PlayTile(*who, play[0], play[1])
    if action.action == "doubles":
        picked = read_doubles(action.value)
        assert picked is not None
        return LayDoubles(*who, picked)
    if action.action == "draw":
        return DrawTile(*who)
    if action.action == "pass":
        return PassTurn(*who)
    return AskHint(*who)


def _answer(result: HandResult) -> str | None:
    """A hint's line; a tile without its end that fits two is refused as a button without
    one would be (the page sends the end: its moves list one per end)."""
    if isinstance(result.choice, EndChoice):
        raise Refusal("ambiguous_end")
    return result.hint


def _hint_words(hint: Hint, names: Mapping[End, EndName], lang: str) -> str:
    """A practice hint as the page shows it, its ends named as the board names them."""
    return hint_line(translator(lang), hint, {end: name.text for end, name in names.items()})


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
