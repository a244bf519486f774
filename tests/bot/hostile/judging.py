"""What a press or a race may change in a stored game, and the problems found."""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from bot.i18n import translator
from bot.storage.models import Match
from bot.storage.store import Store
from bot.telegram import callbacks as cb
from bot.telegram.texts import REFUSALS
from engine import ALL_TILES, Game, pack, unpack

MOVES = cb.TilePress | cb.EndPress | cb.DrawPress | cb.PassPress | cb.LayDoublesPress


def in_both_languages(texts: Iterable[str]) -> tuple[str, ...]:
    """Each text in English and in Russian (message ids are the English texts)."""
    ru = translator("ru")
    return tuple(itertools.chain.from_iterable((t, ru(t)) for t in texts))


# The answer to a press that showed a choice (an end, doubles, back to the tiles).
CHOICES = (*in_both_languages(["Which end?", "Pick 2 to 4 doubles and their ends."]), None, "")
CRASHES = in_both_languages([REFUSALS["internal_error"]])
MY_TILES = in_both_languages(["Your tiles are in our private chat."])


@dataclass(frozen=True)
class Problem:
    kind: str  # lost, doubled, illegal, leaked, crashed, unanswered
    what: str

    def __str__(self) -> str:
        return f"{self.kind}: {self.what}"


@dataclass(frozen=True)
class Stored:
    """A chat's stored match as it was at one moment (raw bytes, and parsed)."""

    chat: int
    raw: bytes | None
    match: Match | None
    game: Game | None

    @property
    def version(self) -> int:
        return -1 if self.game is None else self.game.version


async def read(store: Store, chat: int) -> Stored:
    stored = await store.games.read_match(chat, None)
    match = stored.value
    game = None if match is None or match.engine is None else unpack(match.engine)
    return Stored(chat, stored.raw, match, game)


def engine_problems(game: Game) -> list[Problem]:
    """What holds for every engine state the service stores."""
    problems = []
    rnd = game.round
    held = [t for hand in rnd.hands for t in hand] + rnd.boneyard + rnd.table.tiles()
    if sorted(held) != sorted(ALL_TILES):
        problems.append(Problem("illegal", f"tiles are not the 28, each once: {held}"))
    if any(not done.over for done in game.rounds[:-1]):
        problems.append(Problem("illegal", "an earlier round is not over"))
    if len(game.totals) != len(game.players):
        problems.append(Problem("illegal", f"totals {game.totals} for {game.players}"))
    if unpack(pack(game)) != game:
        problems.append(Problem("illegal", "the game does not read back as stored"))
    if game.over != (game.turn is None) or (not game.over and not game.legal_moves()):
        problems.append(Problem("illegal", f"turn {game.turn} with over={game.over}"))
    return problems


def entries(game: Game) -> list[tuple[int, str]]:
    """The game's record: every action of every round, (seat, text), in order."""
    return [(e.seat, e.text) for rnd in game.rounds for e in rnd.moves]


def replayed(before: Game, after: Game) -> tuple[Game | None, list[Problem]]:
    """Whether `after` is `before` with moves that were legal in turn: each new action of
    the record, made by the seat then to act. Returns the replayed game."""
    old, new = entries(before), entries(after)
    if new[: len(old)] != old:
        return None, [Problem("illegal", "the record was rewritten, not added to")]
    game = before.copy()
    for seat, text in new[len(old) :]:
        if game.turn != seat:
            return None, [Problem("illegal", f"{text!r} by seat {seat}, not {game.turn}")]
        try:
            game.push(game.parse_move(text), seat=seat)
        except Exception as exc:  # any engine refusal: the move was not legal
            return None, [Problem("illegal", f"{text!r} by seat {seat}: {exc}")]
    if pack(game) != pack(after):
        return None, [Problem("illegal", "the stored game is not what its new moves make")]
    return game, []


def forced_left(match: Match, game: Game) -> bool:
    """Whether the person to act has only a draw or a pass (the bot makes those for him)."""
    if game.over or game.turn is None or not match.seats[game.turn].human:
        return False
    legal = game.legal_moves()
    return len(legal) == 1 and str(legal[0]) in ("draw", "pass")


def except_fields(match: Match, *fields: str, seat_fields: Sequence[str] = ()) -> dict[str, Any]:
    dumped = match.model_dump()
    for name in fields:
        dumped.pop(name)
    for seat in dumped["seats"]:
        for name in seat_fields:
            seat.pop(name)
    return dumped


def judge(press_user: int, data: str, before: Stored, after: Stored) -> list[Problem]:
    """What one press did to one chat's stored match: nothing, one legal move of the seat to
    act by its own player, or (a "My tiles" press) one more hand request of his own seat."""
    if before.raw == after.raw:
        return []
    where = f"chat {before.chat} after {data!r} by {press_user}"
    b, a = before.match, after.match
    if b is None or a is None or a.id != b.id:
        return [Problem("illegal", f"{where}: the match was replaced or removed")]
    if a.rev <= b.rev:
        return [Problem("illegal", f"{where}: rev {b.rev} -> {a.rev}")]
    button = cb.decode(data)
    seat = b.seat_of(press_user)
    if a.engine == b.engine:
        # Only "My tiles" may change a running game without a move: one more request.
        if not isinstance(button, cb.HandRequestPress) or seat is None:
            return [Problem("illegal", f"{where}: changed without a move")]
        expected = b.model_copy(deep=True)
        expected.seats[seat].hand_requests += 1
        if except_fields(expected, "rev") != except_fields(a, "rev"):
            return [Problem("illegal", f"{where}: more changed than one hand request")]
        return []
    if before.game is None or after.game is None:
        return [Problem("illegal", f"{where}: a game appeared or went")]
    turn = before.game.turn
    if turn is None or b.seats[turn].user_id != press_user:
        return [Problem("illegal", f"{where}: moved, but seat {turn} is not the presser's")]
    if not isinstance(button, MOVES) or button.hand.game_id != b.id:
        return [Problem("illegal", f"{where}: moved by data that is no move of this game")]
    # One action for the press; after it only what people with no choice had to do (a
    # draw or a pass, made for them), and nothing of the kind left undone.
    added = entries(after.game)[len(entries(before.game)) :]
    forced = added[1:]
    if not added or any(t not in ("draw", "pass") or not a.seats[s].human for s, t in forced):
        count = after.game.version - before.game.version
        return [Problem("doubled", f"{where}: {count} actions for one press: {added}")]
    _, problems = replayed(before.game, after.game)
    if problems:
        return problems
    if forced_left(a, after.game):
        return [Problem("illegal", f"{where}: a draw or a pass left for a person to press")]
    # Besides the game: the deadline, the seat's missed turns, and the end of the game.
    changed = ("rev", "engine", "deadline", "status", "notes", "notes_dropped")
    if except_fields(b, *changed, seat_fields=["missed"]) != except_fields(
        a, *changed, seat_fields=["missed"]
    ):
        return [Problem("illegal", f"{where}: more changed than the move")]
    if a.status != b.status and not (a.status == "over" and after.game.over):
        return [Problem("illegal", f"{where}: status {b.status} -> {a.status}")]
    return []


class World(Protocol):
    """A place hostile presses are made in (`FuzzWorld`, `RaceWorld`)."""

    async def finish(self) -> list[Problem]: ...

    def close(self) -> None: ...


W = TypeVar("W", bound=World)


async def judged(world: W) -> AsyncIterator[W]:
    """`world` for a test; after it, what the bot sent after the last press is judged too,
    once all is quiet."""
    try:
        yield world
        problems = await world.finish()
        assert not problems, [str(p) for p in problems]
    finally:
        world.close()
