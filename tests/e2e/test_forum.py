"""A forum whose topics each run a game, under Telegram's real limits: the chat's calls a
minute are one budget for all its topics, and answers to people come before the boards."""

from __future__ import annotations

import json
import random
import re
import time
from collections import defaultdict
from typing import Any

import pytest

from tests.fakebotapi import FakeBotApi
from tests.support.bot_process import BotProcess, bot_environment
from tests.support.players import JOIN, Human

GROUP_LIMIT = 20  # Telegram's calls a minute to a group
TOKEN_LIMIT = 30  # and the token's calls a second
TOPICS = 3
ASK_FOR = 75.0  # seconds during which the forum is sent commands
ASK_EVERY = 8.0  # seconds between two of them (to each topic in turn)
# A topic's commands in turn. Each one gets an answer of its own: /score says something new
# after every move, /stop from someone who may not is refused, and /help and /rules do not
# come round again within the minute in which a repeat would re-use the answer above
# (bot.handlers.repeats).
COMMANDS = ("/score", "/stop", "/help", "/score", "/stop", "/rules")
ANSWER_P99 = 5.0  # seconds
BOARD_EVENTS = {"new_board", "edit_board", "finish_board", "final"}


@pytest.fixture
def bot_env(api: FakeBotApi, redis_url: str, key_prefix: str) -> dict[str, str]:
    """The bot's own pace and limits as in production, and the fake's flood control on."""
    api.set_flood_limits(group_per_minute=GROUP_LIMIT, global_per_second=TOKEN_LIMIT)
    return bot_environment(
        api,
        redis_url,
        key_prefix,
        GROUP_MESSAGES_PER_MINUTE=str(GROUP_LIMIT),
        GROUP_EDIT_INTERVAL_SECONDS="3.5",
        COMPUTER_DELAY_SECONDS="1.5",
        LOG_FORMAT="json",
    )


def open_topic_game(api: FakeBotApi, group: int, thread: int, user: int) -> None:
    """In this topic: /newgame (muggins: long enough to last the test), three easy
    computers, the person joins, Start."""
    sent = api.send_text(user, group, "/newgame muggins", thread_id=thread)
    lobby = api.wait_message(
        group, thread_id=thread, after=sent, where=lambda m: bool(m.buttons), timeout=60
    )
    for _ in range(3):
        query = api.press_button(user, group, lobby.id, re.compile("Лёгкий"))
        assert not api.callback_answer(query, timeout=15).show_alert
    joined = api.follow_url_button(user, group, lobby.id, JOIN)
    api.wait_message(user, after=joined, contains="присоединились", timeout=30)
    query = api.press_button(user, group, lobby.id, re.compile("Начать"))
    text, alert = api.callback_answer(query, timeout=15)
    assert not alert, text


def versions(bot: BotProcess) -> tuple[dict[str, int], dict[str, int], dict[str, int]]:
    """From the bot's log, by game: its moves, its latest version, and the latest version
    its group's board (or final table) showed."""
    moves: dict[str, int] = defaultdict(int)
    latest: dict[str, int] = defaultdict(int)
    shown: dict[str, int] = defaultdict(lambda: -1)
    for line in bot.log()[bot.log_start :].splitlines():
        if not line.startswith("{"):
            continue
        entry = json.loads(line)
        if entry.get("msg") == "move":
            moves[entry["game"]] += 1
            latest[entry["game"]] = max(latest[entry["game"]], entry["v"])
        elif entry.get("msg") == "group" and entry.get("call") in BOARD_EVENTS:
            shown[entry["game"]] = max(shown[entry["game"]], entry["v"])
    return moves, latest, shown


def test_answers_in_a_forum_of_three_busy_games_come_within_seconds(
    api: FakeBotApi, bot: BotProcess
) -> None:
    players = [api.add_user(f"Игрок {n}", language_code="ru") for n in range(TOPICS)]
    asker = api.add_user("Зритель", language_code="ru")
    group = api.add_group("Форум", owner=players[0], members=[*players[1:], asker], is_forum=True)
    threads = [api.add_topic(group, f"Стол {n}", by=players[n]) for n in range(TOPICS)]
    answered: dict[int, float] = {}  # command message id -> when its answer took effect

    def note_answer(event: Any) -> None:
        view = event.view
        if event.chat_id == group and event.kind == "sent" and view and view.reply_to:
            answered.setdefault(view.reply_to, event.time)

    api.on_bot_message(note_answer)
    for player, thread in zip(players, threads, strict=True):
        open_topic_game(api, group, thread, player)
    rng = random.Random(7)
    humans = [Human(api, player, rng) for player in players]

    # The games play on (each person plays his turns at once, the computers take 1.5 s)
    # while the forum's commands come, one every ASK_EVERY seconds, to each topic in turn;
    # then until the last one is answered (or long enough to tell it was not).
    asked: dict[int, tuple[float, str]] = {}  # command message id -> (when, what)
    began = time.monotonic()
    turn = 0
    while time.monotonic() - began < ASK_FOR + 30 and not (
        turn * ASK_EVERY >= ASK_FOR and set(asked) <= set(answered)
    ):
        if turn * ASK_EVERY < ASK_FOR and time.monotonic() >= began + turn * ASK_EVERY:
            thread = threads[turn % TOPICS]
            command = COMMANDS[(turn // TOPICS) % len(COMMANDS)]
            when = time.monotonic()  # the fake's clock: it runs in this process
            asked[api.send_text(asker, group, command, thread_id=thread)] = (when, command)
            turn += 1
        acted = False
        for human in humans:
            acted = human.act() or acted
        if not acted:
            time.sleep(0.05)

    now = time.monotonic()
    waits = sorted(
        ((answered.get(m, now) - when, what) for m, (when, what) in asked.items()), reverse=True
    )
    p99 = waits[round(0.01 * (len(waits) - 1))][0]
    assert p99 <= ANSWER_P99, f"answer p99 {p99:.1f} s; the slowest: {waits[:4]}"
    # The games were busy all along: their boards had more to show than the chat's minute
    # holds.
    moves, _, _ = versions(bot)
    assert len(moves) == TOPICS and min(moves.values()) >= 30, moves

    # The people stop playing (their games wait for them): the boards that yielded to the
    # answers catch up with their games.
    def boards_caught_up(_: FakeBotApi) -> bool:
        _, latest, shown = versions(bot)
        return all(shown[game] >= v for game, v in latest.items())

    api.wait_for(boards_caught_up, 60, "every topic's board showing its game")
    # Telegram's limit held for the whole chat, every topic together: the fake refused
    # nothing, and no 60 s held more than 20 calls.
    assert api.over_limit_calls(group) == 0
    assert api.max_calls_in_window(group, window=60.0) <= GROUP_LIMIT
