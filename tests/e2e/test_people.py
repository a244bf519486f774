"""Who the bot may write to, through the real bot process (issue 27, point 1): every
message the group and the private chat hold, read as the person would.

`/start@bot` typed in a group used to mark the user as having opened the private chat.
His /newgame then seated him, his tiles could not be sent at Start (403), and the game,
his alone, ended at once with «Все вышли из игры — она окончена.», which was untrue.
"""

from __future__ import annotations

from pathlib import Path

import redis

from bot.game.options import LobbyAction
from bot.storage.keys import Keys
from tests.fakebotapi import FakeBotApi
from tests.fakebotapi.views import MessageView
from tests.support.bot_process import BotProcess
from tests.support.players import JOIN, press_lobby

NOT_SEATED = "Андрей пока не за столом: чтобы играть, нужно тоже нажать «Присоединиться»."
JOIN_FIRST = (
    "Сначала займите место: нажмите «Присоединиться». Откроется личный чат со мной — "
    "туда придут ваши кости."
)
CLOSED = "Андрей: бот не может писать в личный чат, кости некуда отправить — игра окончена."
EVERYONE_LEFT = "Все вышли из игры"
HELP = "Домино для групповых чатов"
# What a release before this one stored for a user after his `/start@bot` in a group.
STARTED_IN_A_GROUP = Path(__file__).resolve().parents[1] / "data/stored/prefs/started.json"


def bot_texts(api: FakeBotApi, chat: int) -> list[str]:
    """Every message of the bot the chat holds now, as read (text or caption)."""
    return [m.content for m in api.messages(chat, from_bot=True)]


def newgame(api: FakeBotApi, user: int, group: int) -> MessageView:
    sent = api.send_text(user, group, "/newgame fives")
    return api.wait_message(group, after=sent, where=lambda m: bool(m.buttons))


def add_computer(api: FakeBotApi, user: int, group: int, lobby: MessageView) -> None:
    edits = api.message(group, lobby.id).edit_count
    query = press_lobby(api, user, group, lobby.id, LobbyAction.ADD_EASY)
    assert not api.callback_answer(query).show_alert
    api.wait_edit(group, lobby.id, after_edits=edits)


def test_start_in_a_group_then_a_game_of_ones_own(api: FakeBotApi, bot: BotProcess) -> None:
    andrey = api.add_user("Андрей", language_code="ru")
    group = api.add_group("Домино", owner=andrey)

    # /start@bot in the group: the help, and nothing else.
    sent = api.send_text(andrey, group, f"/start@{api.bot_username}")
    api.wait_message(group, after=sent, where=lambda m: HELP in m.content)

    # His /newgame does not seat him; the lobby says how to take his seat.
    lobby = newgame(api, andrey, group)
    assert "занято мест — 0 из 4" in lobby.content and NOT_SEATED in lobby.content
    add_computer(api, andrey, group, lobby)
    query = press_lobby(api, andrey, group, lobby.id, LobbyAction.START)
    assert api.callback_answer(query) == (JOIN_FIRST, True)

    # Join opens the private chat and seats him; the lobby line goes; Start works.
    edits = api.message(group, lobby.id).edit_count
    api.follow_url_button(andrey, group, lobby.id, JOIN)
    shown = api.wait_edit(group, lobby.id, after_edits=edits)
    assert "1. 🤖" in shown.content and "2. Андрей" in shown.content
    assert NOT_SEATED not in shown.content
    query = press_lobby(api, andrey, group, lobby.id, LobbyAction.START)
    assert not api.callback_answer(query).show_alert
    board = api.wait_message(group, where=lambda m: m.photo is not None)
    hand = api.wait_message(andrey, where=lambda m: m.photo is not None)
    api.wait_quiet(1.0, 30)

    # Every message each chat holds: the help, then the board (the lobby made way for
    # it) in the group; the join line and his hand in private.
    group_texts = bot_texts(api, group)
    assert len(group_texts) == 2 and HELP in group_texts[0], group_texts
    assert group_texts[1] == api.message(group, board.id).content
    assert "Пятерное домино" in group_texts[1] and EVERYONE_LEFT not in group_texts[1]
    private = bot_texts(api, andrey)
    assert len(private) == 2, private
    assert private[0] == "Вы присоединились к игре в чате «Домино». Ваши кости придут сюда."
    assert private[1] == api.message(andrey, hand.id).content
    assert "Пятерное домино" in private[1]


def test_a_start_that_finds_a_private_chat_closed_names_him(
    api: FakeBotApi, bot: BotProcess, redis_url: str, key_prefix: str
) -> None:
    """Андрей never opened the private chat, but an earlier release took him for one who
    had (his `/start@bot` in a group): his /newgame seats him, and at Start his tiles
    cannot be sent. The game ends saying so, by name; his next lobby asks him to Join."""
    andrey = api.add_user("Андрей", language_code="ru")
    group = api.add_group("Домино", owner=andrey)
    client = redis.Redis.from_url(redis_url)
    try:
        client.set(Keys(key_prefix).user(andrey), STARTED_IN_A_GROUP.read_bytes())
    finally:
        client.close()

    lobby = newgame(api, andrey, group)
    assert "1. Андрей" in lobby.content
    add_computer(api, andrey, group, lobby)
    query = press_lobby(api, andrey, group, lobby.id, LobbyAction.START)
    assert not api.callback_answer(query).show_alert
    board = api.wait_message(group, where=lambda m: CLOSED in m.content, timeout=20)
    api.wait_quiet(1.0, 30)

    # The group holds the board, saying why the game ended, by name; his private chat,
    # which the bot may not write to, holds nothing.
    assert bot_texts(api, group) == [api.message(group, board.id).content]
    caption = board.content
    assert caption.startswith(CLOSED) and EVERYONE_LEFT not in caption, caption
    assert bot_texts(api, andrey) == []

    # The bot no longer takes him for reachable: his next lobby asks him to Join.
    again = newgame(api, andrey, group)
    assert "занято мест — 0 из 4" in again.content and NOT_SEATED in again.content
    api.wait_quiet(1.0, 30)
    texts = bot_texts(api, group)
    assert texts == [caption, api.message(group, again.id).content], texts
