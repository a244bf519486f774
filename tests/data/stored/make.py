"""Write the golden stored games of this release (see README.md here).

    .venv/bin/python tests/data/stored/make.py OUT_DIR

It drives the real `GameService` on the embedded in-memory store (fakeredis) with
a clock of its own, and saves the exact bytes the chat's game key holds at chosen
moments, plus delivery records of this release's models and a manifest of what
each file is. The files in this folder must never be rewritten in place: a new
format gets new files, so OUT_DIR must be a new (or empty) folder.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

from fakeredis import FakeAsyncRedis

from bot.game.match_records import Current
from bot.game.options import LobbyAction
from bot.game.people import Person
from bot.game.service import GameService
from bot.settings import Settings
from bot.storage.keys import Keys
from bot.storage.models import MATCH_FORMAT, BoardMessage, GroupDelivery, HandDelivery
from bot.storage.store import Store
from engine.compact import FORMAT as ENGINE_FORMAT

TOKEN = "123456:TEST-token-abcdefghijklmnopqrstuvwxyz123"
START = 1_750_000_000.0  # the generator's clock (a fixed moment, so deadlines are known)
CHATS = {"fives": -1001000000001, "muggins": -1001000000002, "twolane": -1001000000003}
PEOPLE = [Person(7001, "Андрей", "ru"), Person(7002, "Ирина", "en")]


class Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> float:
        return self.now


class Maker:
    def __init__(self, out: Path, variant: str) -> None:
        self.out = out
        self.variant = variant
        self.chat = CHATS[variant]
        self.clock = Clock()
        settings = Settings(  # type: ignore[call-arg]
            _env_file=None, telegram_bot_token=TOKEN, computer_delay_seconds=1.5
        )
        self.store = Store(FakeAsyncRedis(), Keys("dom"))
        self.service = GameService(self.store, settings, clock=self.clock)
        self.manifest: dict[str, Any] = {}

    async def current(self) -> Current:
        found = await self.service.current(self.chat, None)
        assert found is not None
        return found

    async def save(self, moment: str) -> None:
        current = await self.current()
        raw = await self.store.redis.get(self.store.keys.game(self.chat, None))
        assert raw is not None and raw == current.raw
        name = f"{self.variant}-{moment}"
        (self.out / f"{name}.match.json").write_bytes(raw)
        match, game = current.match, current.game
        entry: dict[str, Any] = {
            "variant": self.variant,
            "moment": moment,
            "format": match.format,
            "status": match.status,
            "rev": match.rev,
            "seats": len(match.seats),
            "deadline": match.deadline,
            "version": None if game is None else game.version,
            "rounds": None if game is None else len(game.rounds),
            "turn": None if game is None else game.turn,
            "to_act": None,
        }
        if game is not None and game.turn is not None:
            entry["to_act"] = "human" if match.seats[game.turn].human else "computer"
        if game is not None:
            # What the delivery layer would have written by now (this release's models).
            group = GroupDelivery(
                rev=3,
                game_id=match.id,
                lobby_message_id=101,
                lobby_shows=match.lobby_rev,
                lobby_closed=True,
                board=BoardMessage(
                    message_id=102,
                    round_number=len(game.rounds),
                    shows_version=game.version,
                    shows_actions=len(game.round.moves),
                    finished=game.over,
                ),
                notes_shown=match.notes_total,
                final_message_id=103 if game.over else None,
            )
            (self.out / f"{name}.group.json").write_text(group.model_dump_json())
            for seat, place in enumerate(match.seats):
                if place.user_id is None:
                    continue
                hand = HandDelivery(
                    rev=2,
                    game_id=match.id,
                    message_id=200 + seat,
                    shows=f"v{game.version}",
                    live=game.turn == seat,
                    known_max=200 + seat,
                )
                (self.out / f"{name}.hand-{seat}.json").write_text(hand.model_dump_json())
        self.manifest[f"{name}.match.json"] = entry

    async def step(self, time_out: bool = False) -> None:
        """One action: the human to act plays his first legal move (or lets his deadline
        pass), or the computer's deadline comes and it plays."""
        current = await self.current()
        match, game = current.match, current.game
        assert game is not None and game.turn is not None and match.deadline is not None
        seat = match.seats[game.turn]
        if seat.human and not time_out:
            assert seat.user_id is not None
            person = Person(seat.user_id, seat.name, seat.lang)
            move = game.legal_moves()[0]
            await self.service.play(self.chat, None, match.id, game.version, person, move)
        else:
            self.clock.now = max(self.clock.now, match.deadline) + 0.01
            assert await self.service.run_due(self.chat, None) is not None
        self.clock.now += 0.5

    async def make(self) -> dict[str, Any]:
        andrey = PEOPLE[0]
        current, _ = await self.service.new_game(self.chat, None, andrey, self.variant, "Домино")
        game_id = current.match.id
        for person in PEOPLE:
            await self.service.join(self.chat, None, game_id, person)
        add = LobbyAction.ADD_EASY
        await self.service.lobby_action(self.chat, None, game_id, add, "", andrey, False)
        await self.save("lobby")
        await self.service.lobby_action(
            self.chat, None, game_id, LobbyAction.START, "", andrey, False
        )

        async def play_until(check: Any, time_out_first: bool = False) -> None:
            """Step the game (no waiting: the clock is the test's) until `check` holds."""
            timed_out = not time_out_first
            for _ in range(2000):
                current = await self.current()
                if timed_out and check(current):
                    return
                game = current.game
                assert game is not None and not game.over, "the game ended too soon"
                seat = current.match.seats[game.turn or 0]
                if seat.human and not timed_out:
                    timed_out = True
                    await self.step(time_out=True)
                else:
                    await self.step()
            raise AssertionError("never got there")

        def to_act(kind: str, moves: int) -> Any:
            def check(current: Current) -> bool:
                game = current.game
                assert game is not None
                if game.turn is None or len(game.round.moves) < moves:
                    return False
                seat = current.match.seats[game.turn]
                return seat.human == (kind == "human")

            return check

        await play_until(to_act("computer", 3))
        await self.save("midround-computer")
        await play_until(to_act("human", 6), time_out_first=True)  # someone missed a turn
        await self.save("midround-human")
        if self.variant != "twolane":  # twolane is one round: nothing comes between rounds

            def between(current: Current) -> bool:
                game = current.game
                assert game is not None
                return len(game.rounds) >= 2 and len(game.round.moves) == 0

            await play_until(between)
            await self.save("roundend")
        await play_until(lambda current: current.match.status == "over")
        await self.save("over")
        return self.manifest


async def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    if any(out.glob("*.json")):
        raise SystemExit(f"{out} holds stored games already: write a new format to a new folder")
    manifest: dict[str, Any] = {"match_format": MATCH_FORMAT, "engine_format": ENGINE_FORMAT}
    files: dict[str, Any] = {}
    for variant in CHATS:
        files.update(await Maker(out, variant).make())
    manifest["files"] = files
    text = json.dumps(manifest, ensure_ascii=False, indent=2, sort_keys=True)
    (out / "manifest.json").write_text(text + "\n")


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1])))
