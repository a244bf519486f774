"""The races: taps at once, to either of two bot processes, checked after each race."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from bot.telegram import callbacks as cb
from engine import ALL_TILES, Play, Tile
from tests.bot.conftest import Harness, Running
from tests.bot.hostile.choosing import Chooser
from tests.bot.hostile.judging import (
    CHOICES,
    CRASHES,
    MY_TILES,
    Problem,
    Stored,
    engine_problems,
    entries,
    except_fields,
    forced_left,
    read,
    replayed,
)
from tests.bot.hostile.pressing import Answers, query, query_id, second_process, tap
from tests.bot.hostile.tables import board_shown, hand_shown, open_lobby, renew, start
from tests.bot.hostile.watch import Watch
from tests.fakebotapi import CallbackAnswer, FakeBotApi
from tests.fakebotapi.views import MessageView
from tests.support.buttons import HAND_PREFIXES


def _mostly_moves(hand: MessageView, c: Chooser) -> list[str]:
    """The data of the hand's buttons: mostly those that make a move (a tile that fits, an
    end, a draw or a pass), so that races are on moves; now and then any of them."""
    every = [b.callback_data for b in hand.buttons if b.callback_data]
    moves = [
        b.callback_data
        for b in hand.buttons
        if b.callback_data
        and (b.text.startswith("🟢") or b.callback_data.startswith(("E:", "D:", "X:", "MC:")))
    ]
    mostly: bool = c.pick((True, True, True, False))
    return moves if moves and mostly else every


@dataclass(frozen=True)
class Tap:
    user: int
    chat: int
    message_id: int
    data: str
    process: int  # which bot process gets it
    delay_us: int  # after the start of the race


class RaceWorld:
    """One group, `players` people at a fives table, and `processes` bot processes over
    one Redis (the second gets its taps by `tap`, as behind a webhook)."""

    def __init__(self, h: Harness, users: list[int], chat: int, runs: list[Running]) -> None:
        self.h = h
        self.users = users
        self.chat = chat
        self.runs = runs
        self.answers = Answers(h.api)
        self.watch = Watch(h.api).start()
        self.games: dict[str, Stored] = {}
        self.races = 0
        self.taps = 0
        self.moves = 0

    @classmethod
    async def build(cls, h: Harness, players: int, processes: int) -> RaceWorld:
        await h.relaunch(turn_seconds=3600)
        names = ("Андрей", "Ирина", "Ольга", "Вадим")[:players]
        users = h.people(*names)
        chat = h.group(users[0], users[1:], title="Гонки")
        await start(h, chat, users[0], await open_lobby(h, chat, users[0], users[1:], "fives"))
        runs = [h.running[0]]
        if processes > 1:
            runs.append(await second_process(h))
        return cls(h, users, chat, runs)

    def close(self) -> None:
        self.answers.stop()
        self.watch.stop()

    async def ready(self) -> tuple[Stored, int, MessageView]:
        """The game with its seat to act's keyboard shown (a finished game is played again)."""
        stored = await read(self.h.store, self.chat)
        if stored.match is not None and stored.match.status == "over":
            await renew(self.h, self.chat)
        found = await hand_shown(self.h, self.chat)
        assert found[0].match is not None
        self.games[found[0].match.id] = found[0]
        return found

    async def ready_to_tap(self, c: Chooser) -> tuple[Stored, int, MessageView]:
        """`ready()`, then maybe a tile that fits two ends pressed (see `open_ends`)."""
        for _ in range(5):
            stored, to_act, hand = await self.ready()
            opened = await self.open_ends(stored, to_act, hand, c)
            if opened is not None:
                return stored, to_act, opened
            await self.h.settle()  # the hand was being replaced: take the new one
        raise AssertionError("the hand of the seat to act kept changing")

    async def open_ends(
        self, stored: Stored, user: int, hand: MessageView, c: Chooser
    ) -> MessageView | None:
        """Maybe press a tile that fits two ends first, so that the race is on its ends.

        None: the hand was out of date already (a "My tiles" of the last race was still
        replacing it with a new message); nothing changed."""
        assert stored.game is not None
        ends: Counter[Tile] = Counter(
            m.tile for m in stored.game.legal_moves() if isinstance(m, Play) and m.end
        )
        tiles = [
            b.callback_data
            for b in hand.buttons
            if b.callback_data
            and b.callback_data.startswith("P:")
            and ends[cb.parse_tile(b.callback_data.split(":")[-1]) or ALL_TILES[0]] > 1
        ]
        if not tiles or not c.pick((True, False)):
            return hand
        data = c.pick(tiles)
        update = query(self.h.api, user, user, hand.id, data)
        await tap(self.runs[0], update)
        answer = await self.answers.of(query_id(update))
        assert answer is not None
        if answer.text == STALE and hand_changed(self.h.api, user, hand.id, data):
            return None
        assert answer.text in CHOICES[:2], answer

        def ends_shown(api: FakeBotApi) -> MessageView | None:
            shown = api.message(user, hand.id)
            if shown.deleted:
                return shown
            first = shown.buttons[0].callback_data if shown.buttons else None
            return shown if first is not None and first.startswith("E:") else None

        choices: MessageView = await self.h.wait(ends_shown, "the ends shown")
        if choices.deleted:
            # A "My tiles" of the last race was replacing the message as the tile was
            # pressed: the ends are shown on the new one (ready_to_tap takes it).
            return None
        return choices

    async def taps_of(self, c: Chooser, count: int, everyone: bool) -> tuple[Stored, list[Tap]]:
        """`count` taps (`everyone`: one by each player) of what each of them sees now."""
        stored, to_act, hand = await self.ready_to_tap(c)
        stored = await read(self.h.store, self.chat)
        board = await board_shown(self.h, self.chat)
        board_data = [
            b.callback_data for b in self.h.api.message(self.chat, board).buttons if b.callback_data
        ]
        who = list(self.users) if everyone else [c.pick(self.users) for _ in range(count)]
        taps = []
        for user in who:
            if user == to_act and c.pick((True, True, False)):
                chat, message, options = user, hand.id, _mostly_moves(hand, c)
            else:
                chat, message, options = self.chat, board, board_data
            data = c.pick([d for d in options if d])
            taps.append(
                Tap(user, chat, message, data, c.number(0, len(self.runs) - 1), c.number(0, 2000))
            )
        return stored, taps

    async def own_tap(self, c: Chooser) -> tuple[Stored, Tap]:
        """A tap by the seat to act on one of the buttons his hand message shows now."""
        stored, to_act, hand = await self.ready_to_tap(c)
        stored = await read(self.h.store, self.chat)
        data = c.pick(_mostly_moves(hand, c))
        return stored, Tap(to_act, to_act, hand.id, data, 0, 0)

    async def race(self, before: Stored, taps: Sequence[Tap]) -> list[Problem]:
        """All taps at once (each `delay_us` after the start, to the process it names), and
        then: each answered; every accepted move in the game once, legal in turn; every
        accepted "My tiles" counted once; nothing else changed; no hand shown elsewhere."""
        h = self.h

        async def one(t: Tap) -> CallbackAnswer | None:
            await asyncio.sleep(t.delay_us / 1e6)
            update = query(h.api, t.user, t.chat, t.message_id, t.data)
            await tap(self.runs[t.process], update)
            return await self.answers.of(query_id(update), 30)

        answers = await asyncio.gather(*(one(t) for t in taps))
        after = await read(h.store, self.chat)
        self.races += 1
        self.taps += len(taps)
        problems: list[Problem] = []
        moved: list[int] = []  # who made each accepted move
        asked: dict[int, int] = {}  # accepted "My tiles" presses, by user
        for t, answer in zip(taps, answers, strict=True):
            if answer is None:
                problems.append(Problem("unanswered", f"{t}"))
            elif answer.text in CRASHES:
                problems.append(Problem("crashed", f"{t}: {answer.text}"))
            elif answer.show_alert:
                continue
            elif answer.text in MY_TILES:
                asked[t.user] = asked.get(t.user, 0) + 1
            elif t.data.startswith(HAND_PREFIXES) and answer.text not in CHOICES:
                moved.append(t.user)
        problems += self._applied_once(before, after, moved, asked, taps)
        if after.game is not None:
            problems += engine_problems(after.game)
        if after.match is not None:
            self.games[after.match.id] = after
        self.moves += len(moved)
        problems += self.watch.crashes()
        problems += self.watch.leaks(list(self.games.values()))
        return problems

    def _applied_once(
        self,
        before: Stored,
        after: Stored,
        moved: list[int],
        asked: dict[int, int],
        taps: Sequence[Tap],
    ) -> list[Problem]:
        b, a = before.match, after.match
        where = f"taps {list(taps)}"
        if b is None or a is None or before.game is None or after.game is None or a.id != b.id:
            return [Problem("illegal", f"{where}: the game was replaced or removed")]
        _, problems = replayed(before.game, after.game)
        if problems:
            return problems
        # The accepted presses' moves, besides the draws and passes made for people who had
        # no choice (each press is one action; those follow it).
        # (A stored game never leaves a person a draw or a pass to press: one by a person
        # was made for him.)
        new = entries(after.game)[len(entries(before.game)) :]
        pressed = [
            (seat, text)
            for seat, text in new
            if not (text in ("draw", "pass") and a.seats[seat].human)
        ]
        made = len(pressed)
        if made > len(moved):
            return [Problem("doubled", f"{where}: {made} actions for {len(moved)} accepted")]
        if made < len(moved):
            return [Problem("lost", f"{where}: {made} actions for {len(moved)} accepted")]
        if forced_left(a, after.game):
            return [Problem("illegal", f"{where}: a draw or a pass left for a person to press")]
        movers = sorted(b.seats[seat].user_id or 0 for seat, _ in pressed)
        if movers != sorted(moved):
            return [Problem("illegal", f"{where}: moves by {movers}, accepted from {moved}")]
        for seat, (was, now) in enumerate(zip(b.seats, a.seats, strict=True)):
            extra = now.hand_requests - was.hand_requests
            wanted = asked.get(was.user_id or 0, 0)
            if extra != wanted:
                kind = "doubled" if extra > wanted else "lost"
                return [Problem(kind, f"{where}: seat {seat} asked {wanted}, counted {extra}")]
        changed = ("rev", "engine", "deadline", "status", "notes", "notes_dropped")
        seat_fields = ["missed", "hand_requests"]
        if except_fields(b, *changed, seat_fields=seat_fields) != except_fields(
            a, *changed, seat_fields=seat_fields
        ):
            return [Problem("illegal", f"{where}: more changed than the moves")]
        return []

    async def finish(self) -> list[Problem]:
        await self.h.settle(0.3)
        stored = await read(self.h.store, self.chat)
        if stored.match is not None:
            self.games[stored.match.id] = stored
        return self.watch.crashes() + self.watch.leaks(list(self.games.values()), final=True)


STALE = "Эта кнопка устарела."


def hand_changed(api: FakeBotApi, user: int, message_id: int, data: str) -> bool:
    """Whether the hand message no longer shows `data`, or a newer hand was sent."""
    shown = {b.callback_data for b in api.message(user, message_id).buttons}
    newer = any(m.id > message_id and m.from_bot for m in api.messages(user))
    return data not in shown or newer
