"""An in-process harness: the real application, polling a fake Bot API, in the test's loop.

The `h` fixture starts a `FakeBotApi`, builds the application with
`build_application` on the test's Redis prefix and runs it the way `run_polling`
does: `initialize()` (which does not call `post_init`), `post_init`, polling,
`start()`; and the reverse at the end (`post_stop`, `shutdown()`,
`post_shutdown`). The services share one `Clock` a test can move forward, so a
deadline can pass without waiting for it. `Harness` plays the
people: it types commands, follows the Join link, presses buttons and waits for
the bot's answers, and it reads what is stored (`Snapshot`: the match and its
delivery records) and edits the match directly when a test needs a chosen
position or a deadline that has passed.
"""

from __future__ import annotations

import asyncio
import io
import re
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import pytest
from redis.asyncio import Redis
from telegram import InlineKeyboardButton, InlineKeyboardMarkup
from telegram.ext import Application

from bot.app import build_application
from bot.delivery.scheduler import Delivery
from bot.game import computer
from bot.game.match_records import DEADLINE_SLACK
from bot.game.service import GameService, new_game_id
from bot.handlers.common import Deps
from bot.i18n import translator
from bot.settings import Settings
from bot.storage.keys import Keys
from bot.storage.models import GroupDelivery, HandDelivery, Match, Seat
from bot.storage.store import Store
from bot.storage.stored import LOST
from bot.telegram import callbacks as cb
from bot.telegram import keyboards
from bot.telegram.texts import REFUSALS
from engine import End, Game, Tile, pack, unpack, view_for
from tests.fakebotapi import CallbackAnswer, FakeBotApi, MessageView
from tests.support.buttons import (
    PLAYABLE_MARK,
    hand_buttons,
    lobby_button,
    of_kind,
    press_of,
    version_of,
)
from tests.support.waiting import until_async

JOIN = re.compile("Присоединиться|Join")


class Clock:
    """The real time plus an offset a test can move forward (deadlines without waiting)."""

    def __init__(self) -> None:
        self.offset = 0.0

    def __call__(self) -> float:
        return time.time() + self.offset

    def advance(self, seconds: float) -> None:
        self.offset += seconds


def make_settings(api: FakeBotApi, redis_url: str, key_prefix: str, **overrides: Any) -> Settings:
    values: dict[str, Any] = {
        "telegram_bot_token": api.token,
        "telegram_api_url": api.url,
        "redis_url": redis_url,
        "key_prefix": key_prefix,
        "computer_delay_seconds": 0.05,
        "group_edit_interval_seconds": 0.05,
        "group_messages_per_minute": 600,
        "sweep_interval_seconds": 0.05,
        "turn_seconds": 90,
    }
    values.update(overrides)
    return Settings(_env_file=None, **values)  # type: ignore[call-arg]


class Running:
    """One running application (a bot process, in this loop)."""

    def __init__(self, app: Application, clock: Clock) -> None:  # type: ignore[type-arg]
        self.app = app
        self.clock = clock

    @property
    def deps(self) -> Deps:
        found = self.app.bot_data["deps"]
        assert isinstance(found, Deps)
        return found

    @property
    def delivery(self) -> Delivery:
        return self.deps.delivery

    async def start(self) -> Running:
        """What `Application.run_polling` does before it idles."""
        app = self.app
        await app.initialize()
        if app.post_init is not None:
            await app.post_init(app)
        deps = self.deps
        deps.service.clock = self.clock
        deps.delivery.clock = self.clock
        assert app.updater is not None
        await app.updater.start_polling(
            timeout=1,
            poll_interval=0,
            allowed_updates=["message", "callback_query", "my_chat_member"],
        )
        await app.start()
        return self

    async def stop(self) -> None:
        """What `run_polling` does after it was told to stop (each step given STOP_WAIT
        seconds: one that hangs fails the test with every task's stack, not the timeout)."""
        app = self.app
        if app.updater is not None and app.updater.running:
            await stopping(app.updater.stop(), "the updater")
        if app.running:
            await stopping(app.stop(), "the application")
            if app.post_stop is not None:
                await stopping(app.post_stop(app), "post_stop")
        await stopping(app.shutdown(), "the shutdown")
        if app.post_shutdown is not None:
            await stopping(app.post_shutdown(app), "post_shutdown")


STOP_WAIT = 30.0


async def stopping(step: Awaitable[Any], what: str) -> None:
    task = asyncio.ensure_future(step)
    done, _ = await asyncio.wait({task}, timeout=STOP_WAIT)
    if task in done:
        task.result()
        return
    stacks = []  # before the cancel: what each task waits for
    for running in asyncio.all_tasks():
        out = io.StringIO()
        running.print_stack(file=out)
        stacks.append(out.getvalue())
    task.cancel()
    raise AssertionError(f"{what} did not stop in {STOP_WAIT:.0f} s:\n" + "\n".join(stacks))


@dataclass
class Snapshot:
    """What is stored for a chat: the match, and what its messages show."""

    match: Match
    group: GroupDelivery
    hands: list[HandDelivery]

    def game(self) -> Game:
        """The engine game (the match must have started)."""
        assert self.match.engine is not None
        return unpack(self.match.engine)

    @property
    def version(self) -> int:
        return -1 if self.match.engine is None else self.game().version

    @property
    def board(self) -> Any:
        return self.group.board

    def busy(self) -> bool:
        """A call to Telegram is claimed and not yet recorded."""
        return self.group.claim is not None or any(h.claim for h in self.hands)

    def __getattr__(self, name: str) -> Any:
        """For brevity in tests: `snap.status` is the match's, `snap.lobby_message_id` the
        group record's (the match is asked first)."""
        if name in Match.model_fields:
            return getattr(self.match, name)
        if name in GroupDelivery.model_fields:
            return getattr(self.group, name)
        raise AttributeError(name)

    def seat_of(self, user_id: int) -> int | None:
        return self.match.seat_of(user_id)


@dataclass
class Harness:
    api: FakeBotApi
    settings: Settings
    redis_url: str
    key_prefix: str
    clock: Clock = field(default_factory=Clock)
    running: list[Running] = field(default_factory=list)
    own_store: Store | None = None

    # -- the application ------------------------------------------------------------

    async def launch(self, **overrides: Any) -> Running:
        # Settings are read from the environment field by field: built once when they can be.
        settings = (
            make_settings(self.api, self.redis_url, self.key_prefix, **overrides)
            if overrides
            else self.settings
        )
        run = await Running(build_application(settings), self.clock).start()
        self.running.append(run)
        return run

    async def stop(self, run: Running) -> None:
        await run.stop()
        self.running.remove(run)

    async def relaunch(self, **overrides: Any) -> Running:
        """The bot again, with other settings (what is stored stays)."""
        for run in list(self.running):
            await self.stop(run)
        self.settings = make_settings(self.api, self.redis_url, self.key_prefix, **overrides)
        return await self.launch()

    @property
    def deps(self) -> Deps:
        return self.running[0].deps

    @property
    def store(self) -> Store:
        """The test's own view of the stored games (it outlives any one application)."""
        assert self.own_store is not None
        return self.own_store

    @property
    def service(self) -> GameService:
        return self.deps.service

    @property
    def delivery(self) -> Delivery:
        return self.deps.delivery

    async def sync(self, chat: int, thread_id: int | None = None) -> None:
        """Bring the chat's messages in line now (as a change or a sweep would)."""
        self.delivery.kick(chat, thread_id)
        await self.delivery.idle()

    # -- people and chats -----------------------------------------------------------

    def people(self, *names: str, lang: str = "ru") -> list[int]:
        return [self.api.add_user(name, language_code=lang) for name in names]

    def group(
        self,
        owner: int,
        members: Iterable[int] = (),
        admins: Iterable[int] = (),
        title: str = "Домино",
        is_forum: bool = False,
    ) -> int:
        return self.api.add_group(
            title, owner=owner, members=list(members), admins=list(admins), is_forum=is_forum
        )

    # -- talking to the bot ---------------------------------------------------------

    async def say(
        self,
        user: int,
        chat: int,
        text: str,
        thread_id: int | None = None,
        reply: bool = True,
        timeout: float = 10,
    ) -> MessageView:
        """The user writes `text`; the bot's reply to it (`reply=False`: its next text message)."""
        sent = self.api.send_text(user, chat, text, thread_id=thread_id)
        return await self.api.wait_message_async(
            chat,
            after=sent,
            where=(lambda m: m.reply_to == sent) if reply else (lambda m: m.photo is None),
            timeout=timeout,
        )

    async def forge(
        self, user: int, chat: int, data: str, thread_id: int | None = None
    ) -> CallbackAnswer:
        """The user presses a button carrying `data` that the bot never made (or no longer shows).

        A real client sends whatever a button carries; the fake server only lets a user press
        buttons that are there, so the button is put on a message of its own first.
        """
        markup = InlineKeyboardMarkup([[InlineKeyboardButton("·", callback_data=data)]])
        message = await self.running[0].app.bot.send_message(
            chat, "·", reply_markup=markup, message_thread_id=thread_id
        )
        return await self.press(user, chat, message.message_id, data)

    async def start_bot(self, user: int, payload: str | None = None) -> MessageView:
        sent = self.api.start_bot(user, payload)
        return await self.api.wait_message_async(user, after=sent, where=lambda m: m.text)

    async def press(
        self, user: int, chat: int, message_id: int, data: str, timeout: float = 10
    ) -> CallbackAnswer:
        query = self.api.press(user, chat, message_id, data)
        return await self.api.callback_answer_async(query, timeout)

    async def press_text(
        self, user: int, chat: int, message_id: int, label: str | re.Pattern[str]
    ) -> CallbackAnswer:
        button = self.api.message(chat, message_id).button(
            re.compile(label) if isinstance(label, str) else label
        )
        assert button.callback_data is not None
        return await self.press(user, chat, message_id, button.callback_data)

    async def wait(
        self, predicate: Callable[[FakeBotApi], Any], what: str, timeout: float = 10
    ) -> Any:
        return await self.api.wait_for_async(predicate, timeout, what)

    async def settle(self, quiet: float = 0.3) -> None:
        """Until the bot made no call for `quiet` seconds (and every update was fetched)."""
        await asyncio.to_thread(self.api.wait_quiet, quiet, 20)

    async def game(self, chat: int, thread_id: int | None = None) -> Snapshot:
        found = await self.snapshot(chat, thread_id)
        assert found is not None
        return found

    async def snapshot(self, chat: int, thread_id: int | None = None) -> Snapshot | None:
        match = await self.store.games.load(chat, thread_id)
        if match is None:
            return None
        group, hands = await self.store.games.read_delivery(chat, thread_id, len(match.seats))
        fresh = GroupDelivery(game_id=match.id)
        shown = (
            group.value if group.value is not None and group.value.game_id == match.id else fresh
        )
        seats = [
            h.value
            if h.value is not None and h.value.game_id == match.id
            else HandDelivery(game_id=match.id)
            for h in hands
        ]
        return Snapshot(match, shown, seats)

    async def store_change(
        self, chat: int, thread_id: int | None, apply: Callable[[Match], None]
    ) -> Match:
        """Change the stored match as a test needs it (a position, a deadline)."""
        key = self.store.keys.game(chat, thread_id)
        while True:
            stored = await self.store.games.read_match(chat, thread_id)
            assert stored.value is not None
            match = stored.value
            apply(match)
            match.rev += 1
            if await self.store.games.write(key, stored, match) is not LOST:
                return match

    async def raw(self, chat: int, thread_id: int | None = None) -> bytes | None:
        """The stored game exactly as Redis holds it."""
        value = await self.store.redis.get(self.store.keys.game(chat, thread_id))
        return value if value is None else bytes(value)

    # -- the lobby ------------------------------------------------------------------

    async def lobby_of(self, *names: str) -> tuple[list[int], int, MessageView]:
        """A group of people named `names`, and the lobby the first of them opened in it:
        the people, the group and the lobby message."""
        people = self.people(*names)
        group = self.group(people[0], people[1:])
        return people, group, await self.newgame(people[0], group)

    async def newgame(
        self, user: int, chat: int, variant: str = "", thread_id: int | None = None
    ) -> MessageView:
        """/newgame: the lobby message (once the bot has recorded it)."""
        lobby = await self.say(user, chat, f"/newgame {variant}".strip(), thread_id, reply=False)
        assert lobby.buttons, lobby.content

        async def recorded() -> bool:
            found = await self.snapshot(chat, thread_id)
            return found is not None and found.group.lobby_message_id == lobby.id

        await self.until(recorded, "the lobby message recorded")
        return lobby

    async def join(
        self, user: int, chat: int, lobby: MessageView, expect_edit: bool = True
    ) -> MessageView:
        """The user follows the lobby's Join link; the bot's answer in private."""
        edits = self.api.message(chat, lobby.id).edit_count
        sent = self.api.follow_url_button(user, chat, lobby.id, JOIN)
        answer = await self.api.wait_message_async(user, after=sent)
        if expect_edit:
            await self.wait(
                lambda a: a.message(chat, lobby.id).edit_count > edits, "the lobby edited"
            )
        return answer

    async def lobby_button(
        self, user: int, chat: int, lobby: MessageView, action: str
    ) -> CallbackAnswer:
        """Press the lobby button of `action` (ce, cs, v, t, tm, lv, st, cx) as it is now."""
        current = self.api.message(chat, lobby.id)
        found = lobby_button(current, cb.LOBBY_ACTIONS[action], value=None)
        if found is not None and found.callback_data is not None:
            return await self.press(user, chat, lobby.id, found.callback_data)
        raise AssertionError(f"no lobby button {action}: {current.describe_buttons()}")

    async def lobby_settled(self, chat: int, thread_id: int | None = None) -> Snapshot:
        """Until the lobby message shows the stored lobby."""

        async def shown() -> Snapshot | None:
            found = await self.snapshot(chat, thread_id)
            if (
                found is not None
                and found.group.lobby_shows == found.match.lobby_rev
                and found.group.claim is None
            ):
                return found
            return None

        result: Snapshot = await self.until(shown, "the lobby message up to date")
        return result

    async def table(
        self,
        variant: str = "fives",
        people: int = 2,
        computers: str = "",
        lang: str = "ru",
        start: bool = True,
        names: tuple[str, ...] = ("Андрей", "Ирина", "Ольга", "Вадим"),
    ) -> Table:
        """A group with `people` persons seated (and computers: "e"/"s"), started or not."""
        users = self.people(*names[:people], lang=lang)
        chat = self.group(users[0], users[1:])
        lobby = await self.newgame(users[0], chat, variant)
        for kind in computers:
            await self.lobby_settled(chat)
            answer = await self.lobby_button(users[0], chat, lobby, "ce" if kind == "e" else "cs")
            assert not answer.show_alert, answer
        for user in users:
            await self.lobby_settled(chat)
            await self.join(user, chat, lobby)
        await self.lobby_settled(chat)
        found = Table(self, chat, users, lobby)
        if start:
            await found.start()
        return found

    async def until(
        self, check: Callable[[], Any], what: str, timeout: float = 10, every: float = 0.02
    ) -> Any:
        """Await the async `check` until it returns something truthy."""
        return await until_async(check, what, timeout, every, context=lambda: self.api.dump(30))

    # -- hands and positions --------------------------------------------------------

    def hand(self, user: int) -> MessageView | None:
        """The user's newest message with hand buttons, if any."""
        for message in reversed(self.api.messages(user, from_bot=True)):
            if hand_buttons(message):
                return message
        return None

    async def hand_for(self, user: int, version: int, timeout: float = 10) -> MessageView:
        """The user's hand message with buttons of this game version."""

        def found(api: FakeBotApi) -> MessageView | None:
            for message in reversed(api.messages(user, from_bot=True)):
                buttons = hand_buttons(message)
                if buttons and all(version_of(b) == version for b in buttons):
                    return message
            return None

        result: MessageView = await self.wait(found, f"hand of {user} at v{version}", timeout)
        return result

    async def play_any(self, user: int, version: int) -> None:
        """`user` makes some legal move with the buttons of his keyboard for `version` (a tile
        that fits, choosing the first end offered, or else Draw or Pass)."""
        hand = await self.hand_for(user, version)
        buttons = hand_buttons(hand)
        fitting = [b for b in buttons if b.text.startswith(PLAYABLE_MARK)]
        choice = (fitting or of_kind(buttons, cb.DrawPress, cb.PassPress))[0]
        answer = await self.press(user, user, hand.id, choice.callback_data)
        assert not answer.show_alert, answer
        if answer.text == "К какому концу?":
            ends = await self.wait(
                lambda api: (
                    (m := api.message(user, hand.id))
                    and isinstance(press_of(m.buttons[0]), cb.EndPress)
                    and m
                ),
                "the ends",
            )
            answer = await self.press(user, user, hand.id, ends.buttons[0].callback_data)
            assert not answer.show_alert, answer

    async def match_at(self, position: Game) -> tuple[Table, Snapshot]:
        """A match of Андрей and Ирина in a group, of `position`'s game, set to a copy of it."""
        table = await self.table(position.variant)
        return table, await self.set_position(table.chat, position.copy())

    async def set_position(
        self, chat: int, engine_game: Game, thread_id: int | None = None, **changes: Any
    ) -> Snapshot:
        """Replace the running game's engine state (chosen hands), and bring Telegram in line."""
        now = self.clock()
        turn_seconds = changes.pop("turn_seconds", None)

        def apply(match: Match) -> None:
            assert match.status == "playing"
            match.engine = pack(engine_game)
            if turn_seconds is not None:
                match.turn_seconds = turn_seconds
            for key, value in changes.items():
                setattr(match, key, value)
            turn = engine_game.turn
            if turn is not None:
                seat = match.seats[turn]
                delay = match.turn_seconds if seat.human else self.settings.computer_delay_seconds
                match.deadline = now + delay

        match = await self.store_change(chat, thread_id, apply)
        if match.deadline is not None:
            await self.store.due.note_due(chat, thread_id, match.deadline)
        await self.sync(chat, thread_id)
        return await self.game(chat, thread_id)

    async def finish(
        self, chat: int, thread_id: int | None = None, timeout: float = 30
    ) -> Snapshot:
        """Every seat goes to an easy computer, which plays the game to the final table.

        To keep tests short the match is first played out in memory and the stored game
        jumps to the start of its last turn; the bot's sweeper plays from there, so the end
        of the game (record, stats, final table) goes the way it always does.
        """
        now = self.clock()

        def apply(match: Match) -> None:
            assert match.status == "playing" and match.engine is not None
            engine_game = unpack(match.engine)
            last_turn = engine_game.copy()
            turn = 0
            while not engine_game.over:
                last_turn = engine_game.copy()
                computer.turn_moves(engine_game, "easy", turn, 0.01)
                turn += 1
            match.engine = pack(last_turn)
            for seat in match.seats:
                seat.computer, seat.level = True, "easy"
            match.deadline = now

        await self.store_change(chat, thread_id, apply)
        await self.store.due.note_due(chat, thread_id, now)

        async def final() -> Snapshot | None:
            found = await self.game(chat, thread_id)
            return found if found.group.final_message_id is not None else None

        result: Snapshot = await self.until(final, "the final table", timeout)
        return result

    async def expire(self, chat: int, thread_id: int | None = None) -> None:
        """Move the clock past the current deadline and the due index's slack after it (the
        sweeper then acts: the bot's own timer runs on real time)."""
        game = await self.game(chat, thread_id)
        assert game.match.deadline is not None
        self.clock.advance(game.match.deadline + DEADLINE_SLACK - self.clock() + 0.01)


@dataclass
class Table:
    """A group with its people and its lobby (and, once started, its game)."""

    h: Harness
    chat: int
    users: list[int]
    lobby: MessageView

    async def start(self) -> Snapshot:
        answer = await self.h.lobby_button(self.users[0], self.chat, self.lobby, "st")
        assert not answer.show_alert, answer
        game = await self.h.until(self._board_shown, "the board posted")
        return game  # type: ignore[no-any-return]

    async def _board_shown(self) -> Snapshot | None:
        found = await self.h.snapshot(self.chat, None)
        if found is not None and found.board.message_id is not None:
            return found
        return None

    async def game(self) -> Snapshot:
        return await self.h.game(self.chat)

    async def board(self) -> MessageView:
        game = await self.game()
        assert game.board.message_id is not None
        return self.h.api.message(self.chat, game.board.message_id)

    async def board_caption(self, contains: str, timeout: float = 10) -> MessageView:
        """Until the current board's caption contains `contains`."""

        async def found() -> MessageView | None:
            game = await self.h.snapshot(self.chat, None)
            if game is None or game.board.message_id is None:
                return None
            board = self.h.api.message(self.chat, game.board.message_id)
            return board if contains in (board.caption or "") else None

        result: MessageView = await self.h.until(found, f"board caption with {contains!r}", timeout)
        return result

    async def play_turns(self, turns: int, between: Callable[[], None] | None = None) -> None:
        """The people play `turns` turns (or until the game ends); `between` runs after each."""
        for _ in range(turns):
            game = await self.game()
            if game.status != "playing":
                return
            turn = game.game().turn
            assert turn is not None
            await self.h.play_any(self.users[turn], game.version)
            if between is not None:
                between()

    async def to_act(self) -> int | None:
        """The user id of the seat to act (None: a computer, or nobody)."""
        game = await self.game()
        turn = game.game().turn
        return None if turn is None else game.match.seats[turn].user_id


def ru(code: str) -> str:
    """What a refusal says in Russian (checked to be translated)."""
    text = translator("ru")(REFUSALS[code])
    assert text != REFUSALS[code], code
    return text


def en(code: str) -> str:
    return REFUSALS[code]


def tiles(text: str) -> list[Tile]:
    """Tiles from their notation: `"6:4 3:3"` -> [6:4, 3:3]."""
    return [Tile.parse(t) for t in text.split()]


def position(
    variant: str,
    players: list[str],
    hands: list[str],
    starter: int = 0,
    moves: Iterable[str] = (),
    target: int | None = None,
    seed: int = 7,
) -> Game:
    """A game in a chosen position: these hands (the rest is the boneyard), these moves."""
    dealt = [tiles(hand) for hand in hands]
    used = {t for hand in dealt for t in hand}
    from engine import ALL_TILES

    boneyard = [t for t in ALL_TILES if t not in used]
    game = Game.empty(variant, players, target)
    game.start_round(starter, dealt, boneyard)
    game.seed = seed  # later rounds are dealt from it
    for move in moves:
        game.push(game.parse_move(move))
    return game


# A position of each game with something to choose: fives' tile fitting two ends, the
# second muggins seat's 3:3 and 2:2 for the ends 3 and 2 (several doubles).
POSITIONS = (
    ("fives", ["6:5 6:2 1:0 4:3 1:1 0:0", "5:2 3:1 4:1 3:2 2:0 4:2"], ["6:5", "5:2@E"]),
    ("muggins", ["3:2 6:6 6:5 6:4 5:5 5:4 4:4", "3:3 2:2 1:0 0:0 6:0 1:1 4:0"], ["3:2"]),
    ("twolane", ["6:6 6:4 4:4 2:2 2:1", "5:3 0:0 1:0 6:0 5:5"], []),
)


def every_keyboard(
    lang: str, chat_id: int = -100123, thread_id: int | None = None
) -> list[InlineKeyboardMarkup]:
    """Each keyboard the bot makes, for a game of each kind in `chat_id`'s `thread_id`."""
    tr = translator(lang)
    made = []
    for variant, hands, moves in POSITIONS:
        engine_game = position(variant, ["A", "B"], hands, moves=moves)
        game = Match(
            id=new_game_id(),
            chat_id=chat_id,
            thread_id=thread_id,
            creator_id=1,
            variant=variant,  # type: ignore[arg-type]
            seats=[Seat(name="A", user_id=1), Seat(name="B", user_id=2)],
            status="playing",
            engine=pack(engine_game),
        )
        view = view_for(engine_game, engine_game.turn)
        made += [
            keyboards.lobby(game, tr, "domino_test_bot"),
            keyboards.board(game, tr),
            keyboards.final(game, tr),
            keyboards.stop_confirmation(game, tr),
            keyboards.rules(variant, tr),
            keyboards.hand(game, view, tr),
        ]
        made += [keyboards.ends_for(game, view, tile, tr) for tile in view.hand]
        if variant == "muggins":
            picked = ((Tile.parse("3:3"), End.W), (Tile.parse("2:2"), End.E))
            made += [
                keyboards.doubles(game, view, (), tr),
                keyboards.doubles(game, view, picked, tr),
            ]
    return made


NAMES = ["Андрей", "Ирина"]
# fives: Андрей to act, and only 6:2 fits (on W or on E). Tests play on a .copy().
ANDREY_TO_ACT = position(
    "fives",
    NAMES,
    ["6:5 6:2 1:0 4:3 1:1 0:0", "5:2 3:1 4:1 3:2 2:0 4:2"],
    moves=["6:5", "5:2@E"],
)
# muggins: Андрей opened 3:2; Ирина holds 3:3 and 2:2 and may lay both at once.
MUGGINS_DOUBLES = position(
    "muggins",
    NAMES,
    ["3:2 6:6 6:5 6:4 5:5 5:4 4:4", "3:3 2:2 1:0 0:0 6:0 1:1 4:0"],
    moves=["3:2"],
)


@pytest.fixture
async def h(redis_url: str, key_prefix: str) -> AsyncIterator[Harness]:
    """The fake Bot API and one running application on this test's key prefix."""
    with FakeBotApi() as api:
        harness = Harness(api, make_settings(api, redis_url, key_prefix), redis_url, key_prefix)
        client = Redis.from_url(redis_url)
        harness.own_store = Store(client, Keys(key_prefix))
        await harness.launch()
        try:
            yield harness
        finally:
            for run in list(harness.running):
                await harness.stop(run)
            await client.aclose()


__all__ = [
    "Clock",
    "Harness",
    "Running",
    "Snapshot",
    "Table",
    "en",
    "hand_buttons",
    "position",
    "ru",
    "tiles",
]
