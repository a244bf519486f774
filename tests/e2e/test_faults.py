"""Faults the real bot process survives: killed mid-move, Redis killed or gone for a
while, a flaky Telegram, and a whole such game whose logs never show a secret.

Every press of a move button is written in a `Ledger` with the bot's answer; at the
end the game's exported record is held against it: each move the bot confirmed is in
the record, at the game version its button was made for (nothing lost), and every
move of a person's seat in the record is explained by one of his presses (nothing
doubled). A game version numbers the actions, so version `v` is the record's action
`v` counted over all rounds.
"""

from __future__ import annotations

import json
import random
import re
import time
import urllib.error
import urllib.request
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import redis

from bot.storage.keys import Keys
from bot.storage.models import GroupDelivery, Match, Note
from bot.storage.stored import parse_match
from bot.telegram.callbacks import (
    DrawPress,
    EndPress,
    HandPress,
    PassPress,
    TilePress,
    decode,
)
from engine import Game, Play, Tile, replay, unpack, view_for
from tests.e2e.harness import board_messages, check_finished_game
from tests.fakebotapi import CallbackAnswer, FakeBotApi, FakeBotApiError, Fault
from tests.fakebotapi.views import Button, MessageView
from tests.support.bot_process import BotProcess, Webhook, bot_environment, running
from tests.support.buttons import (
    MOVE_PRESSES,
    hand_buttons,
    of_kind,
    playable,
    press_of,
    version_of,
)
from tests.support.players import Human, open_table, play_to_the_end
from tests.support.redis_server import RedisServer
from tests.support.waiting import until

ROOT = Path(__file__).resolve().parents[2]
# The bot's answers to a press that made a move («Сыграно 5:3 ➡️», «Вы взяли кость из базара.»).
MOVE_ANSWERS = ("Сыграно", "Вы взяли", "Вы спасовали", "Played", "You drew", "You passed")
STORAGE_DOWN = "The game storage is not answering. Please try again in a minute."


def russian(msgid: str) -> str:
    """What the bot says in Russian for `msgid`, from the Russian catalogue."""
    catalogue = (ROOT / "bot/locales/ru/LC_MESSAGES/messages.po").read_text(encoding="utf-8")
    found = re.search(rf'^msgid "{re.escape(msgid)}"\nmsgstr "(.+)"$', catalogue, re.M)
    assert found, f"no Russian for {msgid!r}"
    return found.group(1)


# -- what happened, held against the record ----------------------------------------------------


def spellings(tile: Tile) -> set[str]:
    """The record writes a tile in the order it was laid: 5:3 or 3:5."""
    return {f"{tile.high}:{tile.low}", f"{tile.low}:{tile.high}"}


@dataclass(frozen=True)
class Press:
    user: int
    data: str
    answer: CallbackAnswer | None  # None: no answer came (the bot was killed, say)

    @property
    def press(self) -> HandPress:
        """What the button did (only move buttons are noted: see `Ledger.note`)."""
        found = decode(self.data)
        assert isinstance(found, MOVE_PRESSES), self.data
        return found

    @property
    def version(self) -> int:
        return self.press.hand.version

    @property
    def confirmed(self) -> bool:
        """The bot answered that the press made a move."""
        return (
            self.answer is not None
            and not self.answer.show_alert
            and (self.answer.text or "").startswith(MOVE_ANSWERS)
        )

    def names(self, move: str) -> bool:
        """Whether `move` (as the record writes it) is what this button does."""
        match self.press:
            case DrawPress():
                return move == "draw"
            case PassPress():
                return move == "pass"
            case TilePress(_, tile):
                return move.partition("@")[0] in (
                    f"{tile.high}:{tile.low}",
                    f"{tile.low}:{tile.high}",
                )
            case EndPress(_, tile, end):
                return move in (f"{tile.high}:{tile.low}@{end}", f"{tile.low}:{tile.high}@{end}")
        return False


@dataclass
class Ledger:
    """Every press of a button that can make a move, with the bot's answer."""

    presses: list[Press] = field(default_factory=list)

    def note(self, user: int, data: str, answer: CallbackAnswer | None) -> None:
        if isinstance(decode(data), MOVE_PRESSES):
            self.presses.append(Press(user, data, answer))

    def check(self, record: dict, seats: dict[int, int]) -> tuple[list[str], list[str]]:
        """(lost, doubled) against a finished game's record; `seats`: user -> seat, for the
        seats a person played all along (nothing else plays them)."""
        actions = [(entry.seat, entry.text) for rnd in replay(record).rounds for entry in rnd.moves]
        lost, doubled = [], []
        confirmed = Counter(p.version for p in self.presses if p.confirmed)
        for version, times in confirmed.items():
            if times > 1:
                doubled.append(f"version {version}: {times} presses answered as moves")
        for press in self.presses:
            if not press.confirmed:
                continue
            at = actions[press.version] if press.version < len(actions) else None
            if at is None or at[0] != seats.get(press.user, at[0]) or not press.names(at[1]):
                lost.append(f"{press.data} answered {press.answer}; the record has {at}")
        people = {seat: user for user, seat in seats.items()}
        for version, (seat, move) in enumerate(actions):
            if seat not in people or move in ("draw", "pass"):
                continue  # (a draw or a pass is never a choice: the bot makes it for him)
            if not any(
                p.user == people[seat] and p.version == version and p.names(move)
                for p in self.presses
            ):
                doubled.append(f"version {version}: {move} by seat {seat}, pressed by nobody")
        return lost, doubled


@dataclass
class Witness(Human):
    """A person who notes each of his presses in the table's ledger."""

    ledger: Ledger = field(default_factory=Ledger)
    patience: float = 15.0  # seconds he waits for an answer before pressing again
    think: float = 0.0  # seconds before each press

    def _press(self, message: MessageView, button: Button) -> tuple[str, bool] | None:
        time.sleep(self.think)
        try:
            query = self.api.press(self.user, self.user, message.id, button.callback_data)
        except FakeBotApiError:  # the keyboard changed under his finger
            return None
        try:
            answer = self.api.callback_answer(query, timeout=self.patience)
        except TimeoutError:  # the press died with a killed bot: like a person, press again
            self.ledger.note(self.user, button.callback_data, None)
            self.pressed.discard((message.id, button.callback_data))
            return None
        self.ledger.note(self.user, button.callback_data, answer)
        return answer.text or "", bool(answer.show_alert)


def witnesses(api: FakeBotApi, people: dict[int, str], ledger: Ledger) -> list[Witness]:
    return [Witness(api, user, random.Random(user), ledger=ledger) for user in people]


# -- the stored game ------------------------------------------------------------------------


@dataclass
class Storage:
    """Reads a chat's stored match straight from Redis (what survives a restart)."""

    url: str
    prefix: str

    def _read(self, key: str) -> bytes | str | None:
        """The value at `key`, read on a connection of its own."""
        client = redis.Redis.from_url(self.url, socket_timeout=5)
        try:
            return client.get(key)
        finally:
            client.close()

    def match(self, group: int) -> Match:
        match = parse_match(self._read(Keys(self.prefix).game(group, None)))
        assert match is not None, "no stored game"
        return match

    def game(self, group: int) -> Game:
        engine = self.match(group).engine
        assert engine is not None
        return unpack(engine)

    def version(self, group: int) -> int:
        return self.game(group).version

    def board_caught_up(self, group: int) -> bool:
        """Whether the group's board shows the game as stored, with no call under way."""
        raw = self._read(Keys(self.prefix).group(group, None))
        shown = GroupDelivery.model_validate_json(raw) if raw else None
        return (
            shown is not None
            and shown.claim is None
            and shown.board.shows_version == self.version(group)
        )

    def past(self, group: int, version: int) -> Callable[[], bool]:
        """Whether the game went past `version` (a check for `until`)."""
        return lambda: self.version(group) > version

    def last_action(self, group: int) -> tuple[int, str]:
        entry = self.game(group).round.moves[-1]
        return entry.seat, entry.text

    def actions_since(self, group: int, version: int) -> list[tuple[int, str]]:
        """The actions of the current round made after `version`, oldest first (all of
        them if the round began since)."""
        game = self.game(group)
        moves = game.round.moves[len(game.round.moves) - (game.version - version) :]
        return [(entry.seat, entry.text) for entry in moves]


def _one_press_move(
    api: FakeBotApi,
    storage: Storage,
    group: int,
    people: dict[int, str],
    timeout: float = 30,
    kinds: tuple[type[HandPress], ...] = (TilePress, DrawPress, PassPress),
) -> tuple[int, MessageView, Button] | None:
    """Wait for a person's turn with a live keyboard; then a button of `kinds` that moves
    with one press (a tile that fits one place only, a draw, a pass), or None."""
    found: list[tuple[int, MessageView, Game]] = []

    def ready() -> bool:
        match = storage.match(group)
        if match.status != "playing" or match.engine is None:
            return False
        game = unpack(match.engine)
        user = match.seats[game.round.turn].user_id
        if user not in people:
            return False
        for message in reversed(api.messages(user, from_bot=True)):
            buttons = hand_buttons(message)
            if buttons:
                if any(version_of(b) == game.version for b in buttons):
                    found.append((user, message, game))
                    return True
                return False
        return False

    until(ready, "a person's turn with his keyboard", timeout)
    user, message, game = found[-1]
    view = view_for(game, game.round.turn)
    for button in of_kind(hand_buttons(message), *kinds):
        press = press_of(button)
        if isinstance(press, DrawPress | PassPress):
            return user, message, button
        if isinstance(press, TilePress) and button in playable([button]):
            ends = {m.end for m in view.legal if isinstance(m, Play) and m.tile == press.tile}
            if len(ends) == 1:
                return user, message, button
    return None


def one_press_move(
    api: FakeBotApi,
    storage: Storage,
    group: int,
    people: dict[int, str],
    humans: list[Witness],
    timeout: float = 30,
    kinds: tuple[type[HandPress], ...] = (TilePress, DrawPress, PassPress),
) -> tuple[int, MessageView, Button]:
    """The next turn of a person that one press of `kinds` plays (the turns before it are
    played as usual)."""
    found = _one_press_move(api, storage, group, people, timeout, kinds)
    while found is None:  # not such a move: he makes his, and on to the next turn
        until(lambda: any(h.act() for h in humans), "a move", timeout)
        found = _one_press_move(api, storage, group, people, timeout, kinds)
    return found


def press_and_confirm(
    api: FakeBotApi, ledger: Ledger, user: int, message: MessageView, button: Button
) -> CallbackAnswer:
    query = api.press(user, user, message.id, button.callback_data)
    answer = api.callback_answer(query, timeout=30)
    ledger.note(user, button.callback_data, answer)
    assert Press(user, button.callback_data, answer).confirmed, (answer, button)
    return answer


# -- processes ------------------------------------------------------------------------------


@contextmanager
def aof_redis(folder: Path) -> Iterator[RedisServer]:
    """A redis-server of the test's own that keeps everything in its append-only file and
    nothing else, which the test kills and starts again on the same port."""
    server = RedisServer(folder, aof=True).start()
    try:
        yield server
    finally:
        server.kill()


def finish(
    api: FakeBotApi,
    group: int,
    people: dict[int, str],
    humans: list[Witness],
    lobby_id: int,
    ledger: Ledger,
    storage: Storage,
    kills: int,
    timeout: float = 150,
) -> dict:
    """Play to the end; check the game (`kills`: of the bot or of Redis, each of which may
    have left a board) and the ledger; the record."""
    players: list[Human] = list(humans)
    final = play_to_the_end(api, group, players, timeout=timeout)
    record = check_finished_game(
        api, group, people, final, lobby_id, extra_boards=kills, export_timeout=30
    )
    match = storage.match(group)
    seats = {u: match.seat_of(u) for u in people}
    lost, doubled = ledger.check(record, {u: s for u, s in seats.items() if s is not None})
    assert not lost, lost
    assert not doubled, doubled
    return record


# -- (a) kill -9 during a move --------------------------------------------------------------

KILL_POINTS = ("fetched", "stored", "answered")


def test_killed_during_a_move_it_is_applied_exactly_once(
    api: FakeBotApi, redis_url: str, key_prefix: str, tmp_path: Path
) -> None:
    """SIGKILL right after a press: once the bot fetched it, once it stored the move but had
    not answered yet, once it answered. After the restart the move is in the game once."""
    env = bot_environment(api, redis_url, key_prefix, TURN_SECONDS="3600")
    storage = Storage(redis_url, key_prefix)
    ledger = Ledger()
    with running(env, tmp_path / "bot.log") as bot:
        group, people, lobby_id = open_table(api, "twolane", "hh")
        humans = witnesses(api, people, ledger)
        by_user = {h.user: h for h in humans}
        seen: list[str] = []
        for point in KILL_POINTS:
            found = one_press_move(api, storage, group, people, humans)
            user, message, button = found
            seat = storage.match(group).seat_of(user)
            before = storage.version(group)

            if point == "stored":  # the answer is held back until the bot is dead
                api.delay_answers("answerCallbackQuery", seconds=4, effect="after")
            query = api.press(user, user, message.id, button.callback_data)
            if point == "fetched":
                api.wait_delivered(timeout=20)
            elif point == "stored":
                until(storage.past(group, before), "the move stored", 20)
            else:
                api.callback_answer(query, timeout=20)
            bot.restart()

            # A press the bot had fetched and confirmed but not handled is gone with it
            # (Telegram will not send it again): its person presses again, as one does.
            api.wait_delivered(timeout=20)
            try:
                until(storage.past(group, before), "the move after the restart", 4)
                outcome = "kept"
            except AssertionError:
                again = api.press(user, user, message.id, button.callback_data)
                answer = api.callback_answer(again, timeout=20)
                ledger.note(user, button.callback_data, answer)
                outcome = "pressed again"
            until(storage.past(group, before), "the move applied", 20)
            seen.append(f"{point}: {outcome}")
            answer = api.query_answer(query)
            ledger.note(user, button.callback_data, answer)

            # Applied once: one action more, his, the one he pressed; after it only what
            # the next person could not choose (a draw or pass made for him at once).
            after = storage.version(group)
            actions = storage.actions_since(group, before)
            assert actions, "the press was not applied"
            actor, move = actions[0]
            assert actor == seat
            assert Press(user, button.callback_data, None).names(move), (move, button)
            assert all(text in ("draw", "pass") for _, text in actions[1:]), actions
            # The old keyboard pressed once more changes nothing.
            try:
                late = api.press(user, user, message.id, button.callback_data)
            except FakeBotApiError:
                pass  # its buttons are gone already
            else:
                refused = api.callback_answer(late, timeout=20)
                ledger.note(user, button.callback_data, refused)
                assert refused.show_alert, refused
            assert storage.version(group) == after
            by_user[user].pressed.clear()

        finish(api, group, people, humans, lobby_id, ledger, storage, kills=len(KILL_POINTS))
    assert len(seen) == len(KILL_POINTS), seen


# -- (b) Redis killed and restarted with its append-only file ---------------------------------


def test_redis_killed_and_restarted_with_aof_loses_nothing(
    api: FakeBotApi, key_prefix: str, tmp_path: Path
) -> None:
    """Redis is SIGKILLed the instant a move is confirmed, and again while a group call is
    under way; started again on its append-only file, it has every write, and the game
    goes on from where it was."""
    with aof_redis(tmp_path / "redis") as server:
        env = bot_environment(api, server.url, key_prefix, TURN_SECONDS="3600")
        storage = Storage(server.url, key_prefix)
        ledger = Ledger()
        with running(env, tmp_path / "bot.log") as bot:
            group, people, lobby_id = open_table(api, "twolane", "hhe")
            humans = witnesses(api, people, ledger)

            # 1. The instant a move is confirmed.
            user, message, button = one_press_move(api, storage, group, people, humans)
            before = storage.version(group)
            press_and_confirm(api, ledger, user, message, button)
            server.kill()
            server.start()
            game = storage.game(group)
            assert game.version >= before + 1
            entry = [e for rnd in game.rounds for e in rnd.moves][before]
            assert Press(user, button.callback_data, None).names(entry.text)

            # 2. While the board's edit is under way: the bot cannot note how it went.
            user, message, button = one_press_move(api, storage, group, people, humans)
            calls = len(api.calls(chat_id=group))
            api.delay_answers(chat=group, seconds=2)  # it is made, its answer comes late
            press_and_confirm(api, ledger, user, message, button)
            until(lambda: len(api.calls(chat_id=group)) > calls, "the board's edit", 30)
            logged = len(bot.log())
            server.kill()
            until(
                lambda: "group: storage unavailable" in bot.log()[logged:], "its note failing", 30
            )
            server.start()
            # The board catches up, well within the claim's lease of minutes.
            until(lambda: storage.board_caught_up(group), "the board showing the game", 30)

            finish(api, group, people, humans, lobby_id, ledger, storage, kills=2)


# -- (c) Redis gone for a while ----------------------------------------------------------------


def test_taps_while_redis_is_gone_say_try_again_and_play_resumes_by_itself(
    api: FakeBotApi, key_prefix: str, tmp_path: Path
) -> None:
    """Redis goes twice, for seconds: once when the computer's move is due, once in a
    person's turn. Taps meanwhile are answered «try again» and change nothing; once it is
    back the computer moves with nobody touching anything, and the same press plays."""
    try_again = russian(STORAGE_DOWN)
    with aof_redis(tmp_path / "redis") as server:
        # The computer moves a second after the person: while Redis is gone.
        env = bot_environment(
            api, server.url, key_prefix, TURN_SECONDS="3600", COMPUTER_DELAY_SECONDS="1"
        )
        storage = Storage(server.url, key_prefix)
        ledger = Ledger()
        with running(env, tmp_path / "bot.log") as bot:
            group, people, lobby_id = open_table(api, "twolane", "he")
            humans = witnesses(api, people, ledger)
            # A tile: the turn passes to the computer (a draw would keep it).
            user, message, button = one_press_move(
                api, storage, group, people, humans, kinds=(TilePress,)
            )
            before = storage.version(group)
            # The board may lag the hands on a loaded machine: its button is pressed below.
            until(lambda: board_messages(api, group), "the board posted", 30)
            board = board_messages(api, group)[-1]

            # 1. Redis goes the moment his move is confirmed, with the computer's next.
            press_and_confirm(api, ledger, user, message, button)
            logged = len(bot.log())
            server.kill()
            # «My tiles» on the board is answered «try again».
            tap = api.press_button(user, group, board.id, re.compile("Мои кости"))
            text, alert = api.callback_answer(tap, timeout=30)
            assert (text, alert) == (try_again, True)
            # The computer's move came due while Redis was gone.
            failed = f"chat {group} turn: storage unavailable"
            until(lambda: failed in bot.log()[logged:], "the computer's move failing", 30)
            server.start()
            # His move came back with it ...
            game = storage.game(group)
            entry = [e for rnd in game.rounds for e in rnd.moves][before]
            assert Press(user, button.callback_data, None).names(entry.text)
            # ... and with nobody touching anything, the computer moves and his turn comes.
            until(storage.past(group, before + 1), "the computer's move", 40)
            _one_press_move(api, storage, group, people, timeout=40)

            # 2. Redis goes during his turn: his press is answered «try again».
            user, message, button = one_press_move(api, storage, group, people, humans)
            before = storage.version(group)
            server.kill()
            tap = api.press(user, user, message.id, button.callback_data)
            text, alert = api.callback_answer(tap, timeout=30)
            ledger.note(user, button.callback_data, CallbackAnswer(text, alert))
            assert (text, alert) == (try_again, True)
            server.start()
            assert storage.version(group) == before
            # The same press once Redis is back: it plays.
            tap = api.press(user, user, message.id, button.callback_data)
            answer = api.callback_answer(tap, timeout=30)
            ledger.note(user, button.callback_data, answer)
            assert Press(user, button.callback_data, answer).confirmed, answer
            for human in humans:
                human.pressed.clear()
            finish(api, group, people, humans, lobby_id, ledger, storage, kills=2)


# -- (d) Telegram failing ------------------------------------------------------------------------

# What a flaky Telegram does to the group's calls. The bot gives up on an answer after
# TELEGRAM_TIMEOUT_SECONDS (1 s): a call answered 1.6 s late took effect all the same
# (a send may leave a board the bot does not know of); one held for 10 minutes never
# takes effect while the game lasts (lost on the way). (One performed late *after* a
# newer call of the bot's would show an older board last: Telegram gives a bot no way
# to tell, so that is not asked of it.)
GROUP_FAULTS = (
    Fault(error_code=429, retry_after=1),
    Fault(late=1.6),
    Fault(error_code=500),
    Fault(late=600, effect="after"),
    Fault(error_code=502),
    Fault(late=0.5),
)


def timed_out_sends(log: str, group: int) -> int:
    return log.count(f"sendPhoto to {group}: no answer in time")


def fault_environment(api: FakeBotApi, redis_url: str, prefix: str, **more: str) -> dict[str, str]:
    return bot_environment(
        api, redis_url, prefix, TURN_SECONDS="3600", TELEGRAM_TIMEOUT_SECONDS="1", **more
    )


def test_a_flaky_telegram_and_a_player_who_blocks_the_bot(
    api: FakeBotApi, redis_url: str, key_prefix: str, tmp_path: Path
) -> None:
    """Many of the group's calls fail (429, 5xx) or are answered late or never; one
    player blocks the bot. The game finishes, the computer playing his seat."""
    env = fault_environment(api, redis_url, key_prefix)
    storage = Storage(redis_url, key_prefix)
    ledger = Ledger()
    with running(env, tmp_path / "bot.log") as bot:
        group, people, lobby_id = open_table(api, "twolane", "hhe")
        api.inject_random_faults(chat=group, rate=0.6, faults=GROUP_FAULTS, seed=11, in_turn=True)
        humans = witnesses(api, people, ledger)
        for human in humans:
            human.think = 0.3  # a board edit for most moves: more calls to fail
        stays, leaves = humans
        # He blocks the bot right after a tile of his is played, when it is someone
        # else's turn: the bot's next update of his hand is refused (403).
        while not any(
            p.confirmed and p.user == leaves.user and isinstance(p.press, TilePress | EndPress)
            for p in ledger.presses
        ):
            until(lambda: leaves.act() or stays.act(), "a move", 60)
        api.block_bot(leaves.user)
        final = play_to_the_end(api, group, [stays], timeout=150)
        api.clear_random_faults()
        extra = timed_out_sends(bot.log(), group)
        record = check_finished_game(
            api, group, people, final, lobby_id, extra_boards=extra, export_timeout=30
        )
        match = storage.match(group)
        seat = match.seat_of(leaves.user)
        assert seat is not None and match.seats[seat].computer
        stays_seat = match.seat_of(stays.user)
        assert stays_seat is not None
        lost, doubled = ledger.check(record, {stays.user: stays_seat})
        assert not lost, lost
        assert not doubled, doubled
        # Only the seat of the one who blocked the bot changed hands.
        assert not match.seats[stays_seat].computer
        assert Note(code="blocked_bot", name=people[leaves.user]) in match.notes
        given = api.random_faults_given()
    errors = sum(n for kind, n in given.items() if kind.isdigit())
    assert errors >= 2 and sum(given.values()) - errors >= 2, given


# -- (e) the logs of a whole game with failures ------------------------------------------------


def test_the_logs_of_a_game_with_failures_show_no_secret(
    api: FakeBotApi, redis_url: str, key_prefix: str, tmp_path: Path
) -> None:
    """Webhook mode with a secret, at DEBUG: start-up calls failing, forged webhook posts,
    a flaky group. Neither the token nor the secret is ever written."""
    hook = Webhook.new(uuid.uuid4().hex + "_Sx-" + uuid.uuid4().hex[:8])
    secret = hook.secret
    env = fault_environment(
        api, redis_url, key_prefix, LOG_LEVEL="DEBUG", STARTUP_RETRIES="3", **hook.settings()
    )
    api.inject_error("getMe", error_code=502)
    api.inject_error("setWebhook", error_code=502)
    out, err = tmp_path / "bot.out", tmp_path / "bot.log"
    storage = Storage(redis_url, key_prefix)
    ledger = Ledger()
    bot = BotProcess(env, err, out_path=out).start()
    try:
        bot.wait_ready(timeout=40)
        until(lambda: api.calls(method="setWebhook", ok=True), "the webhook set", 30)
        group, people, lobby_id = open_table(api, "twolane", "hhe")
        api.inject_random_faults(chat=group, rate=0.5, faults=GROUP_FAULTS, seed=5, in_turn=True)
        humans = witnesses(api, people, ledger)
        for human in humans:
            human.think = 0.2
        for forged in ("", "nope", secret[:-1]):
            status = _post(f"{hook.base}/telegram", forged)
            assert status == 403
        final = play_to_the_end(api, group, list[Human](humans), timeout=150)
        api.clear_random_faults()
        extra = timed_out_sends(bot.log(), group)
        record = check_finished_game(
            api, group, people, final, lobby_id, extra_boards=extra, export_timeout=30
        )
        match = storage.match(group)
        seats = {u: s for u in people if (s := match.seat_of(u)) is not None}
        lost, doubled = ledger.check(record, seats)
        assert not lost and not doubled, (lost, doubled)
        assert api.webhook_deliveries()
        assert sum(api.random_faults_given().values()) >= 2, api.random_faults_given()
    finally:
        bot.stop()
    written = {"stderr (the log)": err.read_text(errors="replace")}
    written["stdout"] = out.read_text(errors="replace")
    token = env["TELEGRAM_BOT_TOKEN"]
    assert "start-up: getMe failed" in written["stderr (the log)"]  # failures were logged
    for name, text in written.items():
        for value in (token, token.partition(":")[2], token.replace(":", "%3A"), secret):
            assert value not in text, f"a secret is in the bot's {name}"
        assert "Traceback" not in text, text[-4000:]


def _post(url: str, secret: str) -> int:
    body = json.dumps({"update_id": 1, "message": {"message_id": 1, "date": 0}}).encode()
    headers = {"Content-Type": "application/json"}
    if secret:
        headers["X-Telegram-Bot-Api-Secret-Token"] = secret
    request = urllib.request.Request(url, data=body, headers=headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return error.code
