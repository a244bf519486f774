"""bot/delivery/hand/plan.py: what a hand message should show next."""

from __future__ import annotations

from bot.delivery.hand.plan import HandCall, HandStep, hand_step, hand_want, turn_start
from bot.storage.models import HandDelivery
from bot.telegram.api import CallOutcome, Result
from engine import DRAW, Game
from tests.bot.conftest import position
from tests.bot.delivery.matches import a_match, played_until

OK = Result(CallOutcome.OK)


# -- hands -----------------------------------------------------------------------------


def test_only_the_seat_to_act_has_a_live_hand_and_a_new_turn_is_a_new_message() -> None:
    engine_game = position(
        "fives", ["A", "B"], ["6:5 6:2 1:0 4:3 1:1 0:0", "5:2 3:1 4:1 3:2 2:0 4:2"]
    )
    match = a_match(engine_game, status="playing")
    andrey, irina = hand_want(match, engine_game, 0), hand_want(match, engine_game, 1)
    assert andrey is not None and andrey.live and andrey.turn == "1:0"
    assert irina is not None and not irina.live
    assert irina.shows == "P:playing:1:h:5:2 4:2 4:1 3:2 3:1 2:0"
    shown = HandDelivery(message_id=7, shows=irina.shows)
    assert hand_step(irina, shown, 0) is None  # up to date
    engine_game.push(engine_game.parse_move("6:5"))
    irina = hand_want(match, engine_game, 1)
    assert irina is not None and irina.live
    assert hand_step(irina, shown, 0) == HandStep(HandCall.SEND)  # her turn: she is notified
    shown.shows, shown.live = irina.shows, True
    assert hand_step(irina, shown, 0) is None
    assert hand_step(irina, shown, 1) == HandStep(HandCall.SEND)  # "My tiles" pressed
    match.status = "cancelled"
    stopped = hand_want(match, engine_game, 1)
    assert stopped is not None and not stopped.live
    assert hand_step(stopped, shown, 0) == HandStep(HandCall.EDIT, 7)  # the buttons go


def test_drawing_keeps_the_turn_and_its_message() -> None:
    game = played_until(
        Game.new("fives", ["A", "B"], seed=1), lambda g: g.over or DRAW in g.legal_moves()
    )
    assert not game.over, "no draw in this seed"
    game.push(DRAW)
    assert game.turn is not None
    seat = game.round.turn
    start = turn_start(game)
    assert all(m.text == "draw" and m.seat == seat for m in game.round.moves[start:])
    match = a_match(game, status="playing")
    want = hand_want(match, game, seat)
    assert want is not None and want.turn == f"{game.round.number}:{start}"
    earlier = HandDelivery(message_id=3, shows=f"A:{want.turn}:{game.version - 1}", live=True)
    assert hand_step(want, earlier, 0) == HandStep(HandCall.EDIT, 3)  # same turn, same message


def test_stale_messages_lose_their_buttons_first_and_a_doubtful_send_is_sent_again() -> None:
    engine_game = Game.new("fives", ["A", "B"], seed=3)
    match = a_match(engine_game, status="playing")
    want = hand_want(match, engine_game, engine_game.round.turn)
    assert want is not None
    shown = HandDelivery(message_id=8, shows=want.shows, live=True, stale=[5, 6])
    assert hand_step(want, shown, 0) == HandStep(HandCall.STRIP, 5)
    shown.stale = []
    assert hand_step(want, shown, 0) is None
    shown.uncertain_after = 8  # a later send got no answer: only a new one tells what landed
    assert hand_step(want, shown, 0) == HandStep(HandCall.SEND)
    shown.uncertain_after, shown.closed = None, True  # he blocked the bot
    assert hand_step(want, shown, 5) is None


def test_a_computer_seat_gets_no_hand_it_never_had() -> None:
    engine_game = Game.new("fives", ["A", "B"], seed=3)
    match = a_match(engine_game, status="playing")
    match.seats[1].computer = True
    want = hand_want(match, engine_game, 1)
    assert want is not None and not want.live
    assert hand_step(want, HandDelivery(), 0) is None
    assert hand_step(want, HandDelivery(message_id=4, shows="P:old"), 0) == HandStep(
        HandCall.EDIT, 4
    )


def test_earlier_messages_and_a_past_turns_reminder_go_after_what_must_be_shown() -> None:
    engine_game = position(
        "fives", ["A", "B"], ["6:5 6:2 1:0 4:3 1:1 0:0", "5:2 3:1 4:1 3:2 2:0 4:2"]
    )
    match = a_match(engine_game, status="playing")
    andrey = hand_want(match, engine_game, 0)
    assert andrey is not None and andrey.live
    # His turn, with its reminder sent; an earlier hand message waits to be deleted.
    shown = HandDelivery(
        message_id=9, shows=andrey.shows, live=True, old=[4], reminded=andrey.turn, reminder_id=10
    )
    assert hand_step(andrey, shown, 0) == HandStep(HandCall.DELETE, 4)  # the reminder stays
    shown.old = []
    assert hand_step(andrey, shown, 0) is None
    # He plays: first his hand shows it (the buttons go), then the reminder of that turn goes.
    engine_game.push(engine_game.parse_move("6:5"))
    andrey = hand_want(match, engine_game, 0)
    assert andrey is not None and not andrey.live
    assert hand_step(andrey, shown, 0) == HandStep(HandCall.EDIT, 9)
    shown.shows, shown.live = andrey.shows, False
    assert hand_step(andrey, shown, 0) == HandStep(HandCall.UNREMIND, 10)
    shown.reminder_id = None
    assert hand_step(andrey, shown, 0) is None
    # A new message for a new turn comes before any deleting.
    engine_game.push(engine_game.parse_move(str(engine_game.legal_moves()[0])))
    andrey = hand_want(match, engine_game, 0)
    assert andrey is not None and andrey.live
    shown.old = [3]
    assert hand_step(andrey, shown, 0) == HandStep(HandCall.SEND)


def test_a_lobby_that_closed_tells_each_seated_person_once_and_practice_not() -> None:
    match = a_match(None, status="cancelled", ended="idle")
    want = hand_want(match, None, 1)
    assert want is not None and want.text and not want.live
    assert hand_step(want, HandDelivery(), 0) == HandStep(HandCall.SEND)
    assert hand_step(want, HandDelivery(message_id=5, shows=want.shows), 0) is None
    assert hand_step(want, HandDelivery(message_id=5, shows=want.shows), 2) is None  # no copies
    match.seats[1].user_id = None  # a computer: nobody to tell
    assert hand_want(match, None, 1) is None
    assert hand_want(a_match(None, status="lobby"), None, 0) is None  # still open: nothing
    practice = a_match(None, status="cancelled", ended="stopped", chat_id=10)
    assert hand_want(practice, None, 0) is None  # its own chat shows the cancelled lobby


def test_a_finished_games_result_is_a_new_text_and_the_hand_picture_goes() -> None:
    over = played_until(Game.new("fives", ["A", "B"], seed=3), lambda g: g.over)
    match = a_match(over, status="over")
    want = hand_want(match, over, 0, final_message_id=77)
    assert want is not None and want.text and not want.live
    # His hand picture (a photo cannot become a text): a new message, then the photo goes.
    shown = HandDelivery(message_id=9, shows="P:playing:5:h:6:6")
    assert hand_step(want, shown, 0) == HandStep(HandCall.SEND)
    shown = HandDelivery(message_id=12, shows=want.shows, old=[9])
    assert hand_step(want, shown, 0) == HandStep(HandCall.DELETE, 9)
    shown.old = []
    assert hand_step(want, shown, 0) is None
    assert hand_step(want, shown, 3) is None  # «My tiles» asks for no copies of it
