"""Things that happen to a chat: a group becoming a supergroup, the bot leaving it,
forum topics named."""

from __future__ import annotations

import logging

from telegram import ChatMemberRestricted, Update
from telegram.constants import ChatMemberStatus
from telegram.ext import ContextTypes

from bot.handlers.common import deps, is_group, thread_of

log = logging.getLogger(__name__)


async def on_migration(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """The old group's service message names the new supergroup: the games move there."""
    message = update.effective_message
    if message is None or message.migrate_to_chat_id is None:
        return
    old, new = message.chat.id, message.migrate_to_chat_id
    log.info("group %s became supergroup %s", old, new)
    d = deps(context)
    for thread_id in await d.service.move_chat(old, new):
        d.delivery.kick(new, thread_id)


async def on_my_membership(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """The bot was removed from a group, or may no longer write there: its games end at
    once, and the people in them are told in private (their private chats say so). Once
    it may write there again, the boards it left are brought in line with how they ended."""
    changed = update.my_chat_member
    if changed is None or not is_group(changed.chat):
        return
    member = changed.new_chat_member
    gone = member.status in (ChatMemberStatus.LEFT, ChatMemberStatus.BANNED)
    muted = isinstance(member, ChatMemberRestricted) and not member.can_send_messages
    chat_id = changed.chat.id
    d = deps(context)
    if not (gone or muted):
        await d.delivery.bot_returned(chat_id)
        return
    log.info("the bot may no longer write to chat %s: its games end", chat_id)
    await d.service.bot_removed(chat_id)


async def on_topic(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """A forum topic was created or renamed: the name is kept for its games."""
    message = update.effective_message
    thread_id = thread_of(message)
    if message is None or thread_id is None:
        return
    named = message.forum_topic_created or message.forum_topic_edited
    name = getattr(named, "name", None)
    if name:  # an edit of the icon alone names nothing
        await deps(context).service.name_topic(message.chat.id, thread_id, name)
