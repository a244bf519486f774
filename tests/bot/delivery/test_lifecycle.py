"""Every way a game ends, pauses or changes hands: each message tells the truth after it.

Stopped, the bot removed from the group, everyone left, finished, an idle lobby
closed or taken over; /leave and «Мои кости» on a seat the computer took over;
games in forum topics named in private.
"""

from __future__ import annotations

import inspect
import time
from collections.abc import Awaitable, Callable

from telegram import ChatMemberRestricted, Update

from bot.delivery.group.plan import GroupCall, group_step
from bot.delivery.hand.plan import hand_want
from bot.render import signed
from bot.storage.models import GroupDelivery, Match, Seat
from engine import view_for
from tests.bot.conftest import ANDREY_TO_ACT, JOIN, Harness, Snapshot, hand_buttons, ru
from tests.fakebotapi import MessageView

STOPPED = "Игра остановлена по команде /stop (Андрей)."
# What the one who stopped it reads: not his own name, as if about someone else.
STOPPED_BY_YOU = "Игра остановлена по команде /stop."
REMOVED = "Бота удалили из группы — игра прервана."
EVERYONE_LEFT = "Все вышли из игры — она окончена."
TAKEN_OVER = "Компьютер играет за вас до конца этой игры."
IDLE_CLOSED = (
    "Лобби закрыто: 30 мин никто ничего не нажимал. Новую игру можно начать командой /newgame."
)


def hand_messages(h: Harness, user: int) -> list[MessageView]:
    """The hand messages the bot sent to the user's private chat: the pictures, and a
    finished game's result (a text)."""
    return [m for m in h.api.messages(user, from_bot=True) if m.content.startswith("🁫")]


async def hands_say(h: Harness, users: list[int], text: str, timeout: float = 15) -> None:
    """Until each user's last hand message says `text` and none of his messages has live
    buttons."""

    def told(api: object) -> bool:
        for user in users:
            hands = hand_messages(h, user)
            if not hands or text not in hands[-1].content:
                return False
            if any(hand_buttons(m) for m in h.api.messages(user, from_bot=True)):
                return False
        return True

    await h.wait(told, f"every hand says {text!r}", timeout)


async def seat_and_start(
    h: Harness, chat: int, users: list[int], thread_id: int | None = None
) -> Snapshot:
    """A lobby in `chat` (a topic of it), the users seated by the Join link, started."""
    lobby = await h.newgame(users[0], chat, thread_id=thread_id)
    for user in users:
        found = await h.lobby_settled(chat, thread_id)
        if found.seat_of(user) is None:  # one the bot can write to has his seat already
            await h.join(user, chat, lobby)
    await h.lobby_settled(chat, thread_id)
    answer = await h.lobby_button(users[0], chat, lobby, "st")
    assert not answer.show_alert, answer

    async def started() -> Snapshot | None:
        found = await h.snapshot(chat, thread_id)
        return found if found is not None and found.board.message_id is not None else None

    result: Snapshot = await h.until(started, "the board posted")
    return result


async def nothing_due(h: Harness, chat: int) -> None:
    async def settled() -> bool:
        return await h.store.due.due_time(chat, None) is None

    await h.until(settled, "nothing due", timeout=15)


# -- every way a game ends ------------------------------------------------------------


async def test_a_stopped_game_says_so_in_every_hand(h: Harness) -> None:
    table, _ = await h.match_at(ANDREY_TO_ACT)
    andrey, irina = table.users
    await h.hand_for(andrey, ANDREY_TO_ACT.version)  # «Ваш ход!» with buttons
    question = await h.say(andrey, table.chat, "/stop")
    answer = await h.press_text(andrey, table.chat, question.id, "Да")
    assert not answer.show_alert
    await hands_say(h, [irina], STOPPED)
    await hands_say(h, [andrey], STOPPED_BY_YOU)
    await table.board_caption(STOPPED)  # the group is told who
    assert (await h.game(table.chat)).ended == "stopped"


async def test_the_bot_removed_from_the_group_ends_its_game_at_once(h: Harness) -> None:
    table, _ = await h.match_at(ANDREY_TO_ACT)
    andrey, irina = table.users
    await h.hand_for(andrey, ANDREY_TO_ACT.version)
    await h.settle()
    h.api.kick_bot(table.chat, by=andrey)
    await hands_say(h, [andrey, irina], REMOVED)
    removed_at = time.time()
    game = await h.game(table.chat)
    assert (game.status, game.ended, game.deadline) == ("cancelled", "bot_removed", None)
    await nothing_due(h, table.chat)
    await h.settle()
    # Nothing more is tried in a group the bot is no longer in.
    assert h.api.calls(chat_id=table.chat, since=removed_at) == []
    # Let back in, it tells its old board how the game ended: nobody's turn any more.
    board = await table.board()
    h.api.set_bot_status(table.chat, "member", by=andrey)
    told = await table.board_caption(REMOVED)
    assert told.id == board.id and told.buttons == []
    assert "Ходит:" not in (told.caption or "") and "▶" not in (told.caption or "")
    await h.settle()
    assert [c.method for c in h.api.calls(chat_id=table.chat, since=removed_at)] == [
        "editMessageMedia"
    ]


async def test_the_bot_removed_from_a_lobby_tells_its_players_and_refuses_joins(
    h: Harness,
) -> None:
    (owner, irina, olga), group, lobby = await h.lobby_of("Андрей", "Ирина", "Ольга")
    await h.join(irina, group, lobby)
    await h.lobby_settled(group)
    h.api.set_bot_status(group, "left", by=owner)
    told = await h.api.wait_message_async(
        irina, where=lambda m: "Бота удалили из «Домино»" in (m.text or "")
    )
    # A lobby that never started closed: nothing was cut short.
    assert told.text == "Бота удалили из «Домино», поэтому лобби закрыто: игры там не будет."
    game = await h.game(group)
    assert (game.status, game.ended) == ("cancelled", "bot_removed")
    # The lobby's Join link, still on the group's old message, is refused with the reason.
    sent = h.api.follow_url_button(olga, group, lobby.id, JOIN)
    answer = await h.api.wait_message_async(olga, after=sent)
    assert answer.text == ru("lobby_removed")
    assert "прервана" not in answer.text
    assert [s.user_id for s in (await h.game(group)).seats] == [irina]
    # Let back in, the bot tells its old lobby message that the lobby closed.
    h.api.set_bot_status(group, "member", by=owner)
    closed = "Бота удалили из группы, поэтому лобби закрыто."
    told = await h.wait(lambda api: api.message(group, lobby.id).text == closed and True, closed)
    assert told and h.api.message(group, lobby.id).buttons == []


async def test_everyone_leaving_ends_the_game(h: Harness) -> None:
    table, _ = await h.match_at(ANDREY_TO_ACT)
    andrey, irina = table.users
    assert (await h.say(andrey, table.chat, "/leave")).text == TAKEN_OVER
    assert (await h.say(irina, table.chat, "/leave")).text == EVERYONE_LEFT
    game = await h.game(table.chat)
    assert (game.status, game.ended, game.deadline) == ("cancelled", "everyone_left", None)
    await hands_say(h, [andrey, irina], EVERYONE_LEFT)
    await table.board_caption(EVERYONE_LEFT)
    await nothing_due(h, table.chat)


async def test_a_finished_game_gives_each_player_his_result_and_a_link(h: Harness) -> None:
    andrey, irina = h.people("Андрей", "Ирина")
    group = h.api.add_group("Клуб", owner=andrey, members=[irina], supergroup=True)
    await seat_and_start(h, group, [andrey, irina])
    game = await h.finish(group)
    view = game.game()
    final_id = game.final_message_id
    assert final_id is not None
    internal = str(group).removeprefix("-100")
    link = f"https://t.me/c/{internal}/{final_id}"

    def linked(api: object) -> bool:
        return all(
            (hands := hand_messages(h, user))
            and any(e.get("url") == link for e in hands[-1].entities)
            for user in (andrey, irina)
        )

    await h.wait(linked, "every hand links to the final table", timeout=15)
    await hands_say(h, [andrey, irina], "Итоговая таблица — в группе.")
    rated = await h.store.scores.rating_changes(group, game.match.id)
    assert rated is not None
    for seat, user in enumerate([andrey, irina]):
        last = hand_messages(h, user)[-1]
        # The result is words, not a picture of an empty table: the place, the points,
        # the rating's change, the winner, the link.
        assert last.photo is None and last.text is not None
        said = last.text
        assert "Игра окончена." in said
        place = 1 if seat in view_winners(game) else 2
        assert f"Ваше место: {place} из 2" in said, said
        assert f"очки: {view.totals[seat]}" in said
        assert f"Ваш рейтинг в группе: {signed(rated[user])}" in said, said
        assert "Победител" in said
        links = [e.get("url") for e in last.entities if e.get("type") == "text_link"]
        assert links == [link]
        # Sent once, after the final table (never first without its link, then again).
        sent = h.api.messages(user, from_bot=True, include_deleted=True)
        assert [m.id for m in sent if "Игра окончена." in m.content] == [last.id]
        assert not any(hand_buttons(m) for m in sent)


def view_winners(game: Snapshot) -> tuple[int, ...]:
    return view_for(game.game()).standings.winners


# -- /leave and «Мои кости» ---------------------------------------------------------


async def test_leave_is_said_once_and_the_hand_is_left_alone_until_the_end(h: Harness) -> None:
    table, _ = await h.match_at(ANDREY_TO_ACT)
    andrey, irina = table.users
    await h.hand_for(andrey, ANDREY_TO_ACT.version)
    assert (await h.say(andrey, table.chat, "/leave")).text == TAKEN_OVER
    await hands_say(h, [andrey], TAKEN_OVER)
    await h.settle()
    sent = len(h.api.messages(andrey, from_bot=True))
    last = hand_messages(h, andrey)[-1]
    edits = last.edit_count
    # The computer plays his seat, Ирина hers, a few turns: his hand is not touched.
    for _ in range(4):
        game = await h.game(table.chat)
        if game.status != "playing":
            break

        async def irinas_turn() -> Snapshot | None:
            found = await h.game(table.chat)
            playing = found.status == "playing"
            return found if not playing or found.game().turn == 1 else None

        game = await h.until(irinas_turn, "Ирина's turn")
        if game.status != "playing":
            break
        await h.play_any(irina, game.version)
    await h.settle()
    assert len(h.api.messages(andrey, from_bot=True)) == sent
    assert h.api.message(andrey, last.id).edit_count == edits
    # A second /leave says what is true, and changes nothing.
    before = await h.raw(table.chat)
    assert (await h.say(andrey, table.chat, "/leave")).text == ru("already_left")
    await h.settle()
    assert await h.raw(table.chat) == before


async def test_my_tiles_on_a_seat_the_computer_took_over_says_so(h: Harness) -> None:
    table, _ = await h.match_at(ANDREY_TO_ACT)
    andrey, _ = table.users
    assert (await h.say(andrey, table.chat, "/leave")).text == TAKEN_OVER
    await h.settle()
    sent = len(h.api.messages(andrey, from_bot=True))
    board = await table.board()
    answer = await h.press_text(andrey, table.chat, board.id, "Мои кости")
    assert (answer.text, answer.show_alert) == (ru("seat_taken_over"), True)
    assert "не вернуть" in answer.text
    await h.settle()
    assert len(h.api.messages(andrey, from_bot=True)) == sent


async def test_a_leaver_counts_a_game_and_no_win(h: Harness) -> None:
    table = await h.table("fives")
    andrey, irina = table.users
    assert (await h.say(andrey, table.chat, "/leave")).text == TAKEN_OVER
    await h.finish(table.chat)
    await hands_say(h, [andrey, irina], "Игра окончена.")
    stats = await h.store.scores.stats(table.chat)
    assert (stats[andrey].games, stats[andrey].wins, stats[andrey].points) == (1, 0, 0)
    assert stats[irina].games == 1


# -- forum topics ---------------------------------------------------------------------


async def test_games_in_two_topics_are_named_by_their_topics_in_private(h: Harness) -> None:
    andrey, irina = h.people("Андрей", "Ирина")
    forum = h.group(andrey, [irina], title="Forum2", is_forum=True)
    first = h.api.add_topic(forum, "Турнир", by=andrey)
    second = h.api.add_topic(forum, "Дружеская", by=andrey)

    def named(*names: str) -> Callable[[], Awaitable[bool]]:
        async def kept() -> bool:
            found = (
                await h.store.prefs.topic_name(forum, first),
                await h.store.prefs.topic_name(forum, second),
            )
            return found == names

        return kept

    await h.until(named("Турнир", "Дружеская"), "the topics' names kept")
    h.api.rename_topic(forum, second, "Финал", by=andrey)
    await h.until(named("Турнир", "Финал"), "the new name kept")
    await seat_and_start(h, forum, [andrey, irina], first)
    await seat_and_start(h, forum, [andrey, irina], second)
    assert (await h.game(forum, first)).topic == "Турнир"
    assert (await h.game(forum, second)).topic == "Финал"

    def both_named(api: object) -> bool:
        captions = [m.content for m in hand_messages(h, irina)]
        return any("Forum2 · Турнир" in c for c in captions) and any(
            "Forum2 · Финал" in c for c in captions
        )

    await h.wait(both_named, "each game's hand names its topic")
    joined = [m.text or "" for m in h.api.messages(irina, from_bot=True) if m.text]
    assert any("Forum2 · Турнир" in text for text in joined), joined


async def test_a_topic_renamed_during_its_game_is_named_so(h: Harness) -> None:
    andrey, irina = h.people("Андрей", "Ирина")
    forum = h.group(andrey, [irina], title="Forum2", is_forum=True)
    topic = h.api.add_topic(forum, "Турнир", by=andrey)
    await seat_and_start(h, forum, [andrey, irina], topic)
    h.api.rename_topic(forum, topic, "Полуфинал", by=andrey)

    async def renamed() -> bool:
        return (await h.game(forum, topic)).topic == "Полуфинал"

    await h.until(renamed, "the game's topic renamed")


# -- idle lobbies ---------------------------------------------------------------------


async def test_an_idle_lobby_is_closed_and_says_so(h: Harness) -> None:
    (andrey, irina, olga), group, lobby = await h.lobby_of("Андрей", "Ирина", "Ольга")
    await h.join(irina, group, lobby)
    await h.lobby_settled(group)
    h.clock.advance(h.settings.lobby_idle_seconds + 5)
    closed = await h.wait(
        lambda api: (m := api.message(group, lobby.id)).text == IDLE_CLOSED and m,
        "the lobby closed",
        timeout=15,
    )
    assert closed.buttons == []
    game = await h.game(group)
    assert (game.status, game.ended) == ("cancelled", "idle")
    # Those who had joined were told their tiles would come: now they are told they won't.
    told = await h.api.wait_message_async(
        irina, where=lambda m: "Лобби в «Домино» закрыто" in (m.text or "")
    )
    assert told.text == "Лобби в «Домино» закрыто: долго никто ничего не нажимал. Игра не началась."
    await h.settle()
    # Andrey never opened the bot's chat (he had no seat), Olga had not joined.
    assert h.api.messages(andrey, from_bot=True) == h.api.messages(olga, from_bot=True) == []
    # Someone who kept the Join link (from a forwarded lobby, say) is told why not.
    link = next(b.url for b in lobby.buttons if b.url is not None)
    sent = h.api.start_bot(olga, h.api.parse_deep_link(link))
    assert (await h.api.wait_message_async(olga, after=sent)).text == ru("lobby_closed")
    assert (await h.newgame(olga, group)).buttons  # the chat is free again


async def test_a_lobby_pressed_recently_stays_open(h: Harness) -> None:
    (_, irina), group, lobby = await h.lobby_of("Андрей", "Ирина")
    h.clock.advance(h.settings.lobby_idle_seconds - 60)
    await h.join(irina, group, lobby)  # a press: the lobby's half hour starts again
    await h.lobby_settled(group)
    h.clock.advance(120)
    await h.sync(group)
    await h.settle()
    assert (await h.game(group)).status == "lobby"


async def test_newgame_says_what_this_user_can_do_and_takes_over_a_stale_lobby(
    h: Harness,
) -> None:
    owner, andrey, irina = h.people("Вадим", "Андрей", "Ирина")
    group = h.group(owner, [andrey, irina])
    lobby = await h.newgame(andrey, group)
    refused = await h.say(irina, group, "/newgame", reply=False)
    assert refused.text == (
        "Здесь уже открыто лобби ↑: присоединяйтесь. Если в нём 5 мин никто ничего "
        "не нажмёт, /newgame передаст его вам."
    )
    assert refused.reply_to == lobby.id
    h.clock.advance(h.settings.lobby_takeover_seconds + 1)
    taken = await h.say(irina, group, "/newgame", reply=False)
    assert taken.text == "В этом лобби давно никто ничего не нажимал: теперь оно ваше ↑."
    game = await h.lobby_settled(group)
    assert (game.id, game.creator_id, game.status) == (lobby_id(h, group, lobby), irina, "lobby")
    assert "Ирина" in h.api.message(group, lobby.id).content
    # Андрей no longer runs it: only its new creator may start it.
    answer = await h.lobby_button(andrey, group, lobby, "st")
    assert (answer.text, answer.show_alert) == (ru("creator_only"), True)


def lobby_id(h: Harness, group: int, lobby: MessageView) -> str:
    """The game id a lobby message's buttons carry."""
    for button in h.api.message(group, lobby.id).buttons:
        data = button.callback_data or ""
        if data.startswith("L:"):
            return data.split(":")[1]
    raise AssertionError("no lobby buttons")


async def test_newgame_during_a_game_tells_a_player_to_wait(h: Harness) -> None:
    owner, andrey, irina = h.people("Вадим", "Андрей", "Ирина")
    group = h.group(owner, [andrey, irina])
    await seat_and_start(h, group, [andrey, irina])
    answer = await h.say(irina, group, "/newgame", reply=False)
    assert answer.text == (
        "Здесь идёт игра ↑. Дождитесь её конца или попросите её создателя или админа "
        "остановить её (/stop)."
    )
    answer = await h.say(owner, group, "/newgame", reply=False)  # an admin may stop it
    assert "/stop" in (answer.text or "") and "Дождитесь" not in (answer.text or "")


async def test_the_bot_muted_in_the_group_ends_its_game_too(h: Harness) -> None:
    table = await h.table("fives")
    andrey, irina = table.users
    await h.settle()
    app = h.running[0].app
    rights = dict.fromkeys(RESTRICTED_RIGHTS, False)
    member = {"status": "restricted", "user": app.bot.bot.to_dict(), "is_member": True}
    update = {
        "update_id": 10**6,
        "my_chat_member": {
            "chat": {"id": table.chat, "type": "group", "title": "Домино"},
            "from": {"id": andrey, "is_bot": False, "first_name": "Андрей"},
            "date": int(time.time()),
            "old_chat_member": {"status": "member", "user": app.bot.bot.to_dict()},
            "new_chat_member": member | rights | {"until_date": 0},
        },
    }
    await app.process_update(Update.de_json(update, app.bot))
    await hands_say(h, [andrey, irina], REMOVED)
    assert (await h.game(table.chat)).ended == "bot_removed"


# Every right this PTB release names, all denied.
RESTRICTED_RIGHTS = tuple(
    name for name in inspect.signature(ChatMemberRestricted).parameters if name.startswith("can_")
)


# -- what each message should show (the plan) ------------------------------------------


def test_a_seat_the_computer_plays_is_shown_once_until_the_game_ends() -> None:
    game = ANDREY_TO_ACT.copy()
    match = Match(id="g", chat_id=-1, creator_id=1, status="playing")
    match.seats = [
        Seat(name="Андрей", user_id=1, computer=True, left=True),
        Seat(name="Ирина", user_id=2),
    ]
    before = hand_want(match, game, 0)
    game.push(game.legal_moves()[0])
    after = hand_want(match, game, 0)
    assert before is not None and before == after and not before.live
    assert not before.send_if_missing  # a seat without a message gets none for this
    match.status, match.ended = "cancelled", "everyone_left"
    ended = hand_want(match, game, 0)
    assert ended is not None and ended.shows != before.shows


def test_nothing_more_goes_to_a_group_that_removed_the_bot() -> None:
    match = Match(id="g", chat_id=-1, creator_id=1, status="cancelled", ended="bot_removed")
    shown = GroupDelivery(game_id="g", lobby_message_id=5)
    assert group_step(match, None, shown) is None
    match.ended = "stopped"
    step = group_step(match, None, shown)
    assert step is not None and step.call is GroupCall.CLOSE_LOBBY


async def test_who_cancels_a_lobby_he_sits_in_is_not_told_of_himself(h: Harness) -> None:
    andrey, irina = h.people("Андрей", "Ирина")
    group = h.group(andrey, [irina])
    await h.start_bot(andrey)  # he can be written to: /newgame seats him
    lobby = await h.newgame(andrey, group)
    await h.join(irina, group, lobby)
    game = await h.lobby_settled(group)
    assert [s.user_id for s in game.seats] == [andrey, irina]
    answer = await h.lobby_button(andrey, group, lobby, "cx")
    assert not answer.show_alert, answer
    told = "Игру в «Домино» отменили до начала"
    await h.api.wait_message_async(irina, where=lambda m: m.text == f"{told} (Андрей).")
    await h.api.wait_message_async(andrey, where=lambda m: m.text == f"{told}.")
    await h.settle()
    assert not any("Андрей" in (m.text or "") for m in h.api.messages(andrey, from_bot=True))


async def test_a_cancelled_lobby_tells_who_had_joined_once(h: Harness) -> None:
    (andrey, irina), group, lobby = await h.lobby_of("Андрей", "Ирина")
    await h.join(irina, group, lobby)
    await h.lobby_settled(group)
    answer = await h.lobby_button(andrey, group, lobby, "cx")
    assert not answer.show_alert, answer
    expected = "Игру в «Домино» отменили до начала (Андрей)."
    told = await h.api.wait_message_async(irina, where=lambda m: m.text == expected)
    await h.settle()
    assert [m.id for m in h.api.messages(irina, from_bot=True) if m.text == expected] == [told.id]
