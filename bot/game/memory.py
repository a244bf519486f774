"""What the bot remembers beside the matches, as the handlers ask for it: people's
preferences, the games each person sits in, topics' names, the last finished game's
record, the answers a repeated command re-uses, and who is called when a lobby opens. The
handlers know no storage; each of these is one storage owner's (bot.storage.store)."""

from __future__ import annotations

from bot.game.people import playing
from bot.storage.errors import BrokenGameError
from bot.storage.models import GroupDelivery, Match, UserPrefs
from bot.storage.store import Store
from bot.storage.subscriptions import MAX_SUBSCRIBERS, Subscribed

__all__ = ["MAX_SUBSCRIBERS", "Memory", "Subscribed"]


class Memory:
    def __init__(self, store: Store) -> None:
        self._prefs = store.prefs
        self._games = store.games
        self._answers = store.answers
        self._subscriptions = store.subscriptions
        self._user_games = store.user_games

    # -- people and places -------------------------------------------------------------

    async def user(self, user_id: int) -> UserPrefs:
        return await self._prefs.user(user_id)

    async def set_language(self, user_id: int, lang: str) -> None:
        """/lang in private (his other preferences stay as they are, whatever changes them
        at the same moment)."""
        await self._prefs.set_language(user_id, lang)

    async def mark_started(self, user_id: int) -> None:
        """He wrote to the bot in its private chat: it may write to him there."""
        await self._prefs.mark_started(user_id)

    async def games_of(self, user_id: int) -> list[Match]:
        """The lobbies and running games that seat him as a player now, as stored (his
        practice game too). An entry of his index whose match no longer seats him is
        dropped; a game that cannot be read is left out."""
        found = []
        for entry in await self._user_games.seated(user_id):
            try:
                match = await self._games.load(entry.chat_id, entry.thread_id)
            except BrokenGameError:
                continue
            if user_id in playing(match):
                assert match is not None
                found.append(match)
            else:
                await self._user_games.forget(
                    [user_id], entry.chat_id, entry.thread_id, entry.game_id
                )
        return found

    async def topic_name(self, chat_id: int, thread_id: int) -> str | None:
        """A forum topic's name, as its last forum_topic_created / _edited said."""
        return await self._prefs.topic_name(chat_id, thread_id)

    # -- matches, as read ---------------------------------------------------------------

    async def load(self, chat_id: int, thread_id: int | None) -> Match | None:
        """The stored match (BrokenGameError if it cannot be read)."""
        return await self._games.load(chat_id, thread_id)

    async def group_shown(self, chat_id: int, thread_id: int | None) -> GroupDelivery | None:
        """What the group's messages of its match show (the delivery layer's record)."""
        group, _ = await self._games.read_delivery(chat_id, thread_id, 0)
        return group.value

    async def last_record(self, chat_id: int, thread_id: int | None) -> str | None:
        """The last finished game there (engine.pack() text), for /export."""
        return await self._games.last_record(chat_id, thread_id)

    # -- answers to repeated commands (bot.handlers.repeats) -----------------------------

    async def claim_answer(
        self, chat_id: int, thread_id: int | None, command: str, window: float
    ) -> bool:
        return await self._answers.claim_answer(chat_id, thread_id, command, window)

    async def note_answer(
        self, chat_id: int, thread_id: int | None, command: str, message_id: int, digest: str
    ) -> None:
        await self._answers.note_answer(chat_id, thread_id, command, message_id, digest)

    async def shown_answer(
        self, chat_id: int, thread_id: int | None, command: str
    ) -> tuple[int, str] | None:
        return await self._answers.shown_answer(chat_id, thread_id, command)

    async def take_answer_extra(
        self, chat_id: int, thread_id: int | None, command: str, window: float
    ) -> bool:
        return await self._answers.take_answer_extra(chat_id, thread_id, command, window)

    async def forget_answer(self, chat_id: int, thread_id: int | None, command: str) -> None:
        await self._answers.forget_answer(chat_id, thread_id, command)

    # -- who is called when a lobby opens (/notify) ----------------------------------------

    async def subscribe(
        self, chat_id: int, thread_id: int | None, user_id: int, lang: str
    ) -> Subscribed:
        return await self._subscriptions.subscribe(chat_id, thread_id, user_id, lang)

    async def unsubscribe(self, chat_id: int, thread_id: int | None, user_id: int) -> bool:
        """False if he was not subscribed."""
        return await self._subscriptions.unsubscribe(chat_id, thread_id, user_id)

    async def subscribers(self, chat_id: int, thread_id: int | None) -> dict[int, str]:
        return await self._subscriptions.subscribers(chat_id, thread_id)

    async def note_called(
        self, chat_id: int, thread_id: int | None, game_id: str, count: int
    ) -> None:
        await self._subscriptions.note_called(chat_id, thread_id, game_id, count)

    async def forget_called(self, chat_id: int, thread_id: int | None, game_id: str) -> None:
        await self._subscriptions.forget_called(chat_id, thread_id, game_id)
