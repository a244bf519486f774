"""A turn's reminder, through the real bot process: it comes once, and goes with its turn."""

from __future__ import annotations

import pytest

from tests.e2e.reading import bot_messages
from tests.fakebotapi import FakeBotApi
from tests.support.bot_process import BotProcess, bot_environment
from tests.support.buttons import hand_buttons
from tests.support.players import open_table


@pytest.fixture
def bot_env(api: FakeBotApi, redis_url: str, key_prefix: str) -> dict[str, str]:
    # A short clock, so that a turn's reminder comes and its turn then runs out.
    return bot_environment(api, redis_url, key_prefix, TURN_SECONDS="18")


def test_a_reminder_goes_once_its_turn_is_over(api: FakeBotApi, bot: BotProcess) -> None:
    group, people, _ = open_table(api, "fives", "hs")
    (user,) = people
    api.wait_for(lambda a: _live_hand(a, user), 30, "his turn")
    reminder = api.wait_message(
        user, where=lambda m: (m.text or "").startswith("⏳ На ход осталось"), timeout=30
    )
    # He does not move: the move is made for him, and the reminder no longer says
    # anything true.
    api.wait_for(lambda a: a.message(user, reminder.id).deleted, 40, "the reminder deleted")
    note = "Андрей: время вышло, ход сделан автоматически."
    api.wait_for(
        lambda a: any(note in m.content for m in bot_messages(a, group)), 30, "the board's note"
    )
    # Once per turn: each reminder replies to its own turn's hand message (his next turn,
    # which may have begun by now on a loaded machine, has a reminder of its own).
    sent = [m for m in api.messages(user, from_bot=True, include_deleted=True) if m.photo is None]
    replies = [m.reply_to for m in sent if (m.text or "").startswith("⏳")]
    assert reminder.reply_to is not None
    assert replies.count(reminder.reply_to) == 1
    assert len(replies) == len(set(replies))


def _live_hand(api: FakeBotApi, user: int) -> bool:
    return any(hand_buttons(m) for m in bot_messages(api, user))
