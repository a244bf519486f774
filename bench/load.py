"""Many games at once through one real bot: what players wait for, what Telegram is sent.

    .venv/bin/python bench/load.py --games 20 --seconds 120
    .venv/bin/python bench/load.py --games 200 --seconds 180
    .venv/bin/python bench/load.py --games 200 --seconds 120 --budget 1000   # CPU-bound
    .venv/bin/python bench/load.py --games 20 --seconds 120 --all-human
    .venv/bin/python bench/load.py --games 50 --seconds 120 --processes 2    # webhook mode
    .venv/bin/python bench/load.py --games 15 --seconds 120 --topics 3       # forums
    .venv/bin/python bench/load.py --games 200 --seconds 120 --table         # live table
    .venv/bin/python bench/load.py --games 200 --seconds 120 --table --spectators 10

It starts a fake Bot API (tests/fakebotapi, with Telegram's limits: 20 calls a minute
per group, the token's calls a second), Redis (REDIS_URL if set, else a redis-server
of its own on a free port) and the real `domino-bot` process(es), then plays N games
at once: in each group one person (every seat with --all-human) and computers for
the other seats. A person answers 1-3 s after his keyboard arrives (0.2-0.5 s for
the second press of a move: the end, or the next draw); when a game ends its group
starts the next one (Rematch 5-15 s after the final table, Start 2-5 s after the
lobby), so N games run all the time.

With --topics T the groups are forums: T topics to a forum, each with a game of its own
(the last forum may hold fewer), and in each forum one more person, who does not play,
sends a command every 6-10 s to one of its topics in turn (/score, /stop, /help, /rules:
each answered anew, none a repeat that the bot re-uses). Games start inside the measured
window too: only each forum's first topic has its game before it, the others' games open
5-30 s into it (so two start in the same minute), and 55-75 s into it the first topic's
creator stops his game (/stop, «yes») and opens a new one. A game opened in the window
is set up at a person's pace (a press every 1-2 s, each an edit of the lobby). A
command's answer is the bot's message in reply to it, or for a /newgame the lobby; its
latency is from the user's message to the answer, both on the fake's clock
(`command_answer_p50_s`, `command_answer_p99_s`; a command still without an answer at
the end counts as `commands_unanswered`). `stopped_board_max_s`: from the press on «yes»
to the stopped game's board losing its button (`stops` of them; `stops_unshown`: still
showing whose turn it was at the end).

Calls are those Telegram counts (that send, edit or delete a message: not the
answers to button presses). Measured over `--seconds` once every game has started
and its group shows its first board (setting them up is not part of it), from the
bot's JSON log (`move`, `hand` and `group` events: commit and delivery times), the
fake's call log, /proc (the bot's CPU time) and Redis (MONITOR for the commands the
bot sends, a script counting once; `INFO commandstats` for all the server ran;
`MEMORY USAGE`). A move is an
action of the game record: a tile played (or several doubles), a draw, a pass.
The last line printed is one JSON object with every figure.

With --table the people play on the live table instead (bench/table_games.py,
bench/table_people.py): WebSocket clients signed with the test token that set the
lobby up, join, start and play from the table, never pressing a hand's buttons;
--spectators K opens K more tables per game for users not seated. The figures it adds
(bench/table_figures.py): `table_update_p50_ms` and `table_update_p99_ms` (from a
move's commit, the `ts` of the bot's `move` event, to the moment every table open on
its game has a view with it), `table_views_missed` (counted in `lost_updates` too),
`table_connections` (open at the end of the window), `rss_mb` (the bot processes'
resident memory together, at the end of the window), `private_refused` (private calls
Telegram refused: a person who joined at the table never opened the private chat) and
`bench_cpu_share` (this process's CPU in the window, in cores).
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import hashlib
import itertools
import json
import os
import random
import resource
import statistics
import sys
import tempfile
import time
import uuid
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import aiohttp  # noqa: E402
import redis  # noqa: E402

from bench import table_figures  # noqa: E402
from bot.game.options import LobbyAction  # noqa: E402
from bot.storage import scripts as storage_scripts  # noqa: E402
from bot.telegram.callbacks import (  # noqa: E402
    DrawPress,
    EndPress,
    HandRequestPress,
    LayDoublesPress,
    LobbyPress,
    PassPress,
    StopPress,
    TilePress,
)
from engine.variants import VARIANTS  # noqa: E402
from tests.fakebotapi import FLOOD_METHODS, FakeBotApi  # noqa: E402
from tests.fakebotapi.views import MessageView  # noqa: E402
from tests.support.bot_process import BotProcess, bot_environment  # noqa: E402
from tests.support.buttons import (  # noqa: E402
    hand_buttons,
    is_final_table,
    lobby_button,
    of_kind,
    playable,
    press_of,
    rematch_button,
    version_of,
)
from tests.support.players import JOIN, PLAYED  # noqa: E402
from tests.support.redis_server import RedisMissing, RedisServer, free_port  # noqa: E402
from tests.support.waiting import until_async  # noqa: E402

SETUP_TIMEOUT = 600.0
REMATCH_AFTER = (5.0, 15.0)  # seconds from the final table to Rematch
START_AFTER = (2.0, 5.0)  # seconds from the rematch lobby to Start
COMMAND_EVERY = (6.0, 10.0)  # seconds between a forum's commands (--topics)
OPEN_AT = (5.0, 30.0)  # seconds into the window a forum's later topics open their games
RESTART_AT = (55.0, 75.0)  # and its first topic's game is stopped and a new one opened
PRESS_GAP = (1.0, 2.0)  # seconds between the presses of a lobby set up in the window
# The bot's group calls that show a board's moves (its `group` log events).
BOARD_CALLS = ("new_board", "edit_board", "finish_board", "next_round", "board_final")
# One topic's commands, in turn: with two topics or more, /help and /rules come round
# again only after the topic's minute (a repeat within it would be re-used: see
# bot.handlers.repeats), /score says something new after every move, and /stop from
# someone who may not is refused.
COMMAND_CYCLE = ("/score", "/stop", "/help", "/score", "/stop", "/rules")


# -- the people -------------------------------------------------------------------------------


@dataclass
class Person:
    user: int
    group: int
    seat_name: str
    pressed_at: float = 0.0  # when he last pressed (monotonic)
    handled: set[tuple[int, int]] = field(default_factory=set)  # (message id, version) pressed


@dataclass
class Table:
    group: int
    variant: str
    people: list[Person]
    thread: int | None = None  # its forum topic (--topics)
    games_started: int = 0
    started_at: float | None = None  # monotonic, the current game's start
    lobby_id: int | None = None
    playing: bool = False  # its game started and has not ended


@dataclass
class Forum:
    """A forum's topics and the person who sends them commands (--topics)."""

    group: int
    asker: int
    threads: list[int]
    sent: dict[int, float] = field(default_factory=dict)  # command message id -> when
    what: dict[int, str] = field(default_factory=dict)  # command message id -> the command
    answered: dict[int, float] = field(default_factory=dict)  # command message id -> when
    newgames: dict[int, int | None] = field(default_factory=dict)  # /newgame's id -> topic
    lobbies: list[tuple[int | None, int, float]] = field(default_factory=list)  # topic, id, when
    stops: dict[int, float] = field(default_factory=dict)  # board's id -> «yes» pressed
    stopped: list[float] = field(default_factory=list)  # seconds until the board said so


class Driver:
    """Plays every table: presses buttons as people would, from the fake's message events."""

    def __init__(self, api: FakeBotApi, args: argparse.Namespace, seed: int) -> None:
        self.api = api
        self.args = args
        self.rng = random.Random(seed)
        self.loop = asyncio.get_running_loop()
        self.tables: list[Table] = []
        self.by_user: dict[int, Person] = {}
        self.by_place: dict[tuple[int, int | None], Table] = {}  # (group, topic)
        self.forums: dict[int, Forum] = {}
        self.queries: dict[str, float] = {}  # query id -> pressed at (monotonic)
        self.answers: dict[str, tuple[str | None, bool]] = {}
        self.errors: list[str] = []
        self.tasks: set[asyncio.Task[None]] = set()
        self.stopping = False
        self.table_games: Any = None  # --table: bench.table_games.TableGames
        api.on_bot_message(self._on_message)
        api.on_callback_answer(self._on_answer)

    # -- events from the fake's thread ----------------------------------------------------

    def _on_message(self, event: Any) -> None:
        if event.view is None:
            return
        forum = self.forums.get(event.chat_id)
        view = event.view
        if forum is not None and event.kind == "sent" and view.reply_to is not None:
            # On the fake's thread, with the fake's time: an answer may come before the
            # command's sender has noted its id.
            forum.answered.setdefault(view.reply_to, event.time)
        elif forum is not None and event.kind == "sent" and of_kind(view.buttons, LobbyPress):
            forum.lobbies.append((view.thread_id, event.message_id, event.time))
        elif forum is not None and event.kind == "edited" and not view.buttons:
            pressed = forum.stops.pop(event.message_id, None)
            if pressed is not None:
                forum.stopped.append(event.time - pressed)
        if self.stopping:
            return
        self.loop.call_soon_threadsafe(self._message, event.view)

    def _on_answer(self, query_id: str, answer: Any, when: float) -> None:
        self.loop.call_soon_threadsafe(self._answer, query_id, answer)

    def _answer(self, query_id: str, answer: Any) -> None:
        self.answers[query_id] = (answer.text, bool(answer.show_alert))

    def _message(self, view: MessageView) -> None:
        person = self.by_user.get(view.chat_id)
        if person is not None:
            if self.table_games is None:  # at the table, people play there
                self._hand(person, view)
            return
        table = self.by_place.get((view.chat_id, view.thread_id))
        if table is not None and is_final_table(view):
            table.playing = False
            self._spawn(self._rematch(table, view))

    def _hand(self, person: Person, view: MessageView) -> None:
        buttons = hand_buttons(view)
        if not buttons:
            return
        version = version_of(buttons[0])
        if (view.message_id, version) in person.handled:
            return
        person.handled.add((view.message_id, version))
        if of_kind(buttons, EndPress, LayDoublesPress):
            return  # a choice keyboard: the press that asked for it goes on by itself
        quick = time.monotonic() - person.pressed_at < 2.0
        delay = self.rng.uniform(0.2, 0.5) if quick else self.rng.uniform(1.0, 3.0)
        self._spawn(self._play(person, view.message_id, buttons, delay))

    def _spawn(self, coroutine: Any) -> None:
        task = self.loop.create_task(coroutine)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    # -- pressing ---------------------------------------------------------------------------

    async def press(
        self, user: int, chat: int, message_id: int, data: str
    ) -> tuple[str | None, bool] | None:
        try:
            query = await asyncio.to_thread(self.api.press, user, chat, message_id, data)
        except Exception:  # the keyboard changed under the finger
            return None
        self.queries[query] = time.monotonic()
        for _ in range(600):
            if query in self.answers:
                return self.answers[query]
            await asyncio.sleep(0.05)
        return None

    async def _play(
        self, person: Person, message_id: int, buttons: list[Any], delay: float
    ) -> None:
        await asyncio.sleep(delay)
        if self.stopping:
            return
        tiles = playable(buttons)
        others = of_kind(buttons, DrawPress, PassPress)
        choice = self.rng.choice(tiles) if tiles else (others[0] if others else None)
        if choice is None:
            return
        person.pressed_at = time.monotonic()
        answer = await self.press(person.user, person.user, message_id, choice.callback_data)
        if answer is None or answer[1]:
            return
        if isinstance(press_of(choice), TilePress) and not (answer[0] or "").startswith(PLAYED):
            await self._choose_end(person, message_id)

    async def _choose_end(self, person: Person, message_id: int) -> None:
        for _ in range(100):
            await asyncio.sleep(0.1)
            view = self.api.message(person.user, message_id)
            ends = of_kind(view.buttons, EndPress)
            if ends:
                await asyncio.sleep(self.rng.uniform(0.2, 0.5))
                person.pressed_at = time.monotonic()
                await self.press(
                    person.user, person.user, message_id, self.rng.choice(ends).callback_data
                )
                return

    # -- setting up -------------------------------------------------------------------------

    def add_tables(self, count: int) -> None:
        per_table = 4
        humans = per_table if self.args.all_human else 1
        topics = self.args.topics
        forum: Forum | None = None
        for number in range(count):
            names = [f"Игрок {number}-{seat}" for seat in range(humans)]
            users = [self.api.add_user(name, language_code="ru") for name in names]
            thread = None
            if not topics:
                group = self.api.add_group(f"Стол {number}", owner=users[0], members=users[1:])
            else:
                if forum is None or len(forum.threads) == topics:
                    asker = self.api.add_user(f"Зритель {number}", language_code="ru")
                    group = self.api.add_group(
                        f"Форум {number}", owner=users[0], members=[asker], is_forum=True
                    )
                    forum = self.forums[group] = Forum(group, asker, [])
                group = forum.group
                for user in users:
                    self.api.set_member(group, user)
                thread = self.api.add_topic(group, f"Стол {number}", by=users[0])
                forum.threads.append(thread)
            table = Table(group, list(VARIANTS)[number % len(VARIANTS)], [], thread)
            for user, name in zip(users, names, strict=True):
                person = Person(user, group, name)
                table.people.append(person)
                self.by_user[user] = person
            self.tables.append(table)
            self.by_place[(group, thread)] = table

    @property
    def groups(self) -> set[int]:
        return {table.group for table in self.tables}

    # -- the commands of a forum (--topics) --------------------------------------------------

    async def ask(self, forum: Forum) -> None:
        """A command to the forum's topics in turn every few seconds, until the run stops."""
        for turn in itertools.count():
            await asyncio.sleep(self.rng.uniform(*COMMAND_EVERY))
            if self.stopping:
                return
            thread = forum.threads[turn % len(forum.threads)]
            command = COMMAND_CYCLE[(turn // len(forum.threads)) % len(COMMAND_CYCLE)]
            await asyncio.to_thread(self._send_command, forum, thread, command)

    def _send_command(
        self, forum: Forum, thread: int | None, command: str, user: int | None = None
    ) -> int:
        """`user` (the forum's asker if None) sends `command` to the topic: it is measured."""
        sent = time.monotonic()  # the fake's clock (it runs in this process)
        who = forum.asker if user is None else user
        message_id = self.api.send_text(who, forum.group, command, thread_id=thread)
        forum.sent[message_id] = sent
        forum.what[message_id] = command.split()[0]
        return message_id

    def later(self) -> list[Table]:
        """The tables whose games open inside the measured window (--topics): every forum's
        but its first topic's."""
        firsts = {forum.threads[0] for forum in self.forums.values()}
        return [t for t in self.tables if t.thread is not None and t.thread not in firsts]

    async def open_later(self, table: Table) -> None:
        """The table's game opens a few seconds into the window, at a person's pace."""
        await asyncio.sleep(self.rng.uniform(*OPEN_AT))
        if not self.stopping:
            await self.open(table, paced=True)

    async def restart(self, forum: Forum) -> None:
        """A while into the window, the forum's first topic's creator stops his game and
        opens a new one."""
        await asyncio.sleep(self.rng.uniform(*RESTART_AT))
        table = self.by_place[(forum.group, forum.threads[0])]
        if self.stopping or not table.playing:
            return  # between games: its rematch starts one anyway
        api, creator = self.api, table.people[0].user
        sent = await asyncio.to_thread(self._send_command, forum, table.thread, "/stop", creator)
        question = await self._until(
            lambda: next(
                (m for m in api.messages(table.group, from_bot=True) if m.reply_to == sent), None
            ),
            "the question of /stop",
        )
        confirm = stop_confirmation(question)
        if confirm is None or confirm.callback_data is None:
            return  # refused: nothing to stop
        boards = [
            m
            for m in api.messages(table.group, thread_id=table.thread, from_bot=True)
            if m.photo is not None and of_kind(m.buttons, HandRequestPress)
        ]
        await asyncio.sleep(self.rng.uniform(*PRESS_GAP))
        if boards:
            forum.stops[boards[-1].message_id] = time.monotonic()
        answer = await self.press(creator, table.group, question.message_id, confirm.callback_data)
        if answer is None or answer[1]:
            return
        table.playing = False
        await asyncio.sleep(self.rng.uniform(*PRESS_GAP))
        await self.open(table, paced=True)

    async def open(self, table: Table, paced: bool = False) -> None:
        """/newgame, the computer seats, everybody joins, Start (`paced`: each a second or
        two after the other, as people do it: inside the window, a /newgame is a command
        whose answer is the lobby)."""
        if self.table_games is not None:
            await self.table_games.open(table)
            return
        api = self.api
        creator = table.people[0].user
        forum = self.forums.get(table.group) if paced else None
        command = f"/newgame {table.variant}"
        if forum is not None:
            sent = await asyncio.to_thread(
                self._send_command, forum, table.thread, command, creator
            )
            forum.newgames[sent] = table.thread
        else:
            sent = await asyncio.to_thread(
                api.send_text, creator, table.group, command, thread_id=table.thread
            )
        lobby = await self._until(
            lambda: next(
                (
                    m
                    for m in api.messages(table.group, thread_id=table.thread, from_bot=True)
                    if m.message_id > sent and m.buttons
                ),
                None,
            ),
            "the lobby",
        )
        table.lobby_id = lobby.message_id
        computers = 4 - len(table.people)
        level = LobbyAction.ADD_EASY if self.args.computers == "easy" else LobbyAction.ADD_STRONG
        for _ in range(computers):
            button = lobby_button(lobby, level)
            assert button is not None and button.callback_data is not None
            if paced:
                await asyncio.sleep(self.rng.uniform(*PRESS_GAP))
            await self.press(creator, table.group, lobby.message_id, button.callback_data)
        for person in table.people:
            if paced:
                await asyncio.sleep(self.rng.uniform(*PRESS_GAP))
            before = len(api.messages(person.user, from_bot=True))
            await asyncio.to_thread(
                api.follow_url_button, person.user, table.group, lobby.message_id, JOIN
            )
            await self._until(
                lambda p=person, b=before: len(api.messages(p.user, from_bot=True)) > b, "joined"
            )
        if paced:
            await asyncio.sleep(self.rng.uniform(*PRESS_GAP))
        await self._start(table, lobby.message_id)

    async def _start(self, table: Table, lobby_id: int) -> None:
        if self.table_games is not None:
            await self.table_games.start(table, lobby_id)
            return
        creator = table.people[0].user
        for _ in range(50):
            lobby = self.api.message(table.group, lobby_id)
            start = lobby_button(lobby, LobbyAction.START)
            if start is not None and start.callback_data is not None:
                answer = await self.press(creator, table.group, lobby_id, start.callback_data)
                if answer is not None and not answer[1]:
                    table.games_started += 1
                    table.started_at = time.monotonic()
                    table.playing = True
                    return
            await asyncio.sleep(0.5)
        self.errors.append(f"group {table.group}: the game did not start")

    async def _rematch(self, table: Table, final: MessageView) -> None:
        # People look at the final table a while before Rematch, and at the new lobby
        # before Start (the others may join or leave meanwhile).
        await asyncio.sleep(self.rng.uniform(*REMATCH_AFTER))
        if self.stopping:
            return
        rematch = rematch_button(final)
        assert rematch is not None and rematch.callback_data is not None
        data = rematch.callback_data
        seen = {m.message_id for m in self.api.messages(table.group, from_bot=True)}
        answer = await self.press(table.people[0].user, table.group, final.message_id, data)
        if answer is None or answer[1]:
            return
        lobby = await self._until(
            lambda: next(
                (
                    m
                    for m in self.api.messages(table.group, thread_id=table.thread, from_bot=True)
                    if m.message_id not in seen and m.buttons
                ),
                None,
            ),
            "the rematch lobby",
        )
        await asyncio.sleep(self.rng.uniform(*START_AFTER))
        await self._start(table, lobby.message_id)

    async def board_shown(self, table: Table) -> None:
        """Until the table's group shows a board (a picture) of its game."""
        await self._until(
            lambda: any(
                m.photo is not None
                for m in self.api.messages(table.group, thread_id=table.thread, from_bot=True)
            ),
            "the first board",
        )

    async def _until(self, check: Any, what: str, timeout: float = SETUP_TIMEOUT) -> Any:
        return await until_async(check, what, timeout, every=0.1)


def stop_confirmation(question: MessageView) -> Any:
    """The «yes» button of the question /stop asks (None: /stop was refused)."""
    for button in question.buttons:
        press = press_of(button)
        if isinstance(press, StopPress) and press.confirm:
            return button
    return None


# -- the figures --------------------------------------------------------------------------------


def percentile(values: list[float], share: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def read_events(paths: list[Path]) -> list[dict[str, Any]]:
    events = []
    for path in paths:
        for line in path.read_text(errors="replace").splitlines():
            if line.startswith("{"):
                try:
                    events.append(json.loads(line))
                except ValueError:
                    continue
    events.sort(key=lambda e: e.get("ts", 0))
    return events


def redis_commands(client: redis.Redis) -> dict[str, int]:
    """Commands the server has run, by name (our own INFO left out)."""
    stats = client.info("commandstats")
    return {
        k.removeprefix("cmdstat_"): int(v["calls"])
        for k, v in stats.items()
        if k.startswith("cmdstat_") and k != "cmdstat_info"
    }


# The bot's scripts by their SHA1, as EVALSHA names them.
SCRIPT_NAMES = {
    hashlib.sha1(text.encode()).hexdigest(): name.lower()
    for name, text in vars(storage_scripts).items()
    if name.isupper() and isinstance(text, str)
}


class CommandCounter:
    """Commands clients send to Redis (a script counts once; what it runs inside is counted
    apart), by watching MONITOR from a thread of its own."""

    def __init__(self, url: str) -> None:
        import threading

        self.client = redis.Redis.from_url(url)
        self.sent: dict[str, int] = defaultdict(int)
        self.in_scripts = 0
        self.counting = False
        self._thread = threading.Thread(target=self._watch, daemon=True)

    def start(self) -> CommandCounter:
        self._thread.start()
        return self

    def _watch(self) -> None:
        with contextlib.suppress(redis.ConnectionError):  # the server stopped
            self._listen()

    def _listen(self) -> None:
        with self.client.monitor() as monitor:
            for command in monitor.listen():
                if not self.counting:
                    continue
                if command.get("client_type") == "lua" or "lua" in str(
                    command.get("client_address")
                ):
                    self.in_scripts += 1
                else:
                    self.sent[self.named(str(command.get("command", "")))] += 1

    def named(self, command: str) -> str:
        """A command's name; a script's (and the kind of key it is run on) for EVALSHA."""
        words = [word.strip('"') for word in command.split(" ")]
        name = words[0].lower()
        if name != "evalsha" or len(words) < 4:
            return name
        script = SCRIPT_NAMES.get(words[1], words[1][:8])
        # Keys look like prefix:{c123}:group:0 — the part after the chat names the kind.
        parts = words[3].split(":")
        kind = parts[2] if len(parts) > 2 and parts[1].startswith("{c") else ""
        return f"evalsha {script}" + (f" {kind}" if kind else "")


def calls_by_method(api: FakeBotApi, groups: set[int]) -> dict[str, int]:
    found: dict[str, int] = defaultdict(int)
    for call in api.calls(None, None):
        where = "group" if call.chat_id in groups else "private"
        found[f"{where} {call.method}{'' if call.ok else ' (failed)'}"] += 1
    return dict(sorted(found.items(), key=lambda kv: -kv[1]))


def command_waits(driver: Driver, asked_before: float) -> tuple[list[tuple[float, str]], int]:
    """Seconds from each command to its answer (and the command); and the commands sent
    before `asked_before` (monotonic) that got none."""
    waits, unanswered = [], 0
    for forum in driver.forums.values():
        for asked, topic in forum.newgames.items():
            lobby = next((t for where, m, t in forum.lobbies if where == topic and m > asked), None)
            if lobby is not None:
                forum.answered.setdefault(asked, lobby)
        for message_id, sent in forum.sent.items():
            answered = forum.answered.get(message_id)
            if answered is not None:
                waits.append((answered - sent, forum.what.get(message_id, "")))
            elif sent < asked_before:
                unanswered += 1
    return waits, unanswered


def redis_bytes(client: redis.Redis, prefix: str, groups: list[int]) -> list[int]:
    sizes = []
    for group in groups:
        total = 0
        for key in client.scan_iter(match=f"{prefix}:{{c{group}}}:*", count=500):
            total += int(client.memory_usage(key) or 0)
        sizes.append(total)
    return sizes


def figures(events: list[dict[str, Any]], start: float, end: float) -> dict[str, Any]:
    """Latency and fairness figures from the bot's events within [start, end] (epoch s)."""
    moves = [e for e in events if e.get("msg") == "move" and start <= e["ts"] <= end]
    committed = {(e["game"], e["v"]): e for e in events if e.get("msg") == "move"}
    hands = [
        e
        for e in events
        if e.get("msg") == "hand"
        and e.get("live")
        and e.get("call") == "send"
        and start <= e["ts"] <= end
    ]
    hand_waits = [
        e["ts"] - committed[(e["game"], e["v"])]["ts"]
        for e in hands
        if (e["game"], e["v"]) in committed
    ]
    boards = defaultdict(list)
    for e in events:
        if e.get("msg") == "group" and e.get("call") in BOARD_CALLS:
            boards[e["game"]].append((e["ts"], e["v"]))
    lags = []
    for move in moves:
        shown = next(
            (ts for ts, v in boards[move["game"]] if v >= move["v"] and ts >= move["ts"]), end
        )
        lags.append(shown - move["ts"])
    gaps = []
    for shown in boards.values():
        times = [ts for ts, _ in shown if start <= ts <= end]
        if len(times) > 1:
            gaps.append(max(b - a for a, b in itertools.pairwise(times)))
    # Waits between turns (a seat's draws and its play are one turn), per game.
    ratios = []
    by_game = defaultdict(list)
    for move in moves:
        by_game[move["game"]].append(move)
    for game_moves in by_game.values():
        turns: list[tuple[float, float]] = []  # (first, last) time of each turn
        last_seat = None
        for move in game_moves:
            if move["seat"] == last_seat and turns:
                turns[-1] = (turns[-1][0], move["ts"])
            else:
                turns.append((move["ts"], move["ts"]))
            last_seat = move["seat"] if move.get("turn") == move["seat"] else None
        waits = [b[0] - a[1] for a, b in itertools.pairwise(turns)]
        if len(waits) >= 8:
            ratios.append(max(waits) / max(statistics.median(waits), 1e-3))
    versions = collections.Counter((e["game"], e["v"]) for e in events if e.get("msg") == "move")
    return {
        "doubled_moves": sum(n - 1 for n in versions.values() if n > 1),
        "moves": sum(int(m.get("actions", 1)) for m in moves),
        "turns": len(moves),
        "hand_p99_ms": round(1000 * percentile(hand_waits, 0.99)),
        "hand_p50_ms": round(1000 * percentile(hand_waits, 0.5)),
        "board_lag_p99_s": round(percentile(lags, 0.99), 2),
        "board_lag_p50_s": round(percentile(lags, 0.5), 2),
        "board_gap_max_s": round(max(gaps, default=0.0), 1),
        "starvation_ratio": round(max(ratios, default=0.0), 2),
    }


# -- the run ----------------------------------------------------------------------------------


async def run(args: argparse.Namespace) -> dict[str, Any]:
    work = Path(tempfile.mkdtemp(prefix="domino-load-"))
    redis_url = os.environ.get("REDIS_URL", "")  # else a redis-server of our own
    try:
        redis_server = None if redis_url else RedisServer().start()
    except RedisMissing:
        raise SystemExit("load: no REDIS_URL and no redis-server to start") from None
    if redis_server is not None:
        redis_url = redis_server.url
    prefix = f"bench-{uuid.uuid4().hex[:8]}"
    api = FakeBotApi(
        group_limit_per_minute=20,
        global_limit_per_second=args.budget,
        keep_files=False,
    ).start()
    bots: list[BotProcess] = []
    balancer = None
    games = None  # --table: bench.table_games.TableGames
    http = None
    table_found: dict[str, Any] = {}
    if args.table:
        raise_open_files()
    try:
        # The bot's own pacing (quick=False): what players of a real deployment meet.
        env = bot_environment(
            api,
            redis_url,
            prefix,
            quick=False,
            OVERALL_MAX_RATE=str(args.budget),
            LOG_FORMAT="json",
            **({"WEBAPP_URL": "https://table.invalid"} if args.table else {}),
        )
        ports = [free_port() for _ in range(args.processes)]  # the bots' web servers
        if args.processes > 1:
            from tests.fakebotapi.balancer import Balancer

            balancer = Balancer([f"http://127.0.0.1:{port}" for port in ports]).start()
            secret = uuid.uuid4().hex
            for number, port in enumerate(ports):
                bot_env = dict(
                    env,
                    WEBHOOK_URL=balancer.url,
                    WEBHOOK_PORT=str(port),
                    WEBHOOK_LISTEN="127.0.0.1",
                    WEBHOOK_SECRET=secret,
                )
                bots.append(BotProcess(bot_env, work / f"bot{number}.log", cwd=ROOT).start())
        else:
            if args.table:  # polling: the table on the web server of /healthz
                env.update(HEALTH_LISTEN="127.0.0.1", HEALTH_PORT=str(ports[0]))
            bots.append(BotProcess(env, work / "bot0.log", cwd=ROOT).start())
        for bot in bots:
            bot.wait_ready(timeout=60)

        driver = Driver(api, args, seed=args.seed)
        driver.add_tables(args.games)
        if args.table:
            from bench.table_games import TableGames
            from bench.table_people import Signer

            http = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0))
            bases = [f"http://127.0.0.1:{port}" for port in ports]
            games = TableGames(driver, http, Signer(api.token), bases, args.spectators)
            for number, table in enumerate(driver.tables):
                games.add(table, number)
            driver.table_games = games
        set_up = time.monotonic()
        later = driver.later()
        await asyncio.gather(*(driver.open(t) for t in driver.tables if t not in later))
        # Set up once every group shows its game: its lobby made way for the first board.
        # (Starting the games at once costs each group a lobby deletion and a board, which
        # the token's rate spreads over 15 s or so at 200 games: the set-up's calls, not
        # the moves'. Until 2026-12-06 the window opened at the last Start and counted them.)
        await asyncio.gather(*(driver.board_shown(t) for t in driver.tables if t not in later))
        setup_seconds = time.monotonic() - set_up

        client = redis.Redis.from_url(redis_url)
        counter = CommandCounter(redis_url).start()
        await asyncio.sleep(0.5)
        counter.counting = True
        commands_before = redis_commands(client)
        methods_before = calls_by_method(api, driver.groups)
        cpu_before = sum(bot.cpu_seconds() for bot in bots)
        calls_before, group_before = api.count_calls_to(FLOOD_METHODS, driver.groups)
        over_before = api.over_limit_calls()
        start_epoch, start = time.time(), time.monotonic()
        bench_cpu = time.process_time()  # this process: the fake Bot API, people, tables
        askers = [asyncio.create_task(driver.ask(forum)) for forum in driver.forums.values()]
        askers += [asyncio.create_task(driver.open_later(table)) for table in later]
        askers += [asyncio.create_task(driver.restart(forum)) for forum in driver.forums.values()]
        await asyncio.sleep(args.seconds)
        end_epoch, elapsed = time.time(), time.monotonic() - start
        bench_cpu = time.process_time() - bench_cpu
        driver.stopping = True  # no more commands: the last ones' answers still count
        counter.counting = False
        by_command = {
            name: count - commands_before.get(name, 0)
            for name, count in redis_commands(client).items()
        }
        server_commands = sum(by_command.values())
        sent = dict(counter.sent)
        commands = sum(sent.values())
        methods = {
            name: count - methods_before.get(name, 0)
            for name, count in calls_by_method(api, driver.groups).items()
        }
        cpu = sum(bot.cpu_seconds() for bot in bots) - cpu_before
        counted, group_calls = api.count_calls_to(FLOOD_METHODS, driver.groups)
        counted, group_calls = counted - calls_before, group_calls - group_before
        over_limit = api.over_limit_calls() - over_before
        max_per_minute = max(
            (api.max_calls_in_window(group, window=60.0) for group in driver.groups), default=0
        )
        refused = [
            (c.method, c.chat_id, round(c.monotonic, 2))
            for c in api.calls(None, None)
            if getattr(c, "over_limit", False)
        ][:10]
        await asyncio.sleep(3)  # let answers to the last presses come
        if games is not None:
            table_found = {
                # Private calls Telegram refused (a person who joined at the table and never
                # opened the private chat cannot be written to): what they were.
                "private_refused": private_refused(
                    api, driver.groups, start_epoch, games.table_open
                ),
                "table_connections": games.open_count(),
                "rss_mb": table_figures.rss_mb(
                    bot.process.pid for bot in bots if bot.process is not None
                ),
            }
            await games.close()
        for asker in askers:
            asker.cancel()
        unanswered = [
            q
            for q, t in driver.queries.items()
            if q not in driver.answers and t < time.monotonic() - 3
        ]
        named_waits, unanswered_commands = command_waits(driver, time.monotonic() - 10)
        waits = [wait for wait, _ in named_waits]
        slowest = [(what, round(wait, 2)) for wait, what in sorted(named_waits)[-5:][::-1]]
        stopped = [w for forum in driver.forums.values() for w in forum.stopped]
        groups = sorted(driver.groups)
        games_in = collections.Counter(table.group for table in driver.tables)
        sizes = [
            size // games_in[group]
            for group, size in zip(groups, redis_bytes(client, prefix, groups), strict=True)
        ]
        client.close()
    finally:
        if games is not None:
            await games.close()
        if http is not None:
            await http.close()
        for bot in bots:
            bot.stop()
        if balancer is not None:
            balancer.stop()
        api.stop()
        if redis_server is not None:
            redis_server.remove()
    events = read_events([bot.log_path for bot in bots])
    found = figures(events, start_epoch, end_epoch)
    if games is not None:
        table_found.update(table_results(games, events, start_epoch, end_epoch))
    moves = max(found["moves"], 1)
    # The presses of the window (the set-up's presses, 200 games' at once, are not part of it).
    answers = api.answer_latencies(start, start + elapsed)
    result = {
        "games": args.games,
        "topics": args.topics,
        "seconds": round(elapsed, 1),
        "setup_s": round(setup_seconds, 1),
        "moves": found["moves"],
        "moves_per_s": round(found["moves"] / elapsed, 1),
        "calls_per_s": round(counted / elapsed, 1),
        "lost_updates": len(unanswered) + len(driver.errors) + table_found.get("table_lost", 0),
        "over_limit_calls": over_limit,
        "doubled_moves": found["doubled_moves"],
        "group_calls_per_minute_max": max_per_minute,
        "calls_per_move_group": round(group_calls / moves, 3),
        "calls_per_move_private": round((counted - group_calls) / moves, 3),
        "answer_p99_ms": round(1000 * percentile(answers, 0.99)),
        **{k: v for k, v in table_found.items() if k != "table_lost"},
        **(
            {
                "command_answer_p99_s": round(percentile(waits, 0.99), 2),
                "command_answer_p50_s": round(percentile(waits, 0.5), 2),
                "command_answer_max_s": round(max(waits, default=0.0), 2),
                "commands_answered": len(waits),
                "commands_unanswered": unanswered_commands,
                "command_answer_slowest": slowest,
                "stopped_board_max_s": round(max(stopped, default=0.0), 2),
                "stops": len(stopped),
                "stops_unshown": sum(len(forum.stops) for forum in driver.forums.values()),
            }
            if args.topics
            else {}
        ),
        "hand_p99_ms": found["hand_p99_ms"],
        "board_lag_p99_s": found["board_lag_p99_s"],
        "board_gap_max_s": found["board_gap_max_s"],
        "starvation_ratio": found["starvation_ratio"],
        "cpu_ms_per_move": round(1000 * cpu / moves, 2),
        "bench_cpu_share": round(bench_cpu / elapsed, 2),  # of a core, beside the bots
        "redis_cmds_per_move": round(commands / moves, 2),
        "redis_server_cmds_per_move": round(server_commands / moves, 2),
        "redis_bytes_per_game": round(statistics.mean(sizes)) if sizes else 0,
        "redis_bytes_per_game_max": max(sizes, default=0),
        "budget": args.budget,
        "processes": args.processes,
        "table": args.table,
        "spectators": args.spectators,
        "all_human": args.all_human,
        "computers": args.computers,
        "hand_p50_ms": found["hand_p50_ms"],
        "board_lag_p50_s": found["board_lag_p50_s"],
        "answer_p50_ms": round(1000 * percentile(answers, 0.5)),
        "turns": found["turns"],
        "errors": driver.errors[:5],
        "over_limit_examples": refused,
        "redis_sent_by_command": {
            k: round(v / moves, 2) for k, v in sorted(sent.items(), key=lambda kv: -kv[1])
        },
        "calls_by_method": {k: round(v / moves, 3) for k, v in methods.items() if v},
        "bot_log": str(bots[0].log_path),
    }
    return result


def table_results(
    games: Any, events: list[dict[str, Any]], start: float, end: float
) -> dict[str, Any]:
    """The live table's figures (bench/table_figures.py) and what it lost: tables that
    never had a move, actions never answered, set-ups that failed."""
    moves = table_figures.committed_moves(events, start, end)
    times, missed = table_figures.update_times(moves, games.watched())
    sent, done = games.actions()
    by_people = [
        e
        for e in events
        if e.get("msg") == "move" and e.get("by") == "human" and start <= e["ts"] <= end
    ]
    return {
        "moves_by_people": sum(int(e.get("actions", 1)) for e in by_people),
        "table_update_p50_ms": table_figures.percentile_ms(times, 0.5),
        "table_update_p99_ms": table_figures.percentile_ms(times, 0.99),
        "table_update_max_ms": table_figures.percentile_ms(times, 1.0),
        "table_views_missed": missed,
        "table_actions": sent,
        "table_actions_done": done,
        "table_refusals": games.refusals(),
        "table_closed_by_server": collections.Counter(games.closed_by_server()),
        "table_errors": games.errors[:5],
        "table_lost": missed + games.unanswered() + len(games.errors),
    }


def private_refused(
    api: FakeBotApi, groups: set[int], since: float, table_open: Any = None
) -> dict[str, Any]:
    """The private calls Telegram refused since `since` (epoch s): how many of each method,
    how many of them while the person had a table open (`table_open(user, at)`), and the
    first line of the first one's words (its group's name and round in it)."""
    found: dict[str, dict[str, Any]] = {}
    for call in api.calls(None, None):
        if call.ok or call.chat_id in groups or call.time < since:
            continue
        params = call.params if isinstance(call.params, dict) else {}
        words = str(params.get("caption") or params.get("text") or "").split("\n")[0][:60]
        kind = found.setdefault(call.method, {"count": 0, "table_open": 0, "example": words})
        kind["count"] += 1
        if table_open is not None and call.chat_id is not None:
            kind["table_open"] += int(table_open(call.chat_id, call.time))
    return found


def raise_open_files() -> None:
    """As many open files as the system allows (thousands of tables: a socket each, in
    this process and the bots', which inherit it)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = 65536 if hard == resource.RLIM_INFINITY else hard
    if soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=120)
    parser.add_argument(
        "--budget", type=int, default=30, help="the token's calls a second (bot and fake)"
    )
    parser.add_argument("--all-human", action="store_true", help="every seat a person")
    parser.add_argument("--processes", type=int, default=1, help="bot processes (2+: webhook mode)")
    parser.add_argument("--computers", choices=("easy", "strong"), default="easy")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--topics",
        type=int,
        default=0,
        help="forums: this many topic games to a group, and a person sending commands",
    )
    parser.add_argument(
        "--table", action="store_true", help="people play on the live table (WebSocket clients)"
    )
    parser.add_argument(
        "--spectators",
        type=int,
        default=0,
        help="with --table: this many more tables per game, of users not seated",
    )
    args = parser.parse_args(argv)
    if args.spectators < 0 or args.games < 1 or args.processes < 1:
        parser.error("--games and --processes must be at least 1, --spectators at least 0")
    if args.spectators and not args.table:
        parser.error("--spectators needs --table")
    if args.table and args.topics:
        parser.error("--table plays in plain groups: no --topics")
    return args


def main() -> int:
    args = parse_args()
    result = asyncio.run(run(args))
    width = max(len(k) for k in result)
    for key, value in result.items():
        print(f"{key:<{width}}  {value}")
    print(json.dumps(result, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
