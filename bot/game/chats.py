"""What happens to a chat's match when the chat changes: the bot removed, a topic named,
the group moved to a new id, another language.

Rules like the lobby's (bot.game.lobby): functions of the match as stored that
return a `Change` or `UNCHANGED`, never changing what they are given.
"""

from __future__ import annotations

from bot.game.outcomes import UNCHANGED, Change, Unchanged
from bot.storage.models import Match


def abandon(match: Match | None, game_id: str | None) -> Change | Unchanged:
    """The bot can no longer write to the group: its game ends there, as cancelled.

    `game_id` None: whatever game is under way there.
    """
    if match is None or game_id not in (None, match.id) or not match.active:
        return UNCHANGED
    abandoned = match.model_copy(deep=True)
    abandoned.status, abandoned.ended, abandoned.deadline = "cancelled", "bot_removed", None
    return Change(abandoned)


def name_topic(match: Match | None, name: str) -> Change | Unchanged:
    """A forum topic was created or renamed: its game's private messages name it."""
    if match is None or not match.active or match.topic == name:
        return UNCHANGED
    named = match.model_copy(update={"topic": name}, deep=True)
    named.lobby_rev += 1
    return Change(named)


def move_to(match: Match | None, chat_id: int) -> Change | Unchanged:
    """A group became a supergroup: its match belongs to the new chat id."""
    if match is None or match.chat_id == chat_id:
        return UNCHANGED
    return Change(match.model_copy(update={"chat_id": chat_id}, deep=True))


def speak(match: Match | None, lang: str) -> Change | Unchanged:
    """/lang in a group: its running game speaks `lang` from now on."""
    if match is None or not match.active or match.lang == lang:
        return UNCHANGED
    spoken = match.model_copy(update={"lang": lang}, deep=True)
    spoken.lobby_rev += 1
    return Change(spoken)
