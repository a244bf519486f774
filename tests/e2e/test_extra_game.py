"""A game the product does not define, played whole through the real bot process.

The bot process learns the tests' fourth game (tests/extra_game) the way a game
defined outside the product would be added: a `sitecustomize` module on its
PYTHONPATH registers it as the interpreter starts. Nothing in the product names it.
"""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.e2e.harness import check_finished_game
from tests.extra_game import quick_registered
from tests.fakebotapi import FakeBotApi
from tests.support.bot_process import BotProcess, bot_environment
from tests.support.players import Human, open_table, play_to_the_end

ROOT = Path(__file__).resolve().parents[2]
STARTUP = "from tests.extra_game import register_quick\n\nregister_quick()\n"


@pytest.fixture
def bot_env(api: FakeBotApi, redis_url: str, key_prefix: str, tmp_path: Path) -> dict[str, str]:
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(STARTUP)
    env = bot_environment(api, redis_url, key_prefix)
    paths = [str(site), str(ROOT), env.get("PYTHONPATH", "")]
    env["PYTHONPATH"] = os.pathsep.join(p for p in paths if p)
    return env


@pytest.fixture
def quick() -> Iterator[None]:
    with quick_registered():  # this process replays the game's record too
        yield


def test_a_whole_game_of_a_game_only_the_tests_define(
    api: FakeBotApi, bot: BotProcess, quick: None
) -> None:
    group, people, lobby_id = open_table(api, "quick", "hhs")
    humans = [Human(api, user, random.Random(user)) for user in people]
    final = play_to_the_end(api, group, humans)
    record = check_finished_game(api, group, people, final, lobby_id)
    assert record["variant"] == "quick" and record["target"] == 31
    assert all(len(hand) == 5 for rnd in record["rounds"] for hand in rnd["hands"])
    caption = final.caption or ""
    assert caption.startswith("Игра окончена · Быстрые пятёрки"), caption
    boards = [m for m in api.messages(group, from_bot=True) if m.photo is not None]
    assert all("Быстрые пятёрки" in (m.caption or "") for m in boards)
    # Its own rules page, from its own folder.
    user = next(iter(people))
    sent = api.send_text(user, group, "/rules quick")
    page = api.wait_message(group, after=sent, contains="Те же пятёрки, только короче")
    assert "• Быстрые пятёрки" in [b.text for b in page.buttons]
