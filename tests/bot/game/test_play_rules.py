"""The rules of a running game as plain functions (bot.game.play_rules): moves, deadlines, the
computer taking a seat, /leave, /stop, «My tiles». No Redis, no Telegram, no clock.

Converted from tests that ran a whole bot to check one rule: three missed turns hand
the seat to the computer, a move of one's own resets the count (once in
test_service_deadlines.py), and the refusals once checked on Redis in test_service.py.
"""

from __future__ import annotations

from typing import Any

from bot.game import hand_rule, play_rules
from bot.game.clock import Moment, turn_deadline
from bot.game.hand_actions import AnyHandAction, action_for
from bot.game.options import NO_CLOCK
from bot.game.outcomes import KEPT, UNCHANGED, Change, Outcome, Refusal
from bot.game.people import Person
from bot.settings import Settings
from bot.storage.models import Match, Note, Seat
from engine import Game, Move
from tests.bot.conftest import ANDREY_TO_ACT, position

TOKEN = "123456:TEST-token-abcdefghijklmnopqrstuvwxyz123"
SETTINGS = Settings(_env_file=None, telegram_bot_token=TOKEN)  # type: ignore[call-arg]
ANDREY, IRINA, OLGA = Person(1, "Андрей", "ru"), Person(2, "Ирина", "ru"), Person(3, "Ольга", "ru")
START = 1_000_000.0


def running(game: Game | None = None, **fields: Any) -> tuple[Match, Game]:
    """Андрей and Ирина playing ANDREY_TO_ACT (Андрей to act, only 6:2 fits), his
    deadline at START."""
    game = game or ANDREY_TO_ACT.copy()
    match = Match(id="g1", chat_id=-100, creator_id=1, status="playing", deadline=START)
    match.seats = [Seat(name="Андрей", user_id=1), Seat(name="Ирина", user_id=2)]
    return match.model_copy(update=fields, deep=True), game


def changed(outcome: Outcome) -> Change:
    assert isinstance(outcome, Change), outcome
    return outcome


def hand_move(game: Game, text: str, who: Person = ANDREY, **kw: Any) -> AnyHandAction:
    """The hand action that makes the move `text` (bot.game.hand_rule decides it)."""
    version = kw.pop("version", game.version)
    return action_for(kw.pop("game_id", "g1"), version, who.user_id, game.parse_move(text))


# -- a person's move ---------------------------------------------------------------------


def test_a_move_is_played_and_the_next_seat_gets_its_time() -> None:
    match, game = running()
    match.seats[0].missed = 2
    now = Moment(START - 10, lag=1.5)
    change = changed(hand_rule.act(match, game, hand_move(game, "6:2@W"), now, SETTINGS))
    assert isinstance(change.game, Game) and change.game is not game
    assert game.version == ANDREY_TO_ACT.version  # what it was given stays as it was
    assert [(e.seat, e.text) for e in change.entries] == [(0, "6:2@W")]
    assert change.game.version == game.version + 1 and change.game.turn == 1
    after = change.match
    assert after.seats[0].missed == 0  # a move of his own: the count starts again
    assert after.deadline == now.at + match.turn_seconds + now.lag  # Ирина's time


def test_the_last_move_ends_the_match() -> None:
    game = Game.new("twolane", ["Андрей", "Ирина"], seed=3)  # one round
    while not any(_ends(game, move) for move in game.legal_moves()):
        game.push(game.legal_moves()[0])
    last = next(move for move in game.legal_moves() if _ends(game, move))
    match, game = running(game)
    who = [ANDREY, IRINA][game.turn or 0]
    ask = action_for("g1", game.version, who.user_id, last)
    change = changed(hand_rule.act(match, game, ask, Moment(START), SETTINGS))
    assert isinstance(change.game, Game) and change.game.over
    assert (change.match.status, change.match.deadline) == ("over", None)


def _ends(game: Game, move: Move) -> bool:
    trial = game.copy()
    trial.push(move)
    return trial.over


def test_the_refusals_of_a_move() -> None:
    match, game = running()
    now = Moment(START)
    computer = match.model_copy(deep=True)
    computer.seats[0].computer = True
    lobby = match.model_copy(update={"status": "lobby"})
    cases = [
        (hand_rule.act(match, game, hand_move(game, "6:2@W", OLGA), now, SETTINGS), "not_in_game"),
        (
            hand_rule.act(computer, game, hand_move(game, "6:2@W"), now, SETTINGS),
            "seat_is_computer",
        ),
        (
            hand_rule.act(
                match, game, hand_move(game, "6:2@W", version=game.version - 1), now, SETTINGS
            ),
            "stale_button",
        ),
        (
            hand_rule.act(match, game, hand_move(game, "5:2@W", IRINA), now, SETTINGS),
            "not_your_turn",
        ),
        (hand_rule.act(lobby, game, hand_move(game, "6:2@W"), now, SETTINGS), "game_gone"),
        (
            hand_rule.act(match, game, hand_move(game, "6:2@W", game_id="g2"), now, SETTINGS),
            "game_gone",
        ),
        (hand_rule.act(None, None, hand_move(game, "6:2@W"), now, SETTINGS), "game_gone"),
    ]
    assert [outcome for outcome, _ in cases] == [Refusal(code) for _, code in cases]
    # The engine's refusal, with its code and its words for the logs.
    refused = hand_rule.act(match, game, hand_move(game, "1:0@W"), now, SETTINGS)
    assert isinstance(refused, Refusal) and refused.code == "does_not_fit"
    assert refused.params["detail"]


# -- deadlines -----------------------------------------------------------------------------


def test_what_a_passed_deadline_asks_for() -> None:
    match, game = running()
    assert play_rules.due(match, game, Moment(START - 0.01)) is None
    timeout = play_rules.due(match, game, Moment(START))
    assert timeout == play_rules.DueTurn("g1", game.version, 0, "timeout", "easy")
    no_clock = match.model_copy(update={"turn_seconds": NO_CLOCK})
    assert play_rules.due(no_clock, game, Moment(START)) == play_rules.DueTurn(
        "g1", game.version, 0, "silence", "easy"
    )
    match.seats[0].computer = True
    match.seats[0].level = "easy"
    computer = play_rules.due(match, game, Moment(START))
    assert computer == play_rules.DueTurn("g1", game.version, 0, "computer", "easy")
    assert timeout.thinking < computer.thinking  # a move made for a person is found fast
    for status in ("lobby", "over", "cancelled"):
        assert (
            play_rules.due(match.model_copy(update={"status": status}), game, Moment(START)) is None
        )


def time_out(match: Match, game: Game, now: Moment) -> Change:
    turn = play_rules.due(match, game, now)
    assert turn is not None and turn.by == "timeout"
    moves = [game.legal_moves()[0]]
    return changed(play_rules.play_due(match, game, turn, moves, now, SETTINGS))


def test_three_missed_turns_hand_the_seat_to_the_computer() -> None:
    match, game = running()
    now = Moment(START)
    for missed in (1, 2, 3):
        change = time_out(match, game, now)
        seat = change.match.seats[0]
        assert seat.missed == missed and seat.computer == (missed == 3)
        said = [Note(code="timed_out", name="Андрей")]
        if missed == 3:
            said.append(Note(code="missed_turns", name="Андрей"))
        assert change.match.notes[len(match.notes) :] == said
        assert isinstance(change.game, Game) and change.game.turn == 1
        # His turn again in the same position, and again he lets it pass.
        match = change.match.model_copy(update={"deadline": START})
    # From now on the computer plays his turns, after its short delay (not his 90 s).
    assert turn_deadline(match, game, now, SETTINGS) == START + SETTINGS.computer_delay_seconds
    turn = play_rules.due(match, game, now)
    assert turn is not None and turn.by == "computer"


def test_a_turn_played_meanwhile_is_not_played_again() -> None:
    match, game = running()
    now = Moment(START)
    turn = play_rules.due(match, game, now)
    assert turn is not None
    moves = [game.legal_moves()[0]]
    moved = changed(
        hand_rule.act(match, game, hand_move(game, "6:2@W"), Moment(START - 1), SETTINGS)
    )
    assert isinstance(moved.game, Game)
    assert play_rules.play_due(moved.match, moved.game, turn, moves, now, SETTINGS) is UNCHANGED
    later = match.model_copy(update={"deadline": START + 5})  # its deadline moved on
    assert play_rules.play_due(later, game, turn, moves, now, SETTINGS) is UNCHANGED
    other = match.model_copy(update={"id": "g2"})
    assert play_rules.play_due(other, game, turn, moves, now, SETTINGS) is UNCHANGED
    assert play_rules.play_due(None, None, turn, moves, now, SETTINGS) is UNCHANGED


def test_a_computers_turn_is_played_without_a_note() -> None:
    match, game = running()
    match.seats[0].computer = True
    now = Moment(START, lag=3.0)
    turn = play_rules.due(match, game, now)
    assert turn is not None and turn.by == "computer"
    change = changed(play_rules.play_due(match, game, turn, [game.legal_moves()[0]], now, SETTINGS))
    assert change.match.notes == [] and change.match.seats[0].missed == 0
    assert change.match.deadline == START + match.turn_seconds + 3.0  # Ирина's turn now


def test_a_game_without_a_clock_ends_after_its_silence() -> None:
    match, game = running(turn_seconds=NO_CLOCK)
    turn = play_rules.due(match, game, Moment(START))
    assert turn is not None and turn.by == "silence"
    ended = changed(play_rules.end_for_silence(match, game, turn, Moment(START)))
    assert (ended.match.status, ended.match.ended, ended.match.deadline) == (
        "cancelled",
        "silence",
        None,
    )
    assert ended.game is KEPT
    assert play_rules.end_for_silence(ended.match, game, turn, Moment(START)) is UNCHANGED


# -- seats changing hands ------------------------------------------------------------------


def test_leaving_a_running_game_hands_the_seat_to_the_computer() -> None:
    match, game = running()
    now = Moment(START - 50)
    change = changed(play_rules.leave(match, game, ANDREY, now, SETTINGS))
    assert change.game is KEPT
    left = change.match
    assert left.seats[0].computer and left.seats[0].left
    assert left.notes == [Note(code="left", name="Андрей")]
    # It was his turn: the computer plays it after its short delay, not his 90 s.
    assert left.deadline == now.at + SETTINGS.computer_delay_seconds
    assert play_rules.leave(left, game, ANDREY, now, SETTINGS) == Refusal("already_left")
    # Not his turn: Ирина's deadline stays.
    theirs = changed(play_rules.leave(match, game, IRINA, now, SETTINGS)).match
    assert theirs.deadline == START
    # The last person leaves: computers play for nobody, the game ends.
    everyone = changed(play_rules.leave(left, game, IRINA, now, SETTINGS)).match
    assert (everyone.status, everyone.ended, everyone.deadline) == (
        "cancelled",
        "everyone_left",
        None,
    )


def test_leave_refusals_and_the_lobby() -> None:
    match, game = running()
    taken = match.model_copy(deep=True)
    taken.seats[0].computer = True  # missed three turns: taken over, not left
    assert play_rules.leave(taken, game, ANDREY, Moment(START), SETTINGS) == Refusal(
        "seat_is_computer"
    )
    assert play_rules.leave(match, game, OLGA, Moment(START), SETTINGS) == Refusal("not_in_game")
    over = match.model_copy(update={"status": "over"})
    assert play_rules.leave(over, game, ANDREY, Moment(START), SETTINGS) == Refusal("no_game")
    assert play_rules.leave(None, None, ANDREY, Moment(START), SETTINGS) == Refusal("no_game")
    lobby = match.model_copy(update={"status": "lobby", "engine": None})
    out = changed(play_rules.leave(lobby, None, ANDREY, Moment(START), SETTINGS)).match
    assert [s.user_id for s in out.seats] == [2] and out.lobby_rev == lobby.lobby_rev + 1


def test_a_player_who_blocked_the_bot_is_played_by_the_computer() -> None:
    match, game = running()
    now = Moment(START - 50)
    blocked = changed(play_rules.seat_blocked(match, game, "g1", 0, now, SETTINGS)).match
    assert blocked.seats[0].computer and not blocked.seats[0].left  # no forfeit
    assert blocked.notes == [Note(code="blocked_bot", name="Андрей")]
    assert blocked.deadline == now.at + SETTINGS.computer_delay_seconds
    assert play_rules.seat_blocked(blocked, game, "g1", 0, now, SETTINGS) is UNCHANGED
    assert play_rules.seat_blocked(match, game, "g2", 0, now, SETTINGS) is UNCHANGED
    over = match.model_copy(update={"status": "over"})
    assert play_rules.seat_blocked(over, game, "g1", 0, now, SETTINGS) is UNCHANGED
    both = changed(play_rules.seat_blocked(blocked, game, "g1", 1, now, SETTINGS)).match
    assert both.ended == "everyone_left"


def test_stop_needs_the_creator_or_an_admin() -> None:
    match, _ = running()
    assert play_rules.may_stop(match, IRINA, False) == Refusal("creator_or_admin_only")
    assert (
        play_rules.may_stop(match, IRINA, True) is None
        and play_rules.may_stop(match, ANDREY, False) is None
    )
    assert play_rules.may_stop(None, ANDREY, False) == Refusal("no_game")
    assert play_rules.stop(match, "g1", IRINA, False) == Refusal("creator_or_admin_only")
    assert play_rules.stop(match, "g2", ANDREY, False) == Refusal("game_gone")
    stopped = changed(play_rules.stop(match, "g1", IRINA, True)).match
    assert (stopped.status, stopped.ended, stopped.stopped_by, stopped.deadline) == (
        "cancelled",
        "stopped",
        "Ирина",
        None,
    )
    assert play_rules.stop(stopped, "g1", ANDREY, False) == Refusal("game_gone")


def test_my_tiles_is_noted_for_the_delivery() -> None:
    match, _ = running()
    asked = changed(play_rules.note_hand_request(match, "g1", IRINA)).match
    assert [s.hand_requests for s in asked.seats] == [0, 1]
    assert play_rules.note_hand_request(match, "g1", OLGA) == Refusal("not_in_game")
    lobby = match.model_copy(update={"status": "lobby"})
    assert play_rules.note_hand_request(lobby, "g1", IRINA) == Refusal("game_gone")
    taken = match.model_copy(deep=True)
    taken.seats[1].computer = True
    assert play_rules.note_hand_request(taken, "g1", IRINA) == Refusal("seat_taken_over")


def test_moves_without_a_choice_are_made_for_the_person_at_once() -> None:
    # twolane: Ирина opens 5:3; nothing of Андрей's fits, so he must draw (1:1, which
    # does not fit either) and then pass: both are made for him, with his penalty.
    game = position(
        "twolane", ["Андрей", "Ирина"], ["6:6 6:4 4:4 2:2 2:1", "5:3 0:0 1:0 6:0 5:5"], starter=1
    )
    match, game = running(game)
    change = changed(
        hand_rule.act(match, game, hand_move(game, "5:3", IRINA), Moment(START), SETTINGS)
    )
    assert isinstance(change.game, Game)
    assert [(e.seat, e.text) for e in change.entries] == [(1, "5:3"), (0, "draw"), (0, "pass")]
    assert change.game.turn == 1 and change.game.totals == [10, 0]
    assert change.match.seats[0].missed == 0  # no turn of his was missed
    # A computer's seat is left to the computer's own turn (its deadline).
    match.seats[0].computer = True
    change = changed(
        hand_rule.act(match, game, hand_move(game, "5:3", IRINA), Moment(START), SETTINGS)
    )
    assert [(e.seat, e.text) for e in change.entries] == [(1, "5:3")]
