"""The rules of a running game: moves, deadlines, seats the computer takes, /leave, /stop.

Like the lobby's (bot.game.lobby), each rule is a function of the match as stored,
its engine game, what was asked and the moment; it returns a `Change`, `UNCHANGED`
or a `Refusal` and never changes what it is given. The computer's thinking is not
here: `due` says what a passed deadline asks for, the caller finds the moves, and
`play_due` plays them if that turn is still due.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from bot.game import lobby
from bot.game.clock import Moment, turn_deadline
from bot.game.options import has_clock
from bot.game.outcomes import UNCHANGED, Change, Outcome, Refusal, Unchanged
from bot.game.people import Person
from bot.settings import Settings
from bot.storage.models import Level, Match, Note
from engine import DominoError, Draw, Game, Move, MoveEntry, Pass

MISSES_BEFORE_COMPUTER = 3
# Who plays a turn whose deadline passed: the computer in its own seat, the easy computer
# for a person whose time ran out; "silence": a game without a clock ends instead.
DueBy = Literal["computer", "timeout", "silence"]
# A person's move made for him when his time ran out is the easy computer's, found fast.
TIMEOUT_THINKING = 0.05
COMPUTER_THINKING = 0.4


@dataclass(frozen=True)
class HandMove:
    """A person's move from his hand, as the hand rule allowed it (bot.game.hand_rule):
    the engine move, made for his seat."""

    seat: int
    move: Move


def play(
    match: Match, game: Game, ask: HandMove, now: Moment, settings: Settings
) -> Change | Refusal:
    """A person's move the hand rule allowed, made (the engine's own check is the last
    guard: its refusal otherwise); his count of missed turns starts again."""
    played = game.copy()
    try:
        entry = played.push(ask.move, seat=ask.seat)
    except DominoError as exc:
        return Refusal(exc.code, detail=exc.message)
    moved = match.model_copy(deep=True)
    moved.seats[ask.seat].missed = 0
    forced = _after_moves(moved, played, now, settings)
    return Change(moved, played, (entry, *forced))


# -- deadlines ---------------------------------------------------------------------------


@dataclass(frozen=True)
class DueTurn:
    """What a passed deadline asks for, at game `version`: a computer's turn, a person's
    turn played for him (his time ran out), or, in a game without a clock, its end."""

    game_id: str
    version: int
    seat: int
    by: DueBy
    level: Level  # the computer that makes the moves

    @property
    def thinking(self) -> float:
        """Seconds the computer may think for this turn."""
        return TIMEOUT_THINKING if self.by == "timeout" else COMPUTER_THINKING


def due(match: Match, game: Game | None, now: Moment) -> DueTurn | None:
    """What the deadline of a running game asks for, if it has passed."""
    if match.status != "playing" or match.deadline is None or match.deadline > now.at:
        return None
    assert game is not None
    seat_index = game.turn
    if seat_index is None:
        return None
    seat = match.seats[seat_index]
    if not seat.human:
        by: DueBy = "computer"
    else:
        by = "timeout" if has_clock(match.turn_seconds) else "silence"
    level: Level = seat.level if by == "computer" else "easy"
    return DueTurn(match.id, game.version, seat_index, by, level)


def play_due(
    match: Match | None,
    game: Game | None,
    turn: DueTurn,
    moves: Sequence[Move],
    now: Moment,
    settings: Settings,
) -> Change | Unchanged:
    """`moves` played for the seat whose deadline passed (they were found for `turn`):
    UNCHANGED if that turn is no longer due (someone played it meanwhile)."""
    if match is None or game is None or not _still_due(match, game, turn, now):
        return UNCHANGED
    played = game.copy()
    entries = tuple(played.push(move, seat=turn.seat) for move in moves)
    moved = match.model_copy(deep=True)
    if turn.by == "timeout":
        seat = moved.seats[turn.seat]
        seat.missed += 1
        moved.add_note(Note(code="timed_out", name=seat.name))
        if seat.missed >= MISSES_BEFORE_COMPUTER:
            seat.computer = True
            moved.add_note(Note(code="missed_turns", name=seat.name))
    forced = _after_moves(moved, played, now, settings)
    return Change(moved, played, (*entries, *forced))


def end_for_silence(
    match: Match | None, game: Game | None, turn: DueTurn, now: Moment
) -> Change | Unchanged:
    """A game without a clock that saw no move for `no_clock_end_hours` ends."""
    if match is None or game is None or not _still_due(match, game, turn, now):
        return UNCHANGED
    ended = match.model_copy(deep=True)
    ended.status, ended.ended, ended.deadline = "cancelled", "silence", None
    return Change(ended)


# -- seats changing hands, and the end ----------------------------------------------------


def leave(
    match: Match | None, game: Game | None, person: Person, now: Moment, settings: Settings
) -> Change | Refusal:
    """/leave: out of the lobby, or the computer plays his seat of a running game to its
    end (he forfeits it)."""
    if match is None or not match.active:
        return Refusal("no_game")
    seat_index = match.seat_of(person.user_id)
    if seat_index is None:
        return Refusal("not_in_game")
    if match.status == "lobby":
        return lobby.leave(match, person, now, settings)
    seat = match.seats[seat_index]
    if seat.left:
        return Refusal("already_left")
    if seat.computer:
        return Refusal("seat_is_computer")
    assert game is not None
    left = match.model_copy(deep=True)
    gone = left.seats[seat_index]
    gone.computer = gone.left = True
    left.add_note(Note(code="left", name=gone.name))
    _hand_over(left, game, seat_index, now, settings)
    return Change(left)


def seat_blocked(
    match: Match | None,
    game: Game | None,
    game_id: str,
    seat_index: int,
    now: Moment,
    settings: Settings,
) -> Change | Unchanged:
    """A player's private chat refuses the bot: the computer plays his seat."""
    if match is None or match.id != game_id or not match.active:
        return UNCHANGED
    seat = match.seats[seat_index]
    if seat.computer or seat.user_id is None:
        return UNCHANGED
    blocked = match.model_copy(deep=True)
    taken = blocked.seats[seat_index]
    taken.computer = True
    blocked.add_note(Note(code="blocked_bot", name=taken.name))
    if game is not None:
        _hand_over(blocked, game, seat_index, now, settings)
    return Change(blocked)


def may_stop(match: Match | None, person: Person, is_admin: bool) -> Refusal | None:
    """/stop asks first: the refusal, if this person may not end the game here."""
    if match is None or not match.active:
        return Refusal("no_game")
    if person.user_id != match.creator_id and not is_admin:
        return Refusal("creator_or_admin_only")
    return None


def stop(match: Match | None, game_id: str, person: Person, is_admin: bool) -> Outcome:
    """The /stop confirmation: the game ends for everyone, as cancelled."""
    if match is None or match.id != game_id or not match.active:
        return Refusal("game_gone")
    if person.user_id != match.creator_id and not is_admin:
        return Refusal("creator_or_admin_only")
    stopped = match.model_copy(deep=True)
    stopped.status, stopped.ended, stopped.stopped_by = "cancelled", "stopped", person.name
    stopped.deadline = None
    return Change(stopped)


def note_hand_request(match: Match | None, game_id: str, person: Person) -> Change | Refusal:
    """«My tiles» on the board: noted, for the delivery to send the hand as a new message."""
    running = _running(match, game_id)
    if isinstance(running, Refusal):
        return running
    seat_index = running.seat_of(person.user_id)
    if seat_index is None:
        return Refusal("not_in_game")
    if running.seats[seat_index].computer:
        return Refusal("seat_taken_over")
    asked = running.model_copy(deep=True)
    asked.seats[seat_index].hand_requests += 1
    return Change(asked)


# -- the parts ------------------------------------------------------------------------


def _running(match: Match | None, game_id: str) -> Match | Refusal:
    if match is None or match.id != game_id or match.status != "playing":
        return Refusal("game_gone")
    return match


def _still_due(match: Match, game: Game, turn: DueTurn, now: Moment) -> bool:
    return (
        match.id == turn.game_id
        and match.status == "playing"
        and game.version == turn.version
        and match.deadline is not None
        and match.deadline <= now.at
    )


def _after_moves(
    match: Match, game: Game, now: Moment, settings: Settings
) -> tuple[MoveEntry, ...]:
    """After a move: the moves that leave a person no choice, made for him at once, then
    the game's end or the next deadline. The forced moves made are returned."""
    forced = forced_moves(match, game)
    if game.over:
        match.status, match.deadline = "over", None
    else:
        match.deadline = turn_deadline(match, game, now, settings)
    return forced


def forced_moves(match: Match, game: Game) -> tuple[MoveEntry, ...]:
    """Draw and pass for the person to act while they are his only move (`game` changes).

    A draw is allowed only when no tile fits, and a pass only when nothing can be drawn
    either: neither is ever a choice. They are made for him at once (docs/rules.md,
    "Moves without a choice"): no message asks him to press what he must press anyway,
    and the board tells what happened.
    """
    made: list[MoveEntry] = []
    while not game.over and game.turn is not None and match.seats[game.turn].human:
        legal = game.legal_moves()
        if len(legal) != 1 or not isinstance(legal[0], Draw | Pass):
            break
        made.append(game.push(legal[0], seat=game.turn))
    return tuple(made)


def _hand_over(match: Match, game: Game, seat_index: int, now: Moment, settings: Settings) -> None:
    """The computer has just taken `seat_index` (of the rule's own copy): a running game
    whose last person went ends (computers play for nobody); if it is that seat's turn,
    the computer plays it soon."""
    if match.status == "playing" and not any(seat.human for seat in match.seats):
        match.status, match.ended, match.deadline = "cancelled", "everyone_left", None
    elif match.status == "playing" and game.turn == seat_index:
        match.deadline = turn_deadline(match, game, now, settings)
