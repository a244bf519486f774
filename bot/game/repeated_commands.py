"""A command repeated in a group within a moment is answered once (bot.handlers.repeats):
who claimed the answer, which message it is and what it shows, and the one note that
points a repeat to it."""

from __future__ import annotations

from bot.storage.store import Store


class RepeatedCommands:
    def __init__(self, store: Store) -> None:
        self._answers = store.answers

    async def claim(self, chat_id: int, thread_id: int | None, command: str, window: float) -> bool:
        """Whether this one answers `command` (nobody did within `window` seconds)."""
        return await self._answers.claim_answer(chat_id, thread_id, command, window)

    async def answered(
        self, chat_id: int, thread_id: int | None, command: str, message_id: int, shows: str
    ) -> None:
        await self._answers.note_answer(chat_id, thread_id, command, message_id, shows)

    async def answer(
        self, chat_id: int, thread_id: int | None, command: str
    ) -> tuple[int, str] | None:
        """The answer sent (its message id, a digest of what it shows); None if on its way."""
        return await self._answers.shown_answer(chat_id, thread_id, command)

    async def take_note(
        self, chat_id: int, thread_id: int | None, command: str, window: float
    ) -> bool:
        """Whether a note pointing to the answer may go (one a window)."""
        return await self._answers.take_answer_extra(chat_id, thread_id, command, window)

    async def forget(self, chat_id: int, thread_id: int | None, command: str) -> None:
        await self._answers.forget_answer(chat_id, thread_id, command)
