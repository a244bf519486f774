"""Whole practice games in the private chat, through the real bot process, with hints."""

from __future__ import annotations

import random
import re
import time

import pytest

from bot.telegram.callbacks import HintPress
from tests.e2e.harness import export_record
from tests.e2e.reading import claims_a_turn
from tests.fakebotapi import FakeBotApi
from tests.fakebotapi.views import MessageView
from tests.support.bot_process import BotProcess
from tests.support.buttons import HAND_PRESSES, of_kind
from tests.support.players import Human, final_message

HINTS_WANTED = 2
HINTS_LINE = re.compile(r"💡 Использован\w* (\d+) подсказ")
HAND_CAPTION = "🁫"  # a hand's caption begins with the game's name; a board's does not


def open_practice(api: FakeBotApi, variant: str) -> tuple[int, MessageView]:
    """A person, his private chat with the bot, and a practice game started in it."""
    user = api.add_user("Андрей", language_code="ru")
    api.start_bot(user)
    sent = api.send_text(user, user, f"/practice {variant}")
    lobby = api.wait_message(user, after=sent, where=lambda m: bool(m.buttons))
    assert "Компьютер 1" in lobby.content
    query = api.press_button(user, user, lobby.id, re.compile("Начать"))
    text, alert = api.callback_answer(query)
    assert not alert, text
    return user, lobby


def ask_for_hint(api: FakeBotApi, user: int, hand: MessageView) -> str | None:
    """Press the hand's «💡 Подсказка»; the alert it answers with (None: no such button)."""
    hint = of_kind(hand.buttons, HintPress)
    if not hint or hint[0].callback_data is None:
        return None
    query = api.press(user, user, hand.id, hint[0].callback_data)
    answer = api.callback_answer(query, timeout=15)
    assert answer.show_alert, answer
    return answer.text or ""


def play_practice(api: FakeBotApi, user: int, timeout: float = 240) -> tuple[MessageView, dict]:
    """He plays to the final table, asking for a hint on his first turns: the final table
    and the hints by the button that asked (one per turn)."""
    human = Human(api, user, random.Random(user))
    hints: dict[str, str] = {}
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        final = final_message(api, user)
        if final is not None:
            return final, hints
        hand = human.hand()
        if hand is not None and len(hints) < HINTS_WANTED:
            data = next((b.callback_data for b in of_kind(hand.buttons, HintPress)), "")
            if data and data not in hints:
                text = ask_for_hint(api, user, hand)
                assert text is not None
                hints[data] = text
        live = [
            m
            for m in api.messages(user, from_bot=True)
            if of_kind(m.buttons, *HAND_PRESSES, HintPress)
        ]
        assert len(live) <= 1, [m.id for m in live]  # one message with live buttons at most
        if not human.act():
            time.sleep(0.05)
    raise AssertionError("the practice game did not end in time\n" + api.dump(40))


@pytest.mark.parametrize("variant", ["fives", "muggins", "twolane"])
def test_a_whole_practice_game_with_hints(api: FakeBotApi, bot: BotProcess, variant: str) -> None:
    user, lobby = open_practice(api, variant)
    final, hints = play_practice(api, user)
    # Hints: Russian, one line each, short enough for an alert, and counted on the table.
    assert len(hints) == HINTS_WANTED
    for text in hints.values():
        assert re.search("[а-яё]", text.lower()) and "\n" not in text and len(text) <= 200, text
    counted = HINTS_LINE.search(final.content)
    assert counted and int(counted.group(1)) == HINTS_WANTED, final.content
    # One board message a round, edited in place, and nothing anywhere but this chat.
    record = export_record(api, user, user)
    rounds = len(record["rounds"])
    photos = [m for m in api.messages(user, from_bot=True) if m.photo is not None]
    boards = [m for m in photos if m.id != final.id and not m.content.startswith(HAND_CAPTION)]
    assert len(boards) == rounds, [m.content[:40] for m in boards]
    assert any(m.edit_count > 0 for m in boards)
    # No «Мои кости» on a practice board (the hand is right under it), and the result says
    # where the final table really is: in this chat. No message claims a turn now.
    assert [m.id for m in boards if m.buttons] == []

    def one_hand(a: FakeBotApi) -> list[MessageView] | None:  # earlier ones are deleted
        found = [m for m in a.messages(user, from_bot=True) if m.content.startswith(HAND_CAPTION)]
        return found if len(found) == 1 and found[0].photo is None else None

    # The result, in words, below the final table; the hand picture before it is gone.
    hands = api.wait_for(one_hand, 30, "only the result left of the hand messages")
    assert hands[0].id > final.id
    assert "Итоговая таблица — в этом чате." in hands[0].content, hands[0].content
    assert "в группе" not in hands[0].content
    assert [m.id for m in api.messages(user, from_bot=True) if claims_a_turn(m)] == []
    assert api.message(user, lobby.id).deleted or not api.message(user, lobby.id).buttons
    chats = {call.chat_id for call in api.calls() if call.chat_id is not None}
    assert chats == {user}, chats
    # Practice counts toward no table.
    sent = api.send_text(user, user, "/stats")
    stats = api.wait_message(user, after=sent, where=lambda m: m.text is not None)
    assert "нет законченных игр" in stats.content
