"""/start, /newgame, the lobby's buttons, forum topics, /help, /rules, /lang: what users see."""

from __future__ import annotations

import re

from bot.game.rulebook import text as rules_text
from bot.i18n import translator
from engine.players import computer_player
from tests.bot.conftest import Harness, Table, en, ru
from tests.fakebotapi import MessageView

RU = translator("ru")


def lobby_data(message: MessageView) -> list[str]:
    return [b.callback_data for b in message.buttons if (b.callback_data or "").startswith("L:")]


def lobby_kinds(message: MessageView) -> list[str]:
    """The lobby actions its buttons offer (`L:<game>:<action>:<value>`)."""
    return [(b.callback_data or "").split(":")[2] for b in message.buttons if b.callback_data]


async def refused_press(
    h: Harness, user: int, group: int, lobby: MessageView, action: str, code: str
) -> None:
    """`user`'s press of the lobby's `action` button is refused by `code`'s alert and
    changes nothing."""
    before = await h.raw(group)
    answer = await h.lobby_button(user, group, lobby, action)
    assert (answer.text, answer.show_alert) == (ru(code), True)
    await h.settle()
    assert await h.raw(group) == before


# -- /start ---------------------------------------------------------------------------


async def test_plain_start_greets_and_explains(h: Harness) -> None:
    (user,) = h.people("Андрей")
    answer = await h.start_bot(user)
    assert "Привет! Добавьте меня в группу и наберите там /newgame." in answer.text
    assert "/newgame" in answer.text and "/rules" in answer.text
    assert (await h.store.prefs.user(user)).started


async def test_start_speaks_english_to_an_english_user(h: Harness) -> None:
    (user,) = h.people("Andrew", lang="en")
    answer = await h.start_bot(user)
    assert answer.text.startswith("Hello! Add me to a group and type /newgame there.")


async def test_start_in_a_group_shows_the_help(h: Harness) -> None:
    (user,) = h.people("Андрей")
    group = h.group(user)
    answer = await h.say(user, group, "/start")
    assert "Домино для групповых чатов" in answer.text


async def test_start_with_a_garbage_payload_greets(h: Harness) -> None:
    (user,) = h.people("Андрей")
    for payload in ("garbage", "j_x_0_abcdefgh", "j_-100_0_ab", "j_-1_0_abcdefgh_1"):
        answer = await h.start_bot(user, payload)
        assert answer.text.startswith("Привет!"), payload


async def test_joining_by_the_deep_link_takes_a_seat(h: Harness) -> None:
    (_, b), group, lobby = await h.lobby_of("Андрей", "Ирина")
    assert lobby.text is not None and "занято мест — 0 из 4" in lobby.text
    answer = await h.join(b, group, lobby)
    assert answer.text == "Вы присоединились к игре в чате «Домино». Ваши кости придут сюда."
    game = await h.lobby_settled(group)
    assert [seat.user_id for seat in game.seats] == [b]
    shown = h.api.message(group, lobby.id)
    assert "1. Ирина" in shown.content and "занято мест — 1 из 4" in shown.content


async def test_names_and_titles_with_html_characters(h: Harness) -> None:
    a, b = h.people("Tom <3", "Jerry & co")
    group = h.api.add_group("Tom & Jerry <3>", owner=a, members=[b])
    lobby = await h.newgame(a, group)
    assert "Когда все соберутся, Tom <3 нажмёт «Начать»." in lobby.content
    answer = await h.join(b, group, lobby)
    assert (
        answer.text == "Вы присоединились к игре в чате «Tom & Jerry <3>». Ваши кости придут сюда."
    )
    answer = await h.join(b, group, lobby, expect_edit=False)
    assert answer.text == "Вы уже играете в чате «Tom & Jerry <3>»."
    await h.join(a, group, lobby)
    await h.lobby_settled(group)
    assert "1. Jerry & co\n2. Tom <3" in h.api.message(group, lobby.id).content
    table = Table(h, group, [a, b], lobby)
    await table.start()
    board = await table.board_caption("Jerry & co — Очки: 0")
    assert "Tom <3 — Очки: 0" in (board.caption or "")
    hand = await h.api.wait_message_async(b, where=lambda m: m.photo is not None)
    assert "· Tom & Jerry <3> ·" in (hand.caption or "")


async def test_joining_twice_keeps_one_seat(h: Harness) -> None:
    (_, b), group, lobby = await h.lobby_of("Андрей", "Ирина")
    await h.join(b, group, lobby)
    before = await h.lobby_settled(group)
    answer = await h.join(b, group, lobby, expect_edit=False)
    assert answer.text == "Вы уже играете в чате «Домино»."
    await h.settle()
    after = await h.game(group)
    assert after.seats == before.seats and after.lobby_rev == before.lobby_rev


async def test_a_link_to_a_game_that_is_not_there(h: Harness) -> None:
    a, b = h.people("Андрей", "Ирина")
    group = h.group(a, [b])
    answer = await h.start_bot(b, f"j_{group}_0_abcdefgh")
    assert answer.text == ru("game_gone")
    assert await h.store.games.load(group, None) is None


async def test_joining_a_full_lobby_is_refused(h: Harness) -> None:
    (a, b, c), group, lobby = await h.lobby_of("Андрей", "Ирина", "Ольга")
    for _ in range(3):
        await h.lobby_settled(group)
        assert not (await h.lobby_button(a, group, lobby, "ce")).show_alert
    await h.lobby_settled(group)
    await h.join(b, group, lobby)
    await h.lobby_settled(group)
    before = await h.raw(group)
    answer = await h.join(c, group, lobby, expect_edit=False)
    assert answer.text == ru("lobby_full") == "Все четыре места заняты."
    await h.settle()
    assert await h.raw(group) == before


async def test_joining_a_started_or_cancelled_game_is_refused(h: Harness) -> None:
    table = await h.table(people=2)
    (late,) = h.people("Ольга")
    h.api.set_member(table.chat, late)
    payload = f"j_{table.chat}_0_{(await table.game()).id}"
    await h.settle()
    before = await h.raw(table.chat)
    answer = await h.start_bot(late, payload)
    assert answer.text == ru("game_started") == "Игра уже началась."
    await h.settle()
    assert await h.raw(table.chat) == before

    (a, b), group, lobby = await h.lobby_of("Вадим", "Пётр")
    payload = f"j_{group}_0_{(await h.game(group)).id}"
    assert (await h.lobby_button(a, group, lobby, "cx")).text == "Игра отменена."
    await h.settle()
    before = await h.raw(group)
    answer = await h.start_bot(b, payload)
    assert answer.text == ru("lobby_cancelled")  # a lobby: no game was over
    assert await h.raw(group) == before


async def test_a_creator_who_started_the_bot_is_seated_at_once(h: Harness) -> None:
    (a,) = h.people("Андрей")
    await h.start_bot(a)
    group = h.group(a)
    lobby = await h.newgame(a, group)
    assert "1. Андрей" in lobby.content
    assert [seat.user_id for seat in (await h.game(group)).seats] == [a]


# -- /newgame -------------------------------------------------------------------------


async def test_newgame_with_a_variant(h: Harness) -> None:
    (a,) = h.people("Андрей")
    group = h.group(a)
    lobby = await h.newgame(a, group, "MUGGINS")
    assert lobby.content.startswith("🁫 Пятёрки (до 51)")
    assert "до 51 очка" in lobby.content
    assert (await h.game(group)).variant == "muggins"
    assert "t" not in lobby_kinds(lobby)  # a target to choose only in fives


async def test_an_unknown_variant_is_refused(h: Harness) -> None:
    (a,) = h.people("Андрей")
    group = h.group(a)
    answer = await h.say(a, group, "/newgame chess")
    assert answer.text == (
        "Такой игры нет. Выберите одну из них:\n"
        "/newgame fives — Пятерное домино\n"
        "/newgame muggins — Пятёрки (до 51)\n"
        "/newgame twolane — Двухполосное домино"
    )
    assert "<code>/newgame fives</code>" in (answer.raw_text or "")  # to copy with a tap
    assert await h.store.games.load(group, None) is None


async def test_a_second_newgame_points_to_the_running_game(h: Harness) -> None:
    table = await h.table(people=2, start=False)
    first = await h.game(table.chat)
    sent = h.api.send_text(table.users[1], table.chat, "/newgame twolane")
    answer = await h.api.wait_message_async(table.chat, after=sent)
    # Not its creator: he is told what he can do (join, or take it over once it is stale).
    assert answer.text == (
        "Здесь уже открыто лобби ↑: присоединяйтесь. Если в нём 5 мин никто ничего "
        "не нажмёт, /newgame передаст его вам."
    )
    assert answer.reply_to == table.lobby.id
    await h.settle()
    assert (await h.game(table.chat)).id == first.id

    game = await table.start()
    sent = h.api.send_text(table.users[0], table.chat, "/newgame")
    answer = await h.api.wait_message_async(table.chat, after=sent, where=lambda m: m.text)
    assert answer.text.startswith(ru("game_running"))
    assert answer.reply_to == game.board.message_id
    await h.settle()
    assert (await h.game(table.chat)).id == first.id


async def test_each_forum_topic_has_its_own_game(h: Harness) -> None:
    a, b = h.people("Андрей", "Ирина")
    group = h.api.add_group("Форум", owner=a, members=[b], is_forum=True)
    one = h.api.add_topic(group, "Стол 1")
    two = h.api.add_topic(group, "Стол 2")
    lobby_one = await h.newgame(a, group, "fives", thread_id=one)
    lobby_two = await h.newgame(b, group, "twolane", thread_id=two)
    assert (lobby_one.thread_id, lobby_two.thread_id) == (one, two)
    game_one, game_two = await h.game(group, one), await h.game(group, two)
    assert game_one.id != game_two.id and game_two.variant == "twolane"
    assert await h.store.games.load(group, None) is None  # the General topic has none

    # A second /newgame in a topic answers in that topic, pointing to its lobby.
    sent = h.api.send_text(b, group, "/newgame", thread_id=one)
    answer = await h.api.wait_message_async(group, after=sent)
    assert answer.thread_id == one and answer.reply_to == lobby_one.id

    # Joining through topic two's link seats people in topic two's game only.
    for user in (a, b):
        await h.lobby_settled(group, two)
        await h.join(user, group, lobby_two)
    await h.lobby_settled(group, two)
    assert (await h.game(group, one)).seats == []
    answer = await h.lobby_button(a, group, lobby_two, "st")
    assert (answer.text, answer.show_alert) == (ru("creator_only"), True)
    await h.settle()
    assert (await h.game(group, two)).status == "lobby"
    answer = await h.lobby_button(b, group, lobby_two, "st")
    assert not answer.show_alert

    async def board() -> int | None:
        return (await h.game(group, two)).board.message_id

    board_id = await h.until(board, "topic two's board")
    assert h.api.message(group, board_id).thread_id == two
    assert all(m.thread_id == two for m in h.api.messages(group, from_bot=True) if m.photo)
    assert (await h.game(group, one)).status == "lobby"


# -- the lobby's buttons ----------------------------------------------------------------


async def test_computer_players_join_by_button(h: Harness) -> None:
    (a, b), group, lobby = await h.lobby_of("Андрей", "Ирина")
    answer = await h.lobby_button(a, group, lobby, "ce")
    assert (answer.text, answer.show_alert) == ("Компьютер сел за стол.", False)
    await h.lobby_settled(group)
    await h.lobby_button(a, group, lobby, "cs")
    game = await h.lobby_settled(group)
    assert [(s.player, s.level, s.computer) for s in game.seats] == [
        (computer_player(1), "easy", True),
        (computer_player(2), "strong", True),
    ]
    shown = h.api.message(group, lobby.id).content
    assert "1. 🤖 Компьютер 1 (лёгкий)" in shown and "2. 🤖 Компьютер 2 (сильный)" in shown

    await refused_press(h, b, group, lobby, "ce", "creator_only")


async def test_the_game_button_cycles_the_variants(h: Harness) -> None:
    (a,) = h.people("Андрей")
    group = h.group(a)
    lobby = await h.newgame(a, group)
    seen = []
    for _ in range(3):
        assert not (await h.lobby_button(a, group, lobby, "v")).show_alert
        game = await h.lobby_settled(group)
        shown = h.api.message(group, lobby.id)
        seen.append((game.variant, "t" in lobby_kinds(shown), shown.content.split("\n")[0]))
    assert seen == [
        ("muggins", False, "🁫 Пятёрки (до 51)"),
        ("twolane", False, "🁫 Двухполосное домино"),
        ("fives", True, "🁫 Пятерное домино"),
    ]


async def test_the_target_and_move_time_buttons(h: Harness) -> None:
    (a, _), group, lobby = await h.lobby_of("Андрей", "Ирина")
    targets = []
    for _ in range(3):
        await h.lobby_button(a, group, lobby, "t")
        game = await h.lobby_settled(group)
        shown = re.search(r"до (\d+) очк(?:а|ов)", h.api.message(group, lobby.id).content)
        assert shown is not None
        targets.append((game.target, int(shown.group(1))))
    assert targets == [(50, 50), (100, 100), (None, 25)]

    times = []
    for _ in range(6):
        await h.lobby_button(a, group, lobby, "tm")
        game = await h.lobby_settled(group)
        shown = {0: "без часов", 180: "3 мин на ход", 300: "5 мин на ход"}.get(
            game.turn_seconds, f"{game.turn_seconds} с на ход"
        )
        assert shown in h.api.message(group, lobby.id).content
        times.append(game.turn_seconds)
    assert times == [180, 300, 0, 30, 60, 90]  # 0: no clock

    # Only fives has a target: a target button made for muggins (forged) is refused.
    await h.lobby_button(a, group, lobby, "v")
    game = await h.lobby_settled(group)
    before = await h.raw(group)
    answer = await h.forge(a, group, f"L:{game.id}:t:50")
    assert (answer.text, answer.show_alert) == (ru("no_target_option"), True)
    await h.settle()
    assert await h.raw(group) == before


async def test_the_lobby_options_are_the_games_options(h: Harness) -> None:
    table = await h.table("fives", start=False)
    andrey = table.users[0]
    for action in ("t", "tm", "tm", "tm", "tm"):  # target 50; 90 -> 180 -> 300 -> none -> 30 s
        await h.lobby_settled(table.chat)
        assert not (await h.lobby_button(andrey, table.chat, table.lobby, action)).show_alert
    await h.lobby_settled(table.chat)
    game = await table.start()
    assert game.turn_seconds == 30 and game.game().target == 50
    assert game.deadline is not None and 25 < game.deadline - h.clock() <= 30
    await table.board_caption("Цель: 50")


async def test_leaving_the_lobby_by_button(h: Harness) -> None:
    (_, b, c), group, lobby = await h.lobby_of("Андрей", "Ирина", "Ольга")
    await h.join(b, group, lobby)
    await h.lobby_settled(group)
    answer = await h.lobby_button(b, group, lobby, "lv")
    assert (answer.text, answer.show_alert) == ("Вы вышли из набора.", False)
    game = await h.lobby_settled(group)
    assert game.seats == []
    assert "занято мест — 0 из 4" in h.api.message(group, lobby.id).content

    await refused_press(h, c, group, lobby, "lv", "not_in_game")


async def test_who_may_start(h: Harness) -> None:
    """A refused start is told as an alert and changes nothing (who may start, and with
    whom, is tests/bot/game/test_lobby.py)."""
    (_, b), group, lobby = await h.lobby_of("Андрей", "Ирина")
    await h.join(b, group, lobby)
    await h.lobby_settled(group)
    await refused_press(h, b, group, lobby, "st", "creator_only")  # not the creator
    assert RU(en("need_human")) == "Хотя бы один игрок должен быть человеком."


async def test_cancelling_the_lobby(h: Harness) -> None:
    a, b, admin = h.people("Андрей", "Ирина", "Ольга")
    group = h.group(a, [b], admins=[admin])
    lobby = await h.newgame(a, group)
    await refused_press(h, b, group, lobby, "cx", "creator_or_admin_only")

    answer = await h.lobby_button(admin, group, lobby, "cx")
    assert (answer.text, answer.show_alert) == ("Игра отменена.", False)
    shown = await h.api.wait_for_async(
        lambda api: (m := api.message(group, lobby.id)).text == "Игра отменена." and m,
        10,
        "the lobby says it was cancelled",
    )
    assert shown.buttons == []
    assert (await h.game(group)).status == "cancelled"
    # A new game may be opened now.
    lobby = await h.newgame(b, group)
    assert (await h.game(group)).status == "lobby"


async def test_a_press_on_a_lobby_that_lags_does_what_its_button_showed(h: Harness) -> None:
    """The lobby message may lag behind the stored lobby: its buttons still work, and an
    option button sets the value it offered, so pressing it twice changes nothing more."""
    (a, b), group, lobby = await h.lobby_of("Андрей", "Ирина")
    old = h.api.message(group, lobby.id)  # the buttons as they were before Ирина joined
    to_muggins = next(d for d in lobby_data(old) if d.split(":")[2] == "v")
    start = next(d for d in lobby_data(old) if d.split(":")[2] == "st")
    for user in (a, b):
        await h.join(user, group, lobby)
        await h.lobby_settled(group)
    for _ in range(2):
        answer = await h.forge(a, group, to_muggins)
        assert not answer.show_alert, answer
    game = await h.lobby_settled(group)
    assert game.variant == "muggins"
    answer = await h.forge(a, group, start)
    assert (answer.text, answer.show_alert) == ("Игра начинается!", False)
    game = await h.game(group)
    assert game.status == "playing" and [s.user_id for s in game.seats] == [a, b]


async def test_a_lobby_button_of_a_game_that_started_changes_nothing(h: Harness) -> None:
    table = await h.table("fives", people=2)
    andrey = table.users[0]
    old = table.lobby  # the lobby as first posted (the message is gone since)
    await h.settle()
    before = await h.raw(table.chat)
    for data in lobby_data(old):
        answer = await h.forge(andrey, table.chat, data)
        assert (answer.text, answer.show_alert) == (ru("game_started"), True), data
    await h.settle()
    assert await h.raw(table.chat) == before


async def test_garbage_and_forged_button_data_are_refused_cleanly(h: Harness) -> None:
    (a, b), group, lobby = await h.lobby_of("Андрей", "Ирина")
    game = await h.lobby_settled(group)
    before = await h.raw(group)
    for data in (
        "zzz",
        "L:",
        f"L:{game.id}:boom:",
        f"L:{game.id}:st",
        f"L:{game.id}:st::extra",
        f"L:{game.id}:v:chess",
        f"L:{game.id}:tm:x",
        f"L:{game.id}:st:5",
        "P:1:2:3",
        f"P:{group}:0:{game.id}:0:99",
        f"E:{group}:0:{game.id}:0:64Q",
        "R:chess",
        "S:abcdefgh:0:maybe",
        "H:!!",
        "💥" * 16,
    ):
        answer = await h.forge(b, group, data)
        assert (answer.text, answer.show_alert) == (ru("stale_button"), True), data
    answer = await h.forge(a, group, "L:zzzzzzzz:st:")
    assert (answer.text, answer.show_alert) == (ru("game_gone"), True)
    await h.settle()
    assert await h.raw(group) == before
    assert h.api.message(group, lobby.id).edit_count == 0


# -- /help, /rules, /lang ----------------------------------------------------------------


async def test_help(h: Harness) -> None:
    (a,) = h.people("Андрей")
    group = h.group(a)
    answer = await h.say(a, group, "/help")
    assert answer.text.startswith("Домино для групповых чатов")
    for command in ("/newgame", "/rules", "/score", "/leave", "/stop", "/stats", "/export"):
        assert command in answer.text


async def test_rules_and_their_buttons(h: Harness) -> None:
    (a,) = h.people("Андрей")
    group = h.group(a)
    answer = await h.say(a, group, "/rules")
    assert answer.text.startswith("Пятерное домино · 2–4 игрока")
    assert answer.text.endswith(
        "Начать: /newgame fives в группе или /practice fives в личном чате с ботом."
    )
    labels = [b.text for b in answer.buttons]
    assert labels == ["• Пятерное домино", "Пятёрки (до 51)", "Двухполосное домино"]

    edits = answer.edit_count
    await h.press_text(a, group, answer.id, "Пятёрки")
    shown = await h.api.wait_for_async(
        lambda api: (m := api.message(group, answer.id)).edit_count > edits and m, 10, "edit"
    )
    assert shown.text.startswith("Пятёрки (до 51) · 2–4 игрока")
    assert [b.text for b in shown.buttons][1] == "• Пятёрки (до 51)"

    answer = await h.say(a, group, "/rules twolane")
    assert answer.text.startswith("Двухполосное домино · 2–4 игрока")
    answer = await h.say(a, group, "/rules nonsense")
    assert answer.text.startswith("Пятерное домино · 2–4 игрока")
    assert answer.text.endswith(
        "Начать: /newgame fives в группе или /practice fives в личном чате с ботом."
    )
    assert "<b>" not in answer.text and "Раздача." in rules_text("ru", "fives")


async def test_lang_in_a_group_sets_the_chats_language(h: Harness) -> None:
    a, b = h.people("Андрей", "Ирина")
    group = h.group(a, [b])
    assert (await h.say(a, group, "/lang")).text == "Выберите язык: /lang ru или /lang en"
    assert (await h.say(a, group, "/lang de")).text == "Выберите язык: /lang ru или /lang en"
    assert (await h.say(a, group, "/lang en")).text == "Language: English"
    assert await h.store.prefs.chat_language(group) == "en"
    assert (await h.say(b, group, "/help")).text.startswith("Dominoes for group chats")
    lobby = await h.newgame(a, group)
    assert "New game: 0 of 4 seats taken" in lobby.content
    assert lobby.buttons[0].text == "🙋 Join"
    answer = await h.lobby_button(b, group, lobby, "st")
    assert (answer.text, answer.show_alert) == (en("creator_only"), True)
    # The user's private chat keeps its own language.
    await h.start_bot(b)
    assert (await h.say(b, b, "/help")).text.startswith("Домино для групповых чатов")
    assert (await h.say(a, group, "/lang ru")).text == "Язык: русский"
    assert (await h.say(b, group, "/help")).text.startswith("Домино для групповых чатов")


async def test_lang_in_private_sets_the_users_language(h: Harness) -> None:
    a, b = h.people("Андрей", "Ирина")
    group = h.group(a, [b])
    await h.start_bot(b)
    assert (await h.say(b, b, "/lang en")).text == "Language: English"
    assert (await h.store.prefs.user(b)).lang == "en"
    assert await h.store.prefs.chat_language(group) is None
    practice = await h.say(b, b, "/newgame", reply=False)  # a practice lobby, in English
    assert "Practice against the computer" in practice.content
    assert (await h.say(b, group, "/help")).text.startswith("Домино для групповых чатов")
