"""The «Open the table» button: with WEBAPP_URL set, the group's lobby, board and /score
link to the bot's Main Mini App for the game (`startapp=<game id>`), and the private hand
carries a `web_app` button to the page naming the game; never a `web_app` button in a
group (Telegram refuses them there). Without WEBAPP_URL no button appears."""

from __future__ import annotations

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.i18n import translator
from bot.storage.models import Match, Seat
from bot.telegram import keyboards
from tests.bot.conftest import Harness
from tests.fakebotapi import FakeBotApi, MessageView

URL = "https://table.example.org"
OPEN = "🎲 Открыть стол"


def match(chat_id: int, game_id: str = "g1") -> Match:
    return Match(  # type: ignore[call-arg]
        id=game_id,
        chat_id=chat_id,
        thread_id=None,
        lang="ru",
        variant="fives",
        creator_id=1,
        creator_name="Ирина",
        seats=[Seat(user_id=1, name="Ирина", lang="ru")],  # type: ignore[call-arg]
    )


def test_without_an_address_the_markup_is_left_as_it_is() -> None:
    tr = translator("ru")
    markup = InlineKeyboardMarkup([[InlineKeyboardButton("x", callback_data="x")]])
    assert keyboards.with_table(markup, match(-100), tr, "", "domino_bot") is markup
    assert keyboards.with_table(None, match(-100), tr, "", "domino_bot") is None
    assert keyboards.table_in_private(None, "g1", tr, "") is None


def test_a_group_gets_the_main_mini_app_link_and_a_private_chat_the_web_app() -> None:
    tr = translator("ru")
    markup = InlineKeyboardMarkup([[InlineKeyboardButton("x", callback_data="x")]])
    group = keyboards.with_table(markup, match(-100, "AbC-1_z"), tr, URL, "domino_bot")
    assert group is not None and group.inline_keyboard[0] == markup.inline_keyboard[0]
    (button,) = group.inline_keyboard[-1]
    assert (button.text, button.url, button.web_app) == (
        OPEN,
        "https://t.me/domino_bot?startapp=AbC-1_z",
        None,
    )
    practice = keyboards.with_table(None, match(5, "p1"), translator("en"), URL, "domino_bot")
    assert practice is not None
    (app,) = practice.inline_keyboard[-1]
    assert app.text == "🎲 Open the table" and app.url is None
    assert app.web_app is not None and app.web_app.url == f"{URL}/table/?game=p1"
    hand = keyboards.table_in_private(None, "g1", tr, URL)
    assert hand is not None and hand.inline_keyboard[0][0].web_app is not None


def open_table(message: MessageView) -> list[dict[str, object]]:
    return [b.raw for b in message.buttons if b.text == OPEN]


async def test_the_lobby_board_score_and_hand_open_the_table(h: Harness) -> None:
    await h.relaunch(WEBAPP_URL=URL)
    table = await h.table("fives", start=False)
    game_id = (await h.lobby_settled(table.chat)).match.id
    link = f"https://t.me/{h.api.bot_username}?startapp={game_id}"
    lobby = h.api.message(table.chat, table.lobby.id)
    assert open_table(lobby) == [{"text": OPEN, "url": link}]
    await table.start()
    board = await table.board()
    assert open_table(board) == [{"text": OPEN, "url": link}]
    score = await h.say(table.users[0], table.chat, "/score")
    assert open_table(score) == [{"text": OPEN, "url": link}]
    page = f"{URL}/table/?game={game_id}"
    for user in table.users:  # the hand to act and the one that waits

        def hands(api: FakeBotApi, user: int = user) -> list[MessageView]:
            return [m for m in api.messages(user, from_bot=True) if m.photo is not None]

        hand = (await h.wait(hands, "the hand sent"))[-1]
        assert open_table(hand) == [{"text": OPEN, "web_app": {"url": page}}]
    for message in h.api.messages(table.chat, from_bot=True):  # a group: never a web_app
        assert not [b for b in message.buttons if "web_app" in b.raw], message.describe_buttons()


async def test_without_an_address_no_message_opens_the_table(h: Harness) -> None:
    table = await h.table("fives")
    await h.say(table.users[0], table.chat, "/score")
    # Every hand went out (the one to play has buttons, the other only its picture).
    await h.wait(
        lambda api: all(api.calls("sendPhoto", user) for user in table.users), "the hands", 10
    )
    for chat in (table.chat, *table.users):
        for message in h.api.messages(chat, from_bot=True):
            assert not open_table(message)
            assert not [b for b in message.buttons if "web_app" in b.raw]
