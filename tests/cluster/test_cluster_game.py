"""A whole game through the real bot process (`python -m bot`), its Redis a three-master
cluster named by REDIS_URL=redis+cluster://...: the game ends as on one server, and every
key of the group lives in one slot."""

from __future__ import annotations

import random
from pathlib import Path

from redis.crc import key_slot

from tests.cluster.conftest import RunningCluster
from tests.e2e.harness import check_finished_game
from tests.fakebotapi import FakeBotApi
from tests.support.bot_process import bot_environment, running
from tests.support.players import Human, open_table, play_to_the_end


def test_a_whole_game_against_the_cluster(
    cluster: RunningCluster, cluster_prefix: str, tmp_path: Path
) -> None:
    with FakeBotApi() as api:
        env = bot_environment(api, cluster.url, cluster_prefix)
        with running(env, tmp_path / "bot.log", timeout=20):
            group, people, lobby_id = open_table(api, "fives", "he")
            humans = [Human(api, user, random.Random(user)) for user in people]
            final = play_to_the_end(api, group, humans)
            check_finished_game(api, group, people, final, lobby_id)
            assert sum(h.moves for h in humans) > 0

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
