"""The fuzz: one press at a time, of any data, on any message, checked after each."""

from __future__ import annotations

from dataclasses import dataclass

from bot.telegram import callbacks as cb
from engine import ALL_TILES, VARIANTS, Doubles, Draw, Play
from tests.bot.conftest import Harness
from tests.bot.hostile.choosing import Chooser
from tests.bot.hostile.judging import CRASHES, Problem, Stored, engine_problems, judge, read
from tests.bot.hostile.pressing import (
    FORGED,
    Answers,
    forged_message,
    poll,
    query,
    query_id,
    recent_messages,
)
from tests.bot.hostile.tables import open_lobby, renew, start
from tests.bot.hostile.watch import Watch
from tests.fakebotapi import CallbackAnswer, FakeBotApi, FakeBotApiError


@dataclass(frozen=True)
class Press:
    user: int
    chat: int
    message_id: int | None  # None: on a new message of the bot's own that carries the data
    data: str
    source: str  # what kind of data it is and where it went (shown when a case fails)


@dataclass(frozen=True)
class Target:
    label: str
    chat: int  # 0: the presser's own private chat; -1: another person's
    message_id: int | None  # None: a new message of the bot's own, carrying the data
    shows: tuple[str, ...] = ()  # the data of its buttons


@dataclass
class Scene:
    """What a fuzz case may press now."""

    users: list[int]
    games: list[Stored]
    targets: list[Target]
    pool: list[str]  # the data of buttons the bot shows somewhere now


SOURCES = (
    "text",
    "bytes",
    "real",
    "mutated",
    "hand",
    "group",
    "oversized",
    "own button",
    "another's move",
)
PIECES = ("text", "number", "huge", "empty", "game", "version", "chat", "long id", "spaces")


class FuzzWorld:
    """Three groups: A (fives) and B (muggins) with the same two players in a game each, and
    C with a lobby open; a fourth person in every group plays in none of them."""

    def __init__(self, h: Harness, users: list[int], chats: list[int]) -> None:
        self.h = h
        self.users = users
        self.chats = chats
        self.answers = Answers(h.api)
        self.watch = Watch(h.api).start()
        self.games: dict[str, Stored] = {}  # every game seen, as last read
        self.presses = 0
        self.sources: dict[str, int] = {}

    @classmethod
    async def build(cls, h: Harness) -> FuzzWorld:
        await h.relaunch(turn_seconds=3600)  # no deadline passes while it runs
        andrey, irina, olga, petr = h.people("Андрей", "Ирина", "Ольга", "Пётр")
        a = h.group(andrey, [irina, olga, petr], title="Стол А")
        b = h.group(irina, [andrey, petr], title="Стол Б")
        c = h.group(olga, [andrey, irina, petr], title="Стол В")
        await start(h, a, andrey, await open_lobby(h, a, andrey, [irina], "fives"))
        await start(h, b, irina, await open_lobby(h, b, irina, [andrey], "muggins"))
        await open_lobby(h, c, olga, [], "fives")
        await h.settle()
        world = cls(h, [andrey, irina, olga, petr], [a, b, c])
        await world.read_all()
        return world

    def close(self) -> None:
        self.answers.stop()
        self.watch.stop()

    async def read_all(self) -> list[Stored]:
        found = [await read(self.h.store, chat) for chat in self.chats]
        for stored in found:
            if stored.match is not None:
                self.games[stored.match.id] = stored
        return found

    async def scene(self) -> Scene:
        h = self.h
        games = await self.read_all()
        targets: list[Target] = []
        for name, stored in zip("ABC", games, strict=True):
            snap = await h.snapshot(stored.chat)
            assert snap is not None
            group = snap.group
            for label, message_id in (
                ("board", group.board.message_id),
                ("lobby", group.lobby_message_id),
                ("final", group.final_message_id),
            ):
                if message_id is not None:
                    targets += self._target(f"{label} {name}", stored.chat, message_id)
            for seat, hand in enumerate(snap.hands):
                user = snap.match.seats[seat].user_id
                if hand.message_id is not None and user is not None:
                    targets += self._target(f"hand {name}{seat}", user, hand.message_id)
            targets.append(Target(f"forged in group {name}", stored.chat, None))
        for user in self.users:
            first = _first_bot_message(h.api, user)
            if first is not None:
                targets += self._target("private message", user, first)
        targets.append(Target("forged in own chat", 0, None))
        targets.append(Target("forged in another's chat", -1, None))
        pool = sorted(
            {
                b.callback_data
                for chat in (*self.chats, *self.users)
                for m in recent_messages(h.api, chat, 8)
                for b in m.buttons
                if b.callback_data and b.text != FORGED
            }
        )
        return Scene(self.users, games, targets, pool)

    def _target(self, label: str, chat: int, message_id: int) -> list[Target]:
        """The message as a target ([] if it was deleted)."""
        try:
            view = self.h.api.message(chat, message_id)
        except FakeBotApiError:  # recorded, but the send did not arrive
            return []
        if view.deleted:
            return []
        shows = tuple(b.callback_data for b in view.buttons if b.callback_data)
        return [Target(label, chat, message_id, shows)]

    def choose(self, scene: Scene, c: Chooser) -> Press:
        source = c.pick(SOURCES)
        user = c.pick(scene.users)
        target = c.pick(scene.targets)
        owned = [t for t in scene.targets if t.label.startswith("hand") and t.shows]
        if source == "own button" and owned:
            target = c.pick(owned)
            return Press(target.chat, target.chat, target.message_id, c.pick(target.shows), source)
        data = self._data(scene, c, source)
        if source == "another's move" and c.pick((True, False)):
            target = Target("forged in own chat", 0, None)  # where a move would count
        chat = target.chat
        if chat == 0:
            chat = user
        elif chat == -1:
            chat = c.pick([u for u in scene.users if u != user])
        button = cb.decode(data)
        group_only = isinstance(button, cb.LobbyPress | cb.StopPress | cb.RematchPress)
        if group_only and target.message_id is None and chat < 0:
            # A stop, lobby or rematch button of its own game in a group does what it says
            # (a stale one is what it protects against): this fuzz has no room for that.
            chat = user
        if group_only and data in target.shows:
            target = scene.targets[0]  # the lobby's own buttons do what they say
            chat = target.chat
        return Press(user, chat, target.message_id, data, f"{source} on {target.label}")

    def _data(self, scene: Scene, c: Chooser, source: str) -> str:
        if source == "text":
            return c.text(80)
        if source == "bytes":
            return c.raw(80).decode("latin-1")
        if source == "another's move":
            return _as_move(scene, c)
        if source in ("real", "mutated", "oversized") or source == "own button":
            real = c.pick(scene.pool) if scene.pool else "H:abcd"
            if source == "real" or source == "own button":
                return real
            if source == "oversized":
                return _oversized(real, scene, c)
            return _mutated(real, scene, c)
        game = c.pick(scene.games)
        assert game.match is not None
        if source == "hand":
            return _hand_data(game, scene, c)
        return _group_data(game, scene, c)

    async def press(self, press: Press) -> tuple[CallbackAnswer | None, list[Problem]]:
        """Make the press; what went wrong (nothing, if all holds)."""
        h = self.h
        message_id = press.message_id
        if message_id is None or not _exists(h.api, press.chat, message_id):
            message_id = forged_message(h.api, press.chat, press.data)
        before = await self.read_all()
        update = query(h.api, press.user, press.chat, message_id, press.data)
        poll(h.api, update)
        answer = await self.answers.of(query_id(update))
        after = await self.read_all()
        self.presses += 1
        kind = press.source.split(" on ")[0]
        self.sources[kind] = self.sources.get(kind, 0) + 1
        problems = []
        if answer is None:
            problems.append(Problem("unanswered", f"{press}"))
        elif answer.text in CRASHES:
            problems.append(Problem("crashed", f"{press}: {answer.text}"))
        changed = [a.chat for b, a in zip(before, after, strict=True) if a.raw != b.raw]
        if len(changed) > 1:
            problems.append(Problem("illegal", f"{press} changed the games of {changed}"))
        for b, a in zip(before, after, strict=True):
            problems += judge(press.user, press.data, b, a)
            if a.game is not None:
                problems += engine_problems(a.game)
        problems += self.watch.crashes()
        problems += self.watch.leaks(list(self.games.values()))
        if changed or (answer is not None and not answer.show_alert):
            await h.settle(0.1)  # what the press set going is shown before the next one
        for stored in after:
            if stored.match is not None and stored.match.status == "over":
                await renew(h, stored.chat)
                await h.settle(0.1)
        return answer, problems

    async def finish(self) -> list[Problem]:
        """Once all is quiet: what the bot sent last, checked too (nothing left unknown)."""
        await self.h.settle(0.3)
        await self.read_all()
        return self.watch.crashes() + self.watch.leaks(list(self.games.values()), final=True)


def _exists(api: FakeBotApi, chat: int, message_id: int) -> bool:
    with api._st.lock:
        return api._st.get_message(api._st.chats[chat], message_id) is not None


def _first_bot_message(api: FakeBotApi, chat: int) -> int | None:
    with api._st.lock:
        state = api._st
        for message in state.chats[chat].messages.values():
            if message.sender_id == state.bot.id and not message.deleted:
                return message.message_id
    return None


def _piece(scene: Scene, c: Chooser) -> str:
    """One field of forged data."""
    kind = c.pick(PIECES)
    if kind == "text":
        return c.text(8)
    if kind == "number":
        return str(c.number(-(2**40), 2**40))
    if kind == "huge":
        return "9" * c.number(19, 60)
    if kind == "empty":
        return ""
    game = c.pick(scene.games)
    assert game.match is not None
    if kind == "game":
        return game.match.id
    if kind == "version":
        return str(max(0, game.version - c.number(0, 3)))
    if kind == "chat":
        return str(game.chat)
    if kind == "long id":
        return "a" * c.number(13, 40)
    return " " + game.match.id + " "


def _mutated(data: str, scene: Scene, c: Chooser) -> str:
    parts = data.split(":")
    how = c.pick(("field", "append", "pad", "cut", "kind", "swap"))
    if how == "field":
        parts[c.number(0, len(parts) - 1)] = _piece(scene, c)
    elif how == "append":
        parts.append(_piece(scene, c))
    elif how == "pad":
        return c.pick((" " + data, data + " ", data + "\n", data + "\x00"))
    elif how == "cut":
        return data[: c.number(0, max(0, len(data) - 1))]
    elif how == "kind":
        parts[0] = c.pick(sorted(cb.GROUP_KINDS | cb.PRIVATE_KINDS | {cb.RULES, "Z", ""}))
    elif len(parts) > 1:
        i, j = c.number(0, len(parts) - 1), c.number(0, len(parts) - 1)
        parts[i], parts[j] = parts[j], parts[i]
    return ":".join(parts)


def _as_move(scene: Scene, c: Chooser) -> str:
    """A legal move of a seat to act, as the button data that would make it (pressed by
    anyone, anywhere: only that seat's player, in his own chat, may make it count)."""
    playing = [g for g in scene.games if g.game is not None and g.game.turn is not None]
    if not playing:
        return "D:0:0:abcd:0:"
    stored = c.pick(playing)
    assert stored.game is not None and stored.match is not None
    move = c.pick(stored.game.legal_moves())
    hand = cb.Hand(stored.chat, None, stored.match.id, stored.version)
    press: cb.HandPress
    if isinstance(move, Play):
        press = (
            cb.TilePress(hand, move.tile)
            if move.end is None
            else cb.EndPress(hand, move.tile, move.end)
        )
    elif isinstance(move, Doubles):
        picked = tuple((p.tile, p.end) for p in move.plays if p.end is not None)
        press = cb.LayDoublesPress(hand, picked)
    else:
        press = cb.DrawPress(hand) if isinstance(move, Draw) else cb.PassPress(hand)
    return cb.encode(press)


def _oversized(data: str, scene: Scene, c: Chooser) -> str:
    parts = data.split(":")
    parts[c.number(0, len(parts) - 1)] += c.pick(("0", "9", "a", "W", "-")) * c.number(1, 120)
    return ":".join(parts)


def _hand_data(game: Stored, scene: Scene, c: Chooser) -> str:
    assert game.match is not None
    kind = c.pick(sorted(cb.PRIVATE_KINDS))
    other = c.pick(scene.games)
    assert other.match is not None
    chat = c.pick((game.chat, game.chat, other.chat, c.pick(scene.users), 2**70, 0))
    thread = c.pick((0, 0, 0, 7, 2**40))
    game_id = c.pick((game.match.id, game.match.id, other.match.id, "zzzz", "a" * 13))
    version = game.version - c.pick((0, 0, 1, 2, game.version, -1, -(10**20)))
    if kind in (cb.TILE, cb.PLAY):
        tile = c.pick(ALL_TILES)
        arg = f"{tile.high}{tile.low}" + ("" if kind == cb.TILE else c.pick("WENSX"))
    elif kind in (cb.DOUBLES, cb.DOUBLES_PLAY):
        arg = c.pick(("-", "33W", "33W22E", "66N55S44E33W", "33W33E", "12W", "00W11E"))
    else:
        arg = c.pick(("", "", "-", "x"))
    return f"{kind}:{chat}:{thread}:{game_id}:{version}:{arg}"


def _group_data(game: Stored, scene: Scene, c: Chooser) -> str:
    assert game.match is not None
    other = c.pick(scene.games)
    assert other.match is not None
    game_id = c.pick((game.match.id, other.match.id, "zzzz"))
    kind = c.pick((cb.LOBBY, cb.STOP, cb.HAND_REQUEST, cb.REMATCH, cb.RULES))
    if kind == cb.LOBBY:
        action = c.pick((*cb.LOBBY_ACTIONS, "zz"))
        value = c.pick(("", "fives", "muggins", "twolane", "90", "0", "99999", "x"))
        return f"{cb.LOBBY}:{game_id}:{action}:{value}"
    if kind == cb.STOP:
        return f"{cb.STOP}:{game_id}:{game.version}:{c.pick(('y', 'n', 'x'))}"
    if kind == cb.RULES:
        return f"{cb.RULES}:{c.pick((*VARIANTS, 'chess'))}"
    return f"{kind}:{game_id}"
