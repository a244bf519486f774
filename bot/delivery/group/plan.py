"""What the group's messages should show, and the next call that brings them closer: the
lobby, each round's board and the final table, at the pace the chat's minute allows.

Pure functions of the stored match, what the group's delivery record says Telegram last
confirmed and the calls the chat got lately: they decide, `converger` does. Each returns
one call at a time, so a pass can stop after any call and the next pass goes on from
there.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from bot.storage.models import GroupDelivery, Match
from engine import Game

BOARD_BUCKET = 2  # board calls that may go at once after a quiet spell; then one per interval
# Seconds between lobby edits: a burst of presses shows up in one edit. Never longer than
# the board's interval (a bot set to show boards faster shows its lobbies faster too).
LOBBY_GAP = 1.0
TURN_STAGGER = 1.0  # seconds: the longest a topic's board lets the others try for the turn first
# Answers a minute to a chat's people that its routine calls leave room for, beyond the
# budget's headroom (`board_room_at`): a command every six or seven seconds, as a forum's
# people ask while they watch its games, and each game's start, whose lobby answers a
# /newgame. (Never more than half of what the routine calls may fill.)
ANSWER_ROOM = 9
# Seconds between a board's move edits while every person seated has the live table open
# (the table shows each move; the board is for the group's onlookers), docs/table.md.
TABLE_BOARD_GAP = 20.0


class GroupCall(StrEnum):
    POST_LOBBY = "post_lobby"
    EDIT_LOBBY = "edit_lobby"
    CLOSE_LOBBY = "close_lobby"
    NEW_BOARD = "new_board"
    EDIT_BOARD = "edit_board"
    FINISH_BOARD = "finish_board"  # the round is over: its board shows how it ended, for good
    # The round's board, finished, turns to the next round (edited, not posted anew): while
    # every person seated is at the live table, the group keeps one board for the game.
    NEXT_ROUND = "next_round"
    STOP_BOARD = "stop_board"  # the game was stopped
    FINAL = "final"  # the final table
    BOARD_FINAL = "board_final"  # the game's one board becomes its final table (NEXT_ROUND)
    # An earlier match's final table loses its Rematch button: a new match took the chat.
    RETIRE_FINAL = "retire_final"


LOBBY_CALLS = {GroupCall.POST_LOBBY, GroupCall.EDIT_LOBBY}
BOARD_CALLS = {
    GroupCall.NEW_BOARD,
    GroupCall.EDIT_BOARD,
    GroupCall.FINISH_BOARD,
    GroupCall.NEXT_ROUND,
}
# The board calls that show a round for the first time: one that ended meanwhile is
# shown ended, for good.
ROUND_OPENINGS = frozenset({GroupCall.NEW_BOARD, GroupCall.NEXT_ROUND})
FINAL_CALLS = frozenset({GroupCall.FINAL, GroupCall.BOARD_FINAL})
# The group call that is itself the answer to a person: the lobby his /newgame (or his
# press on «Rematch») asked for. It goes as answers do, and may take the minute's last calls.
ANSWER_CALLS = frozenset({GroupCall.POST_LOBBY})
# A stopped game's board: it tells the chat the game is over, so it goes before the routine
# calls (no pace, no turn, no room kept for answers to come: it waits for the budget only,
# first in line), though like them it never takes the last calls, which are the answers'.
FIRST_CALLS = frozenset({GroupCall.STOP_BOARD})


@dataclass(frozen=True)
class GroupStep:
    """The next call the group needs; `key` names it for the claim."""

    call: GroupCall
    key: str
    round_number: int = 0  # the round a board call is for


# Tries at taking an earlier final table's Rematch button off, in a row, before the
# group leaves it be (until another call of the group goes through).
RETIRE_TRIES = 3


def group_step(match: Match, game: Game | None, shown: GroupDelivery) -> GroupStep | None:
    """What the group's messages still miss, one call at a time (None: up to date): this
    match's messages first, then the Rematch button of the final table before it."""
    step = _match_step(match, game, shown)
    if step is not None or shown.old_final is None or shown.failures >= RETIRE_TRIES:
        return step
    if match.ended == "bot_removed" and not shown.returned:
        return None  # the bot may not write there any more
    return GroupStep(GroupCall.RETIRE_FINAL, f"retire:{shown.old_final}")


def _match_step(match: Match, game: Game | None, shown: GroupDelivery) -> GroupStep | None:
    """What this match's group messages still miss."""
    if match.status == "lobby":
        if shown.lobby_message_id is None:
            return GroupStep(GroupCall.POST_LOBBY, f"post_lobby:{match.lobby_rev}")
        if shown.lobby_shows != match.lobby_rev:
            return GroupStep(GroupCall.EDIT_LOBBY, f"lobby:{match.lobby_rev}")
        return None
    if match.ended == "bot_removed" and not shown.returned:
        return None  # the bot may not write there any more
    if shown.lobby_message_id is not None and not shown.lobby_closed:
        return GroupStep(GroupCall.CLOSE_LOBBY, "close_lobby")
    board = shown.board
    if match.status == "cancelled":
        if board.message_id is not None and not board.finished:
            return GroupStep(GroupCall.STOP_BOARD, f"stop:{board.round_number}")
        if board.message_id is None and game is not None and match.ended != "silence":
            # It ended before its first board went out (a hand its player's chat refused
            # at Start, say): the lobby made way for the game, so a board says how it ended.
            number = game.round.number
            return GroupStep(GroupCall.STOP_BOARD, f"stop:new:{number}", number)
        if match.ended == "silence" and game is not None and shown.final_message_id is None:
            # A game without a clock that nobody played on for a day: the group is told in
            # a new message (friends who play across a day do not watch an old board).
            return GroupStep(GroupCall.FINAL, "final")
        return None
    if game is None:
        return None
    current = game.round.number
    number = board.round_number
    if board.message_id is None:
        return GroupStep(GroupCall.NEW_BOARD, f"new:{number}", number)
    over = match.status == "over"
    if not board.finished and (number < current or over):
        return GroupStep(GroupCall.FINISH_BOARD, f"finish:{number}", number)
    if board.finished and number < current:
        # Every round gets its board, even one that began and ended while the group's
        # pace held us back: it is posted showing how that round ended.
        return GroupStep(GroupCall.NEW_BOARD, f"new:{number + 1}", number + 1)
    if not board.finished and board.shows_version != game.version:
        return GroupStep(GroupCall.EDIT_BOARD, f"edit:{game.version}", number)
    if not board.finished and shown.notes_shown < match.notes_total:
        # A seat changed hands (/leave, a blocked bot) with no move: the board says so now.
        return GroupStep(GroupCall.EDIT_BOARD, f"edit:{game.version}:{match.notes_total}", number)
    if over and shown.final_message_id is None:
        return GroupStep(GroupCall.FINAL, "final")
    return None


def at_table_step(step: GroupStep, match: Match, shown: GroupDelivery) -> GroupStep | None:
    """The step as it goes while every person seated has the live table open, where it
    differs: the group keeps one board for the game. The next round is shown on the
    finished round's board, edited, rather than on a new board (its players see each
    round's end at their tables, its onlookers on the board until the next round replaces
    it), and at the game's end the board becomes the final table (whose lines give the
    match round by round). A practice game keeps a board a round: its hand comes below
    it."""
    if shown.board.message_id is None or match.practice:
        return None
    if step.call in (GroupCall.NEW_BOARD, GroupCall.FINISH_BOARD) and match.status == "over":
        return GroupStep(GroupCall.BOARD_FINAL, "board_final")
    if step.call is GroupCall.NEW_BOARD:
        return GroupStep(GroupCall.NEXT_ROUND, f"next:{step.round_number}", step.round_number)
    return None


def table_paces(step: GroupStep, match: Match, shown: GroupDelivery) -> bool:
    """Whether this board call waits for the table's pace (`table_board_at`) when every
    person seated has the live table open: a move's edit does, and so does the next
    round on the finished round's board (the round's end stays in sight that long); a
    round's or the game's end, a stop and a seat's notice go at once."""
    if step.call is GroupCall.NEXT_ROUND:
        return True
    return step.call is GroupCall.EDIT_BOARD and shown.notes_shown >= match.notes_total


def table_board_at(paced: list[float]) -> float:
    """When a board's move edit may go at the table's pace: `TABLE_BOARD_GAP` after the
    board's last call (`paced`: its calls of the last minute)."""
    return max(paced, default=float("-inf")) + TABLE_BOARD_GAP


@dataclass(frozen=True)
class ChatMinute:
    """The calls a group got lately, as the call budget counted them: to every forum topic
    of the chat, from every process, the answers to its people too."""

    calls: tuple[float, ...] = ()  # when, within `window` seconds
    answers: int = 0  # how many of them answered people
    window: float = 60.0
    boards: int = 0  # how many were a match's group calls (boards, lobbies, final tables)


def shares_turns(chat: ChatMinute, calls: list[float], now: float) -> bool:
    """Whether the chat's boards take turns (`board_turn`) for our next call: when it got
    group calls lately that were not ours (`calls`), another topic's or an earlier game's.
    Alone, our own pace is the turn."""
    return chat.boards > sum(1 for t in calls if now - t < chat.window)


def next_group_call(
    calls: list[float],
    paced: list[float],
    now: float,
    interval: float,
    per_minute: int,
    step: GroupStep,
    chat: ChatMinute | None = None,
) -> float:
    """The earliest time the group may get this call from us.

    `calls` are this match's calls to the group in the last minute, `paced` the board
    calls among them; `chat` all the calls the chat got (None: not known, ours are all
    there is). The chat's minute is one for all of them: nothing goes while `per_minute`
    of them are in it (`per_minute` is this call's share of the minute: the budget leaves
    the last few of Telegram's limit to answers, see `bot.telegram.call_priority`).

    A lobby asked for (`ANSWER_CALLS`) goes as an answer: at once, while the minute has
    room. A stopped game's board (`FIRST_CALLS`) goes at once and waits for the budget
    alone, first in line. Every other call, routine, also leaves room for the answers
    that may come (`board_room_at`): the lobby's edits and its closing, the boards, the
    final table. A lobby edit also waits `LOBBY_GAP` (or `interval`, if shorter) after
    our previous call, so that a burst of presses shows in one edit. A board call waits
    for its pace, a token bucket: `BOARD_BUCKET` calls may go at once after a quiet
    spell, then one per `interval` (so moves that come faster are shown together, and no
    board waits much longer than `interval`). (The chat's boards, all its topics', then
    also take turns: `board_turn`.)
    """
    if step.call in FIRST_CALLS:
        return now
    window = 60.0 if chat is None else chat.window
    mine = sorted(t for t in calls if now - t < window)
    every = mine if chat is None else sorted(t for t in chat.calls if now - t < window)
    earliest = now
    for recent in (mine, every):
        if len(recent) >= per_minute:
            earliest = max(earliest, recent[-per_minute] + window)
    if step.call in ANSWER_CALLS:
        return earliest
    if step.call in LOBBY_CALLS and mine:
        earliest = max(earliest, mine[-1] + min(LOBBY_GAP, interval))
    room = board_room_at(every, now, per_minute, window)
    if step.call not in BOARD_CALLS:
        return max(earliest, room)  # the lobby's edits, closing it, the final table
    # Never faster than the minute allows: one call per interval stays within what our
    # other calls of the minute (the lobby, the final table) and the answers to the chat's
    # people left of `per_minute`, and one call more is left over. Boards slow down for a
    # while instead of stopping until the minute is over. (Other calls to the chat, an
    # earlier game's or another topic's, wait for our boards as much as ours wait for
    # them: `board_room_at`, `board_turn`.)
    board = sorted(t for t in paced if now - t < window)
    answers = 0 if chat is None else chat.answers
    others = max(0, len(mine) - len(board)) + answers
    own = _token_at(board, now, max(interval, window / max(1, per_minute - others - 1)))
    return max(earliest, own, room)


def board_turn(per_minute: int, chat: ChatMinute) -> float:
    """Seconds from one board call to a chat to the next, whatever their topics: what the
    answers of the last minute left of `per_minute`, spread over the minute. So a call
    leaves the chat's minute every few seconds (and room for an answer with it), and the
    topics of a forum take turns, all through the minute (rather than all go at once
    when room comes, and all wait again a minute later)."""
    return chat.window / max(1, per_minute - chat.answers)


def turn_stagger(paced: list[float], now: float, turn: float) -> float:
    """How long after the chat's board turn is free this topic's board tries for it (the
    first to come takes it): the board shown longest ago first, so the topics of a forum
    take their turns in order, not the quickest one every time. (`paced`: this topic's
    board calls of the last minute.)"""
    waited = now - max(paced, default=now - 60.0)
    return TURN_STAGGER / (1 + waited / max(turn, 0.1))


def board_room_at(chat: list[float], now: float, per_minute: int, window: float) -> float:
    """When a routine call (a board, a lobby's edit or closing, a final table) may take
    one of the chat's calls and still leave room for answers.

    `chat`: the chat's calls in the window, oldest first. Room for the answers people may
    ask for now is the budget's headroom; room for those they may ask for later comes
    from the calls that leave the window meanwhile. So every call in it holds the routine
    calls back until a while before it leaves: the calls after it, ours, and the answers
    that may come until it leaves (`ANSWER_ROOM` a minute) must all fit in `per_minute`.
    While the calls of the minute are spread out (a board every few seconds), that is no
    wait, or a short one; after a burst of them (games starting in a forum's topics:
    their lobbies, edits and first boards; a flurry of commands) the routine calls leave
    the room of the answers that may come until the burst has left the window.
    """
    rate = min(ANSWER_ROOM, per_minute / 2) / 60
    room_at = now
    for older, t in enumerate(chat):
        # The calls that may still be made while `t` is in the window: ours, and fewer
        # answers than that.
        left = per_minute - (len(chat) - older)
        room_at = max(room_at, t + window - max(0, left) / rate)
    return room_at


def _token_at(paced: list[float], now: float, interval: float) -> float:
    """When the board's bucket next holds a token (it was full before `paced` began)."""
    if interval <= 0 or not paced:
        return now
    tokens, last = float(BOARD_BUCKET), paced[0]
    for t in paced:
        tokens = min(BOARD_BUCKET, tokens + (t - last) / interval) - 1
        last = t
    tokens = min(BOARD_BUCKET, tokens + (now - last) / interval)
    if tokens >= 1:
        return now
    return now + (1 - tokens) * interval
