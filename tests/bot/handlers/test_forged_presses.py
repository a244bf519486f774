"""Button data pressed on a message it does not belong to, or by a seat that may not use it.

Telegram sends whatever data a client says its button carried, together with the message the
press came from. Only the message that action belongs to may be changed by it: a hand
keyboard only in its owner's private chat, on his hand message; a lobby, stop or rules button
only where the bot put it. Everything else is refused and changes no message and no game.
"""

from __future__ import annotations

import secrets
import time

from tests.bot.conftest import ANDREY_TO_ACT, MUGGINS_DOUBLES, NAMES, Harness, Table, position, ru
from tests.fakebotapi import CallbackAnswer
from tests.fakebotapi.state import CallbackQuery, chat_instance

# twolane: Андрей opened 5:3; Ирина to act, with 3:3 and 5:5 that fit the two ends.
TWOLANE_DOUBLES = position(
    "twolane", NAMES, ["5:3 6:6 6:4 4:4 2:1", "3:3 5:5 1:0 6:0 0:0"], moves=["5:3"]
)


async def press_on(h: Harness, user: int, chat: int, message_id: int, data: str) -> CallbackAnswer:
    """The user's client says it pressed a button carrying `data` on this message, which
    shows no such button (the fake server's own `press` allows only buttons that are there)."""
    api = h.api
    with api._st.lock:
        st = api._st
        msg = st.get_message(st.chats[chat], message_id)
        assert msg is not None
        qid = str(secrets.randbits(62) | (1 << 61))
        st.queries[qid] = CallbackQuery(qid, user, chat, message_id, data, time.monotonic())
        st.enqueue(
            "callback_query",
            {
                "id": qid,
                "from": st.users[user].to_json(),
                "message": st.message_json(msg),
                "chat_instance": chat_instance(chat),
                "data": data,
            },
        )
    return await api.callback_answer_async(qid, 10)


def hand_data(table: Table, game_id: str, version: int, kind: str, arg: str = "") -> str:
    return f"{kind}:{table.chat}:0:{game_id}:{version}:{arg}"


class Unchanged:
    """What every message of the chats and the stored game are now, to compare with later."""

    def __init__(self, h: Harness, chats: list[int], raw: bytes | None) -> None:
        self.h = h
        self.chats = chats
        self.raw = raw
        self.shown = self._shown()

    @classmethod
    async def now(cls, h: Harness, table: Table) -> Unchanged:
        await h.settle()
        return cls(h, [table.chat, *table.users], await h.raw(table.chat))

    def _shown(self) -> dict[tuple[int, int], tuple[int, object, object, object]]:
        found = {}
        for chat in self.chats:
            for m in self.h.api.messages(chat, from_bot=True):
                found[(chat, m.id)] = (m.edit_count, m.raw_reply_markup, m.caption, m.text)
        return found

    async def check(self) -> None:
        await self.h.settle()
        assert await self.h.raw(self.chats[0]) == self.raw
        after = self._shown()
        changed = [key for key, value in self.shown.items() if after.get(key) != value]
        assert not changed, changed
        # Nothing new either, but the messages `Harness.forge` put its buttons on.
        new = [key for key in after if key not in self.shown]
        assert all(self.h.api.message(*key).text == "·" for key in new), new


async def refused(answer: CallbackAnswer, code: str) -> None:
    assert (answer.text, answer.show_alert) == (ru(code), True), answer


async def test_hand_buttons_pressed_on_group_messages_change_nothing(h: Harness) -> None:
    table, game = await h.match_at(ANDREY_TO_ACT)
    andrey, irina = table.users
    v = game.version
    board = await table.board()
    before = await Unchanged.now(h, table)
    for user in (andrey, irina):
        for kind, arg in (
            ("B", ""),
            ("P", "62"),
            ("P", "43"),
            ("E", "62W"),
            ("D", ""),
            ("X", ""),
            ("M", "-"),
            ("MC", "11W00E"),
        ):
            data = hand_data(table, game.id, v, kind, arg)
            await refused(await press_on(h, user, table.chat, board.id, data), "stale_button")
            # A message of the bot's own in the group that carries the data: not a hand message.
            await refused(await h.forge(user, table.chat, data), "stale_button")
    await before.check()


async def test_a_choice_shown_only_on_the_hand_message(h: Harness) -> None:
    table, game = await h.match_at(ANDREY_TO_ACT)
    andrey, _ = table.users
    v = game.version
    hand = await h.hand_for(andrey, v)
    before = await Unchanged.now(h, table)
    # On another message of his private chat (the lobby's Join answer, say): nothing shown.
    other = next(m for m in h.api.messages(andrey, from_bot=True) if m.id != hand.id)
    for kind, arg in (("B", ""), ("P", "62"), ("M", "-")):
        data = hand_data(table, game.id, v, kind, arg)
        answer = await press_on(h, andrey, andrey, other.id, data)
        await refused(answer, "stale_button")
    await before.check()
    # His own hand message: the choice is shown there.
    answer = await press_on(h, andrey, andrey, hand.id, hand_data(table, game.id, v, "P", "62"))
    assert (answer.text, answer.show_alert) == ("К какому концу?", False)


async def test_only_the_seat_to_act_goes_back(h: Harness) -> None:
    table, game = await h.match_at(ANDREY_TO_ACT)
    _, irina = table.users
    before = await Unchanged.now(h, table)
    # Her hand message waits without buttons: data of this turn, on a message that shows it.
    data = hand_data(table, game.id, game.version, "B")
    await refused(await h.forge(irina, irina, data), "not_your_turn")
    await before.check()


async def test_only_the_seat_to_act_picks_doubles(h: Harness) -> None:
    table, game = await h.match_at(MUGGINS_DOUBLES)
    andrey, irina = table.users
    assert game.game().turn == 1
    await h.hand_for(irina, game.version)
    before = await Unchanged.now(h, table)
    for kind, arg in (("B", ""), ("M", "-"), ("M", "33W")):
        data = hand_data(table, game.id, game.version, kind, arg)
        await refused(await h.forge(andrey, andrey, data), "not_your_turn")
    await before.check()


async def test_several_doubles_are_refused_in_twolane(h: Harness) -> None:
    table, game = await h.match_at(TWOLANE_DOUBLES)
    _, irina = table.users
    v = game.version
    assert game.game().turn == 1
    hand = await h.hand_for(irina, v)
    before = await Unchanged.now(h, table)
    for kind, arg in (("M", "-"), ("M", "33W"), ("MC", "33W66E")):
        data = hand_data(table, game.id, v, kind, arg)
        await refused(await press_on(h, irina, irina, hand.id, data), "stale_button")
        await refused(await h.forge(irina, irina, data), "one_tile_only")
    await before.check()


async def test_group_buttons_pressed_on_other_messages_change_nothing(h: Harness) -> None:
    table, game = await h.match_at(ANDREY_TO_ACT)
    andrey, irina = table.users
    board = await table.board()
    before = await Unchanged.now(h, table)
    for data in (
        f"S:{game.id}:{game.version}:y",
        f"S:{game.id}:{game.version}:n",
        f"S:{game.id}:{game.match.lobby_rev}:n",
        "R:fives",
        f"L:{game.id}:st:",
        f"L:{game.id}:cx:",
        f"H:{game.id}",
    ):
        for user in (andrey, irina):
            if not data.startswith("H:"):  # the board does show "My tiles"
                answer = await press_on(h, user, table.chat, board.id, data)
                await refused(answer, "stale_button")
            hand = await h.hand_for(andrey, game.version)
            await refused(await press_on(h, andrey, andrey, hand.id, data), "stale_button")
    await before.check()
    assert (await h.game(table.chat)).status == "playing"


async def test_lobby_buttons_only_on_the_lobby(h: Harness) -> None:
    table = await h.table("fives", start=False)
    andrey, irina = table.users
    game = await h.lobby_settled(table.chat)
    before = await Unchanged.now(h, table)
    for data in (f"L:{game.id}:st:", f"L:{game.id}:cx:", f"L:{game.id}:v:muggins", "R:twolane"):
        for user in (andrey, irina):
            # The Join answer in his private chat.
            answer = h.api.messages(user, from_bot=True)[-1]
            await refused(await press_on(h, user, user, answer.id, data), "stale_button")
        if data.startswith("R:"):
            answer = await press_on(h, andrey, table.chat, table.lobby.id, data)
            await refused(answer, "stale_button")
    await before.check()
    assert (await h.game(table.chat)).status == "lobby"
