"""Playing by the hand buttons, in chosen positions: every refusal, the end and doubles choices."""

from __future__ import annotations

from engine import Game, Tile
from tests.bot.conftest import (
    ANDREY_TO_ACT,
    MUGGINS_DOUBLES,
    NAMES,
    Harness,
    Table,
    en,
    hand_buttons,
    position,
    ru,
)
from tests.fakebotapi import MessageView

# fives: Андрей opened 6:5, Ирина laid 5:2 on E; Андрей to act (W 6, E 2): only 6:2 fits, both ends.
FIVES_TWO_ENDS = ANDREY_TO_ACT
# twolane: Ирина opened 5:3; nothing of Андрей's fits, and the boneyard's first tile (1:1) neither.
TWOLANE_NOTHING_FITS = position(
    "twolane", NAMES, ["6:6 6:4 4:4 2:2 2:1", "5:3 0:0 1:0 6:0 5:5"], starter=1, moves=["5:3"]
)
# twolane: Андрей opened 5:2; once Ирина plays 6:2 nothing of his will fit, nor his draw.
BEFORE_NOTHING_FITS = Game.new("twolane", NAMES, seed=10)
BEFORE_NOTHING_FITS.push(BEFORE_NOTHING_FITS.parse_move("5:2"))


def data(message: MessageView, kind: str, arg: str = "") -> str:
    """The callback data of the message's button of this kind (and argument)."""
    for button in hand_buttons(message):
        value = button.callback_data
        if value.startswith(kind + ":") and value.endswith(":" + arg):
            return str(value)
    raise AssertionError(f"no {kind}:{arg} button: {message.describe_buttons()}")


def forged(table: Table, game_id: str, version: int, kind: str, arg: str = "") -> str:
    return f"{kind}:{table.chat}:0:{game_id}:{version}:{arg}"


async def test_a_tile_that_fits_two_ends(h: Harness) -> None:
    table, game = await h.match_at(FIVES_TWO_ENDS)
    andrey, irina = table.users
    hand = await h.hand_for(andrey, game.version)
    labels = [b.text for b in hand_buttons(hand)]
    # The tiles come highest first, numbered as in the hand picture.
    assert labels == ["🟢 1) 6:2", "▫️ 2) 4:3", "▫️ 3) 1:1", "▫️ 4) 1:0", "▫️ 5) 0:0"]
    assert not any(b.callback_data.startswith(("D:", "X:")) for b in hand_buttons(hand))
    assert "Ваш ход! Концы: 🔵⬅️ 6 · 🟠➡️ 2" in (hand.caption or "")
    await h.settle()
    before = await h.raw(table.chat)

    # The tile fits W and E: the keyboard asks which end, and nothing is played yet.
    answer = await h.press(andrey, andrey, hand.id, data(hand, "P", "62"))
    assert (answer.text, answer.show_alert) == ("К какому концу?", False)
    ends = await h.wait(
        lambda api: (m := api.message(andrey, hand.id)).buttons[0].text == "🔵⬅️ 6" and m, "ends"
    )
    assert [b.text for b in ends.buttons] == ["🔵⬅️ 6", "🟠➡️ 2", "↩️ Назад"]
    assert await h.raw(table.chat) == before

    # Back shows the tiles again.
    answer = await h.press(andrey, andrey, hand.id, data(ends, "B"))
    assert not answer.show_alert
    back = await h.wait(
        lambda api: (m := api.message(andrey, hand.id)).buttons[0].text.endswith("6:2") and m,
        "the tiles again",
    )
    assert [b.text for b in back.buttons] == labels
    assert await h.raw(table.chat) == before

    # Then the tile on W.
    await h.press(andrey, andrey, hand.id, data(back, "P", "62"))
    ends = await h.wait(
        lambda api: (m := api.message(andrey, hand.id)).buttons[0].text == "🔵⬅️ 6" and m, "ends"
    )
    answer = await h.press(andrey, andrey, hand.id, data(ends, "E", "62W"))
    assert (answer.text, answer.show_alert) == ("Сыграно 6:2 🔵⬅️", False)
    game = await h.game(table.chat)
    assert game.version == 3 and game.game().turn == 1
    assert [str(t) for t in game.game().round.hands[0]] == ["1:0", "4:3", "1:1", "0:0"]
    await h.hand_for(irina, 3)


async def test_refused_tile_presses_change_nothing(h: Harness) -> None:
    table, game = await h.match_at(FIVES_TWO_ENDS)
    andrey, irina = table.users
    hand = await h.hand_for(andrey, game.version)
    await h.settle()
    before = await h.raw(table.chat)

    async def refused(user: int, chat: int, payload: str, code: str, message: int = 0) -> None:
        if message:
            answer = await h.press(user, chat, message, payload)
        else:
            answer = await h.forge(user, chat, payload)
        assert (answer.text, answer.show_alert) == (ru(code), True), payload

    v = game.version
    await refused(andrey, andrey, data(hand, "P", "10"), "does_not_fit", hand.id)
    assert ru("does_not_fit") == "Эта кость сюда не подходит."
    await refused(andrey, andrey, forged(table, game.id, v, "P", "33"), "not_in_hand")
    await refused(andrey, andrey, forged(table, game.id, v, "E", "10W"), "does_not_fit")
    await refused(andrey, andrey, forged(table, game.id, v, "E", "62N"), "no_such_end")
    await refused(andrey, andrey, forged(table, game.id, v - 1, "P", "62"), "stale_button")
    await refused(andrey, andrey, forged(table, game.id, v + 1, "P", "62"), "stale_button")
    await refused(andrey, andrey, forged(table, game.id, v, "D"), "can_play")
    await refused(andrey, andrey, forged(table, game.id, v, "X"), "can_play")
    await refused(andrey, andrey, forged(table, game.id, v, "MC", "11W00E"), "one_tile_only")
    # Ирина, whose turn it is not, with buttons of this version made up.
    await refused(irina, irina, forged(table, game.id, v, "P", "31"), "not_your_turn")
    await refused(irina, irina, forged(table, game.id, v, "E", "31W"), "not_your_turn")
    await refused(irina, irina, forged(table, game.id, v, "D"), "not_your_turn")
    # Someone who does not play, pressing Андрей's button data in his own chat.
    (outsider,) = h.people("Ольга")
    await h.start_bot(outsider)
    await refused(outsider, outsider, data(hand, "P", "62"), "not_in_game")
    await refused(outsider, outsider, data(hand, "P", "10"), "not_in_game")
    # Data naming another chat, or another game in this one.
    other = h.group(andrey)
    await refused(andrey, andrey, f"P:{other}:0:{game.id}:{v}:62", "game_gone")
    await refused(andrey, andrey, f"P:{table.chat}:5:{game.id}:{v}:62", "game_gone")
    await refused(andrey, andrey, forged(table, "zzzzzzzz", v, "P", "62"), "game_gone")
    await h.settle()
    assert await h.raw(table.chat) == before
    assert (await h.game(table.chat)).game().turn == 0


async def test_a_draw_and_a_pass_without_a_choice_are_made_for_him(h: Harness) -> None:
    # Ирина is to open; nothing of Андрей's will fit her 5:3.
    table, game = await h.match_at(BEFORE_NOTHING_FITS)
    andrey, irina = table.users
    hand = await h.hand_for(irina, game.version)
    waiting = await h.wait(
        lambda api: api.last_message(andrey, where=lambda m: m.photo is not None), "his tiles"
    )
    await h.settle()
    sent = len(h.api.messages(andrey, from_bot=True))
    answer = await h.press(irina, irina, hand.id, data(hand, "P", "62"))
    assert answer.text == "Сыграно 2:6 🟠➡️" and not answer.show_alert
    # He had to draw (a tile that does not fit either) and then to pass: both were made
    # for him at once, and his penalty counted; no message asked him to press anything.
    game = await h.game(table.chat)
    entries = [(e.seat, e.text) for e in game.game().round.moves]
    assert entries == [(0, "5:2"), (1, "2:6@E"), (0, "draw"), (0, "pass")]
    assert game.game().turn == 1 and game.game().totals == [10, 0]
    drawn = BEFORE_NOTHING_FITS.round.boneyard[0]
    assert drawn in game.game().round.hands[0]
    board = await table.board_caption("Андрей: берёт из базара")
    assert "Андрей: пас — штраф (+10)" in (board.caption or ""), board.caption
    await h.settle()
    # His waiting hand was edited to show the tile he drew; nothing new was sent to him.
    assert len(h.api.messages(andrey, from_bot=True)) == sent
    assert h.api.message(andrey, waiting.id).edit_count > waiting.edit_count
    assert str(drawn) in (await h.game(table.chat)).hands[0].shows
    assert not hand_buttons(h.api.message(andrey, waiting.id))


async def test_a_game_stored_with_a_draw_to_press_still_plays(h: Harness) -> None:
    # A game an earlier release stored while he had only a draw to press: the button is
    # there, and once he drew, the pass that follows is made for him.
    table, game = await h.match_at(TWOLANE_NOTHING_FITS)
    andrey, _ = table.users
    v = game.version
    hand = await h.hand_for(andrey, v)
    assert "Ни одна кость не подходит." in (hand.caption or "")
    assert [b.text for b in hand_buttons(hand)][-1] == "📥 Взять из базара"
    assert not any(b.callback_data.startswith("X:") for b in hand_buttons(hand))
    await h.settle()
    before = await h.raw(table.chat)
    answer = await h.forge(andrey, andrey, forged(table, game.id, v, "X"))
    assert (answer.text, answer.show_alert) == (ru("must_draw"), True)
    answer = await h.press(andrey, andrey, hand.id, data(hand, "P", "66"))
    assert (answer.text, answer.show_alert) == (ru("does_not_fit"), True)
    await h.settle()
    assert await h.raw(table.chat) == before

    answer = await h.press(andrey, andrey, hand.id, data(hand, "D"))
    assert not answer.show_alert
    assert answer.text == "Вы взяли кость из базара."
    game = await h.game(table.chat)
    assert game.version == v + 2 and game.game().turn == 1  # 1:1 did not fit: he passed
    assert game.game().totals == [10, 0]
    assert Tile.parse("1:1") in game.game().round.hands[0]


async def test_several_doubles_at_once(h: Harness) -> None:
    table, game = await h.match_at(MUGGINS_DOUBLES)
    _, irina = table.users
    v = game.version
    hand = await h.hand_for(irina, v)
    assert [b.text for b in hand_buttons(hand)][-1] == "🁣 Несколько дублей"
    await h.settle()
    before = await h.raw(table.chat)

    async def keyboard(*labels: str) -> MessageView:
        found: MessageView = await h.wait(
            lambda api: (
                (m := api.message(irina, hand.id))
                and [b.text for b in m.buttons] == list(labels)
                and m
            ),
            f"the keyboard {labels}",
        )
        return found

    answer = await h.press(irina, irina, hand.id, data(hand, "M", "-"))
    assert (answer.text, answer.show_alert) == ("Выберите от 2 до 4 дублей и их концы.", False)
    picks = await keyboard("🔵⬅️ 3:3", "🟠➡️ 2:2", "↩️ Назад")
    await h.press(irina, irina, hand.id, data(picks, "M", "33W"))
    picks = await keyboard("✅ 🔵⬅️ 3:3", "🟠➡️ 2:2", "↩️ Назад")
    # Unpicking and picking again.
    await h.press(irina, irina, hand.id, data(picks, "M", "-"))
    picks = await keyboard("🔵⬅️ 3:3", "🟠➡️ 2:2", "↩️ Назад")
    await h.press(irina, irina, hand.id, data(picks, "M", "22E"))
    picks = await keyboard("🔵⬅️ 3:3", "✅ 🟠➡️ 2:2", "↩️ Назад")
    await h.press(irina, irina, hand.id, data(picks, "M", "22E33W"))
    picks = await keyboard("✅ 🔵⬅️ 3:3", "✅ 🟠➡️ 2:2", "↩️ Назад", "▶️ Ход: 2 дубля")
    assert await h.raw(table.chat) == before  # choosing changes only the keyboard

    answer = await h.forge(irina, irina, forged(table, game.id, v, "MC", "33W"))
    assert (answer.text, answer.show_alert) == (ru("doubles_count"), True)
    answer = await h.forge(irina, irina, forged(table, game.id, v, "MC", "33W22W"))
    assert (answer.text, answer.show_alert) == (ru("doubles_same_end"), True)
    answer = await h.forge(irina, irina, forged(table, game.id, v, "MC", "33W66E"))
    assert answer.show_alert and answer.text in (ru("not_in_hand"), ru("does_not_fit"))
    await h.settle()
    assert await h.raw(table.chat) == before

    answer = await h.press(irina, irina, hand.id, data(picks, "MC", "22E33W"))
    assert (answer.text, answer.show_alert) == ("Сыграно 3:3 🔵⬅️ + 2:2 🟠➡️ (+2)", False)
    game = await h.game(table.chat)
    moves = game.game().round.moves
    assert (moves[1].seat, moves[1].text) == (1, "3:3@W+2:2@E")  # hers, after the opening
    assert game.game().totals == [1, 2]
    # What followed, if anything, was made for Андрей who had no choice.
    assert all(m.seat == 0 and m.text in ("draw", "pass") for m in moves[2:])


async def test_the_board_caption_follows_the_moves(h: Harness) -> None:
    table, game = await h.match_at(FIVES_TWO_ENDS)
    andrey, _ = table.users
    hand = await h.hand_for(andrey, game.version)
    before = await table.board()
    await h.press(andrey, andrey, hand.id, data(hand, "P", "62"))
    ends = await h.wait(
        lambda api: (m := api.message(andrey, hand.id)).buttons[0].text == "🔵⬅️ 6" and m, "ends"
    )
    await h.press(andrey, andrey, hand.id, data(ends, "E", "62E"))

    async def shown() -> bool:
        # His move, and the draws made for Ирина if nothing of hers fitted.
        current = await h.game(table.chat)
        moved = current.version > game.version
        return moved and current.board.shows_version == current.version and not current.busy()

    await h.until(shown, "the board shows the last move")
    board = await table.board()
    assert "Ходит: Ирина" in (board.caption or "") and "Андрей: 2:6 🟠➡️" in (board.caption or "")
    assert board.id == before.id and board.edit_count > before.edit_count  # edited in place
    assert not any(hand_buttons(m) for m in h.api.messages(table.chat))


async def test_score(h: Harness) -> None:
    a, b = h.people("Вадим", "Пётр")
    group = h.group(a, [b])
    assert (await h.say(a, group, "/score")).text == ru("no_game")
    await h.newgame(a, group)
    assert (await h.say(b, group, "/score")).text == ru("not_started")  # a lobby has no table yet

    table, _ = await h.match_at(FIVES_TWO_ENDS)
    answer = await h.say(table.users[1], table.chat, "/score")
    assert answer.text.startswith("Пятерное домино · Кон 1 · Цель: 25\nХодит: Андрей")
    assert answer.entities and answer.entities[0]["type"] == "bold"
    assert "Ходит: Андрей" in answer.text
    assert "Андрей — Очки: 0, Кости: 5" in answer.text


async def test_my_tiles_from_the_board(h: Harness) -> None:
    table = await h.table("fives")
    andrey, irina = table.users
    game = await table.game()
    waiting = irina if game.game().turn == 0 else andrey
    await h.settle()
    before_hand = h.api.last_message(waiting, where=lambda m: m.photo is not None)
    assert before_hand is not None
    board = await table.board()
    answer = await h.press_text(waiting, table.chat, board.id, "Мои кости")
    assert (answer.text, answer.show_alert) == ("Ваши кости — в нашем личном чате.", False)
    newest = await h.wait(
        lambda api: (m := api.last_message(waiting)) is not None and m.id > before_hand.id and m,
        "the hand again",
    )
    assert newest.photo is not None and "Кон 1" in (newest.caption or "")
    # It takes the old one's place: the chat keeps one hand message.
    await h.wait(lambda api: api.message(waiting, before_hand.id).deleted, "the old hand deleted")
    photos = [m for m in h.api.messages(waiting, from_bot=True) if m.photo is not None]
    assert [m.id for m in photos] == [newest.id]

    (outsider,) = h.people("Ольга")
    await h.settle()
    before = await h.raw(table.chat)
    answer = await h.press_text(outsider, table.chat, board.id, "Мои кости")
    assert (answer.text, answer.show_alert) == (ru("not_in_game"), True)
    await h.settle()
    assert await h.raw(table.chat) == before
    assert h.api.messages(outsider, from_bot=True) == []


async def test_english_players_get_english_hands_and_answers(h: Harness) -> None:
    table = await h.table("fives", lang="en", names=("Andrew", "Irene"))
    andrew, irene = table.users
    joined = h.api.messages(irene, from_bot=True)[0]
    assert joined.text == "You joined the game in «Домино». Your tiles will come here."
    english = position(
        "fives",
        ["Andrew", "Irene"],
        ["6:5 6:2 1:0 4:3 1:1 0:0", "5:2 3:1 4:1 3:2 2:0 4:2"],
        moves=["6:5", "5:2@E"],
    )
    game = await h.set_position(table.chat, english)
    hand = await h.hand_for(andrew, game.version)
    assert "Your move! Ends: 🔵⬅️ 6 · 🟠➡️ 2" in (hand.caption or "")
    answer = await h.press(andrew, andrew, hand.id, data(hand, "P", "10"))
    assert (answer.text, answer.show_alert) == (en("does_not_fit"), True)
    answer = await h.press(andrew, andrew, hand.id, data(hand, "P", "62"))
    assert answer.text == "Which end?"
    # The group itself speaks Russian until someone says /lang en there.
    await table.board_caption("Ходит: Andrew")


async def test_the_language_chosen_in_private_is_the_hands_language(h: Harness) -> None:
    a, b = h.people("Андрей", "Ирина")
    await h.start_bot(b)
    assert (await h.say(b, b, "/lang en")).text == "Language: English"
    group = h.group(a, [b])
    lobby = await h.newgame(a, group)
    for user in (a, b):
        await h.lobby_settled(group)
        await h.join(user, group, lobby)
    await h.lobby_settled(group)
    table = Table(h, group, [a, b], lobby)
    await table.start()
    hand = await h.api.wait_message_async(b, where=lambda m: m.photo is not None)
    assert (hand.caption or "").startswith("🁫 Fives"), hand.caption
    assert (await h.game(group)).seats[1].lang == "en"
