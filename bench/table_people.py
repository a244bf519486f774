"""The people of `bench/load.py --table`: WebSocket clients of the live table (aiohttp, no
browser), signed with the test token as Telegram signs a Mini App's init data.

A `Connection` is one open table: one user, one game, every view it was pushed noted with
the moment it arrived (what bench/table_figures.py measures). A seated person acts on his
own turn, 1-3 s after the view that gave it to him arrived (0.2-0.5 s when he acted less
than 2 s before: the next draw of a run of draws), with one of the moves his view lists
(a play or a set of doubles at random, else the draw or the pass), naming the version of
the view he acted on. A spectator only watches.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import random
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import aiohttp

from tests.support.table import init_data

ANSWER_TIMEOUT = 30.0  # seconds an action may wait for its `done` or `refused`
HELLO_TIMEOUT = 30.0  # seconds the welcome may take on a loaded machine
QUICK = (0.2, 0.5)  # seconds before acting again right after acting (a run of draws)
THINK = (1.0, 3.0)  # seconds a person thinks once his turn has come
QUICK_WITHIN = 2.0  # seconds since his last action that make the next one quick
# A game's view as the hub encodes it: {"type": "view", "view": {..., "table": {"version":
# <the engine's>, ...}}} (json.dumps' separators; the table's first key is its version).
TABLE_VERSION = re.compile(r'"table": \{"version": (\d+)')


@dataclass(frozen=True)
class Signer:
    """Init data as Telegram signs it for a Mini App opened from a `startapp` link."""

    token: str

    def sign(self, user_id: int, name: str, game_id: str) -> str:
        return init_data(self.token, user_id, name, game_id, language_code="ru")


@dataclass
class Seen:
    """The views one connection was pushed for its game: (engine version, arrived at), the
    versions in the order they came (the hub never sends an older one)."""

    game: str
    opened_at: float | None = None  # epoch s, the first view's arrival
    closed_at: float | None = None
    views: list[tuple[int, float]] = field(default_factory=list)


class Connection:
    """One open table (see the module); `on_view` hears every view it is pushed."""

    _ids = itertools.count(1)

    def __init__(
        self,
        http: aiohttp.ClientSession,
        base: str,
        signer: Signer,
        user_id: int,
        name: str,
        on_view: Callable[[Connection, dict[str, Any]], None],
    ) -> None:
        self.http = http
        self.base = base
        self.signer = signer
        self.user_id = user_id
        self.name = name
        self.on_view = on_view
        self.socket: aiohttp.ClientWebSocketResponse | None = None
        self.game = ""
        self.seen: list[Seen] = []  # one per game it was opened for
        self.latest: dict[str, Any] | None = None
        self.answers: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.refusals: list[str] = []
        self.unanswered = 0
        self.closed_by_server: list[str] = []
        self._reader: asyncio.Task[None] | None = None
        self._first_view: asyncio.Event = asyncio.Event()
        self.watching = False  # a spectator's: nobody acts on its views

    async def open(self, game: str) -> None:
        """The table of `game`, from its hello to its first view."""
        await self.close()
        self.game, self.latest = game, None
        self.seen.append(Seen(game))
        self._first_view = asyncio.Event()
        self.socket = await self.http.ws_connect(f"{self.base}/table/ws", heartbeat=None)
        hello = {"type": "hello", "init_data": self.signer.sign(self.user_id, self.name, game)}
        await self.socket.send_str(json.dumps(hello))
        self._reader = asyncio.get_running_loop().create_task(self._read(self.socket))
        await asyncio.wait_for(self._first_view.wait(), HELLO_TIMEOUT)

    async def _read(self, socket: aiohttp.ClientWebSocketResponse) -> None:
        seen = self.seen[-1]
        async for message in socket:
            if message.type != aiohttp.WSMsgType.TEXT:
                break
            if self.watching and seen.opened_at is not None:
                # A spectator's later views: only their version is read (thousands of
                # them share this process with the fake Bot API and the people).
                found = TABLE_VERSION.search(message.data)
                if found is not None:
                    seen.views.append((int(found[1]), time.time()))
                    continue
            data = json.loads(message.data)
            kind = data.get("type")
            if kind == "view":
                view = data["view"]
                at = time.time()
                table = view.get("table")
                if table is not None:
                    seen.views.append((int(table["version"]), at))
                if seen.opened_at is None:
                    seen.opened_at = at
                self.latest = view
                self._first_view.set()
                self.on_view(self, view)
            elif kind in ("done", "refused"):
                if kind == "refused":
                    self.refusals.append(str(data.get("code")))
                waiting = self.answers.pop(data.get("id") or -1, None)
                if waiting is not None and not waiting.done():
                    waiting.set_result(data)
        seen.closed_at = time.time()
        if socket.close_code not in (None, 1000) and not self._closing:
            self.closed_by_server.append(f"{socket.close_code}")

    _closing = False

    async def act(self, action: str, value: str = "", version: int | None = None) -> str | None:
        """Sends an action; its answer's type (`done`, `refused`), None if none came."""
        socket = self.socket
        if socket is None or socket.closed:
            return None
        ask = next(self._ids)
        message: dict[str, Any] = {
            "type": "action",
            "id": ask,
            "game": self.game,
            "action": action,
            "value": value,
        }
        if version is not None:
            message["version"] = version
        answer = asyncio.get_running_loop().create_future()
        self.answers[ask] = answer
        await socket.send_str(json.dumps(message))
        try:
            return str((await asyncio.wait_for(answer, ANSWER_TIMEOUT))["type"])
        except TimeoutError:
            self.answers.pop(ask, None)
            self.unanswered += 1
            return None

    async def close(self) -> None:
        socket, reader = self.socket, self._reader
        self.socket = self._reader = None
        self._closing = True  # until its reader is done: a close of ours, not the server's
        if socket is not None:
            await socket.close()
        if reader is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await reader
        self._closing = False


@dataclass
class Player:
    """A seated person at the table: acts on his turn as the module says."""

    connection: Connection
    rng: random.Random
    spawn: Callable[[Any], None]
    stopping: Callable[[], bool]
    acted_at: float = 0.0  # monotonic
    handled: set[tuple[str, int]] = field(default_factory=set)  # (game, view version)
    actions: int = 0  # sent
    done: int = 0

    def heard(self, _connection: Connection, view: dict[str, Any]) -> None:
        """A view his table was pushed."""
        self.view(view)

    def view(self, view: dict[str, Any]) -> None:
        table = view.get("table")
        hand = table.get("hand") if table else None
        if view.get("status") != "playing" or not hand or not hand.get("your_turn"):
            return
        moves = hand.get("moves") or []
        key = (str(view["game"]), int(view["version"]))
        if not moves or key in self.handled:
            return
        self.handled.add(key)
        quick = time.monotonic() - self.acted_at < QUICK_WITHIN
        delay = self.rng.uniform(*(QUICK if quick else THINK))
        self.spawn(self._act(choose(moves, self.rng), key[1], delay))

    async def _act(self, move: dict[str, str], version: int, delay: float) -> None:
        await asyncio.sleep(delay)
        latest = self.connection.latest
        if self.stopping() or latest is None or latest.get("version") != version:
            return  # stopped, or a newer view came meanwhile (its own turn is handled)
        self.acted_at = time.monotonic()
        self.actions += 1
        if await self.connection.act(move["action"], move["value"], version) == "done":
            self.done += 1


def choose(moves: list[dict[str, str]], rng: random.Random) -> dict[str, str]:
    """A person's pick: a play or a set of doubles at random, else what is left (draw, pass)."""
    tiles = [m for m in moves if m["action"] in ("play", "doubles")]
    return rng.choice(tiles) if tiles else moves[0]
