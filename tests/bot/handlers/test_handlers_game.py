"""/stop, /leave, /stats, /export and Rematch: a game from its start to the final table."""

from __future__ import annotations

import json
import re

from bot.render import signed
from bot.telegram import callbacks as cb
from engine import replay, summary, view_for
from engine.players import computer_player
from tests.bot.conftest import ANDREY_TO_ACT, Harness, hand_buttons, position, ru


async def test_stop_needs_the_creator_or_an_admin_and_a_confirmation(h: Harness) -> None:
    table, game = await h.match_at(ANDREY_TO_ACT)
    andrey, irina = table.users
    await h.settle()
    before = await h.raw(table.chat)
    assert (await h.say(irina, table.chat, "/stop")).text == ru("creator_or_admin_only")
    await h.settle()
    assert await h.raw(table.chat) == before

    question = await h.say(andrey, table.chat, "/stop")
    assert question.text == "Закончить игру для всех?"
    assert [b.text for b in question.buttons] == ["Да, закончить", "Нет, играем"]
    # Only the creator or an admin may answer it either.
    answer = await h.press_text(irina, table.chat, question.id, "Да")
    assert (answer.text, answer.show_alert) == (ru("creator_or_admin_only"), True)
    assert (await h.game(table.chat)).status == "playing"

    answer = await h.press_text(andrey, table.chat, question.id, "Нет")
    assert not answer.show_alert
    kept = await h.wait(
        lambda api: (m := api.message(table.chat, question.id)).text == "Игра продолжается." and m,
        "the question answered",
    )
    assert kept.buttons == []
    game = await h.game(table.chat)
    assert game.status == "playing"

    question = await h.say(andrey, table.chat, "/stop")
    answer = await h.press_text(andrey, table.chat, question.id, "Да")
    assert not answer.show_alert
    await h.wait(
        lambda api: api.message(table.chat, question.id).text == "Игра остановлена.", "stopped"
    )
    board = await table.board_caption("Игра остановлена")
    assert board.buttons == []  # no "My tiles" on a stopped game's board
    # Nobody is to move any more: neither the caption nor the picture says whose turn it was.
    assert "Ходит:" not in (board.caption or "") and "▶" not in (board.caption or "")
    edits = [c for c in h.api.calls("editMessageMedia", table.chat)]
    assert edits and edits[-1].params.get("message_id") in (board.id, str(board.id))
    score = await h.say(irina, table.chat, "/score")
    assert score.text.startswith("Игра остановлена по команде /stop (Андрей)."), score.text
    assert "Ходит:" not in score.text and "▶" not in score.text
    game = await h.game(table.chat)
    assert game.status == "cancelled" and game.deadline is None

    async def nothing_due() -> bool:
        return await h.store.due.due_time(table.chat, None) is None

    await h.until(nothing_due, "nothing due for a stopped game", timeout=15)
    # The hand keyboard is gone too, and a new game can be opened.
    await h.wait(lambda api: not hand_buttons(api.messages(andrey)[-1]), "the hand closed")
    assert (await h.newgame(irina, table.chat)).buttons


async def test_an_admin_may_stop_someone_elses_game(h: Harness) -> None:
    a, b, admin = h.people("Андрей", "Ирина", "Ольга")
    group = h.group(a, [b], admins=[admin])
    lobby = await h.newgame(b, group)
    assert (await h.say(a, group, "/stop")).text == "Закончить игру для всех?"  # the owner
    question = await h.say(admin, group, "/stop")
    answer = await h.press_text(admin, group, question.id, "Да")
    assert not answer.show_alert
    await h.wait(lambda api: api.message(group, lobby.id).text == "Игра отменена.", "cancelled")
    assert (await h.game(group)).status == "cancelled"
    assert (await h.say(admin, group, "/stop")).text == ru("no_game")


async def test_stop_without_a_game(h: Harness) -> None:
    (a,) = h.people("Андрей")
    group = h.group(a)
    assert (await h.say(a, group, "/stop")).text == ru("no_game")
    assert await h.store.games.load(group, None) is None


async def test_leave_the_lobby_by_command(h: Harness) -> None:
    a, b = h.people("Андрей", "Ирина")
    group = h.group(a, [b])
    assert (await h.say(b, group, "/leave")).text == ru("no_game")
    lobby = await h.newgame(a, group)
    await h.join(b, group, lobby)
    await h.lobby_settled(group)
    before = await h.raw(group)
    assert (await h.say(a, group, "/leave")).text == ru("not_in_game")
    await h.settle()
    assert await h.raw(group) == before
    assert (await h.say(b, group, "/leave")).text == "Вы вышли из набора."
    game = await h.lobby_settled(group)
    assert game.seats == []
    assert "занято мест — 0 из 4" in h.api.message(group, lobby.id).content


async def test_leave_a_running_game_and_the_computer_plays_on(h: Harness) -> None:
    table, _ = await h.match_at(ANDREY_TO_ACT)
    andrey, irina = table.users
    answer = await h.say(andrey, table.chat, "/leave")
    assert answer.text == "Компьютер играет за вас до конца этой игры."

    async def played() -> bool:
        return (await h.game(table.chat)).version > ANDREY_TO_ACT.version

    await h.until(played, "the computer's move for Андрей")
    game = await h.game(table.chat)
    assert game.seats[0].computer and not game.seats[1].computer
    made = game.game().round.moves[len(ANDREY_TO_ACT.round.moves) :]
    assert made[0].seat == 0  # his turn, by the computer; then Ирина's draws, if she had to
    assert all(m.seat == 1 and m.text == "draw" for m in made[1:]) and game.game().turn == 1
    # The event is told under the board (on the edit it makes at once, or the next one),
    # and his line says from then on who plays his seat, and why.
    board = await table.board_caption(" · компьютер: игрок вышел из игры")
    lines = (board.caption or "").splitlines()
    assert any(
        re.fullmatch(r"(▶ )?Андрей — Очки: \d+, Кости: \d+ · компьютер: игрок вышел из игры", line)
        for line in lines
    )
    told = "Андрей выходит из игры — место занимает компьютер."
    assert any(told in str(call.params) for call in h.api.calls(chat_id=table.chat))
    # Twice, or by someone not playing: refused, nothing changes.
    await h.settle()
    before = await h.raw(table.chat)
    assert (await h.say(andrey, table.chat, "/leave")).text == ru("already_left")
    (outsider,) = h.people("Ольга")
    assert (await h.say(outsider, table.chat, "/leave")).text == ru("not_in_game")
    await h.settle()
    assert await h.raw(table.chat) == before
    # Андрей's old keyboard no longer plays.
    game = await h.game(table.chat)
    answer = await h.forge(andrey, andrey, f"P:{table.chat}:0:{game.id}:{game.version}:10")
    assert answer.show_alert and answer.text in (ru("seat_is_computer"), ru("not_your_turn"))
    assert (await h.game(table.chat)).seats[1].user_id == irina


async def test_stats_and_export_after_a_finished_game(h: Harness) -> None:
    table = await h.table("twolane")
    andrey, irina = table.users
    assert (
        await h.say(andrey, table.chat, "/stats")
    ).text == "В этом чате ещё нет законченных игр."
    answer = await h.say(andrey, table.chat, "/export")
    assert answer.text == "Законченных игр для выгрузки пока нет."

    game = await h.finish(table.chat)
    engine_game = game.game()
    assert game.status == "over" and engine_game.over
    final = h.api.message(table.chat, game.final_message_id or 0)
    assert final.photo is not None and "Игра окончена" in (final.caption or "")

    stats = await h.store.scores.stats(table.chat)
    assert {user: (line.games, line.name) for user, line in stats.items()} == {
        andrey: (1, "Андрей"),
        irina: (1, "Ирина"),
    }
    assert sum(line.wins for line in stats.values()) >= 1
    answer = await h.say(irina, table.chat, "/stats")
    lines = answer.text.split("\n\n")[0].split("\n")  # the ratings follow
    assert lines[0] == "Таблица лидеров"
    # twolane counts penalties, not points: the leaderboard shows them.
    pattern = r"^\d\. (Андрей|Ирина) — побед [01] из 1, штрафные очки: \d+$"
    assert all(re.match(pattern, x) for x in lines[1:]), lines
    penalties = {line.name: line.penalties for line in stats.values()}
    assert penalties == dict(zip(["Андрей", "Ирина"], engine_game.totals, strict=True))

    # A game counts once, however often its end is looked at.
    await h.service.run_due(table.chat, None)
    assert await h.store.scores.stats(table.chat) == stats

    sent = h.api.send_text(andrey, table.chat, "/export")
    document = await h.api.wait_message_async(
        table.chat, after=sent, where=lambda m: m.document is not None
    )
    assert document.document_filename is not None
    assert document.document_filename.startswith("domino-twolane-")
    assert "Запись последней законченной игры" in (document.caption or "")
    record = json.loads(document.document or b"")
    assert record["players"] == ["Андрей", "Ирина"]
    replayed = summary(replay(record))
    assert replayed["finished"] and replayed["totals"] == engine_game.totals


async def test_a_record_at_or_below_zero_is_neither_shown_nor_kept(h: Harness) -> None:
    """fives: the winner's points minus everyone else's may be below zero by the rules;
    the bot shows and keeps only a margin above zero (docs/rules.md)."""
    table = await h.table("fives", computers="e")
    names = [computer_player(1), "Андрей", "Ирина"]
    hands = ["6:5 6:2 1:0 4:3 1:1 0:0", "5:2 3:1 4:1 3:2 2:0 4:2", "6:6 5:5 4:4 3:3 2:2 6:4"]
    close = position("fives", names, hands)
    close.totals = [30, 29, 28]  # whoever wins holds far less than the other two together
    await h.set_position(table.chat, close)
    snap = await h.finish(table.chat)
    standings = view_for(snap.game()).standings
    assert standings.record is not None and standings.record < 0
    final = h.api.message(table.chat, snap.group.final_message_id or 0)
    assert "Отрыв" not in (final.caption or "")
    stats = await h.store.scores.stats(table.chat)
    assert all(line.best_record is None for line in stats.values())
    answer = await h.say(table.users[0], table.chat, "/stats")
    assert "отрыв" not in answer.text


async def test_rematch_opens_a_lobby_with_the_same_seats(h: Harness) -> None:
    table = await h.table("fives", computers="e")
    andrey, irina = table.users
    first = await h.finish(table.chat, timeout=30)
    final = h.api.message(table.chat, first.final_message_id or 0)
    stats = await h.store.scores.stats(table.chat)
    record = stats[andrey].best_record if stats[andrey].wins else stats[irina].best_record
    answer = await h.say(irina, table.chat, "/stats")
    if record is not None:
        assert f"лучший отрыв (Пятерное домино): {signed(record)}" in answer.text

    answer = await h.press_text(irina, table.chat, final.id, "Реванш")
    assert (answer.text, answer.show_alert) == ("Набор в новую игру открыт.", False)
    game = await h.lobby_settled(table.chat)
    assert game.id != first.id and game.status == "lobby" and game.creator_id == irina
    assert [(s.player, s.user_id, s.computer) for s in game.seats] == [
        (computer_player(1), None, True),
        ("Андрей", andrey, False),
        ("Ирина", irina, False),
    ]
    lobby = h.api.message(table.chat, game.lobby_message_id or 0)
    assert "занято мест — 3 из 4" in lobby.content and "Ирина нажмёт «Начать»" in lobby.content
    # The old final's button is spent, so it goes; a press of it that was on its way is
    # told that the rematch is open and he has his seat in it.
    await h.wait(lambda api: api.message(table.chat, final.id).buttons == [], "Rematch gone")
    await h.settle()
    before = await h.raw(table.chat)
    answer = await h.forge(andrey, table.chat, cb.encode(cb.RematchPress(first.id)))
    assert (answer.text, answer.show_alert) == (ru("rematch_open"), True)
    await h.settle()
    assert await h.raw(table.chat) == before
    # The rematch is a game of its own in the stats.
    table.lobby = lobby
    table.users = [irina, andrey]
    await table.start()
    await h.finish(table.chat, timeout=30)
    stats = await h.store.scores.stats(table.chat)
    assert stats[andrey].games == stats[irina].games == 2


async def test_only_its_players_start_a_rematch_and_who_left_is_not_seated_again(
    h: Harness,
) -> None:
    table = await h.table("fives", people=3)
    andrey, irina, olga = table.users
    (vadim,) = h.people("Вадим")
    h.api.set_member(table.chat, vadim)
    left = await h.say(olga, table.chat, "/leave")
    assert "компьютер" in left.content.lower()
    first = await h.finish(table.chat, timeout=30)
    final = h.api.message(table.chat, first.final_message_id or 0)
    before = await h.raw(table.chat)
    # Someone who watched, and the player who left: refused, and nothing changes.
    watcher = await h.press_text(vadim, table.chat, final.id, "Реванш")
    assert (watcher.text, watcher.show_alert) == (ru("rematch_players_only"), True)
    quitter = await h.press_text(olga, table.chat, final.id, "Реванш")
    assert (quitter.text, quitter.show_alert) == (ru("rematch_left"), True)
    assert await h.raw(table.chat) == before
    # The first of the players to press runs it; the one who left has no seat in it.
    answer = await h.press_text(irina, table.chat, final.id, "Реванш")
    assert not answer.show_alert
    game = await h.lobby_settled(table.chat)
    assert game.id != first.id and game.creator_id == irina
    assert [s.user_id for s in game.seats] == [andrey, irina]
