"""The real bot survives being killed mid-game, and keeps to Telegram's group limits."""

from __future__ import annotations

import random

import pytest

from tests.e2e.harness import board_messages, check_finished_game, export_record
from tests.fakebotapi import FakeBotApi
from tests.support.bot_process import BotProcess, bot_environment
from tests.support.players import Human, open_table, play_moves, play_to_the_end
from tests.support.waiting import until


@pytest.fixture
def bot_env(api: FakeBotApi, redis_url: str, key_prefix: str) -> dict[str, str]:
    # No turn times out here: whatever the kill interrupted, the bot must finish itself,
    # not wait for a deadline to play for someone.
    return bot_environment(api, redis_url, key_prefix, TURN_SECONDS="3600")


def test_killed_mid_game_the_bot_comes_back_and_the_game_finishes(
    api: FakeBotApi, bot: BotProcess
) -> None:
    group, people, lobby_id = open_table(api, "fives", "hhe")
    humans = [Human(api, user, random.Random(user)) for user in people]
    play_moves(humans, 6)  # well into the first round
    # The humans can be quicker than the group's pace: let the board catch up first.
    until(lambda: board_messages(api, group), "the first board", 60, context=api.dump)
    board = board_messages(api, group)[-1]

    bot.stop(kill=True)  # SIGKILL: no chance to save anything on the way out
    bot.start()
    bot.wait_ready()

    final = play_to_the_end(api, group, humans)
    record = check_finished_game(api, group, people, final, lobby_id, extra_boards=1)
    # The same board message went on being edited: nothing was started over.
    assert board.id in {m.id for m in board_messages(api, group)}
    assert len(record["rounds"][0]["moves"]) >= 6


def test_group_calls_keep_to_the_limit_and_come_one_per_move(
    api: FakeBotApi, redis_url: str, key_prefix: str, tmp_path
) -> None:
    """Real pacing: 20 calls a minute at most, about one every three seconds."""
    env = bot_environment(
        api,
        redis_url,
        key_prefix,
        GROUP_EDIT_INTERVAL_SECONDS="3.1",
        GROUP_MESSAGES_PER_MINUTE="20",
        COMPUTER_DELAY_SECONDS="0.05",
    )
    bot = BotProcess(env, tmp_path / "bot.log").start()
    try:
        bot.wait_ready()
        group, people, _ = open_table(api, "muggins", "heee")
        human = Human(api, next(iter(people)), random.Random(1))
        play_to_the_end(api, group, [human], timeout=600)
        last = [c for c in api.calls(method="sendPhoto", chat_id=group) if c.ok][-1].seq
        game_calls = [c for c in api.calls(chat_id=group) if c.seq <= last]
        # The game's last boards and the final table may have spent the group's minute:
        # the export waits for room like any other group call.
        record = export_record(api, next(iter(people)), group, timeout=75)
        actions = sum(len(rnd["moves"]) for rnd in record["rounds"])
        rounds = len(record["rounds"])
        assert api.max_calls_in_window(group, window=60) <= 20
        # At most one group call per move; with computers moving every 50 ms the
        # board cannot keep up, so the moves are shown together in fewer edits.
        assert len(game_calls) <= actions
        assert len(game_calls) < actions / 2 + 2 * rounds + 10
        captions = [m.caption or "" for m in board_messages(api, group)]
        assert any("С прошлой картинки" in c for c in captions) or rounds > 1
    finally:
        bot.stop()
    assert env["TELEGRAM_BOT_TOKEN"] not in bot.log()
