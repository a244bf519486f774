"""What a seat's private chat should show, and the next call that brings it closer: his
hand message, its turn's reminder, and tidying away what is over.

Pure functions of the stored match and what the seat's delivery record says Telegram
last confirmed: they decide, `converger` does. Each returns one call at a time.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from enum import StrEnum

from bot.storage.models import HandDelivery, Match
from engine import Game


@dataclass(frozen=True)
class HandWant:
    """What a seat's hand message should show."""

    shows: str  # compared with HandDelivery.shows: equal means nothing to do
    live: bool  # with buttons (the seat must act)
    turn: str = ""  # for a live hand: which turn it is (a new turn gets a new message)
    # Send it even if the seat has no message yet (not so for a seat the computer plays
    # from the start of its time in private, nor for a game stopped before it began there).
    send_if_missing: bool = True
    # A practice game (the board in the same chat): the hand must come after this
    # message, its round's board, to be read below it; a turn edits it in place there.
    below: int = 0
    # A text message, not the hand's picture: a lobby that closed, a finished game's result.
    text: bool = False


def turn_start(game: Game) -> int:
    """Where in the round's moves the current turn began (draws keep the turn)."""
    moves = game.round.moves
    turn = game.round.turn
    start = len(moves)
    while start > 0 and moves[start - 1].seat == turn and moves[start - 1].text == "draw":
        start -= 1
    return start


def hand_want(
    match: Match,
    game: Game | None,
    seat_index: int,
    final_message_id: int | None = None,
    board_message_id: int | None = None,
) -> HandWant | None:
    """What seat `seat_index` should see in private (None: nothing is sent to it).

    `final_message_id`: the group's final table, which a finished game's hand links to.
    `board_message_id`: a practice game's board of the round under way, which its hand
    comes below.
    """
    want = _hand_want(match, game, seat_index, final_message_id)
    if want is None or not match.practice or board_message_id is None:
        return want
    return dataclasses.replace(
        want, shows=f"{want.shows}:b{board_message_id}", below=board_message_id
    )


def _hand_want(
    match: Match, game: Game | None, seat_index: int, final_message_id: int | None
) -> HandWant | None:
    if seat_index >= len(match.seats):
        return None
    seat = match.seats[seat_index]
    if seat.user_id is None:
        return None
    if game is None:
        # A group's lobby that closed without a game: whoever had joined was told his tiles
        # would come; now he is told they will not (once). A practice lobby says so itself.
        if match.status == "cancelled" and not match.practice:
            return HandWant(f"L:{match.ended}:{match.chat_id}", False, text=True)
        return None
    rnd = game.round
    if match.status == "playing" and game.turn == seat_index and not seat.computer:
        turn = f"{rnd.number}:{turn_start(game)}"
        # The buttons name the group: a group that became a supergroup needs new ones.
        return HandWant(f"A:{turn}:{game.version}:{match.chat_id}", True, turn)
    # What an ended game's caption names (a topic's name may come late).
    where = f"{match.chat_id}:{match.topic}"
    if match.status == "cancelled":
        # How it ended, once: not sent to a seat that never had a message.
        return HandWant(f"X:{match.ended}:{where}", False, "", False)
    if match.status == "over":
        # The result, in words: a new message (a photo cannot become a text), and the hand
        # before it goes like any earlier hand message.
        return HandWant(f"F:{final_message_id or 0}:{where}", False, text=True)
    if seat.computer:
        # Said once when the computer takes over; untouched until the game ends.
        return HandWant(f"C:{where}", False, "", False)
    hand = " ".join(str(t) for t in sorted(rnd.hands[seat_index], reverse=True))
    return HandWant(f"P:{match.status}:{rnd.number}:h:{hand}", False)


class HandCall(StrEnum):
    STRIP = "strip"  # take the buttons off a message that may be a copy of ours
    SEND = "send"  # a new message (it notifies the player)
    EDIT = "edit"  # the same message, changed in place
    # The turn's one reminder: a short new message, a reply to the hand, so that Telegram
    # notifies the player (an edit would not), and the hand keeps its place and buttons.
    REMIND = "remind"
    UNREMIND = "unremind"  # the reminder of a turn that is over goes
    DELETE = "delete"  # an earlier hand message goes: the chat keeps one hand message


# Tidying calls: made after what the player must see, at the lowest priority, and given
# up (to be made later) whenever something he must see comes up meanwhile.
TIDY_CALLS = frozenset({HandCall.UNREMIND, HandCall.DELETE})


@dataclass(frozen=True)
class HandStep:
    call: HandCall
    message_id: int | None = None


def hand_step(want: HandWant | None, shown: HandDelivery, requests: int) -> HandStep | None:
    """The next call the seat's private chat needs (None: it shows what it should).

    First what the player must see (his hand as it is now), then the tidying: the
    reminder of a turn that is over, and the earlier hand messages, go.
    """
    if shown.closed:
        return None
    if shown.stale:
        return HandStep(HandCall.STRIP, shown.stale[0])
    step = _show_step(want, shown, requests)
    if step is not None:
        return step
    if shown.reminder_id is not None and not _reminder_true(want, shown):
        return HandStep(HandCall.UNREMIND, shown.reminder_id)
    if shown.old:
        return HandStep(HandCall.DELETE, shown.old[0])
    return None


def table_holds_hand(
    step: HandStep, want: HandWant | None, shown: HandDelivery, requests: int
) -> bool:
    """Whether this call waits while the seat's person has the live table open (where
    he sees it): his hand, sent anew or edited, «your turn» and its reminder. What he
    asked for («My tiles»), a result in words, and taking buttons or old messages away
    go as ever; when the table closes, the hand catches up."""
    if want is None or want.text or requests > shown.requests_seen:
        return False
    return step.call in (HandCall.SEND, HandCall.EDIT, HandCall.REMIND)


def _reminder_true(want: HandWant | None, shown: HandDelivery) -> bool:
    """Whether the reminder sent still speaks of the turn being played."""
    return want is not None and want.live and shown.reminded == want.turn


def _show_step(want: HandWant | None, shown: HandDelivery, requests: int) -> HandStep | None:
    if want is None:
        return None
    if requests > shown.requests_seen and not want.text:
        return HandStep(HandCall.SEND)  # "My tiles": a new message, whatever it shows
    if shown.uncertain_after is not None:
        # A send got no answer and may have arrived: only a new message that lands tells
        # which ids in between could be copies of it (to take their buttons off).
        return HandStep(HandCall.SEND)
    if shown.shows == want.shows:
        return None
    if shown.message_id is None:
        return HandStep(HandCall.SEND) if want.send_if_missing else None
    if want.text:
        return HandStep(HandCall.SEND)  # a notice of its own, below the hand it follows
    if shown.message_id < want.below:
        return HandStep(HandCall.SEND)  # a new round's board came after it: below that one
    if want.live and not want.below and not shown.shows.startswith(f"A:{want.turn}:"):
        return HandStep(HandCall.SEND)  # his turn begins: a new message, so he is notified
    return HandStep(HandCall.EDIT, shown.message_id)


def reminder_due(
    want: HandWant | None, shown: HandDelivery, remind_at: float | None
) -> float | None:
    """When this turn's reminder goes (None: none is due, or it went already).

    Only once the hand message shows the turn as it is: the reminder replies to it.
    """
    if want is None or not want.live or remind_at is None or shown.closed:
        return None
    if shown.message_id is None or shown.shows != want.shows or shown.reminded == want.turn:
        return None
    return remind_at
