"""/notify through the real bot process: a new game calls its subscribers in private,
and only them."""

from __future__ import annotations

import re
import time

from tests.fakebotapi import FakeBotApi, MessageView
from tests.support.bot_process import BotProcess
from tests.support.players import JOIN

SUBSCRIBED = "Буду звать вас сюда"
UNSUBSCRIBED = "Больше не зову"
CALL = "открывается новая игра"


def private_answer(api: FakeBotApi, user: int, chat: int, text: str, contains: str) -> None:
    """`user` types `text` in `chat`; wait for the bot's answer in his private chat."""
    after = api.last_id(user)
    api.send_text(user, chat, text)
    api.wait_message(user, after=after, contains=contains)


def test_a_new_game_calls_only_the_subscriber(api: FakeBotApi, bot: BotProcess) -> None:
    andrey, irina, olga, vadim = (
        api.add_user(name, language_code="ru") for name in ("Андрей", "Ирина", "Ольга", "Вадим")
    )
    group = api.add_group("Домино", owner=vadim, members=[andrey, irina, olga])
    # Андрей, Ирина and Ольга can all be written to; Вадим, who opens the game, cannot.
    for user in (andrey, irina, olga):
        api.wait_message(user, after=api.start_bot(user))
    private_answer(api, andrey, group, "/notify", SUBSCRIBED)
    private_answer(api, olga, group, "/notify", SUBSCRIBED)
    private_answer(api, olga, group, "/notify off", UNSUBSCRIBED)  # Ирина never subscribes

    since = time.time()
    marks = {user: api.last_id(user) for user in (andrey, irina, olga)}
    sent = api.send_text(vadim, group, "/newgame")
    lobby = api.wait_message(group, after=sent, where=lambda m: bool(m.buttons))
    assert re.search(r"Позвали 1 подписчика\b", lobby.content), lobby.content
    assert "Андрей" not in lobby.content

    call = api.wait_message(andrey, after=marks[andrey], contains=CALL)
    assert "«Домино»" in call.content
    assert [b.text for b in call.buttons if b.url] == ["🙋 Присоединиться"]
    api.wait_quiet()
    assert [m.id for m in news(api, andrey, marks[andrey])] == [call.id]
    assert news(api, irina, marks[irina]) == news(api, olga, marks[olga]) == []

    # The call's Join button is the lobby's: it seats him.
    edits = api.message(group, lobby.id).edit_count
    api.follow_url_button(andrey, andrey, call.id, JOIN)
    seated = api.wait_edit(
        group, lobby.id, after_edits=edits, where=lambda m: "1. Андрей" in m.content
    )
    assert "Позвали 1 подписчика" in seated.content
    api.wait_quiet()
    assert news(api, irina, marks[irina]) == news(api, olga, marks[olga]) == []
    # Nothing else went to any private chat: every call the bot made since /newgame was
    # to the group or to Андрей (Вадим, Ирина and Ольга got nothing, not even a try).
    private = {c.chat_id for c in api.calls(since=since) if c.chat_id and c.chat_id > 0}
    assert private == {int(andrey)}, private


def news(api: FakeBotApi, user: int, after: int) -> list[MessageView]:
    """The bot's messages in `user`'s private chat after message `after`."""
    return [m for m in api.messages(user, from_bot=True) if m.id > after]
