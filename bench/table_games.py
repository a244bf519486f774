"""The games of `bench/load.py --table`, set up and played from the live table.

In each group the creator sends /newgame in the group (a command: there is no other way to
open a game), then every person and spectator opens the table from the lobby's «Open the
table» link (its `startapp=<game id>`); from the table the creator adds the computers,
each person joins, and the creator starts. People play on the table (bench/table_people.py);
the Bot API's messages are never pressed for a move. When a game ends the group's creator
presses Rematch under the group's final table, and everybody opens the
new game's table, where the creator starts it.

With several bot processes the tables of a game are spread over them: its n-th table
(seats first, then spectators) goes to process (game's number + n) mod N, so a move one
process commits reaches tables on the others through Redis.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any
from urllib.parse import parse_qs, urlparse

import aiohttp

from bench.table_figures import Watched
from bench.table_people import Connection, Player, Signer

OPENING_AT_ONCE = 50  # tables opening together (the set-up of 2,000 opens a few at a time)
START_TRIES = 20
START_GAP = 0.5  # seconds between tries of a Start the table refused (a busy store)


def game_of(message: Any) -> str | None:
    """The game id of a lobby message's «Open the table» link (None: it has none)."""
    for button in message.buttons:
        url = button.url or ""
        if "startapp=" in url:
            return parse_qs(urlparse(url).query)["startapp"][0]
    return None


class TableGames:
    """Every group's tables (its people's and spectators' connections); `driver` is
    bench/load.py's Driver, which keeps the groups and presses Telegram's buttons."""

    def __init__(
        self,
        driver: Any,
        http: aiohttp.ClientSession,
        signer: Signer,
        bases: list[str],
        spectators: int,
    ) -> None:
        self.driver = driver
        self.http = http
        self.signer = signer
        self.bases = bases
        self.spectators = spectators
        self.connections: dict[int, list[Connection]] = {}  # group -> its tables
        self.players: dict[int, list[Player]] = {}  # group -> its people (seats)
        self.opening = asyncio.Semaphore(OPENING_AT_ONCE)
        self.errors: list[str] = []

    def add(self, table: Any, number: int) -> None:
        """The tables of the group `table` (people first, then spectators)."""
        api, rng = self.driver.api, self.driver.rng
        people: list[tuple[int, str]] = [(p.user, p.seat_name) for p in table.people]
        for index in range(self.spectators):
            name = f"Зритель {number}-{index}"
            people.append((api.add_user(name, language_code="ru").id, name))
        connections: list[Connection] = []
        players: list[Player] = []
        for index, (user, name) in enumerate(people):
            base = self.bases[(number + index) % len(self.bases)]
            connection = Connection(self.http, base, self.signer, user, name, _ignore)
            connection.watching = index >= len(table.people)
            if index < len(table.people):
                player = Player(connection, rng, self.driver._spawn, self._stopping)
                connection.on_view = player.heard
                players.append(player)
            connections.append(connection)
        self.connections[table.group] = connections
        self.players[table.group] = players

    def _stopping(self) -> bool:
        return bool(self.driver.stopping)

    async def open(self, table: Any) -> None:
        """/newgame in the group, then the lobby set up and started from the table."""
        api, driver = self.driver.api, self.driver
        creator = table.people[0].user
        sent = await asyncio.to_thread(
            api.send_text, creator, table.group, f"/newgame {table.variant}", thread_id=table.thread
        )
        lobby = await driver._until(
            lambda: next(
                (
                    m
                    for m in api.messages(table.group, thread_id=table.thread, from_bot=True)
                    if m.message_id > sent and game_of(m) is not None
                ),
                None,
            ),
            "the lobby with its table link",
        )
        table.lobby_id = lobby.message_id
        await self.start(table, lobby.message_id, set_up=True)

    async def start(self, table: Any, lobby_id: int, set_up: bool = False) -> None:
        """Every table opened on the lobby's game; `set_up`: the computers added and the
        people joined from the table; then the creator's Start."""
        game = game_of(self.driver.api.message(table.group, lobby_id))
        if game is None:
            self.errors.append(f"group {table.group}: a lobby without its table link")
            return
        connections = self.connections[table.group]
        await asyncio.gather(*(self._open(c, game) for c in connections))
        creator = connections[0]
        if set_up:
            press = "add_easy" if self.driver.args.computers == "easy" else "add_strong"
            for _ in range(4 - len(table.people)):
                await self._surely(table, creator, press)
            for player in self.players[table.group]:
                await self._surely(table, player.connection, "join")
        for _ in range(START_TRIES):
            if await creator.act("start") == "done":
                table.games_started += 1
                table.started_at = time.monotonic()
                table.playing = True
                return
            await asyncio.sleep(START_GAP)
        self.errors.append(f"group {table.group}: the game did not start from the table")

    async def _open(self, connection: Connection, game: str) -> None:
        async with self.opening:
            try:
                await connection.open(game)
            except (aiohttp.ClientError, TimeoutError) as exc:
                self.errors.append(f"a table did not open: {exc.__class__.__name__}")

    async def _surely(self, table: Any, connection: Connection, action: str) -> None:
        answer = await connection.act(action)
        if answer != "done":
            self.errors.append(f"group {table.group}: {action} from the table: {answer}")

    # -- at the end ------------------------------------------------------------------------

    def all_connections(self) -> list[Connection]:
        return [c for group in self.connections.values() for c in group]

    def open_count(self) -> int:
        connections = self.all_connections()
        return sum(1 for c in connections if c.socket is not None and not c.socket.closed)

    def table_open(self, user_id: int, at: float) -> bool:
        """Whether `user_id` had a table open at `at` (epoch s)."""
        return any(
            seen.opened_at is not None
            and seen.opened_at <= at
            and (seen.closed_at is None or at <= seen.closed_at)
            for c in self.all_connections()
            if c.user_id == user_id
            for seen in c.seen
        )

    def watched(self) -> list[Watched]:
        return [
            Watched(seen.game, seen.opened_at, tuple(seen.views))
            for c in self.all_connections()
            for seen in c.seen
        ]

    def actions(self) -> tuple[int, int]:
        """Hand actions the people sent, and those the table did."""
        players = [p for group in self.players.values() for p in group]
        return sum(p.actions for p in players), sum(p.done for p in players)

    def unanswered(self) -> int:
        return sum(c.unanswered for c in self.all_connections())

    def closed_by_server(self) -> list[str]:
        return [code for c in self.all_connections() for code in c.closed_by_server]

    def refusals(self) -> dict[str, int]:
        found: dict[str, int] = {}
        for c in self.all_connections():
            for code in c.refusals:
                found[code] = found.get(code, 0) + 1
        return found

    async def close(self) -> None:
        await asyncio.gather(*(c.close() for c in self.all_connections()), return_exceptions=True)


def _ignore(_connection: Connection, _view: dict[str, Any]) -> None:
    """A spectator only watches."""
