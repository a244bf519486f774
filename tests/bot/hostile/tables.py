"""The tables the fuzz and the races play at: lobbies, games, and a game played again."""

from __future__ import annotations

from collections.abc import Sequence

from bot.game.options import LobbyAction
from bot.game.people import Person
from bot.telegram import callbacks as cb
from tests.bot.conftest import Harness
from tests.bot.hostile.judging import Stored, read
from tests.fakebotapi.views import MessageView


async def open_lobby(
    h: Harness, chat: int, creator: int, others: Sequence[int], variant: str
) -> MessageView:
    """A lobby in `chat` with the creator and `others` seated."""
    lobby = await h.newgame(creator, chat, variant)
    for user in (creator, *others):
        seated = (await h.lobby_settled(chat)).match.seat_of(user) is not None
        if not seated:
            await h.join(user, chat, lobby)
    await h.lobby_settled(chat)
    return lobby


async def start(h: Harness, chat: int, creator: int, lobby: MessageView) -> None:
    answer = await h.lobby_button(creator, chat, lobby, "st")
    assert not answer.show_alert, answer
    await h.until(lambda: _board_posted(h, chat), "the board posted", timeout=20)


async def _board_posted(h: Harness, chat: int) -> int | None:
    found = await h.snapshot(chat)
    return None if found is None else found.board.message_id


async def board_shown(h: Harness, chat: int) -> int:
    """The board's message id, once there is one (a new round's board may be on its way)."""
    found: int = await h.until(lambda: _board_posted(h, chat), "the board posted", timeout=20)
    return found


async def renew(h: Harness, chat: int) -> None:
    """A finished game's chat plays again: a rematch with the same seats, started."""
    stored = await read(h.store, chat)
    assert stored.match is not None and stored.match.status == "over"
    creator = next(s.user_id for s in stored.match.seats if s.user_id is not None)
    person = Person(creator, "·", "ru")
    current = await h.service.rematch(chat, None, stored.match.id, person)
    await h.service.lobby_action(chat, None, current.match.id, LobbyAction.START, "", person, False)
    await h.until(lambda: _board_posted(h, chat), "the new board posted", timeout=20)


async def hand_shown(h: Harness, chat: int, timeout: float = 20) -> tuple[Stored, int, MessageView]:
    """Until the seat to act's hand message shows buttons of the stored version: the game,
    the user to act and that message."""

    async def shown() -> tuple[Stored, int, MessageView] | None:
        stored = await read(h.store, chat)
        snap = await h.snapshot(chat)
        if stored.match is None or stored.game is None or snap is None:
            return None
        turn = stored.game.turn
        if turn is None:
            return None
        user = stored.match.seats[turn].user_id
        message_id = snap.hands[turn].message_id
        if user is None or message_id is None:
            return None
        view = h.api.message(user, message_id)
        presses = [cb.decode(b.callback_data) for b in view.buttons]
        versions = {p.hand.version for p in presses if isinstance(p, cb.HandPress)}
        return (stored, user, view) if versions == {stored.version} else None

    found: tuple[Stored, int, MessageView] = await h.until(shown, "the hand to act", timeout)
    return found
