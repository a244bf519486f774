"""What the bot knows of a person beyond a seat: the language he chose for its private
chat, whether he opened that chat (the bot may write to him first), and the lobbies and
games he sits in now, across chats."""

from __future__ import annotations

from bot.game.people import playing
from bot.storage.models import Match, UserPrefs
from bot.storage.store import Store
from bot.storage.store_errors import BrokenGameError


class Profiles:
    def __init__(self, store: Store) -> None:
        self._prefs = store.prefs
        self._games = store.games
        self._seated = store.user_games

    async def of(self, user_id: int) -> UserPrefs:
        return await self._prefs.user(user_id)

    async def choose_language(self, user_id: int, lang: str) -> None:
        """/lang in private (his other preferences stay as they are, whatever changes them
        at the same moment)."""
        await self._prefs.set_language(user_id, lang)

    async def opened_chat(self, user_id: int) -> None:
        """He wrote to the bot in its private chat: it may write to him there."""
        await self._prefs.mark_started(user_id)

    async def games_of(self, user_id: int) -> list[Match]:
        """The lobbies and running games that seat him as a player now, as stored (his
        practice game too). An entry of his index whose match no longer seats him is
        dropped; a game that cannot be read is left out."""
        found = []
        for entry in await self._seated.seated(user_id):
            try:
                match = await self._games.load(entry.chat_id, entry.thread_id)
            except BrokenGameError:
                continue
            if user_id in playing(match):
                assert match is not None
                found.append(match)
            else:
                await self._seated.forget([user_id], entry.chat_id, entry.thread_id, entry.game_id)
        return found
