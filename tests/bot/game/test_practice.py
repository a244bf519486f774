"""Practice in private: one person against the computer, the board and the hand in one chat."""

from __future__ import annotations

import re

from bot.game.options import NO_CLOCK
from bot.telegram import callbacks as cb
from engine.players import computer_player
from tests.bot.conftest import Harness, Snapshot, hand_buttons
from tests.fakebotapi import MessageView

HINT = re.compile("Подсказка|Hint")
HINTS_LINE = re.compile(r"💡 (Без подсказок|Использован\w* (\d+) подсказ\w*)")


async def practice(h: Harness, user: int, text: str = "/practice") -> MessageView:
    """`user` types `text` in his private chat: the practice lobby (once recorded)."""
    lobby = await h.say(user, user, text, reply=False)
    assert lobby.buttons, lobby.content

    async def recorded() -> bool:
        found = await h.snapshot(user)
        return found is not None and found.group.lobby_message_id == lobby.id

    await h.until(recorded, "the practice lobby recorded")
    return lobby


async def practising(h: Harness, text: str = "/practice") -> tuple[int, MessageView]:
    """Андрей, who has opened the bot's private chat, types `text` there: he and the
    practice lobby."""
    (user,) = h.people("Андрей")
    await h.start_bot(user)
    return user, await practice(h, user, text)


async def started(h: Harness, variant: str = "") -> tuple[int, Snapshot]:
    user, lobby = await practising(h, f"/practice {variant}".strip())
    answer = await h.lobby_button(user, user, lobby, "st")
    assert not answer.show_alert, answer
    return user, await h.game(user)


async def my_turn(h: Harness, user: int) -> tuple[Snapshot, MessageView]:
    """Until it is the person's turn and his hand shows it: the game and that hand."""

    async def ready() -> tuple[Snapshot, MessageView] | None:
        snap = await h.game(user)
        game = snap.game()
        if snap.status != "playing" or game.turn != 0:
            return None
        hand = h.hand(user)
        if hand is None or not hand_buttons(hand):
            return None
        if int((hand_buttons(hand)[0].callback_data or "").split(":")[4]) != game.version:
            return None
        return snap, hand

    found: tuple[Snapshot, MessageView] = await h.until(ready, "the person's turn", timeout=20)
    return found


async def test_practice_opens_a_lobby_in_the_private_chat_with_one_strong_computer(
    h: Harness,
) -> None:
    user, lobby = await practising(h, "/practice twolane")
    snap = await h.game(user)
    assert snap.match.practice and snap.variant == "twolane"
    assert [s.player for s in snap.seats] == ["Андрей", computer_player(1)]
    assert snap.seats[1].computer and snap.seats[1].level == "strong"
    assert snap.turn_seconds == NO_CLOCK  # no clock by default: he may think
    assert "Тренировка" in lobby.content or "компьютер" in lobby.content.lower()
    labels = [b.text for b in lobby.buttons]
    assert not any("Присоединиться" in label for label in labels)  # nobody else to join
    assert not any("Выйти" in label for label in labels)


async def test_newgame_in_private_is_practice_too_and_a_second_one_points_to_the_first(
    h: Harness,
) -> None:
    user, lobby = await practising(h, "/newgame muggins")
    assert (await h.game(user)).variant == "muggins"
    again = await h.say(user, user, "/practice", reply=False)
    assert "↑" in again.content and again.reply_to == lobby.id
    assert (await h.game(user)).match.id == (await h.game(user)).match.id
    assert len([m for m in h.api.messages(user, from_bot=True) if m.buttons]) == 1


async def test_practice_in_a_group_points_to_the_private_chat_and_opens_nothing(
    h: Harness,
) -> None:
    (user,) = h.people("Андрей")
    chat = h.group(user)
    answer = await h.say(user, chat, "/practice")
    assert "личн" in answer.content
    assert await h.snapshot(chat) is None


async def test_nobody_else_can_join_a_practice_game(h: Harness) -> None:
    andrey, irina = h.people("Андрей", "Ирина")
    await h.start_bot(andrey)
    await practice(h, andrey)
    snap = await h.game(andrey)
    payload = f"j_{andrey}_0_{snap.match.id}"
    answer = await h.start_bot(irina, payload)
    assert "одного" in answer.content or "/practice" in answer.content
    assert (await h.game(andrey)).match.seat_of(irina) is None


async def test_board_and_hand_share_the_chat_each_edited_in_place(h: Harness) -> None:
    user, _ = await started(h, "fives")
    snap, hand = await my_turn(h, user)
    board = snap.board.message_id
    assert board is not None and hand.id > board  # the hand is read below the board
    assert h.api.message(user, board).photo is not None
    assert h.api.message(user, board).buttons == []  # no «Мои кости»: the hand is right here
    await h.play_any(user, snap.version)
    snap, later = await my_turn(h, user)
    if snap.board.round_number == 1:
        # The same round: the next turn edits the same two messages, nothing new is sent.
        assert later.id == hand.id
        assert snap.board.message_id == board
    live = [m for m in h.api.messages(user, from_bot=True) if hand_buttons(m)]
    assert [m.id for m in live] == [later.id]  # one message with live buttons
    boards = [m for m in h.api.messages(user, from_bot=True) if m.photo and m.id < later.id]
    assert len(boards) >= 1


async def test_a_hint_names_a_legal_move_and_is_counted_once_per_move(h: Harness) -> None:
    user, _ = await started(h, "fives")
    snap, hand = await my_turn(h, user)
    hint = hand.button(HINT)
    assert hint.callback_data is not None and hint.callback_data.startswith(f"{cb.HINT}:")
    answer = await h.press(user, user, hand.id, hint.callback_data)
    assert answer.show_alert and answer.text
    assert len(answer.text) <= 200 and "\n" not in answer.text
    assert re.search("[а-яё]", answer.text.lower()), answer.text
    again = await h.press(user, user, hand.id, hint.callback_data)
    assert again.text == answer.text  # the same move, the same hint
    assert await h.store.hints.hints_used(user, None, snap.match.id) == 1
    after = await h.game(user)
    assert after.version == snap.version and after.match.rev == snap.match.rev  # nothing moved


async def test_a_hint_of_another_move_is_refused(h: Harness) -> None:
    user, _ = await started(h, "muggins")
    snap, hand = await my_turn(h, user)
    data = hand.button(HINT).callback_data
    assert data is not None
    stale = data.replace(f":{snap.version}:", f":{snap.version - 1}:")
    answer = await h.forge(user, user, stale)
    assert answer.show_alert
    assert await h.store.hints.hints_used(user, None, snap.match.id) == 0


async def test_group_games_offer_no_hint_and_refuse_a_forged_one(h: Harness) -> None:
    table = await h.table("fives", people=1, computers="s")
    user = table.users[0]

    async def live() -> MessageView | None:
        hand = h.hand(user)
        return hand if hand is not None and hand_buttons(hand) else None

    hand = await h.until(live, "a live hand", timeout=20)
    assert not any(HINT.search(b.text) for b in hand.buttons)
    data = hand_buttons(hand)[0].callback_data
    parts = data.split(":")
    forged = ":".join([cb.HINT, *parts[1:5], ""])
    answer = await h.forge(user, user, forged)
    assert answer.show_alert and "тренировк" in (answer.text or "").lower()
    snap = await h.game(table.chat)
    assert await h.store.hints.hints_used(table.chat, None, snap.match.id) == 0


async def test_the_final_table_counts_the_hints_and_no_table_counts_the_game(
    h: Harness,
) -> None:
    user, _ = await started(h, "fives")
    _, hand = await my_turn(h, user)
    hint = hand.button(HINT).callback_data
    assert hint is not None
    await h.press(user, user, hand.id, hint)
    snap = await h.finish(user)
    final = h.api.message(user, snap.group.final_message_id)
    found = HINTS_LINE.search(final.content)
    assert found and found.group(2) == "1", final.content
    assert await h.store.scores.stats(user) == {}
    stats = await h.say(user, user, "/stats")
    assert "нет законченных игр" in stats.content

    # His result comes in words below the final table, and points to no group: the final
    # table is in this chat. Practice is not rated: no rating is spoken of.
    async def result_shown() -> MessageView | None:
        hands = [m for m in h.api.messages(user, from_bot=True) if m.content.startswith("🁫")]
        return hands[-1] if hands and "Ваше место" in hands[-1].content else None

    result = await h.until(result_shown, "the result below the final table")
    assert result.photo is None and result.id > final.id
    said = result.text or ""
    assert "Итоговая таблица — в этом чате." in said
    assert "в группе" not in said and "рейтинг" not in said


async def test_rules_in_private_open_on_the_practice_game(h: Harness) -> None:
    user, _ = await practising(h, "/practice twolane")
    rules = await h.say(user, user, "/rules")
    chosen = [b.text for b in rules.buttons if b.text.startswith("• ")]
    assert chosen and "Двухполосное" in chosen[0]


async def test_the_computer_can_be_swapped_for_an_easy_one(h: Harness) -> None:
    user, lobby = await practising(h)
    answer = await h.lobby_button(user, user, lobby, "cr")
    assert not answer.show_alert, answer
    assert [s.name for s in (await h.lobby_settled(user)).seats] == ["Андрей"]
    refused = await h.lobby_button(user, user, lobby, "st")
    assert refused.show_alert  # two seats at least
    await h.lobby_button(user, user, lobby, "ce")
    snap = await h.lobby_settled(user)
    assert [(s.player, s.level) for s in snap.seats[1:]] == [(computer_player(1), "easy")]
    shown = h.api.message(user, lobby.id)
    assert "лёгкий" in shown.content
    gone = await h.lobby_button(user, user, lobby, "cr")
    assert not gone.show_alert
    await h.lobby_settled(user)
    assert not any(b.callback_data.endswith(":cr:") for b in h.api.message(user, lobby.id).buttons)
