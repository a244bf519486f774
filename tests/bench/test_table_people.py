"""The table's people of bench/load.py --table: what a person picks, and a spectator's
views read by their version alone."""

from __future__ import annotations

import json
import random

from bench.table_people import TABLE_VERSION, choose


def test_a_person_plays_a_tile_when_one_fits_else_draws_or_passes() -> None:
    rng = random.Random(1)
    plays = [{"action": "play", "value": "6:4@W"}, {"action": "doubles", "value": "6:6@N"}]
    picked = {choose([*plays, {"action": "hint", "value": ""}], rng)["value"] for _ in range(50)}
    assert picked == {"6:4@W", "6:6@N"}
    assert choose([{"action": "draw", "value": ""}], rng) == {"action": "draw", "value": ""}


def test_a_spectator_reads_the_engine_version_of_the_view_as_the_hub_encodes_it() -> None:
    view = {"game": "g1", "version": 41, "status": "playing", "lobby": None}
    view["table"] = {"version": 17, "heading": "«table»", "moves": []}
    text = json.dumps({"type": "view", "view": view}, ensure_ascii=False)  # as bot.table.hub
    found = TABLE_VERSION.search(text)
    assert found is not None and int(found[1]) == 17
    lobby = json.dumps({"type": "view", "view": {"version": 3, "table": None}})
    assert TABLE_VERSION.search(lobby) is None
