"""What a hand call that Telegram answered (or not) changed in the seat's delivery record."""

from __future__ import annotations

from bot.delivery.hand.plan import TIDY_CALLS, HandCall, HandStep, HandWant
from bot.storage.models import HandDelivery
from bot.telegram.api import CallOutcome, Result

COPIES_CHECKED = 10  # ids after an unanswered send that may be copies of it, at most


def apply_result(
    shown: HandDelivery,
    step: HandStep,
    want: HandWant | None,
    requests: int,
    result: Result,
) -> None:
    """What a call that Telegram answered (or not) changed in the seat's record."""
    outcome = result.outcome
    if outcome is CallOutcome.SUPERSEDED:
        return  # not made: as if never claimed
    if step.call is HandCall.STRIP:
        if outcome in (CallOutcome.OK, CallOutcome.GONE, CallOutcome.FAILED):
            # Done, gone, or not ours to edit (a message of his own among the ids checked).
            shown.stale = [m for m in shown.stale if m != step.message_id]
            shown.failures = 0
            if step.message_id == shown.message_id:  # the hand itself: it shows no turn now
                shown.live, shown.shows = False, ""
        else:
            shown.failures += 1
        return
    if outcome is CallOutcome.FORBIDDEN:
        shown.closed = True  # he blocked the bot: nothing more goes there
        shown.message_id = None
        return
    if step.call in TIDY_CALLS:
        if outcome in (CallOutcome.OK, CallOutcome.GONE, CallOutcome.FAILED, CallOutcome.UNCERTAIN):
            # Deleted, gone, or refused for good (a lost answer: it went, or it is left).
            shown.old = [m for m in shown.old if m != step.message_id]
            if step.message_id == shown.reminder_id:
                shown.reminder_id = None
            shown.failures = 0
        else:
            shown.failures += 1
        return
    if step.call is HandCall.REMIND:
        done = outcome in (CallOutcome.OK, CallOutcome.UNCERTAIN, CallOutcome.GONE)
        if done or (outcome is CallOutcome.FAILED and not result.unsent):
            # Sent, perhaps sent, or refused for good: a turn has one reminder at most.
            shown.reminded = want.turn if want is not None else ""
            shown.known_max = max(shown.known_max, result.message_id or 0)
            if result.message_id is not None:
                if shown.reminder_id is not None:  # an earlier turn's, not deleted yet
                    shown.old.append(shown.reminder_id)
                shown.reminder_id = result.message_id
            shown.failures = 0
        else:
            shown.failures += 1  # 429 or not sent at all: tried again
        return
    if outcome is CallOutcome.GONE:
        shown.message_id = None  # deleted by him: the next step sends it anew
        shown.shows = ""
        return
    if outcome is CallOutcome.UNCERTAIN and step.call is HandCall.SEND:
        if shown.uncertain_after is None:
            shown.uncertain_after = shown.known_max
        shown.failures += 1
        return
    if not result.ok or want is None:
        shown.failures += 1
        return
    shown.failures = 0
    if step.call is HandCall.SEND:
        new_id = result.message_id
        if new_id is not None:
            if shown.message_id is not None and shown.message_id != new_id:
                # The new message takes its place: one hand message in the chat.
                shown.old.append(shown.message_id)
            if shown.uncertain_after is not None:
                first = max(shown.uncertain_after + 1, new_id - COPIES_CHECKED)
                shown.stale += [m for m in range(first, new_id) if m not in shown.stale]
                shown.uncertain_after = None
            shown.message_id = new_id
            shown.known_max = max(shown.known_max, new_id)
        shown.requests_seen = requests
    shown.shows = want.shows
    shown.live = want.live
