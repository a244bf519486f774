"""Running the real `domino-bot` process against the fake Bot API, and playing as people do.

`BotProcess` starts the installed bot as a subprocess with its settings in the
environment; `Human` plays a seat purely by pressing the buttons of the hand
messages the bot sent to that user's private chat.
"""

from __future__ import annotations

import json
import os
import random
import re
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine import replay, summary
from tests.fakebotapi import FakeBotApi, FakeBotApiError
from tests.fakebotapi.views import Button, MessageView

HAND_KINDS = ("P:", "E:", "D:", "X:", "M:", "MC:", "B:")
ROUND = re.compile(r"(?:Кон|Round) (\d+)")


def bot_environment(
    api: FakeBotApi, redis_url: str, prefix: str, **overrides: str
) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "REDIS_"))}
    env.update(
        TELEGRAM_BOT_TOKEN=api.token,
        TELEGRAM_API_URL=api.url,
        REDIS_URL=redis_url,
        KEY_PREFIX=prefix,
        COMPUTER_DELAY_SECONDS="0.05",
        GROUP_EDIT_INTERVAL_SECONDS="0.25",
        GROUP_MESSAGES_PER_MINUTE="120",
        SWEEP_INTERVAL_SECONDS="0.1",
        LOG_LEVEL="INFO",
    )
    env.update(overrides)
    return env


@dataclass
class BotProcess:
    """The real bot, as `python -m bot` (what `domino-bot` runs)."""

    env: dict[str, str]
    log_path: Path
    process: subprocess.Popen[bytes] | None = None
    log_start: int = 0  # where this run's log begins

    def start(self) -> BotProcess:
        self.log_start = self.log_path.stat().st_size if self.log_path.exists() else 0
        log = self.log_path.open("ab")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "bot"],
            env=self.env,
            cwd=self.log_path.parent,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        return self

    def wait_ready(self, api: FakeBotApi, timeout: float = 20) -> None:
        """Ready once it says so (updates sent before then wait in the server's queue)."""
        deadline = time.monotonic() + timeout
        while "is ready" not in self.log()[self.log_start :]:
            if time.monotonic() > deadline or (self.process and self.process.poll() is not None):
                raise AssertionError("the bot did not start:\n" + self.log()[-3000:])
            time.sleep(0.05)

    def stop(self, kill: bool = False) -> None:
        if self.process is None:
            return
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL if kill else signal.SIGINT)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        self.process = None

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")


def hand_buttons(message: MessageView) -> list[Button]:
    return [
        b for b in message.buttons if b.callback_data and b.callback_data.startswith(HAND_KINDS)
    ]


def round_of(message: MessageView) -> int:
    found = ROUND.search(message.caption or message.text or "")
    return int(found.group(1)) if found else 1


def tiles_on(buttons: list[Button]) -> set[str]:
    """Tiles named by tile buttons (callback data `P:...:<hi><lo>`)."""
    return {b.callback_data.rsplit(":", 1)[1] for b in buttons if b.callback_data.startswith("P:")}


@dataclass
class Human:
    """A person at the table: reads his private chat, presses buttons."""

    api: FakeBotApi
    user: int
    rng: random.Random
    pressed: set[tuple[int, str]] = field(default_factory=set)
    moves: int = 0
    refusals: list[str] = field(default_factory=list)

    def hand(self) -> MessageView | None:
        """His newest message with hand buttons, if any."""
        for message in reversed(self.api.messages(self.user, from_bot=True)):
            if hand_buttons(message):
                return message
        return None

    def act(self) -> bool:
        """Make one move if it is his turn (by the buttons he has); whether he pressed."""
        message = self.hand()
        if message is None:
            return False
        buttons = hand_buttons(message)
        choice = self._choose(buttons)
        if choice is None or (message.id, choice.callback_data) in self.pressed:
            return False
        self.pressed.add((message.id, choice.callback_data))
        answer = self._press(message, choice)
        if answer is None:
            return True
        text, alert = answer
        if alert:
            self.refusals.append(text)
            return True
        if choice.callback_data.startswith(("P:", "M:")) and not text.startswith(
            ("Сыграно", "Played")
        ):
            before = self.moves
            self._finish_choice(message)
            if self.moves == before:
                # The choice ended without a move (he went back, or the keyboard
                # changed): the hand's buttons are live again, as for a person.
                self.pressed = {p for p in self.pressed if p[0] != message.id}
            return True
        self.moves += 1
        return True

    def _choose(self, buttons: list[Button]) -> Button | None:
        doubles = [b for b in buttons if b.callback_data.startswith("M:")]
        if doubles and self.rng.random() < 0.5:
            return doubles[0]
        playable = [
            b for b in buttons if b.callback_data.startswith("P:") and b.text.startswith("🟢")
        ]
        if playable:
            return self.rng.choice(playable)
        others = [b for b in buttons if b.callback_data.startswith(("D:", "X:"))]
        return others[0] if others else None

    def _press(self, message: MessageView, button: Button) -> tuple[str, bool] | None:
        try:
            query = self.api.press(self.user, self.user, message.id, button.callback_data)
            answer = self.api.callback_answer(query, timeout=15)
        except FakeBotApiError:  # the keyboard changed under his finger
            return None
        except TimeoutError:  # the press died with a killed bot: like a person, press again
            self.pressed.discard((message.id, button.callback_data))
            return None
        return answer.text or "", bool(answer.show_alert)

    def _finish_choice(self, message: MessageView) -> None:
        """After a tile with several ends, or "several doubles": pick from the new keyboard."""
        for _ in range(6):
            current = self.api.wait_for(
                lambda a: (
                    (m := a.message(self.user, message.id))
                    and any(
                        b.callback_data.startswith(("E:", "M:", "MC:")) for b in hand_buttons(m)
                    )
                    and m
                ),
                10,
                "the choice keyboard",
            )
            buttons = hand_buttons(current)
            confirm = [b for b in buttons if b.callback_data.startswith("MC:")]
            ends = [b for b in buttons if b.callback_data.startswith("E:")]
            picks = [
                b
                for b in buttons
                if b.callback_data.startswith("M:") and not b.text.startswith("✅")
            ]
            if confirm and (not picks or self.rng.random() < 0.6):
                choice = confirm[0]
            elif ends:
                choice = self.rng.choice(ends)
            elif picks:
                choice = self.rng.choice(picks)
            else:
                back = [b for b in buttons if b.callback_data.startswith("B:")]
                if back:
                    self._press(current, back[0])
                return
            answer = self._press(current, choice)
            if answer is None:
                return
            if choice.callback_data.startswith(("E:", "MC:")):
                if not answer[1]:
                    self.moves += 1
                return


def final_message(api: FakeBotApi, group: int) -> MessageView | None:
    for message in api.messages(group, from_bot=True):
        if message.photo is not None and any(
            b.callback_data and b.callback_data.startswith("RM:") for b in message.buttons
        ):
            return message
    return None


def play_to_the_end(
    api: FakeBotApi, group: int, humans: list[Human], timeout: float = 240
) -> MessageView:
    """Everybody plays his turns until the group gets the final table."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        final = final_message(api, group)
        if final is not None:
            return final
        acted = False
        for human in humans:
            acted = human.act() or acted
        if not acted:
            time.sleep(0.05)
    raise AssertionError("the game did not end in time\n" + api.dump(40))


def board_messages(api: FakeBotApi, group: int) -> list[MessageView]:
    """The group's board pictures (photos with the "My tiles" button, or finished ones)."""
    final = final_message(api, group)
    return [
        m
        for m in api.messages(group, from_bot=True)
        if m.photo is not None and (final is None or m.id != final.id)
    ]


def final_totals(text: str) -> dict[str, int]:
    """`{name: number}` from lines like «1. Андрей — Очки: 27»."""
    found: dict[str, int] = {}
    for line in text.splitlines():
        match = re.match(r"^\d+\. (.+?) — [^:]+: (-?\d+)", line)
        if match:
            found[match.group(1)] = int(match.group(2))
    return found


NAMES = ["Андрей", "Ирина", "Ольга", "Вадим"]
JOIN = re.compile("Присоединиться")


def open_table(api: FakeBotApi, variant: str, seats: str) -> tuple[int, dict[int, str], int]:
    """A group, its people (user id -> name), and a started game with the seats asked for."""
    people = {
        api.add_user(NAMES[i], language_code="ru"): NAMES[i]
        for i, kind in enumerate(seats)
        if kind == "h"
    }
    users = list(people)
    group = api.add_group("Домино", owner=users[0], members=users[1:])
    sent = api.send_text(users[0], group, f"/newgame {variant}")
    lobby = api.wait_message(group, after=sent, where=lambda m: bool(m.buttons))
    for kind in seats:
        label = {"e": "Лёгкий", "s": "Сильный"}.get(kind)
        if label is None:
            continue
        edits = api.message(group, lobby.id).edit_count
        query = api.press_button(users[0], group, lobby.id, re.compile(label))
        assert not api.callback_answer(query).show_alert
        api.wait_edit(group, lobby.id, after_edits=edits)
    for user in users:
        edits = api.message(group, lobby.id).edit_count
        api.follow_url_button(user, group, lobby.id, JOIN)
        api.wait_edit(group, lobby.id, after_edits=edits)
    query = api.press_button(users[0], group, lobby.id, re.compile("Начать"))
    text, alert = api.callback_answer(query)
    assert not alert, text
    return group, people, lobby.id


def export_record(api: FakeBotApi, user: int, group: int, timeout: float = 10.0) -> dict:
    sent = api.send_text(user, group, "/export")
    document = api.wait_message(
        group, after=sent, where=lambda m: m.document is not None, timeout=timeout
    )
    return json.loads(document.document)


def check_finished_game(
    api: FakeBotApi,
    group: int,
    people: dict[int, str],
    final: MessageView,
    lobby_id: int,
    interrupted: bool = False,
) -> dict[str, Any]:
    """What every finished game must show; returns its exported record.

    `interrupted`: the bot was killed mid-game. A board being posted at that moment may
    have reached Telegram without the bot noting it; it is posted again after the restart,
    so one round may have a second board (the first one left as it was).
    """
    record = export_record(api, next(iter(people)), group)
    replayed = summary(replay(record))
    assert replayed["finished"]
    rounds = len(record["rounds"])

    # One board picture per round, edited in place; then the final table. Each board
    # ends showing how its round ended. (How often it was edited depends on the pace:
    # a scripted player can finish a round before the group's next call is allowed,
    # and the board then goes out showing the round's end.)
    boards = board_messages(api, group)
    described = [(b.id, b.edit_count, b.caption) for b in boards]
    assert rounds <= len(boards) <= rounds + interrupted, described
    last_of_round = {round_of(board): board for board in boards}
    assert sorted(last_of_round) == list(range(1, rounds + 1)), described
    for number, board in last_of_round.items():
        assert f"Кон {number} окончен" in board.caption or "Игра окончена" in board.caption, (
            number,
            board.caption,
        )
    assert lobby_id not in {m.id for m in api.messages(group)}  # the lobby made way for the game

    # The final table shows the scores an engine replay of the record gives.
    shown = final_totals(final.caption)
    players = record["players"]
    assert shown == dict(zip(players, replayed["totals"], strict=True))

    # Each hand reached only its owner: every tile on a player's buttons was dealt to
    # him in that round or lay in the boneyard (which he drew from).
    for user, name in people.items():
        seat = players.index(name)
        for message in api.messages(user, from_bot=True):
            tiles = tiles_on(hand_buttons(message))
            if not tiles:
                continue
            deal = record["rounds"][round_of(message) - 1]
            own = {_code(t) for t in deal["hands"][seat] + deal["boneyard"]}
            assert tiles <= own, (user, message.caption)
    # Nothing of a hand ever went to the group.
    assert not any(hand_buttons(m) for m in api.messages(group))

    return record


def _code(tile: str) -> str:
    a, b = (int(x) for x in tile.split(":"))
    return f"{max(a, b)}{min(a, b)}"


NEWCOMER_RATING = 1000  # what a newcomer's rating shows (docs/rules.md, "Ratings")
RATING_CHANGE = re.compile(r"^(\d+)\. (.+?) — .* · рейтинг ([+−]\d+|0)$")


def final_rating_changes(caption: str) -> dict[str, tuple[int, int]]:
    """`{name: (place, change)}` from lines like «1. Андрей — Очки: 27 · рейтинг +136»."""
    found: dict[str, tuple[int, int]] = {}
    for line in caption.splitlines():
        match = RATING_CHANGE.match(line)
        if match:
            change = int(match.group(3).replace("−", "-"))
            found[match.group(2)] = (int(match.group(1)), change)
    return found


def check_ratings_moved(
    api: FakeBotApi, group: int, people: dict[int, str], final: MessageView
) -> None:
    """A finished match of newcomers only, all people: the final table shows each one's
    rating change, up for the winner and down for the loser (alike for a shared place),
    and /top in the group lists them, best first, with those ratings."""
    changes = final_rating_changes(final.caption or "")
    assert set(changes) == set(people.values()), final.caption
    by_place = sorted(changes.items(), key=lambda item: (item[1][0], item[0]))
    places = [place for _, (place, _) in by_place]
    rows = []
    if len(set(places)) == 1:  # a shared place moves equal newcomers alike
        assert len({change for _, (_, change) in by_place}) == 1, final.caption
    else:
        assert places == sorted(set(places)), final.caption  # no shared place among them
        assert by_place[0][1][1] > 0 > by_place[-1][1][1], final.caption
    for row, (name, (place, change)) in enumerate(by_place, start=1):
        wins = "1 победа" if place == 1 else "0 побед"
        rows.append(f"{row}. {name} — {NEWCOMER_RATING + change} · 1 игра, {wins}")
    sent = api.send_text(next(iter(people)), group, "/top")
    top = api.wait_message(group, after=sent, contains="Лучшие игроки чата")
    assert [r for r in top.content.splitlines() if re.match(r"^\d+\. ", r)] == rows, top.content
