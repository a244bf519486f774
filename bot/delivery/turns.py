"""A chat's turn target: play for the seat to act once its deadline has passed (and close
an idle lobby at its own), from the match as this process last stored it."""

from __future__ import annotations

from collections.abc import Callable

from bot.game.match_records import Current
from bot.game.service import GameService

Chat = tuple[int, int | None]


class TurnTarget:
    """The turn target of every chat this process works on."""

    def __init__(self, service: GameService, clock: Callable[[], float]) -> None:
        self.service = service
        self.clock = clock
        self._current: dict[Chat, Current] = {}  # the match as our last change stored it

    def note(self, chat: Chat, current: Current) -> None:
        """The chat's match as a change just stored it: the turn goes on from the latest."""
        self._current[chat] = current

    def forget(self, chat: Chat) -> None:
        self._current.pop(chat, None)

    async def run(self, chat: Chat) -> float | None:
        """Play for the seat to act once its deadline has passed; the deadline otherwise."""
        current = self._current.get(chat)
        if current is None:
            return None
        match = current.match
        if match.status == "over":
            await self.service.run_due(*chat, found=current)  # counts it, if nobody did
            return None
        if match.status == "lobby" and match.deadline is not None:
            # An idle lobby closes at its deadline (a press since moved it on).
            if match.deadline > self.clock():
                return match.deadline
            await self.service.close_idle_lobby(chat[0], chat[1], match.id)
            return self._after(chat, current)
        if match.status != "playing" or match.deadline is None:
            return None
        if match.deadline > self.clock():
            return match.deadline
        played = await self.service.run_due(*chat, found=current)
        if played is None:
            # Someone else played it, or changed the match: the process that did times
            # what comes next (the due index has it, should it die).
            return self._after(chat, current)
        return played.current.match.deadline

    def _after(self, chat: Chat, current: Current) -> float | None:
        """Done with `current`: forgotten, unless a newer state was noted while we worked
        on it (a change of this process, or the sweep's read of another's), which is then
        looked at at once. (Forgetting that one too would leave its turn to nobody: the
        pass that noted it waits for ours and finds nothing, and the due index is settled
        empty.)"""
        if self._current.get(chat) is not current:
            return self.clock()
        self._current.pop(chat, None)
        return None
