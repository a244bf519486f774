"""The lobby's rules as plain functions (bot.game.lobby): no Redis, no Telegram, no clock.

Each rule takes the match as stored and returns a change, UNCHANGED or a refusal; the
service only applies them by compare-and-set (tests/bot/game/test_service.py).
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.game import lobby
from bot.game.clock import Moment
from bot.game.options import NO_CLOCK, LobbyAction
from bot.game.outcomes import KEPT, UNCHANGED, Change, Outcome, Refusal
from bot.game.people import Person
from bot.settings import Settings
from bot.storage.models import Match, Seat
from engine import Game, pack
from engine.players import computer_player

TOKEN = "123456:TEST-token-abcdefghijklmnopqrstuvwxyz123"
SETTINGS = Settings(_env_file=None, telegram_bot_token=TOKEN)  # type: ignore[call-arg]
GROUP = -1001234567890
NOW = Moment(1_000_000.0, lag=2.5)
ANDREY, IRINA, OLGA = Person(1, "Андрей", "ru"), Person(2, "Ирина", "en"), Person(3, "Ольга", "ru")


def ask(creator: Person = ANDREY, chat_id: int = GROUP, **fields: Any) -> lobby.NewLobby:
    values: dict[str, Any] = {
        "chat_id": chat_id,
        "thread_id": None,
        "creator": creator,
        "reachable": True,
        "variant": "muggins",
        "title": "Домино",
        "topic": "",
        "lang": "ru",
        "game_id": "newgame1",
        "seed": 77,
    }
    values.update(fields)
    return lobby.NewLobby(**values)


def changed(outcome: Outcome) -> Match:
    assert isinstance(outcome, Change), outcome
    return outcome.match


def a_lobby(*people: Person, computers: int = 0, **fields: Any) -> Match:
    """A lobby Андрей opened just now, with these people (and computers) seated."""
    match = changed(lobby.open_lobby(None, ask(reachable=False), NOW, SETTINGS))
    match = match.model_copy(update=fields, deep=True)
    match.seats = [person.seat() for person in people]
    match.seats += [
        Seat(name="", number=n, level="easy", computer=True) for n in range(1, computers + 1)
    ]
    return match


def press(match: Match | None, action: LobbyAction, who: Person = ANDREY, **kw: Any) -> Outcome:
    value = kw.pop("value", "")
    game_id = kw.pop("game_id", "newgame1")
    at = kw.pop("now", NOW)
    pressed = lobby.LobbyPress(game_id, action, value, who, kw.pop("is_admin", False))
    return lobby.press(match, pressed, at, SETTINGS)


# -- opening and taking over ----------------------------------------------------------


def test_a_new_lobby_in_a_free_chat() -> None:
    change = lobby.open_lobby(None, ask(), NOW, SETTINGS)
    assert isinstance(change, Change) and change.game is None
    match = change.match
    assert (match.id, match.seed, match.variant, match.status) == (
        "newgame1",
        77,
        "muggins",
        "lobby",
    )
    assert (match.creator_id, match.creator_name, match.chat_title, match.lang) == (
        1,
        "Андрей",
        "Домино",
        "ru",
    )
    assert [s.user_id for s in match.seats] == [1]  # the bot can write to him: seated
    assert match.turn_seconds == SETTINGS.turn_seconds and match.lobby_rev == 0
    assert match.lobby_touched == NOW.at
    assert match.deadline == NOW.at + SETTINGS.lobby_idle_seconds  # the idle lobby closes then


def test_a_creator_the_bot_cannot_write_to_is_not_seated_and_an_unknown_game_is_fives() -> None:
    match = changed(lobby.open_lobby(None, ask(reachable=False, variant="chess"), NOW, SETTINGS))
    assert match.seats == [] and match.variant == "fives"


def test_a_practice_lobby_is_its_person_and_one_strong_computer_without_a_clock() -> None:
    match = changed(lobby.open_lobby(None, ask(IRINA, chat_id=IRINA.user_id), NOW, SETTINGS))
    assert match.practice and match.turn_seconds == NO_CLOCK
    assert match.lang == "en"  # his private chat speaks his language, not the group default
    assert [(s.name, s.number, s.user_id, s.level, s.computer) for s in match.seats] == [
        ("Ирина", 0, 2, "strong", False),
        ("", 1, None, "strong", True),
    ]


@pytest.mark.parametrize("status", ["lobby", "playing"])
def test_a_running_game_is_left_as_it_is(status: str) -> None:
    running = a_lobby(ANDREY, status=status)
    assert lobby.open_lobby(running, ask(IRINA), NOW, SETTINGS) is UNCHANGED


@pytest.mark.parametrize("status", ["over", "cancelled"])
def test_an_ended_game_makes_way_for_a_new_lobby(status: str) -> None:
    ended = a_lobby(ANDREY, status=status)
    ended.id = "oldgame1"
    match = changed(lobby.open_lobby(ended, ask(IRINA), NOW, SETTINGS))
    assert match.id == "newgame1" and match.creator_id == IRINA.user_id and match.rev == 0


def test_a_lobby_nobody_pressed_for_a_while_is_taken_over() -> None:
    idle = a_lobby(ANDREY)
    takeover = SETTINGS.lobby_takeover_seconds
    just_before = Moment(NOW.at + takeover - 1)
    assert not lobby.stale(idle, just_before, SETTINGS)
    assert lobby.open_lobby(idle, ask(IRINA), just_before, SETTINGS) is UNCHANGED
    later = Moment(NOW.at + takeover)
    assert lobby.stale(idle, later, SETTINGS)
    taken = changed(lobby.open_lobby(idle, ask(IRINA), later, SETTINGS))
    assert (taken.id, taken.creator_id, taken.creator_name) == (idle.id, 2, "Ирина")
    assert [s.user_id for s in taken.seats] == [1, 2]
    assert taken.lobby_rev == idle.lobby_rev + 1  # the handler tells a takeover by this
    assert taken.deadline == later.at + SETTINGS.lobby_idle_seconds
    # Taken over by someone seated already, or the bot cannot write to: no second seat.
    assert len(changed(lobby.open_lobby(idle, ask(ANDREY), later, SETTINGS)).seats) == 1
    unreachable = ask(IRINA, reachable=False)
    assert changed(lobby.open_lobby(idle, unreachable, later, SETTINGS)).seats == idle.seats
    # A lobby stored before lobbies kept their time counts as idle.
    assert lobby.stale(idle.model_copy(update={"lobby_touched": None}), NOW, SETTINGS)
    assert not lobby.stale(a_lobby(ANDREY, status="playing", lobby_touched=None), NOW, SETTINGS)


def test_an_idle_lobby_closes_at_its_deadline_and_not_before() -> None:
    idle = a_lobby(ANDREY)
    assert idle.deadline is not None
    assert lobby.close_idle(idle, idle.id, Moment(idle.deadline - 0.01)) is UNCHANGED
    assert lobby.close_idle(idle, "another1", Moment(idle.deadline)) is UNCHANGED
    assert lobby.close_idle(None, idle.id, Moment(idle.deadline)) is UNCHANGED
    started = idle.model_copy(update={"status": "playing"})
    assert lobby.close_idle(started, idle.id, Moment(idle.deadline)) is UNCHANGED
    closed = changed(lobby.close_idle(idle, idle.id, Moment(idle.deadline)))
    assert (closed.status, closed.ended, closed.deadline) == ("cancelled", "idle", None)


# -- joining ----------------------------------------------------------------------------


def test_joining_takes_a_seat_once() -> None:
    match = a_lobby(ANDREY)
    later = Moment(NOW.at + 60)
    joined = changed(lobby.join(match, match.id, IRINA, later, SETTINGS))
    assert [(s.user_id, s.lang) for s in joined.seats] == [(1, "ru"), (2, "en")]
    assert joined.lobby_rev == match.lobby_rev + 1 and joined.lobby_touched == later.at
    assert lobby.join(joined, match.id, IRINA, later, SETTINGS) is UNCHANGED


@pytest.mark.parametrize(
    ("match", "code"),
    [
        (a_lobby(ANDREY, IRINA, computers=2), "lobby_full"),
        (a_lobby(ANDREY, status="playing"), "game_started"),
        (a_lobby(ANDREY, status="over"), "game_gone"),
        # A lobby that closed without a game says so: no game was cut short.
        (a_lobby(ANDREY, status="cancelled", ended="stopped"), "lobby_cancelled"),
        (a_lobby(ANDREY, status="cancelled", ended="bot_removed"), "lobby_removed"),
        # A game that began, then lost the bot: it was cut short.
        (
            a_lobby(ANDREY, status="cancelled", ended="bot_removed").model_copy(
                update={"engine": pack(Game.new("fives", ["Андрей", "Ирина"], seed=1))}
            ),
            "bot_removed",
        ),
        (a_lobby(ANDREY, status="cancelled", ended="idle"), "lobby_closed"),
        (a_lobby(ANDREY, chat_id=ANDREY.user_id), "practice_alone"),
        (None, "game_gone"),
    ],
)
def test_a_join_that_cannot_be(match: Match | None, code: str) -> None:
    assert lobby.join(match, "newgame1", OLGA, NOW, SETTINGS) == Refusal(code)


def test_a_join_link_of_another_game() -> None:
    assert lobby.join(a_lobby(ANDREY), "another1", OLGA, NOW, SETTINGS) == Refusal("game_gone")


# -- the buttons --------------------------------------------------------------------------


def test_the_refusals_of_the_lobby_buttons() -> None:
    """What test_service.py once checked on Redis, one case at a time."""
    alone = a_lobby(ANDREY, variant="muggins")
    pair = a_lobby(ANDREY, IRINA)
    cases = [
        (press(pair, LobbyAction.START, IRINA), "creator_only"),
        (press(alone, LobbyAction.START), "need_players"),
        # Андрей opened it without a seat (the bot could not write to him): Join seats him.
        (press(a_lobby(computers=2), LobbyAction.START), "join_first"),
        (press(a_lobby(IRINA), LobbyAction.START), "join_first"),
        (press(alone, LobbyAction.TARGET, value="50"), "no_target_option"),
        (press(a_lobby(ANDREY, variant="fives"), LobbyAction.TARGET, value="60"), "stale_button"),
        (press(alone, LobbyAction.VARIANT, value="chess"), "stale_button"),
        (press(alone, LobbyAction.TIME, value="45"), "stale_button"),
        (press(alone, LobbyAction.TIME, value="x"), "stale_button"),
        (press(alone, LobbyAction.VARIANT, value="fives", game_id="other"), "game_gone"),
        (press(None, LobbyAction.START), "game_gone"),
        (press(a_lobby(ANDREY, status="playing"), LobbyAction.LEAVE), "game_started"),
        (press(alone, LobbyAction.CANCEL, IRINA), "creator_or_admin_only"),
        (press(alone, LobbyAction.LEAVE, IRINA), "not_in_game"),
        (press(alone, LobbyAction.ADD_EASY, IRINA), "creator_only"),
        (press(a_lobby(ANDREY, IRINA, computers=2), LobbyAction.ADD_STRONG), "lobby_full"),
        (press(alone, LobbyAction.REMOVE_COMPUTER), "no_computer"),
    ]
    assert [outcome for outcome, _ in cases] == [Refusal(code) for _, code in cases]


def test_a_creator_without_a_seat_may_start_a_game_of_others() -> None:
    started = changed(press(a_lobby(IRINA, computers=1), LobbyAction.START))
    assert started.status == "playing" and started.seat_of(ANDREY.user_id) is None


def test_an_option_pressed_twice_changes_nothing_more() -> None:
    match = a_lobby(ANDREY, variant="fives")
    assert press(match, LobbyAction.VARIANT, value="fives") is UNCHANGED
    assert press(match, LobbyAction.TARGET, value="25") is UNCHANGED  # the default: None
    assert press(match, LobbyAction.TIME, value=str(match.turn_seconds)) is UNCHANGED
    target = changed(press(match, LobbyAction.TARGET, value="50"))
    assert target.target == 50 and target.lobby_rev == match.lobby_rev + 1
    assert press(target, LobbyAction.TARGET, value="50") is UNCHANGED
    assert changed(press(target, LobbyAction.TARGET, value="25")).target is None
    # Another game drops the target (only fives has one).
    switched = changed(press(target, LobbyAction.VARIANT, value="muggins"))
    assert (switched.variant, switched.target) == ("muggins", None)
    timed = changed(press(match, LobbyAction.TIME, value=str(NO_CLOCK)))
    assert timed.turn_seconds == NO_CLOCK


def test_computers_join_numbered_and_the_last_one_leaves() -> None:
    match = a_lobby(ANDREY, lang="en")
    match = changed(press(match, LobbyAction.ADD_EASY))
    match = changed(press(match, LobbyAction.ADD_STRONG))
    assert [(s.kind, s.name, s.number, s.level, s.lang) for s in match.seats[1:]] == [
        ("computer", "", 1, "easy", "en"),  # named where shown, in that moment's language
        ("computer", "", 2, "strong", "en"),
    ]
    match = changed(press(match, LobbyAction.REMOVE_COMPUTER))
    assert [s.player for s in match.seats] == ["Андрей", computer_player(1)]
    assert match.lobby_rev == 3


def test_leaving_and_cancelling() -> None:
    match = a_lobby(ANDREY, IRINA)
    left = changed(press(match, LobbyAction.LEAVE, IRINA, now=Moment(NOW.at + 5)))
    assert [s.user_id for s in left.seats] == [1] and left.lobby_touched == NOW.at + 5
    by_admin = changed(press(match, LobbyAction.CANCEL, IRINA, is_admin=True))
    assert (by_admin.status, by_admin.ended, by_admin.stopped_by) == (
        "cancelled",
        "stopped",
        "Ирина",
    )
    assert by_admin.deadline is None and by_admin.lobby_rev == match.lobby_rev + 1


def test_start_deals_the_game_and_arms_the_first_deadline() -> None:
    seen = set()
    for seed in range(40):
        match = a_lobby(ANDREY, computers=1, variant="fives", target=50, seed=seed)
        change = press(match, LobbyAction.START)
        assert isinstance(change, Change) and isinstance(change.game, Game)
        game = change.game
        assert game.players == ["Андрей", computer_player(1)] and game.target == 50
        assert game.version == 0 and game.seed == seed
        started = change.match
        assert started.status == "playing" and started.lobby_rev == match.lobby_rev + 1
        # Whoever is to act first: a person has his time per move, a computer its short
        # delay, both after the delivery's lag.
        to_act = started.seats[game.turn or 0]
        delay = match.turn_seconds if to_act.human else SETTINGS.computer_delay_seconds
        assert started.deadline == NOW.at + delay + NOW.lag
        seen.add(to_act.human)
    assert seen == {True, False}


# -- the rematch --------------------------------------------------------------------------


def finished(**fields: Any) -> Match:
    match = a_lobby(ANDREY, IRINA, computers=1, status="over", target=50, turn_seconds=30)
    return match.model_copy(update=fields, deep=True)


def rematch(match: Match | None, who: Person, game_id: str = "newgame1") -> Outcome:
    return lobby.rematch(match, lobby.Rematch(game_id, who, "rematch1", 5), NOW, SETTINGS)


def test_a_rematch_seats_the_same_table_and_its_presser_runs_it() -> None:
    old = finished()
    change = rematch(old, IRINA)
    assert isinstance(change, Change) and change.game is None and change.game is not KEPT
    new = change.match
    assert (new.id, new.seed, new.status, new.creator_id) == ("rematch1", 5, "lobby", 2)
    assert [(s.name, s.number, s.user_id, s.computer) for s in new.seats] == [
        ("Андрей", 0, 1, False),
        ("Ирина", 0, 2, False),
        ("", 1, None, True),
    ]
    assert (new.target, new.turn_seconds, new.lang) == (50, 30, old.lang)
    assert new.deadline == NOW.at + SETTINGS.lobby_idle_seconds


def test_who_may_not_open_a_rematch() -> None:
    old = finished()
    old.seats[0].left = old.seats[0].computer = True
    assert rematch(old, ANDREY) == Refusal("rematch_left")
    assert rematch(old, OLGA) == Refusal("rematch_players_only")
    assert rematch(finished(status="playing"), IRINA) == Refusal("game_running")
    assert rematch(old, IRINA, game_id="another1") == Refusal("game_gone")
    assert rematch(None, IRINA) == Refusal("game_gone")
    # Another player pressed first: he has his seat in the new lobby already.
    opened = changed(rematch(old, IRINA))
    assert rematch(opened, IRINA, game_id="newgame1") == Refusal("rematch_open")
    assert [s.user_id for s in opened.seats] == [2, None]  # who left is not seated again


# -- what every rule keeps ------------------------------------------------------------------


def test_no_rule_changes_the_match_it_is_given() -> None:
    matches = [a_lobby(ANDREY, IRINA, computers=1, variant="fives"), finished(), a_lobby()]
    later = Moment(NOW.at + 10_000)
    for match in matches:
        before = match.model_dump()
        outcomes: list[Outcome] = [
            lobby.open_lobby(match, ask(OLGA), later, SETTINGS),
            lobby.close_idle(match, match.id, later),
            lobby.join(match, match.id, OLGA, NOW, SETTINGS),
            rematch(match, IRINA, match.id),
            *(
                press(match, action, value=value, game_id=match.id)
                for action, value in [
                    (LobbyAction.START, ""),
                    (LobbyAction.LEAVE, ""),
                    (LobbyAction.CANCEL, ""),
                    (LobbyAction.ADD_EASY, ""),
                    (LobbyAction.REMOVE_COMPUTER, ""),
                    (LobbyAction.VARIANT, "twolane"),
                    (LobbyAction.TARGET, "100"),
                    (LobbyAction.TIME, "30"),
                ]
            ),
        ]
        assert match.model_dump() == before
        assert any(isinstance(outcome, Change) for outcome in outcomes)
        for outcome in outcomes:
            if isinstance(outcome, Change):
                assert outcome.match is not match
