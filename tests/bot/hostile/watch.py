"""The watch over every message the bot sends or edits: no hand shown but to its owner."""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field

from bot.telegram import callbacks as cb
from engine import Game, Tile
from tests.bot.hostile.judging import Problem, Stored, in_both_languages
from tests.bot.hostile.pressing import FORGED
from tests.fakebotapi import FakeBotApi
from tests.fakebotapi.views import BotMessageEvent, MessageView
from tests.support.buttons import HAND_PREFIXES

# What a hand caption says and a board's never does (up to its first placeholder).
HAND_CAPTIONS = (
    "Your move! Ends: {ends}",
    "Your move! Open the round with any tile.",
    "Your tiles. A new message comes when it is your move.",
)

HAND_MARKERS = tuple(text.split("{")[0] for text in in_both_languages(HAND_CAPTIONS))


def held(game: Game, seat: int, version: int) -> set[Tile]:
    """The tiles `seat` had in the round the game was in at `version`: dealt, drawn, or
    taken from the boneyard on laying his last one."""
    start, chosen = 0, game.rounds[0]
    for rnd in game.rounds:
        if start <= version:
            chosen = rnd
        start += len(rnd.moves)
    found = set(chosen.dealt[seat])
    sizes = [len(hand) for hand in chosen.dealt]
    boneyard = iter(chosen.dealt_boneyard)
    left = len(chosen.dealt_boneyard)

    def take(mover: int) -> None:
        nonlocal left
        tile = next(boneyard)
        left -= 1
        sizes[mover] += 1
        if mover == seat:
            found.add(tile)

    for entry in chosen.moves:
        if entry.text == "draw":
            take(entry.seat)
        elif entry.text != "pass":
            sizes[entry.seat] -= entry.text.count("+") + 1
            if sizes[entry.seat] == 0 and left and game.rules.refill_empty_hand:
                take(entry.seat)
    return found


def tiles_of(press: cb.HandPress) -> list[Tile]:
    if isinstance(press, cb.TilePress | cb.EndPress):
        return [press.tile]
    if isinstance(press, cb.DoublesPress | cb.LayDoublesPress):
        return [t for t, _ in press.picked]
    return []


@dataclass
class Watch:
    """Every message the bot sends or edits, and every unhandled error it logs, checked
    against what is stored: the events are looked at once the games they show are read."""

    api: FakeBotApi
    seen: list[MessageView] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    looked_at: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def start(self) -> Watch:
        self._stop_messages = self.api.on_bot_message(self._message)
        self._handler = _ErrorsTo(self.errors)
        logging.getLogger("bot").addHandler(self._handler)
        logging.getLogger("telegram").addHandler(self._handler)
        return self

    def stop(self) -> None:
        self._stop_messages()
        logging.getLogger("bot").removeHandler(self._handler)
        logging.getLogger("telegram").removeHandler(self._handler)

    def _message(self, event: BotMessageEvent) -> None:
        if event.view is not None:
            with self._lock:
                self.seen.append(event.view)

    def crashes(self) -> list[Problem]:
        found = [Problem("crashed", error) for error in self.errors]
        self.errors.clear()
        return found

    def leaks(self, games: Sequence[Stored], final: bool = False) -> list[Problem]:
        """Hand buttons or a hand caption anywhere but the owner's own private chat, or
        tiles on his buttons that were not his. A keyboard of a version not read yet waits
        for the next look (`final`: it counts now)."""
        known = {s.match.id: s for s in games if s.match is not None}
        with self._lock:
            views, self.seen = self.seen, []
        problems, later = [], []
        for view in views:
            verdict = _leak(view, known)
            if verdict is None:
                later.append(view)
            elif verdict:
                problems.append(Problem("leaked", verdict))
        if final:
            problems += [Problem("leaked", f"unknown game on {_describe(v)}") for v in later]
        else:
            with self._lock:
                self.seen[:0] = later
        self.looked_at += len(views) - len(later)
        return problems


class _ErrorsTo(logging.Handler):
    def __init__(self, into: list[str]) -> None:
        super().__init__(logging.ERROR)
        self.into = into

    def emit(self, record: logging.LogRecord) -> None:
        self.into.append(f"{record.name}: {record.getMessage()} {record.exc_info or ''}")


def _describe(view: MessageView) -> str:
    return f"message {view.message_id} in chat {view.chat_id}: {view.describe_buttons()}"


def _leak(view: MessageView, known: dict[str, Stored]) -> str | None:
    """Why this message shows a hand to someone it is not his ("" if it does not; None if
    a game it names is newer than what was read)."""
    caption = view.caption or ""
    group = view.chat_id < 0
    if group and any(marker in caption for marker in HAND_MARKERS):
        return f"a hand caption in a group: {_describe(view)} {caption!r}"
    for button in view.buttons:
        data = button.callback_data
        if not data or not data.startswith(HAND_PREFIXES) or button.text == FORGED:
            continue
        if group:
            return f"hand buttons in a group: {_describe(view)}"
        decoded = cb.decode(data)
        if not isinstance(decoded, cb.HandPress):
            return f"hand buttons of no known game: {_describe(view)}"
        hand = decoded.hand
        stored = known.get(hand.game_id)
        if stored is None or stored.match is None or stored.game is None:
            return f"hand buttons of no known game: {_describe(view)}"
        if hand.version > stored.game.version:
            return None
        seat = stored.match.seat_of(view.chat_id)
        if seat is None or hand.chat_id != stored.chat:
            return f"hand buttons of a game he does not play: {_describe(view)}"
        if not set(tiles_of(decoded)) <= held(stored.game, seat, hand.version):
            return f"tiles that are not his: {_describe(view)}"
    return ""
