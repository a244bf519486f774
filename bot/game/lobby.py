"""The lobby's rules: opening one, taking over an idle one, joining, its buttons, a rematch.

Each rule is a function of the match as stored (None: nothing stored), what was
asked and the moment, and returns a `Change`, `UNCHANGED` or a `Refusal`
(bot.game.outcomes); it never changes what it is given. What a rule needs from
elsewhere (a person's language, a new game's id and seed, a computer's name) is
handed to it.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.game.clock import Moment, turn_deadline
from bot.game.options import (
    MAX_SEATS,
    MIN_SEATS,
    NO_CLOCK,
    TURN_CHOICES,
    LobbyAction,
    target_choices,
)
from bot.game.outcomes import UNCHANGED, Change, Outcome, Refusal, Unchanged
from bot.game.people import Person
from bot.settings import Settings
from bot.storage.models import Level, Match, Seat
from bot.variants import first_variant
from engine import Game
from engine.variants import VARIANTS

# A computer player's name in a language: (language, its number among the computers).

# What a join says when the lobby ended meanwhile, by how it ended: a lobby that closed
# without a game says so (no game was cut short), one whose game began and ended as well.
_LOBBY_ENDING_REFUSALS = {
    "bot_removed": "lobby_removed",
    "idle": "lobby_closed",
    "stopped": "lobby_cancelled",
}
_GAME_ENDING_REFUSALS = {"bot_removed": "bot_removed"}


@dataclass(frozen=True)
class NewLobby:
    """/newgame (or /practice in private): where, by whom, for which game.

    `reachable`: the bot can write to the creator (he opened its private chat), so he
    is seated at once. `lang`: the chat's language. `game_id` and `seed`: the new
    lobby's, drawn by the caller.
    """

    chat_id: int
    thread_id: int | None
    creator: Person
    reachable: bool
    variant: str | None
    title: str
    topic: str
    lang: str
    game_id: str
    seed: int


@dataclass(frozen=True)
class LobbyPress:
    """A lobby button, pressed by `person` (`is_admin`: a chat admin, as Telegram says)."""

    game_id: str
    action: LobbyAction
    value: str
    person: Person
    is_admin: bool = False


def open_lobby(
    match: Match | None, ask: NewLobby, now: Moment, settings: Settings
) -> Change | Unchanged:
    """A new lobby; an idle one taken over; UNCHANGED while a game runs here."""
    if match is not None and stale(match, now, settings):
        return _take_over(match, ask.creator, ask.reachable, now, settings)
    if match is not None and match.active:
        return UNCHANGED
    lobby = Match(
        id=ask.game_id,
        chat_id=ask.chat_id,
        thread_id=ask.thread_id,
        variant=ask.variant if ask.variant in VARIANTS else first_variant(),
        creator_id=ask.creator.user_id,
        creator_name=ask.creator.name,
        turn_seconds=settings.turn_seconds,
        seed=ask.seed,
        chat_title=ask.title,
        lang=ask.lang,
        topic=ask.topic,
    )
    if lobby.practice:
        _open_practice(lobby, ask.creator)
    elif ask.reachable:
        lobby.seats.append(ask.creator.seat())
    _touch(lobby, now, settings)
    return Change(lobby, None)


def stale(match: Match, now: Moment, settings: Settings) -> bool:
    """A lobby nobody pressed for `lobby_takeover_seconds`: /newgame takes it over (and a
    taken-over lobby, unlike a new one, has a revision above 0)."""
    if match.status != "lobby":
        return False
    touched = match.lobby_touched
    # A lobby stored before lobbies kept their time is older than this release.
    return touched is None or now.at - touched >= settings.lobby_takeover_seconds


def close_idle(match: Match | None, game_id: str, now: Moment) -> Change | Unchanged:
    """The lobby closes if nobody touched it for `lobby_idle_seconds` (its deadline)."""
    if (
        match is None
        or match.id != game_id
        or match.status != "lobby"
        or match.deadline is None
        or match.deadline > now.at
    ):
        return UNCHANGED
    closed = match.model_copy(deep=True)
    closed.status, closed.ended, closed.deadline = "cancelled", "idle", None
    return Change(closed)


def join(
    match: Match | None, game_id: str, person: Person, now: Moment, settings: Settings
) -> Outcome:
    """`person` takes a seat; UNCHANGED if he has one."""
    if match is not None and match.id == game_id and match.ended is not None:
        return Refusal(
            _GAME_ENDING_REFUSALS.get(match.ended, "game_gone")
            if match.engine
            else _LOBBY_ENDING_REFUSALS.get(match.ended, "game_gone")
        )
    lobby = _the_lobby(match, game_id)
    if isinstance(lobby, Refusal):
        return lobby
    if lobby.seat_of(person.user_id) is not None:
        return UNCHANGED
    if lobby.practice:
        return Refusal("practice_alone")  # a practice game is one person's
    if len(lobby.seats) >= MAX_SEATS:
        return Refusal("lobby_full")
    joined = lobby.model_copy(deep=True)
    joined.seats.append(person.seat())
    return _edited(joined, now, settings)


def leave(lobby: Match, person: Person, now: Moment, settings: Settings) -> Change | Refusal:
    """`person` gives his seat in the lobby up (its button, or /leave)."""
    seat = lobby.seat_of(person.user_id)
    if seat is None:
        return Refusal("not_in_game")
    left = lobby.model_copy(deep=True)
    del left.seats[seat]
    return _edited(left, now, settings)


def press(match: Match | None, ask: LobbyPress, now: Moment, settings: Settings) -> Outcome:
    """A lobby button. Any press whose action still makes sense works, whatever revision
    of the lobby it was made on; a press that no longer does is refused. An option set
    already (pressed twice) is UNCHANGED."""
    lobby = _the_lobby(match, ask.game_id)
    if isinstance(lobby, Refusal):
        return lobby
    if ask.action is LobbyAction.LEAVE:
        return leave(lobby, ask.person, now, settings)
    if ask.action is LobbyAction.CANCEL:
        return _cancel(lobby, ask.person, ask.is_admin)
    if ask.person.user_id != lobby.creator_id:
        return Refusal("creator_only")
    if ask.action is LobbyAction.START:
        return _start(lobby, now, settings)
    edited = _set(lobby, ask.action, ask.value)
    if not isinstance(edited, Match):
        return edited
    return _edited(edited, now, settings)


@dataclass(frozen=True)
class Rematch:
    """The rematch button of a finished game, pressed by `person`; the new lobby's id and
    seed, drawn by the caller."""

    game_id: str
    person: Person
    new_id: str
    seed: int


def rematch(match: Match | None, ask: Rematch, now: Moment, settings: Settings) -> Outcome:
    """A new lobby with the same seats and options as the finished game.

    Only its players may open it, the first to press being its creator; a player who
    left the game is not seated again (he may join like anyone).
    """
    person = ask.person
    if match is None or match.id != ask.game_id:
        seated = match is not None and match.seat_of(person.user_id) is not None
        if match is not None and match.status == "lobby" and seated:
            return Refusal("rematch_open")  # another player pressed first: he sits there
        return Refusal("game_gone")
    if match.active:
        return Refusal("game_running")
    played = match.seat_of(person.user_id)
    if played is None:
        return Refusal("rematch_players_only")
    if match.seats[played].left:
        return Refusal("rematch_left")
    seats = [
        computer_seat(s.number, s.level, s.lang)
        if s.user_id is None
        else Seat(name=s.name, user_id=s.user_id, lang=s.lang)
        for s in match.seats
        if not s.left
    ]
    lobby = Match(
        id=ask.new_id,
        chat_id=match.chat_id,
        thread_id=match.thread_id,
        variant=match.variant,
        creator_id=person.user_id,
        creator_name=person.name,
        seats=seats,
        target=match.target,
        turn_seconds=match.turn_seconds,
        seed=ask.seed,
        chat_title=match.chat_title,
        lang=match.lang,
        topic=match.topic,
    )
    _touch(lobby, now, settings)
    return Change(lobby, None)


# -- the parts ------------------------------------------------------------------------


def _the_lobby(match: Match | None, game_id: str) -> Match | Refusal:
    if match is None or match.id != game_id:
        return Refusal("game_gone")
    if match.status != "lobby":
        return Refusal("game_started" if match.status == "playing" else "game_gone")
    return match


def _take_over(
    match: Match, creator: Person, reachable: bool, now: Moment, settings: Settings
) -> Change:
    """`creator` runs the lobby now (and sits in it, if the bot can write to him)."""
    taken = match.model_copy(deep=True)
    taken.creator_id, taken.creator_name = creator.user_id, creator.name
    seated = taken.seat_of(creator.user_id) is not None
    if reachable and not seated and len(taken.seats) < MAX_SEATS:
        taken.seats.append(creator.seat())
    return _edited(taken, now, settings)


def _open_practice(lobby: Match, person: Person) -> None:
    """A practice lobby: its person, one strong computer, no clock (he may change them)."""
    lobby.lang = person.lang  # a private chat speaks its person's language
    lobby.turn_seconds = NO_CLOCK
    lobby.seats.append(person.seat())
    lobby.seats.append(computer_seat(1, "strong", person.lang))


def computer_seat(number: int, level: Level, lang: str) -> Seat:
    """Computer player `number` (from 1): named where it is shown, in that moment's language."""
    return Seat(name="", number=number, level=level, lang=lang, computer=True)


def _cancel(lobby: Match, person: Person, is_admin: bool) -> Change | Refusal:
    if person.user_id != lobby.creator_id and not is_admin:
        return Refusal("creator_or_admin_only")
    cancelled = lobby.model_copy(deep=True)
    cancelled.status, cancelled.ended, cancelled.deadline = "cancelled", "stopped", None
    cancelled.stopped_by = person.name
    cancelled.lobby_rev += 1
    return Change(cancelled)


def _start(lobby: Match, now: Moment, settings: Settings) -> Change | Refusal:
    short = not MIN_SEATS <= len(lobby.seats) <= MAX_SEATS
    # A group's creator without a seat: the bot may not write to him yet.
    unseated = not lobby.practice and lobby.seat_of(lobby.creator_id) is None
    if unseated and (short or not any(seat.human for seat in lobby.seats)):
        return Refusal("join_first")  # Join, a link into the bot's private chat, seats him
    if short:
        return Refusal("need_players")
    if not any(seat.human for seat in lobby.seats):
        return Refusal("need_human")
    players = [seat.player for seat in lobby.seats]
    game = Game.new(lobby.variant, players, seed=lobby.seed, target=lobby.target)
    started = lobby.model_copy(deep=True)
    started.status = "playing"
    started.lobby_rev += 1
    started.deadline = turn_deadline(started, game, now, settings)
    return Change(started, game)


def _set(lobby: Match, action: LobbyAction, value: str) -> Match | Unchanged | Refusal:
    """The lobby with the option its creator pressed (a copy), before it is touched."""
    if action is LobbyAction.REMOVE_COMPUTER:
        computers = [i for i, seat in enumerate(lobby.seats) if seat.user_id is None]
        if not computers:
            return Refusal("no_computer")
        edited = lobby.model_copy(deep=True)
        del edited.seats[computers[-1]]
        return edited
    if action in (LobbyAction.ADD_EASY, LobbyAction.ADD_STRONG):
        if len(lobby.seats) >= MAX_SEATS:
            return Refusal("lobby_full")
        number = 1 + sum(1 for seat in lobby.seats if seat.user_id is None)
        level: Level = "easy" if action is LobbyAction.ADD_EASY else "strong"
        edited = lobby.model_copy(deep=True)
        edited.seats.append(computer_seat(number, level, lobby.lang))
        return edited
    if action is LobbyAction.VARIANT:
        if value not in VARIANTS:
            return Refusal("stale_button")
        if value == lobby.variant:
            return UNCHANGED
        return lobby.model_copy(update={"variant": value, "target": None}, deep=True)
    if action is LobbyAction.TARGET:
        choices = target_choices(lobby.variant, len(lobby.seats))
        if not choices:
            return Refusal("no_target_option")
        chosen = int(value) if value.isdigit() else -1
        if chosen not in choices:
            return Refusal("stale_button")
        target = None if chosen == choices[0] else chosen
        if target == lobby.target:
            return UNCHANGED
        return lobby.model_copy(update={"target": target}, deep=True)
    if action is LobbyAction.TIME:
        seconds = int(value) if value.isdigit() else -1
        if seconds not in TURN_CHOICES:
            return Refusal("stale_button")
        if seconds == lobby.turn_seconds:
            return UNCHANGED
        return lobby.model_copy(update={"turn_seconds": seconds}, deep=True)
    return Refusal("stale_button")  # no lobby button asks for anything else


def _edited(lobby: Match, now: Moment, settings: Settings) -> Change:
    """`lobby` (the rule's own copy), changed as its message shows: a new revision, and
    its idle time starts again."""
    lobby.lobby_rev += 1
    _touch(lobby, now, settings)
    return Change(lobby)


def _touch(lobby: Match, now: Moment, settings: Settings) -> None:
    """The lobby changed: it closes after `lobby_idle_seconds` more without a change."""
    lobby.lobby_touched = now.at
    lobby.deadline = now.at + settings.lobby_idle_seconds
