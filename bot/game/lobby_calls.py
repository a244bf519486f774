"""Who is called when a lobby opens (/notify): a chat's (or topic's) subscribers, each
in his own language, called once per lobby."""

from __future__ import annotations

from bot.storage.store import Store
from bot.storage.subscriptions import MAX_SUBSCRIBERS, Subscribed

__all__ = ["MAX_SUBSCRIBERS", "LobbyCalls", "Subscribed"]


class LobbyCalls:
    def __init__(self, store: Store) -> None:
        self._subscriptions = store.subscriptions

    async def subscribe(
        self, chat_id: int, thread_id: int | None, user_id: int, lang: str
    ) -> Subscribed:
        return await self._subscriptions.subscribe(chat_id, thread_id, user_id, lang)

    async def unsubscribe(self, chat_id: int, thread_id: int | None, user_id: int) -> bool:
        """False if he was not subscribed."""
        return await self._subscriptions.unsubscribe(chat_id, thread_id, user_id)

    async def to_call(
        self, chat_id: int, thread_id: int | None, game_id: str, creator_id: int
    ) -> dict[int, str]:
        """The subscribers lobby `game_id` calls (user id -> language; not its creator),
        noted as called under that id before its lobby message is posted."""
        found = await self._subscriptions.subscribers(chat_id, thread_id)
        found.pop(creator_id, None)
        if found:
            await self._subscriptions.note_called(chat_id, thread_id, game_id, len(found))
        return found

    async def not_opened(self, chat_id: int, thread_id: int | None, game_id: str) -> None:
        """Lobby `game_id` was not opened after all: nobody is called to it."""
        await self._subscriptions.forget_called(chat_id, thread_id, game_id)
