"""A whole game through the real bot process (`python -m bot`), its Redis a three-master
cluster named by REDIS_URL=redis+cluster://...: the game ends as on one server, and every
key of the group lives in one slot."""

from __future__ import annotations

import random
from pathlib import Path

from redis.crc import key_slot

from tests.cluster.conftest import RunningCluster
from tests.e2e.harness import (
    BotProcess,
    Human,
    bot_environment,
    check_finished_game,
    open_table,
    play_to_the_end,
)
from tests.fakebotapi import FakeBotApi


def test_a_whole_game_against_the_cluster(
    cluster: RunningCluster, cluster_prefix: str, tmp_path: Path
) -> None:
    with FakeBotApi() as api:
        env = bot_environment(api, cluster.url, cluster_prefix)
        bot = BotProcess(env, tmp_path / "bot.log").start()
        try:
            bot.wait_ready(api)
            group, people, lobby_id = open_table(api, "fives", "he")
            humans = [Human(api, user, random.Random(user)) for user in people]
            final = play_to_the_end(api, group, humans)
            check_finished_game(api, group, people, final, lobby_id)
            assert sum(h.moves for h in humans) > 0
        finally:
            bot.stop()
        log = bot.log()
        assert "Traceback" not in log, log[-4000:]
        assert api.token not in log

    # What the game left in the cluster: the group's keys, all in its slot, on one node.
    found: dict[int, list[str]] = {}
    for port in cluster.ports:
        node = cluster.node(port)
        try:
            found[port] = [k.decode() for k in node.scan_iter(match=f"{cluster_prefix}:*")]
        finally:
            node.close()
    tag = f"{{c{group}}}"
    of_group = {port: [k for k in keys if tag in k] for port, keys in found.items()}
    holding = [port for port, keys in of_group.items() if keys]
    assert len(holding) == 1, of_group
    keys = of_group[holding[0]]
    kinds = {key.removeprefix(f"{cluster_prefix}:{tag}:").split(":")[0] for key in keys}
    assert {"game", "group", "hand", "record", "stats", "counted"} <= kinds, keys
    assert {key_slot(key.encode()) for key in keys} == {key_slot(f"c{group}".encode())}
    # The budget's keys share a slot too.
    budget = [k for keys in found.values() for k in keys if "{budget}" in k]
    assert budget and {key_slot(k.encode()) for k in budget} == {key_slot(b"budget")}
